"""TensorIR schedules from Python, shaped like TVM's `tvm.tir.Schedule`.

    sch = mlc.tir.Schedule(mod)
    block_Y = sch.get_block("Y", func_name="mm_relu")
    i, j, k = sch.get_loops(block_Y)
    j0, j1 = sch.split(j, factors=[None, 4])
    sch.reorder(j0, k, j1)
    sch.reverse_compute_at(sch.get_block("C", func_name="mm_relu"), j0)
    sch.decompose_reduction(block_Y, k)
    print(sch.mod)      # the scheduled module
    print(sch.trace)    # the schedule as a transform script

Every primitive appends one `transform.tensorir.*` op to a transform script
(the trace) and replays the script on the original module with
`mlc-opt --transform-interpreter`, so a primitive whose preconditions do not
hold raises ScheduleError with mlc's diagnostic right away and leaves the
schedule as it was. The trace is an ordinary transform script: `mlc-opt
--transform-preload-library=transform-library-paths=trace.mlir
--transform-interpreter` applies it to the module again.
"""

import os
import re
import tempfile

from . import tools
from .ir import Module


class ScheduleError(RuntimeError):
    """A schedule primitive failed; the message is mlc's diagnostic."""


class BlockRV:
    """A handle to a tensorir.block (TVM's BlockRV)."""

    def __init__(self, handle, name, func_name=None):
        self.handle = handle
        self.name = name
        self.func_name = func_name

    def __repr__(self):
        return "BlockRV(%s, %r)" % (self.handle, self.name)


class LoopRV:
    """A handle to a tensorir.for loop (TVM's LoopRV)."""

    def __init__(self, handle):
        self.handle = handle

    def __repr__(self):
        return "LoopRV(%s)" % self.handle


class Trace:
    """The primitives applied so far, as a transform script."""

    def __init__(self, ops):
        self.ops = list(ops)

    def as_script(self):
        body = "".join("    %s\n" % op for op in self.ops)
        return ("module attributes {transform.with_named_sequence} {\n"
                "  transform.named_sequence @__transform_main("
                "%root: !transform.any_op {transform.readonly}) {\n"
                + body + "    transform.yield\n  }\n}\n")

    def show(self):
        print(self.as_script(), end="")

    def __str__(self):
        return self.as_script()


_ANY = "!transform.any_op"


def _types(n):
    return ", ".join([_ANY] * n)


def _functional(num_operands, num_results):
    results = _types(num_results)
    if num_results != 1:
        results = "(" + results + ")"
    return "(%s) -> %s" % (_types(num_operands), results)


class Schedule:
    """A schedule of the tensorir.prim_funcs of `mod` (an mlc.Module or
    module text)."""

    def __init__(self, mod):
        self._original = mod if isinstance(mod, Module) else Module(str(mod))
        self._ops = []
        self._current = self._original
        self._counter = 0

    @property
    def mod(self):
        """The scheduled module."""
        return self._current

    @property
    def trace(self):
        """The applied primitives as a transform script."""
        return Trace(self._ops)

    # -- blocks and loops --------------------------------------------------

    def get_block(self, name, func_name=None):
        """The block named `name` (in function `func_name` when given; else
        the name must be unique in the module)."""
        ops = []
        scope = "%root"
        if func_name is not None:
            scope = self._fresh("f")
            ops.append('%s = transform.structured.match ops{["tensorir.prim_func"]} '
                       'attributes {sym_name = "%s"} in %%root : %s'
                       % (scope, func_name, _functional(1, 1)))
        block = self._fresh("b")
        ops.append('%s = transform.tensorir.get_block "%s" in %s : %s'
                   % (block, name, scope, _functional(1, 1)))
        self._apply(ops)
        return BlockRV(block, name, func_name)

    def get_loops(self, block):
        """The loops around `block`, outermost first."""
        # The printed module tells the count for a named block; the op's own
        # error tells it for any other (e.g. a copy block of cache_read).
        count = _count_loops(self._current.text, block.name, block.func_name)
        try:
            loops = self._get_loops(block, count)
        except ScheduleError as e:
            match = re.search(r"has (\d+) loops but the op has \d+ results", str(e))
            if not match:
                raise
            loops = self._get_loops(block, int(match.group(1)))
        return [LoopRV(l) for l in loops]

    def _get_loops(self, block, count):
        loops = [self._fresh("l") for _ in range(count)]
        results = ", ".join(loops) + " = " if loops else ""
        self._apply(["%stransform.tensorir.get_loops %s : %s"
                     % (results, block.handle, _functional(1, count))])
        return loops

    # -- loop transformations ----------------------------------------------

    def split(self, loop, factors):
        """Splits `loop` into len(factors) loops; one factor may be None
        (inferred)."""
        if not factors:
            raise ScheduleError("split needs at least one factor")
        if sum(f is None for f in factors) > 1:
            raise ScheduleError("split: at most one factor may be None, got %s"
                                % (list(factors),))
        text = ", ".join("?" if f is None else str(int(f)) for f in factors)
        loops = [self._fresh("l") for _ in factors]
        self._apply(["%s = transform.tensorir.split %s by [%s] : %s"
                     % (", ".join(loops), loop.handle, text,
                        _functional(1, len(loops)))])
        return [LoopRV(l) for l in loops]

    def fuse(self, *loops):
        """Fuses a perfectly nested chain of loops into one."""
        fused = self._fresh("l")
        self._apply(["%s = transform.tensorir.fuse %s : %s"
                     % (fused, _handles(loops), _functional(len(loops), 1))])
        return LoopRV(fused)

    def reorder(self, *loops):
        """Reorders loops of one perfectly nested chain."""
        self._apply(["transform.tensorir.reorder %s : %s"
                     % (_handles(loops), _types(len(loops)))])

    def tile(self, loops, sizes):
        """mlc's shorthand: splits each loop by its size and reorders the
        outer parts first; returns outer loops then inner loops."""
        tiled = [self._fresh("l") for _ in range(2 * len(loops))]
        self._apply(["%s = transform.tensorir.tile %s by [%s] : %s"
                     % (", ".join(tiled), _handles(loops),
                        ", ".join(str(int(s)) for s in sizes),
                        _functional(len(loops), len(tiled)))])
        return [LoopRV(l) for l in tiled]

    def parallel(self, loop):
        self._loop_kind("parallel", loop)

    def vectorize(self, loop):
        self._loop_kind("vectorize", loop)

    def unroll(self, loop):
        self._loop_kind("unroll", loop)

    def bind(self, loop, thread_axis):
        """Binds `loop` to a thread axis such as "blockIdx.x"."""
        self._apply(['transform.tensorir.bind %s "%s" : %s'
                     % (loop.handle, thread_axis, _ANY)])

    # -- block transformations ---------------------------------------------

    def decompose_reduction(self, block, loop):
        """Moves the block's init out as its own block before `loop`."""
        init = self._fresh("b")
        # As in TVM, the block becomes "<name>_update" next to "<name>_init".
        self._apply(["%s = transform.tensorir.decompose_reduction %s at %s : %s"
                     % (init, block.handle, loop.handle, _functional(2, 1))])
        init_name = _suffixed(block.name, "_init")
        block.name = _suffixed(block.name, "_update")
        return BlockRV(init, init_name, block.func_name)

    def compute_at(self, block, loop):
        self._apply(["transform.tensorir.compute_at %s at %s : %s, %s"
                     % (block.handle, loop.handle, _ANY, _ANY)])

    def reverse_compute_at(self, block, loop):
        self._apply(["transform.tensorir.reverse_compute_at %s at %s : %s, %s"
                     % (block.handle, loop.handle, _ANY, _ANY)])

    def compute_inline(self, block):
        self._apply(["transform.tensorir.compute_inline %s : %s"
                     % (block.handle, _ANY)])

    def reverse_compute_inline(self, block):
        self._apply(["transform.tensorir.reverse_compute_inline %s : %s"
                     % (block.handle, _ANY)])

    def cache_read(self, block, read_buffer_index, storage_scope):
        """`block` reads its read buffer #index through a copy; returns the
        copy block ("<buffer>_<scope>")."""
        return self._cache("cache_read", block, read_buffer_index, storage_scope)

    def cache_write(self, block, write_buffer_index, storage_scope):
        """`block` writes its write buffer #index through a copy; returns the
        copy block ("<buffer>_<scope>")."""
        return self._cache("cache_write", block, write_buffer_index, storage_scope)

    def rfactor(self, loop, factor_axis=0):
        """Factors the reduction along `loop` into a new block (factor axis
        0 only)."""
        if factor_axis != 0:
            raise ScheduleError("rfactor: only factor_axis=0 is supported, got %d"
                                % factor_axis)
        rf = self._fresh("b")
        self._apply(["%s = transform.tensorir.rfactor %s : %s"
                     % (rf, loop.handle, _functional(1, 1))])
        return BlockRV(rf, None, None)

    def pad_einsum(self, block, padding):
        """Pads the einsum `block`'s iteration domain up to multiples of
        `padding` (one factor per iteration variable): the block reads
        zero-padded copies of its inputs and writes a padded copy of its
        output, copied back after it."""
        factors = [int(f) for f in padding]
        self._apply(["transform.tensorir.pad_einsum %s [%s] : %s"
                     % (block.handle, ", ".join(str(f) for f in factors), _ANY)])

    def transform_block_layout(self, block, index_map):
        """Fuses `block`'s iteration variables as `index_map` says: an MLIR
        affine map from the old variables to the new ones, each result a
        row-major fusion, e.g.
        "affine_map<(n, y, x, f) -> (n * 196 + y * 14 + x, f)>" (TVM takes
        a lambda; mlc takes the map's text)."""
        self._apply(["transform.tensorir.transform_block_layout %s %s : %s"
                     % (block.handle, index_map, _ANY)])

    def reindex(self, block, buffer_index):
        """`block` accesses its buffer `buffer_index` = ("read" | "write",
        i) through a new buffer indexed by its iteration variables; returns
        the copy block ("<buffer>_reindex")."""
        kind, index = buffer_index
        if kind not in ("read", "write"):
            raise ScheduleError('reindex: the buffer index type must be '
                                '"read" or "write", got %r' % (kind,))
        copy = self._fresh("b")
        self._apply(['%s = transform.tensorir.reindex %s "%s" %d : %s'
                     % (copy, block.handle, kind, int(index),
                        _functional(1, 1))])
        return BlockRV(copy, None, block.func_name)

    # -- implementation ----------------------------------------------------

    def _cache(self, primitive, block, buffer_index, storage_scope):
        copy = self._fresh("b")
        self._apply(['%s = transform.tensorir.%s %s %d "%s" : %s'
                     % (copy, primitive, block.handle, buffer_index,
                        storage_scope, _functional(1, 1))])
        return BlockRV(copy, None, block.func_name)

    def _loop_kind(self, kind, loop):
        self._apply(["transform.tensorir.%s %s : %s" % (kind, loop.handle, _ANY)])

    def _fresh(self, prefix):
        self._counter += 1
        return "%%%s%d" % (prefix, self._counter)

    def _apply(self, new_ops):
        """Replays the trace plus `new_ops` on the original module; keeps
        them only if that succeeds."""
        ops = self._ops + new_ops
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "trace.mlir")
            with open(script, "w") as f:
                f.write(Trace(ops).as_script())
            try:
                text = tools.run("mlc-opt", [
                    "--transform-preload-library=transform-library-paths=" + script,
                    "--transform-interpreter"], input_text=self._original.text)
            except tools.ToolError as e:
                raise ScheduleError(_diagnostics(e.stderr, script)) from None
        self._ops = ops
        self._current = Module(text)


def _suffixed(name, suffix):
    return None if name is None else name + suffix


def _handles(rvs):
    return ", ".join(rv.handle for rv in rvs)


def _diagnostics(stderr, script):
    """mlc-opt's errors, without the temporary script's path and without
    the generic-form dump of the failing op that the notes carry."""
    lines = []
    for line in stderr.replace(script, "<trace>").splitlines():
        if "note: see current operation" in line:
            break
        lines.append(line)
    return "\n".join(lines).strip()


def _count_loops(text, block_name, func_name):
    """The number of tensorir.for loops around the block named
    `block_name` (in function `func_name` if given) up to the enclosing
    block or function, as the printed module nests them; 0 if unknown."""
    if block_name is None:
        return 0
    stack = []
    in_func = func_name is None
    for line in text.splitlines():
        stripped = line.strip()
        function = re.match(r"tensorir\.prim_func (?:\w+ )*@([\w$.-]+)", stripped)
        if function and func_name is not None:
            in_func = function.group(1) == func_name
        if stripped.startswith("}"):
            if stack:
                stack.pop()
            if stripped.endswith("{"):  # } else {
                stack.append("other")
            continue
        match = re.search(r'tensorir\.block "([^"]*)"', stripped)
        if in_func and match and match.group(1) == block_name:
            count = 0
            for kind in reversed(stack):
                if kind != "for":
                    break
                count += 1
            return count
        if stripped.endswith("{"):
            stack.append("for" if stripped.startswith("tensorir.for") else "other")
    return 0

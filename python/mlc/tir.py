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
(the trace) and replays the script on the original module with the
transform interpreter, in process through mlc's C API (mlc._capi; the
module is parsed once) or, without libMLC-C.so, with
`mlc-opt --transform-interpreter`. A primitive whose preconditions do not
hold raises ScheduleError with mlc's diagnostic right away and leaves the
schedule as it was. The trace is an ordinary transform script: `mlc-opt
--transform-preload-library=transform-library-paths=trace.mlir
--transform-interpreter` applies it to the module again.

Stochastic schedules (TVM's sampling instructions) draw from the schedule's
random state (`Schedule(mod, seed=...)`); the trace records each decision,
so it replays deterministically and a search can change decisions
(`Trace.with_decisions`, `Schedule.from_trace`):

    j_factors = sch.sample_perfect_tile(j, n=2, max_innermost_factor=16)
    j0, j1 = sch.split(j, factors=j_factors)
"""

import os
import random
import re
import subprocess
import tempfile

from . import _capi, tools
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


class ExprRV:
    """An integer a sampling instruction returned (TVM's ExprRV): a
    `!transform.param<i64>` handle in the trace. `Schedule.get(rv)` or
    `int(rv)` is its value."""

    def __init__(self, handle, value):
        self.handle = handle
        self.value = value

    def __int__(self):
        return int(self.value)

    def __repr__(self):
        return "ExprRV(%s = %d)" % (self.handle, self.value)


class FuncRV:
    """A handle to a tensorir.prim_func (for `Schedule.annotate`)."""

    def __init__(self, handle, name):
        self.handle = handle
        self.name = name

    def __repr__(self):
        return "FuncRV(%s, %r)" % (self.handle, self.name)


_PARAM = "!transform.param<i64>"


class Sample:
    """A sampling instruction of a trace and its decision: for
    "sample_perfect_tile" the factors, for "sample_categorical" the index
    of the chosen candidate, for "sample_compute_location" the index of
    the loop among the block's compute locations (-1: where it is).
    `seed` stands in for a decision not known yet (the op then draws it).
    `num_locations` is how many compute locations the block had when it
    was sampled (None when the trace was parsed): a mutator's range."""

    def __init__(self, kind, results, operand=None, max_innermost_factor=0,
                 candidates=None, probs=None, decision=None, seed=None,
                 num_locations=None):
        self.kind = kind
        self.results = list(results)
        self.operand = operand
        self.max_innermost_factor = max_innermost_factor
        self.candidates = candidates
        self.probs = probs
        self.decision = decision
        self.seed = seed
        self.num_locations = num_locations

    def with_decision(self, decision):
        return Sample(self.kind, self.results, self.operand,
                      self.max_innermost_factor, self.candidates, self.probs,
                      decision, num_locations=self.num_locations)

    def __str__(self):
        if self.decision is not None:
            if self.kind == "sample_perfect_tile":
                chosen = "decision = array<i64: %s>" % ", ".join(
                    str(int(f)) for f in self.decision)
            else:
                chosen = "decision = %d : i64" % self.decision
        else:
            chosen = "seed = %d : i64" % self.seed
        results = ", ".join(self.results)
        if self.kind == "sample_compute_location":
            return ("%s = transform.tensorir.sample_compute_location %s {%s} : %s"
                    % (results, self.operand, chosen, _functional(1, 1)))
        if self.kind == "sample_perfect_tile":
            types = ", ".join([_PARAM] * len(self.results))
            if len(self.results) != 1:
                types = "(%s)" % types
            return ("%s = transform.tensorir.sample_perfect_tile %s "
                    "{max_innermost_factor = %d : i64, %s} : (%s) -> %s"
                    % (results, self.operand, self.max_innermost_factor,
                       chosen, _ANY, types))
        return ("%s = transform.tensorir.sample_categorical [%s] probs [%s] "
                "{%s} : %s" % (results, ", ".join(str(int(c)) for c in self.candidates),
                               ", ".join(repr(float(p)) for p in self.probs),
                               chosen, _PARAM))


class Trace:
    """The primitives applied so far, as a transform script. Its ops are
    strings, and Sample objects for the sampling instructions."""

    def __init__(self, ops):
        self.ops = list(ops)

    @property
    def decisions(self):
        """The decisions of the sampling instructions, in order."""
        return [op.decision for op in self.ops if isinstance(op, Sample)]

    @property
    def samples(self):
        """The sampling instructions, in order."""
        return [op for op in self.ops if isinstance(op, Sample)]

    def with_decisions(self, decisions):
        """The same trace with the sampling instructions' decisions
        replaced, in order (TVM's Trace.with_decision, for all at once)."""
        decisions = list(decisions)
        if len(decisions) != len(self.samples):
            raise ValueError("%d decisions for %d sampling instructions"
                             % (len(decisions), len(self.samples)))
        ops = []
        for op in self.ops:
            if isinstance(op, Sample):
                op = op.with_decision(decisions.pop(0))
            ops.append(op)
        return Trace(ops)

    @classmethod
    def parse(cls, script):
        """The trace of a transform script that as_script wrote (e.g. a
        tuning record's), sampling instructions as Sample objects."""
        match = re.search(r"transform\.named_sequence @__transform_main\([^)]*\)\s*\{"
                          r"(.*)transform\.yield", script, re.S)
        if not match:
            raise ValueError("not a trace: no transform.named_sequence @__transform_main")
        ops = []
        for line in match.group(1).strip().splitlines():
            line = line.strip()
            if line:
                ops.append(_parse_sample(line) or line)
        return cls(ops)

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


def _parse_sample(line):
    """A Sample for a sampling instruction's line (with a decision), else
    None."""
    tile = re.match(r"(.*?) = transform\.tensorir\.sample_perfect_tile (\S+) "
                    r"\{max_innermost_factor = (\d+) : i64, decision = array<i64: ([\d, ]+)>\}",
                    line)
    if tile:
        return Sample("sample_perfect_tile", tile.group(1).split(", "), tile.group(2),
                      max_innermost_factor=int(tile.group(3)),
                      decision=[int(v) for v in tile.group(4).split(",")])
    location = re.match(r"(\S+) = transform\.tensorir\.sample_compute_location (\S+) "
                        r"\{decision = (-?\d+) : i64\}", line)
    if location:
        return Sample("sample_compute_location", [location.group(1)], location.group(2),
                      decision=int(location.group(3)))
    categorical = re.match(r"(\S+) = transform\.tensorir\.sample_categorical \[([^\]]*)\] "
                           r"probs \[([^\]]*)\] \{decision = (\d+) : i64\}", line)
    if categorical:
        return Sample("sample_categorical", [categorical.group(1)],
                      candidates=[int(v) for v in categorical.group(2).split(",")],
                      probs=[float(v) for v in categorical.group(3).split(",")],
                      decision=int(categorical.group(4)))
    return None


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

    def __init__(self, mod, seed=None):
        self._original = mod if isinstance(mod, Module) else Module(str(mod))
        self._parsed = None  # the original in the C API's context
        self._ops = []
        self._current = self._original
        self._counter = 0
        self._rng = random.Random(seed)

    @classmethod
    def from_trace(cls, mod, trace):
        """The schedule that `trace` (with its decisions) makes of `mod`,
        replayed at once."""
        sch = cls(mod)
        sch._apply(list(trace.ops))
        handles = [int(n) for n in re.findall(r"%[a-z]+(\d+)", trace.as_script())]
        sch._counter = max(handles, default=0)
        return sch

    @classmethod
    def from_script(cls, mod, script):
        """The schedule that a trace script (Trace.as_script) makes of
        `mod`."""
        return cls.from_trace(mod, Trace.parse(script))

    def seed(self, seed):
        """Restarts the random state of the sampling instructions."""
        self._rng = random.Random(seed)

    def fork_seed(self):
        """A fresh seed drawn from the schedule's random state."""
        return self._rng.randrange(1, 2 ** 62)
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

    def get_prim_func(self, func_name=None):
        """A handle to the prim_func `func_name` (the only one when not
        given), for annotate."""
        if func_name is None:
            names = re.findall(r"tensorir\.prim_func (?:\w+ )*@([\w$.-]+)",
                               self._current.text)
            if len(names) != 1:
                raise ScheduleError("get_prim_func: the module has %d prim_funcs; "
                                    "pass func_name" % len(names))
            func_name = names[0]
        func = self._fresh("f")
        self._apply(['%s = transform.structured.match ops{["tensorir.prim_func"]} '
                     'attributes {sym_name = "%s"} in %%root : %s'
                     % (func, func_name, _functional(1, 1))])
        return FuncRV(func, func_name)

    def annotate(self, target, ann_key, ann_val):
        """Sets attribute `ann_key` of the prim_func `target` (a FuncRV) to
        an integer (an int or an ExprRV) or a string, e.g. the default
        schedule's knobs "mlc.schedule.k_tile"."""
        if not isinstance(target, FuncRV):
            raise ScheduleError("annotate: only prim_func handles (get_prim_func) "
                                "are supported, got %r" % (target,))
        ops = []
        if isinstance(ann_val, ExprRV):
            value, value_type = ann_val.handle, _PARAM
        elif isinstance(ann_val, str):
            value = self._fresh("v")
            value_type = "!transform.any_param"
            ops.append('%s = transform.param.constant "%s" -> %s'
                       % (value, ann_val, value_type))
        else:
            value, value_type = self._fresh("v"), _PARAM
            ops.append("%s = transform.param.constant %d : i64 -> %s"
                       % (value, int(ann_val), _PARAM))
        ops.append('transform.annotate %s "%s" = %s : %s, %s'
                   % (target.handle, ann_key, value, _ANY, value_type))
        self._apply(ops)

    # -- sampling ------------------------------------------------------------

    def sample_perfect_tile(self, loop, n, max_innermost_factor=16, decision=None):
        """n factors of the loop's extent, outermost first, whose product is
        the extent and whose innermost is at most max_innermost_factor (0:
        no limit); drawn from the random state unless `decision` is given.
        Returns n ExprRVs (split accepts them as factors)."""
        results = [self._fresh("v") for _ in range(int(n))]
        sample = Sample("sample_perfect_tile", results, loop.handle,
                        max_innermost_factor=int(max_innermost_factor or 0),
                        decision=None if decision is None else [int(d) for d in decision],
                        seed=self.fork_seed())
        if sample.decision is None:
            # The op draws the tiling (it knows the extent) and reports it.
            sample = sample.with_decision(
                self._read_params([sample], results, "sample_perfect_tile"))
        self._apply([sample])
        return [ExprRV(r, v) for r, v in zip(results, sample.decision)]

    def sample_categorical(self, candidates, probs, decision=None):
        """One of `candidates` (integers), drawn with the weights `probs`
        unless `decision` (an index) is given. Returns an ExprRV."""
        candidates = [int(c) for c in candidates]
        probs = [float(p) for p in probs]
        if decision is None:
            if len(probs) != len(candidates) or sum(probs) <= 0:
                raise ScheduleError("sample_categorical: %d probabilities for %d "
                                    "candidates" % (len(probs), len(candidates)))
            decision = self._rng.choices(range(len(candidates)), weights=probs)[0]
        result = self._fresh("v")
        sample = Sample("sample_categorical", [result], candidates=candidates,
                        probs=probs, decision=int(decision))
        self._apply([sample])
        return ExprRV(result, candidates[int(decision)])

    def sample_compute_location(self, block, decision=None):
        """A loop that compute_at may move `block` under (TVM's
        sch.sample_compute_location): the loop `decision` among the
        block's compute locations (collect_compute_locations, in pre-order),
        or -1 for where the block is; drawn uniformly among those unless
        given. Returns a LoopRV for compute_at (empty for -1: compute_at
        then leaves the block)."""
        count = self._num_compute_locations(block)
        if decision is None:
            decision = self._rng.randrange(-1, count)
        result = self._fresh("l")
        self._apply([Sample("sample_compute_location", [result], block.handle,
                            decision=int(decision), num_locations=count)])
        return LoopRV(result)

    def _num_compute_locations(self, block):
        locations, count = self._fresh("l"), self._fresh("v")
        (value,) = self._read_params([
            "%s = transform.tensorir.collect_compute_locations %s : %s"
            % (locations, block.handle, _functional(1, 1)),
            "%s = transform.num_associations %s : (%s) -> %s"
            % (count, locations, _ANY, _PARAM)], [count], "sample_compute_location")
        return value

    def _read_params(self, ops, params, what):
        """The integers that the `!transform.param<i64>` handles `params`
        hold after `ops` (applied to read them, not kept), reported as
        remarks."""
        marks = ['transform.debug.emit_param_as_remark %s, "mlc.decision" : %s'
                 % (p, _PARAM) for p in params]
        stderr = self._apply(list(ops) + marks, keep=False)
        values = [int(v) for v in re.findall(r"remark: mlc\.decision (-?\d+) : i64",
                                             stderr)]
        if len(values) != len(params):
            raise ScheduleError("%s: could not read the sampled values" % what)
        return values

    def get(self, rv):
        """The value of an ExprRV (TVM's sch.get)."""
        if isinstance(rv, ExprRV):
            return rv.value
        raise TypeError("get: expected an ExprRV, got %r" % (rv,))

    # -- loop transformations ----------------------------------------------

    def split(self, loop, factors):
        """Splits `loop` into len(factors) loops; one factor may be None
        (inferred); factors may be ExprRVs of sampling instructions."""
        if not factors:
            raise ScheduleError("split needs at least one factor")
        if sum(f is None for f in factors) > 1:
            raise ScheduleError("split: at most one factor may be None, got %s"
                                % (list(factors),))
        text, param_types = _factors(factors)
        loops = [self._fresh("l") for _ in factors]
        operand_types = ", ".join([_ANY] + param_types)
        results = _types(len(loops))
        if len(loops) != 1:
            results = "(%s)" % results
        self._apply(["%s = transform.tensorir.split %s by [%s] : (%s) -> %s"
                     % (", ".join(loops), loop.handle, text, operand_types,
                        results)])
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
        """mlc's shorthand: splits each loop by its size (an int or an
        ExprRV of a sampling instruction) and reorders the outer parts
        first; returns outer loops then inner loops."""
        tiled = [self._fresh("l") for _ in range(2 * len(loops))]
        text, param_types = _factors(sizes)
        operand_types = ", ".join([_ANY] * len(loops) + param_types)
        self._apply(["%s = transform.tensorir.tile %s by [%s] : (%s) -> (%s)"
                     % (", ".join(tiled), _handles(loops), text, operand_types,
                        _types(len(tiled)))])
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

    def _apply(self, new_ops, keep=True):
        """Replays the trace plus `new_ops` on the original module; keeps
        them (with `keep`) only if that succeeds. Returns mlc-opt's
        stderr (remarks)."""
        ops = self._ops + new_ops
        if _capi.available():
            try:
                if self._parsed is None:
                    self._parsed = _capi.ParsedModule(self._original.text)
            except _capi.CAPIError as e:
                raise ScheduleError(_diagnostics(str(e), "<trace>"))
            text, stderr = self._parsed.apply_transform_script(Trace(ops).as_script())
            if text is None:
                raise ScheduleError(_diagnostics(stderr, "<trace>"))
        else:
            text, stderr = self._apply_with_tool(ops)
        if keep:
            self._ops = ops
            self._current = Module(text)
        return stderr

    def _apply_with_tool(self, ops):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "trace.mlir")
            with open(script, "w") as f:
                f.write(Trace(ops).as_script())
            proc = subprocess.run(
                [tools.find_tool("mlc-opt"),
                 "--transform-preload-library=transform-library-paths=" + script,
                 "--transform-interpreter"], input=self._original.text,
                capture_output=True, text=True)
            if proc.returncode != 0:
                raise ScheduleError(_diagnostics(proc.stderr, script))
        return proc.stdout, proc.stderr


def _factors(factors):
    """split's and tile's factor list (`?` for None, a param handle for an
    ExprRV) and the types of the param operands."""
    text = ", ".join("?" if f is None else f.handle if isinstance(f, ExprRV)
                     else str(int(f)) for f in factors)
    return text, [_PARAM for f in factors if isinstance(f, ExprRV)]


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

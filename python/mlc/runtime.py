"""Loading mlc-compile's shared libraries, like TVM's `tvm.runtime.load_module`.

    mod = mlc.runtime.load_module("model.so")     # mlc-compile model.mlir -o model.so
    out = mod["main"](data)                        # numpy in, numpy out
    mod["main"](data, out)                         # TVM style: writes `out` in place
    timer = mod.time_evaluator("main", number=10, repeat=3)
    print(timer(data))                             # mean/median/min/max/std

Needs numpy and ctypes only: no MLIR, LLVM or mlc tools. Every library that
mlc-compile writes exports `const char *mlc_module_metadata(void)`, a JSON
description of its entries: each entry's name, its C symbol
(`_mlir_ciface_<name>`) and its arguments in call order, each with a name, a
numpy dtype, a shape (-1 for a dynamic dimension, null for a scalar) and a
kind (input, output or scalar). Calls are checked against it; arrays are
passed as strided memref descriptors, scalars by value, and results are
out-parameters after the inputs.

A library built with `--target=cuda` takes device pointers and exports a
small CUDA runtime (`mlc_cuda_*`). Numpy arrays are copied to the GPU before
a call and results copied back after it; objects with
`__cuda_array_interface__` (torch CUDA tensors, cupy arrays) are passed as
they are, outputs too; their data must be 16-byte aligned, as allocations
are (a view at an odd offset is rejected). All work runs on the legacy default CUDA stream, so
it is ordered with torch's default stream.
"""

import collections
import ctypes
import json
import os
import time

import numpy as np

# Bytes that device buffers passed to a CUDA library must be aligned to.
GPU_BUFFER_ALIGNMENT = 16


def load_module(path):
    """Loads a shared library written by mlc-compile (tvm.runtime.load_module)."""
    return Module(path)


class BenchmarkResult:
    """Times of one time_evaluator run, in seconds (TVM's BenchmarkResult):
    `results` holds each repeat's mean time per call."""

    def __init__(self, results):
        self.results = tuple(results)
        self.mean = float(np.mean(self.results))
        self.median = float(np.median(self.results))
        self.min = float(np.min(self.results))
        self.max = float(np.max(self.results))
        self.std = float(np.std(self.results))

    def __repr__(self):
        return ("BenchmarkResult(mean=%r, median=%r, min=%r, max=%r, std=%r, results=%r)"
                % (self.mean, self.median, self.min, self.max, self.std, self.results))

    def __str__(self):
        names = ("mean (ms)", "median (ms)", "max (ms)", "min (ms)", "std (ms)")
        values = (self.mean, self.median, self.max, self.min, self.std)
        return ("Execution time summary:\n" + " ".join("%12s" % n for n in names) + "\n"
                + " ".join("%12.4f" % (v * 1e3) for v in values))


class Module:
    """A loaded library (TVM's runtime.Module): `mod[name]` is an entry,
    `metadata` the library's JSON description, `target` "cpu" or "cuda"."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        try:
            self._lib = ctypes.CDLL(self.path)
        except OSError as err:
            raise OSError("cannot load %s: %s" % (path, err)) from err
        try:
            read_metadata = self._lib.mlc_module_metadata
        except AttributeError:
            raise ValueError("%s exports no mlc_module_metadata: it was not written by "
                             "mlc-compile, or by an older one" % path) from None
        read_metadata.restype = ctypes.c_char_p
        read_metadata.argtypes = []
        self.metadata = json.loads(read_metadata().decode())
        if self.metadata.get("version") != 1:
            raise ValueError("%s: metadata version %r is not supported (this runtime "
                             "reads version 1)" % (path, self.metadata.get("version")))
        self.target = self.metadata["target"]
        if self.target not in ("cpu", "cuda"):
            raise ValueError("%s: unknown target %r" % (path, self.target))
        self._entries = {e["name"]: e for e in self.metadata["entries"]}
        self._functions = {}
        self._cuda = _CudaRuntime(self._lib, path) if self.target == "cuda" else None

    @property
    def entry_names(self):
        """The names of the library's entries, in the library's order."""
        return list(self._entries)

    @property
    def device_name(self):
        """The GPU's name for target cuda (initializing CUDA; RuntimeError
        when there is no device), "cpu" for target cpu."""
        if self._cuda is None:
            return "cpu"
        self._cuda.ensure_initialized()
        return (self._cuda.device_name() or b"").decode()

    def get_function(self, name):
        """The entry `name` as a callable Function (Module.get_function)."""
        if name not in self._entries:
            raise AttributeError("%s has no entry %r; its entries: %s"
                                 % (os.path.basename(self.path), name,
                                    ", ".join(self._entries) or "none"))
        if name not in self._functions:
            self._functions[name] = Function(self, self._entries[name])
        return self._functions[name]

    def __getitem__(self, name):
        return self.get_function(name)

    def time_evaluator(self, func_name, number=10, repeat=1, min_repeat_ms=0,
                       f_preproc=""):
        """Returns f(*args) -> BenchmarkResult, timing entry `func_name` as
        TVM's time_evaluator does: one untimed call, then `repeat` times
        `number` calls; each repeat's result is its mean time per call. A
        repeat shorter than `min_repeat_ms` grows `number` (by at least the
        golden ratio) and runs again. `args` are those of the entry (inputs,
        and optionally outputs, which are written). Target cpu times with
        time.perf_counter; target cuda with CUDA events on the default
        stream, numpy inputs copied to the GPU once before the timing.

        `f_preproc="cache_flush_cpu_non_first_arg"` (TVM's name; cpu only):
        every argument but the first is cold in the L2 cache at each call,
        as a kernel's weights are in a model while its input was just
        written by the previous kernel. TVM flushes them with clflush; here
        the calls rotate among copies of them that together span at least
        four times the L2 cache (the first copy is `args`' own)."""
        if number < 1 or repeat < 1:
            raise ValueError("time_evaluator needs number >= 1 and repeat >= 1")
        if f_preproc not in ("", "cache_flush_cpu_non_first_arg"):
            raise ValueError("unknown f_preproc %r (expected '' or "
                             "'cache_flush_cpu_non_first_arg')" % f_preproc)
        function = self.get_function(func_name)
        cold = bool(f_preproc)
        if cold and self._cuda is not None:
            raise ValueError("f_preproc %r is for target cpu" % f_preproc)

        def evaluator(*args):
            return function._time(args, number, repeat, min_repeat_ms, cold)

        return evaluator

    def __repr__(self):
        return "Module(%r, target=%r, entries=%r)" % (self.path, self.target,
                                                       self.entry_names)


# name: the C identifier; param: the name the parameter is bound by
# (relay.name / relax.name / tensorir.name, as mlc-run binds it).
_Arg = collections.namedtuple("_Arg", "name dtype shape kind param")

_SCALAR_CTYPES = {
    "bool": ctypes.c_bool, "int8": ctypes.c_int8, "int16": ctypes.c_int16,
    "int32": ctypes.c_int32, "int64": ctypes.c_int64, "uint8": ctypes.c_uint8,
    "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64,
    "float32": ctypes.c_float, "float64": ctypes.c_double,
}


class Function:
    """An entry of a loaded library (TVM's PackedFunc). `f(*inputs)` returns
    the outputs (an array, or a tuple for several); `f(*inputs, *outputs)`
    writes them in place and returns None. A scalar result (the C function's
    value) is returned in its place among them (numpy scalar), alone when the
    outputs are passed. Inputs are numpy arrays (made
    C-contiguous), numbers for scalars, or for target cuda objects with
    `__cuda_array_interface__`; outputs with a dynamic dimension must be
    passed. Inputs are never copied back: a buffer that the entry writes in
    place (a prim_func's) must be a C-contiguous numpy array for target cpu,
    a CUDA array for target cuda."""

    def __init__(self, module, entry):
        self.module = module
        self.name = entry["name"]
        self.symbol = entry["symbol"]
        self.args = []
        for arg in entry["args"]:
            try:
                dtype = np.dtype(arg["dtype"])
            except TypeError:
                raise ValueError("%s: argument %r has dtype %r, which numpy does not know"
                                 % (self.name, arg["name"], arg["dtype"])) from None
            if arg["kind"] == "scalar":
                if dtype.name not in _SCALAR_CTYPES:
                    raise ValueError("%s: scalar %r of dtype %s cannot be passed through ctypes"
                                     % (self.name, arg["name"], dtype.name))
                shape = None
            elif arg["kind"] in ("input", "output"):
                # Any negative size is dynamic (-1; MLIR's kDynamic is INT64_MIN).
                shape = tuple(-1 if d < 0 else d for d in arg["shape"])
            else:
                raise ValueError("%s: argument %r has unknown kind %r"
                                 % (self.name, arg["name"], arg["kind"]))
            self.args.append(_Arg(arg["name"], dtype, shape, arg["kind"],
                                  arg.get("param", arg["name"])))
        self.input_names = [a.name for a in self.args if a.kind != "output"]
        self.param_names = [a.param for a in self.args if a.kind != "output"]
        self.output_names = [a.name for a in self.args if a.kind == "output"]
        # A scalar result comes back as the C function's value.
        self._returned = None
        for returned in entry.get("returns", []):
            if returned["kind"] != "scalar" or self._returned is not None:
                raise ValueError(
                    "%s: returns %r through a buffer that it allocates (built with "
                    "hoist-result-allocs=false); mlc.runtime calls entries whose "
                    "tensor results are out-parameters (the default)"
                    % (self.name, returned["name"]))
            dtype = np.dtype(returned["dtype"])
            if dtype.name not in _SCALAR_CTYPES:
                raise ValueError("%s: scalar result %r of dtype %s cannot be returned "
                                 "through ctypes" % (self.name, returned["name"], dtype.name))
            self._returned = (returned["index"], dtype)
        self._c_function = getattr(module._lib, self.symbol)
        self._c_function.restype = (_SCALAR_CTYPES[self._returned[1].name]
                                    if self._returned else None)
        self._c_function.argtypes = [
            _SCALAR_CTYPES[a.dtype.name] if a.kind == "scalar" else ctypes.c_void_p
            for a in self.args]

    def __call__(self, *args):
        return self._call(self._prepare(args))

    def call_in_place(self, *args):
        """Calls a function that writes its input buffers (a prim_func, all
        of whose buffers are inputs: TVM's rt_lib["mm"](a, b, c)). Numpy
        arrays are passed by pointer on the CPU; for target cuda each goes
        to the GPU and comes back after the call (CUDA arrays stay there)."""
        return self._call(self._prepare(args, inputs_in_place=True))

    def _call(self, call):
        try:
            value = self._c_function(*call.c_args)
            self._check_cuda_error()
            call.copy_back()
        except BaseException:
            call.release(check=False)
            raise
        call.release()
        results = list(call.results)
        if self._returned:
            index, dtype = self._returned
            value = dtype.type(value)
            # In result order among the outputs allocated here; alone when
            # the outputs were passed.
            results.insert(min(index, len(results)), value)
        if not results:
            return None
        return results[0] if len(results) == 1 else tuple(results)

    def _time(self, args, number, repeat, min_repeat_ms, cold=False):
        # One prepared call per argument set: `args`, then its cold copies.
        prepared = [self._prepare(args)]
        try:
            for copy in _cold_copies(args) if cold else []:
                prepared.append(self._prepare(copy))
            run = self._c_function
            sets = [call.c_args for call in prepared]
            run(*sets[0])
            self._check_cuda_error()
            timer = self.module._cuda.timer() if self.module._cuda else _perf_counter_timer

            def calls(n):
                for i in range(n):
                    run(*sets[i % len(sets)])

            def timed(n):
                seconds = timer(lambda: calls(n))
                self._check_cuda_error()
                return seconds

            results = measure_repeats(timed, number, repeat, min_repeat_ms)
            prepared[0].copy_back()
        except BaseException:
            for call in prepared:
                call.release(check=False)
            raise
        for call in prepared:
            call.release()
        return BenchmarkResult(results)

    def _check_cuda_error(self):
        if self.module._cuda is not None:
            self.module._cuda.raise_pending(self.name)

    def _usage(self):
        inputs, outputs = ", ".join(self.input_names), ", ".join(self.output_names)
        return ("%s takes %d inputs (%s) and %d outputs (%s): call %s(%s), or %s(%s) "
                "to write the outputs in place"
                % (self.name, len(self.input_names), inputs, len(self.output_names),
                   outputs, self.name, inputs, self.name,
                   ", ".join(self.input_names + self.output_names)))

    def _prepare(self, args, inputs_in_place=False):
        """Checks `args` and makes the C arguments of one call; with
        `inputs_in_place`, numpy inputs copied to the GPU are copied back."""
        num_inputs, num_outputs = len(self.input_names), len(self.output_names)
        if len(args) == num_inputs:
            outputs = [None] * num_outputs
        elif len(args) == num_inputs + num_outputs:
            outputs = list(args[num_inputs:])
        else:
            raise TypeError("%s; got %d arguments" % (self._usage(), len(args)))
        inputs = iter(args[:num_inputs])
        outputs = iter(outputs)
        cuda = self.module._cuda
        if cuda is not None:
            cuda.ensure_initialized()
            # An error left from before (loading the library's GPU code, say):
            # the runtime skips work while one is pending.
            cuda.raise_pending(self.name)
        call = _Call(cuda)
        try:
            for arg in self.args:
                if arg.kind == "scalar":
                    call.c_args.append(self._scalar(arg, next(inputs)))
                elif arg.kind == "input":
                    call.c_args.append(self._buffer(call, arg, next(inputs), False,
                                                    inputs_in_place))
                else:
                    call.c_args.append(self._buffer(call, arg, next(outputs), True))
            if call.synchronize_first:
                cuda.check(cuda.synchronize(), "cudaDeviceSynchronize")
        except BaseException:
            call.release(check=False)
            raise
        return call

    def _scalar(self, arg, value):
        if np.ndim(value) != 0:
            raise TypeError("%s: scalar %r must be a number, got an array of shape %s"
                            % (self.name, arg.name, list(np.shape(value))))
        if isinstance(value, (np.generic, np.ndarray)):
            value = value.item()
        if arg.dtype.kind == "f":
            if not isinstance(value, (int, float)):
                raise TypeError("%s: scalar %r must be a real number (%s), got %r"
                                % (self.name, arg.name, arg.dtype.name, value))
            return float(value)
        if not isinstance(value, int):
            raise TypeError("%s: scalar %r must be an integer (%s), got %r"
                            % (self.name, arg.name, arg.dtype.name, value))
        if arg.dtype.kind != "b":
            info = np.iinfo(arg.dtype)
            if not info.min <= value <= info.max:
                raise OverflowError("%s: scalar %r = %d does not fit in %s"
                                    % (self.name, arg.name, value, arg.dtype.name))
        return value

    def _check_type(self, arg, dtype, shape, what):
        if dtype != arg.dtype:
            raise TypeError("%s: %s %r must be %s, got %s (convert with .astype)"
                            % (self.name, what, arg.name, arg.dtype.name, dtype))
        if len(shape) != len(arg.shape) or any(
                want not in (-1, got) for want, got in zip(arg.shape, shape)):
            raise ValueError("%s: %s %r must have shape %s, got %s"
                             % (self.name, what, arg.name, _shape_text(arg.shape),
                                _shape_text(shape)))

    def _buffer(self, call, arg, value, is_output, in_place=False):
        """The address of a descriptor of `value` for `arg`, recording in
        `call` what to copy and free around the call (an input `in_place`
        is copied back from the GPU too)."""
        what = "output" if is_output else "input"
        if value is None:
            if -1 in arg.shape:
                raise ValueError("%s: output %r has a dynamic shape %s: pass the outputs, "
                                 "%s(%s)" % (self.name, arg.name, _shape_text(arg.shape),
                                             self.name, ", ".join(self.input_names
                                                                  + self.output_names)))
            value = np.empty(arg.shape, arg.dtype)
            call.results.append(value)
        if hasattr(value, "__cuda_array_interface__"):
            if call.cuda is None:
                raise TypeError("%s: %s %r is a CUDA array, but this library's target is cpu"
                                % (self.name, what, arg.name))
            pointer, dtype, shape, readonly, stream = _cuda_array(value)
            self._check_type(arg, dtype, shape, what)
            if readonly and is_output:
                raise ValueError("%s: output %r is read-only" % (self.name, arg.name))
            if pointer == 0 and _size(shape) > 0:
                raise ValueError("%s: %s %r has a null data pointer" % (self.name, what, arg.name))
            # mlc's kernels load and store 16 bytes at once
            # (mlc-gpu-assume-alignment); allocations are 256-byte aligned,
            # views into them need not be.
            if pointer % GPU_BUFFER_ALIGNMENT and _size(shape) > 0:
                raise ValueError("%s: %s %r is not %d-byte aligned (data pointer 0x%x); "
                                 "pass a copy (torch: .clone())"
                                 % (self.name, what, arg.name, GPU_BUFFER_ALIGNMENT, pointer))
            # The entry runs on the legacy default stream, which waits for
            # the blocking streams (1: legacy, 2: per-thread default) only.
            if stream not in (None, 1, 2):
                call.synchronize_first = True
            call.keep.append(value)
            return call.descriptor(pointer, shape)
        if is_output:
            if not isinstance(value, np.ndarray):
                raise TypeError("%s: output %r must be a numpy array%s, got %s"
                                % (self.name, arg.name,
                                   " or a CUDA array" if call.cuda else "",
                                   type(value).__name__))
            if not value.flags.writeable:
                raise ValueError("%s: output %r is read-only" % (self.name, arg.name))
            self._check_type(arg, value.dtype, value.shape, what)
            if call.cuda is not None:
                pointer = call.device_buffer(value.nbytes)
                call.to_host.append((value, pointer))
            elif value.flags.c_contiguous:
                pointer = value.ctypes.data
            else:
                staging = np.empty(value.shape, value.dtype)
                call.to_host.append((value, staging))
                pointer = staging.ctypes.data
            call.keep.append(value)
            return call.descriptor(pointer, value.shape)
        array = np.asarray(value)
        self._check_type(arg, array.dtype, array.shape, what)
        if not array.flags.c_contiguous:
            array = array.copy(order="C")
        call.keep.append(array)
        if call.cuda is None:
            return call.descriptor(array.ctypes.data, array.shape)
        pointer = call.device_buffer(array.nbytes)
        if array.nbytes:
            call.cuda.check(call.cuda.memcpy_htod(pointer, array.ctypes.data, array.nbytes),
                            "copying %r to the GPU" % arg.name)
        if in_place:
            if not isinstance(value, np.ndarray) or not value.flags.writeable:
                raise TypeError("%s: buffer %r must be a writeable numpy array or a CUDA "
                                "array" % (self.name, arg.name))
            call.to_host.append((value, pointer))
        return call.descriptor(pointer, array.shape)


class _Call:
    """The C arguments of one call and what they hold: descriptors, arrays
    kept alive, device buffers to free, outputs to copy back."""

    def __init__(self, cuda):
        self.cuda = cuda
        self.c_args = []
        self.keep = []
        self.results = []
        # (numpy output, device pointer or staging array) pairs.
        self.to_host = []
        self.device_buffers = []
        self.synchronize_first = False

    def descriptor(self, pointer, shape):
        desc = _descriptor_type(len(shape))()
        desc.allocated = desc.aligned = pointer
        desc.offset = 0
        stride = 1
        for i in reversed(range(len(shape))):
            desc.sizes[i] = shape[i]
            desc.strides[i] = stride
            stride *= shape[i]
        self.keep.append(desc)
        return ctypes.addressof(desc)

    def device_buffer(self, nbytes):
        if nbytes == 0:
            return None
        pointer = self.cuda.malloc(nbytes)
        if not pointer:
            raise MemoryError("cannot allocate %d bytes on the GPU: %s"
                              % (nbytes, self.cuda.take_error()))
        self.device_buffers.append(pointer)
        return pointer

    def copy_back(self):
        for array, source in self.to_host:
            if isinstance(source, np.ndarray):
                np.copyto(array, source)
            elif array.nbytes:
                host = array if array.flags.c_contiguous else np.empty(array.shape, array.dtype)
                self.cuda.check(self.cuda.memcpy_dtoh(host.ctypes.data, source, host.nbytes),
                                "copying results from the GPU")
                if host is not array:
                    np.copyto(array, host)

    def release(self, check=True):
        """Frees the device buffers; raises on a failure only when `check`
        (not while another exception is on its way)."""
        buffers, self.device_buffers = self.device_buffers, []
        for pointer in buffers:
            status = self.cuda.free(pointer)
            if check:
                self.cuda.check(status, "freeing GPU memory")


class _CudaRuntime:
    """The mlc_cuda_* functions of a --target=cuda library."""

    _SIGNATURES = {
        "init": (ctypes.c_int, []),
        "get_last_error": (ctypes.c_char_p, []),
        "clear_error": (None, []),
        "malloc": (ctypes.c_void_p, [ctypes.c_size_t]),
        "free": (ctypes.c_int, [ctypes.c_void_p]),
        "memcpy_htod": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
        "memcpy_dtoh": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]),
        "synchronize": (ctypes.c_int, []),
        "event_create": (ctypes.c_void_p, []),
        "event_record": (ctypes.c_int, [ctypes.c_void_p]),
        "event_elapsed_ms": (ctypes.c_int, [ctypes.c_void_p, ctypes.c_void_p,
                                            ctypes.POINTER(ctypes.c_float)]),
        "event_destroy": (ctypes.c_int, [ctypes.c_void_p]),
        "device_name": (ctypes.c_char_p, []),
    }

    def __init__(self, lib, path):
        for name, (restype, argtypes) in self._SIGNATURES.items():
            try:
                function = getattr(lib, "mlc_cuda_" + name)
            except AttributeError:
                raise ValueError("%s: target cuda, but it exports no mlc_cuda_%s"
                                 % (path, name)) from None
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)
        self._initialized = False

    def ensure_initialized(self):
        """Calls mlc_cuda_init once; raises RuntimeError with the runtime's
        message (say, "no CUDA device") when it fails."""
        if not self._initialized:
            if self.init() != 0:
                raise RuntimeError("cannot initialize CUDA: " + self.take_error())
            self._initialized = True

    def take_error(self):
        """The runtime's last error message (cleared), or "unknown error"."""
        message = self.get_last_error()
        self.clear_error()
        return message.decode() if message else "unknown error"

    def check(self, status, what):
        if status != 0:
            raise RuntimeError("%s: %s" % (what, self.take_error()))

    def raise_pending(self, what):
        message = self.get_last_error()
        if message:
            self.clear_error()
            raise RuntimeError("%s: %s" % (what, message.decode()))

    def timer(self):
        """A function timing fn() with CUDA events on the default stream."""

        def measure(fn):
            start, end = self.event_create(), self.event_create()
            try:
                if not start or not end:
                    raise RuntimeError("cannot create CUDA events: " + self.take_error())
                self.check(self.event_record(start), "recording a CUDA event")
                fn()
                self.check(self.event_record(end), "recording a CUDA event")
                ms = ctypes.c_float()  # mlc_cuda_event_elapsed_ms waits for `end`
                self.check(self.event_elapsed_ms(start, end, ctypes.byref(ms)),
                           "reading CUDA event times")
                return ms.value / 1e3
            finally:
                for event in (start, end):
                    if event:
                        self.event_destroy(event)

        return measure


def measure_repeats(timed, number, repeat, min_repeat_ms):
    """Seconds per call for each of `repeat` runs of TVM's time_evaluator
    loop: `timed(n)` returns the seconds of n calls; n grows until one run
    lasts at least `min_repeat_ms`."""
    results = []
    for _ in range(repeat):
        while True:
            seconds = timed(number)
            if seconds * 1e3 >= min_repeat_ms:
                break
            per_call = seconds / number
            grown = int(min_repeat_ms / 1e3 / per_call) + 1 if per_call > 0 else 0
            number = max(grown, int(number * 1.618), number + 1)
        results.append(seconds / number)
    return results


def _l2_cache_bytes():
    """The L2 cache of cpu 0 (Linux sysfs), else 2 MiB."""
    try:
        for index in sorted(os.listdir("/sys/devices/system/cpu/cpu0/cache")):
            path = os.path.join("/sys/devices/system/cpu/cpu0/cache", index)
            with open(os.path.join(path, "level")) as f:
                if f.read().strip() != "2":
                    continue
            with open(os.path.join(path, "size")) as f:
                size = f.read().strip()
            units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
            return int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)
    except (OSError, ValueError):
        pass
    return 2 << 20


def _cold_copies(args):
    """Copies of `args` with their arrays but the first duplicated, enough
    that `args` and they span four times the L2 cache (at most 63)."""
    arrays = [a for a in args[1:] if isinstance(a, np.ndarray)]
    size = sum(a.nbytes for a in arrays)
    if not arrays:
        return []
    count = min(63, max(1, -(-4 * _l2_cache_bytes() // max(size, 1)) - 1))
    return [tuple(args[:1]) + tuple(np.copy(a) if isinstance(a, np.ndarray) else a
                                    for a in args[1:]) for _ in range(count)]


def _perf_counter_timer(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


_descriptor_types = {}


def _descriptor_type(rank):
    """The C struct of a rank-`rank` strided memref descriptor."""
    if rank not in _descriptor_types:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank > 0:
            fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
        _descriptor_types[rank] = type("MemRef%dD" % rank, (ctypes.Structure,),
                                       {"_fields_": fields})
    return _descriptor_types[rank]


def _cuda_array(value):
    """(pointer, dtype, shape, readonly, stream) of a C-contiguous object with
    __cuda_array_interface__."""
    interface = value.__cuda_array_interface__
    shape = tuple(interface["shape"])
    dtype = np.dtype(interface["typestr"])
    pointer, readonly = interface["data"]
    strides = interface.get("strides")
    if strides is not None:
        expected = dtype.itemsize
        for size, stride in reversed(list(zip(shape, strides))):
            if size > 1 and stride != expected:
                raise ValueError("CUDA arrays must be C-contiguous (strides %s for shape %s); "
                                 "make a contiguous copy (torch: .contiguous())"
                                 % (list(strides), list(shape)))
            expected *= size
    return pointer, dtype, shape, readonly, interface.get("stream")


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


def _shape_text(shape):
    return "[%s]" % ", ".join("?" if d == -1 else str(d) for d in shape)

"""mlc in-process: ctypes over mlc's C API (libMLC-C.so, include/mlc-c/).

ctypes rather than a compiled extension (pybind11, nanobind): it needs no
Python headers and no build per Python version, the same shared library
serves C embedders and Python, and numpy arrays cross it as pointers.

One MLIR context per process holds upstream's and mlc's dialects (what
mlc-opt's context knows); calls into it are serialized by a lock. Its
diagnostics are collected per call and formatted as mlc-opt prints them
(`<stdin>:3:5: error: ...`), so callers read the same text in-process and
from the tools.

`available()` says whether the library was found (it is built with
MLC_LINK_MLIR_DYLIB, the default); callers fall back to the tools
otherwise.
"""

import ctypes
import os
import re
import threading

_HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = "libMLC-C.so"


class _Ptr(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class Context(_Ptr):
    pass


class Module(_Ptr):
    pass


class Operation(_Ptr):
    pass


class Block(_Ptr):
    pass


class Location(_Ptr):
    pass


class Diagnostic(_Ptr):
    pass


class Registry(_Ptr):
    pass


class TransformOptions(_Ptr):
    pass


class PassManager(_Ptr):
    pass


class OpPassManager(_Ptr):
    pass


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, text):
        data = text.encode() if isinstance(text, str) else text
        return cls(data, len(data))


class LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


class ExecutableHandle(_Ptr):
    pass


class Tensor(ctypes.Structure):
    """MlcTensor: a dense row-major host array."""
    _fields_ = [("data", ctypes.c_void_p), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("rank", ctypes.c_ssize_t), ("dtype", StringRef)]


class ExecutableOptions(ctypes.Structure):
    _fields_ = [("target", StringRef), ("pipelineOptions", StringRef),
                ("tuningDatabase", StringRef), ("cacheDirectory", StringRef),
                ("optLevel", ctypes.c_uint), ("numThreads", ctypes.c_uint),
                ("useCache", ctypes.c_bool)]


class ONNXImportOptions(ctypes.Structure):
    _fields_ = [("keepParamsAsInput", ctypes.c_bool), ("opset", ctypes.c_int64),
                ("externalDataDir", StringRef), ("numInputShapes", ctypes.c_ssize_t),
                ("inputShapeNames", ctypes.POINTER(StringRef)),
                ("inputShapeRanks", ctypes.POINTER(ctypes.c_ssize_t)),
                ("inputShapeDims", ctypes.POINTER(ctypes.c_int64))]


class CompileOptions(ctypes.Structure):
    _fields_ = [("target", StringRef), ("pipelineOptions", StringRef),
                ("tuningDatabase", StringRef), ("cpu", StringRef),
                ("entries", StringRef), ("sourceName", StringRef),
                ("optLevel", ctypes.c_uint), ("tuningNumCores", ctypes.c_uint)]


STRING_CALLBACK = ctypes.CFUNCTYPE(None, StringRef, ctypes.c_void_p)
# MlirLogicalResult is a struct of one int8_t, returned as one (ctypes
# callbacks cannot return structures).
DIAGNOSTIC_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int8, Diagnostic, ctypes.c_void_p)
SEVERITIES = ("error", "warning", "note", "remark")


def _library_path():
    candidates = []
    if os.environ.get("MLC_LIBRARY_DIR"):
        candidates.append(os.environ["MLC_LIBRARY_DIR"])
    if os.environ.get("MLC_TOOLS_DIR"):
        candidates.append(os.path.join(os.environ["MLC_TOOLS_DIR"], "..", "lib"))
    candidates.append(os.path.join(_HERE, "_native", "lib"))  # pip install
    candidates.append(os.path.join(_HERE, "..", "..", "build", "lib"))
    candidates.append(os.path.join(_HERE, "..", "..", "lib"))  # installed
    for directory in candidates:
        path = os.path.join(directory, LIBRARY)
        if os.path.exists(path):
            return os.path.abspath(path)
    return None


def _declare(lib):
    signatures = {
        "mlirDialectRegistryCreate": (Registry, []),
        "mlirDialectRegistryDestroy": (None, [Registry]),
        "mlcRegisterAllDialectsWithUpstream": (None, [Registry]),
        "mlirContextCreateWithRegistry": (Context, [Registry, ctypes.c_bool]),
        "mlirContextAttachDiagnosticHandler": (
            ctypes.c_uint64, [Context, DIAGNOSTIC_HANDLER, ctypes.c_void_p,
                              ctypes.c_void_p]),
        "mlirDiagnosticGetSeverity": (ctypes.c_int, [Diagnostic]),
        "mlirDiagnosticGetLocation": (Location, [Diagnostic]),
        "mlirDiagnosticPrint": (None, [Diagnostic, STRING_CALLBACK, ctypes.c_void_p]),
        "mlirDiagnosticGetNumNotes": (ctypes.c_ssize_t, [Diagnostic]),
        "mlirDiagnosticGetNote": (Diagnostic, [Diagnostic, ctypes.c_ssize_t]),
        "mlirLocationPrint": (None, [Location, STRING_CALLBACK, ctypes.c_void_p]),
        "mlcModuleCreateParseFromString": (Module, [Context, StringRef, StringRef]),
        "mlirModuleGetOperation": (Operation, [Module]),
        "mlirModuleGetBody": (Block, [Module]),
        "mlirModuleDestroy": (None, [Module]),
        "mlirBlockGetFirstOperation": (Operation, [Block]),
        "mlirOperationGetNextInBlock": (Operation, [Operation]),
        "mlirOperationGetName": (ctypes.c_void_p, [Operation]),
        "mlirIdentifierStr": (StringRef, [ctypes.c_void_p]),
        "mlirOperationRemoveAttributeByName": (ctypes.c_bool, [Operation, StringRef]),
        "mlirOperationClone": (Operation, [Operation]),
        "mlirOperationDestroy": (None, [Operation]),
        "mlirOperationPrint": (None, [Operation, STRING_CALLBACK, ctypes.c_void_p]),
        "mlirOperationVerify": (ctypes.c_bool, [Operation]),
        "mlirTransformOptionsCreate": (TransformOptions, []),
        "mlcImportRelayFromString": (Module, [Context, StringRef, StringRef, StringRef]),
        "mlcRegisterAllPasses": (None, []),
        "mlcImportRelaxJSONFromString": (Module, [Context, StringRef, StringRef]),
        "mlcONNXImportOptionsGetDefault": (ONNXImportOptions, []),
        "mlcHasONNXImporter": (ctypes.c_bool, []),
        "mlcImportONNXFromBytes": (
            Module, [Context, StringRef, StringRef, ctypes.POINTER(ONNXImportOptions)]),
        "mlirPassManagerCreate": (PassManager, [Context]),
        "mlirPassManagerDestroy": (None, [PassManager]),
        "mlirPassManagerGetAsOpPassManager": (OpPassManager, [PassManager]),
        "mlirParsePassPipeline": (
            LogicalResult, [OpPassManager, StringRef, STRING_CALLBACK, ctypes.c_void_p]),
        "mlirPassManagerRunOnOp": (LogicalResult, [PassManager, Operation]),
        "mlcBindParametersFromFile": (
            LogicalResult, [Module, StringRef, StringRef, ctypes.POINTER(ctypes.c_bool)]),
        "mlcExecutableOptionsGetDefault": (ExecutableOptions, []),
        "mlcExecutableCreate": (
            ExecutableHandle, [Module, StringRef, ctypes.POINTER(ExecutableOptions)]),
        "mlcExecutableDestroy": (None, [ExecutableHandle]),
        "mlcExecutableIsBufferEntry": (ctypes.c_bool, [ExecutableHandle]),
        "mlcExecutableGetNumParameters": (ctypes.c_ssize_t, [ExecutableHandle]),
        "mlcExecutableGetParameterName": (StringRef, [ExecutableHandle, ctypes.c_ssize_t]),
        "mlcExecutableGetNumResults": (ctypes.c_ssize_t, [ExecutableHandle]),
        "mlcExecutableCall": (
            LogicalResult, [ExecutableHandle, ctypes.POINTER(Tensor), ctypes.c_ssize_t]),
        "mlcExecutableGetResult": (Tensor, [ExecutableHandle, ctypes.c_ssize_t]),
        "mlcExecutableTime": (
            LogicalResult, [ExecutableHandle, ctypes.POINTER(Tensor), ctypes.c_ssize_t,
                            ctypes.c_uint, ctypes.POINTER(ctypes.c_double)]),
        "mlcCompileOptionsGetDefault": (CompileOptions, []),
        "mlcCompileToFile": (
            LogicalResult, [Module, ctypes.POINTER(CompileOptions), StringRef, StringRef]),
        "mlirTransformApplyNamedSequence": (
            LogicalResult, [Operation, Operation, Operation, TransformOptions]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes


class _Session:
    """The process's context and the diagnostics of the current call."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        _declare(self.lib)
        self.lock = threading.RLock()
        self.diagnostics = []
        self.sources = {}  # buffer name -> text, of the current call
        registry = self.lib.mlirDialectRegistryCreate()
        self.lib.mlcRegisterAllDialectsWithUpstream(registry)
        self.context = self.lib.mlirContextCreateWithRegistry(registry, False)
        self.lib.mlirDialectRegistryDestroy(registry)
        # Kept alive as long as the context: C holds these pointers.
        self._handler = DIAGNOSTIC_HANDLER(self._on_diagnostic)
        self.lib.mlirContextAttachDiagnosticHandler(self.context, self._handler,
                                                    None, None)
        self.options = self.lib.mlirTransformOptionsCreate()

    def _print(self, function, handle):
        pieces = []
        callback = STRING_CALLBACK(lambda s, _: pieces.append(
            ctypes.string_at(s.data, s.length)))
        function(handle, callback, None)
        return b"".join(pieces).decode(errors="replace")

    def _format(self, diagnostic):
        location = self._print(self.lib.mlirLocationPrint,
                               self.lib.mlirDiagnosticGetLocation(diagnostic))
        match = re.fullmatch(r'loc\("([^"]*)":(\d+):(\d+)(?:.*)?\)', location)
        where = "%s:%s:%s" % match.groups() if match else location
        severity = SEVERITIES[self.lib.mlirDiagnosticGetSeverity(diagnostic)]
        message = self._print(self.lib.mlirDiagnosticPrint, diagnostic)
        # Without a place, as MLIR's SourceMgr handler prints it.
        lines = ["%s: %s" % (severity, message) if location == "loc(unknown)"
                 else "%s: %s: %s" % (where, severity, message)]
        # The source line and a caret under the column, as MLIR's SourceMgr
        # handler shows them.
        source = self.sources.get(match.group(1)) if match else None
        if source is not None:
            row, column = int(match.group(2)), int(match.group(3))
            text = source.splitlines()
            if 1 <= row <= len(text):
                lines += [text[row - 1], " " * (column - 1) + "^"]
        for i in range(self.lib.mlirDiagnosticGetNumNotes(diagnostic)):
            lines.append(self._format(self.lib.mlirDiagnosticGetNote(diagnostic, i)))
        return "\n".join(lines)

    def _on_diagnostic(self, diagnostic, _):
        self.diagnostics.append(self._format(diagnostic))
        return 1  # handled

    def take_diagnostics(self):
        text = "\n".join(self.diagnostics)
        self.diagnostics = []
        return text


_session = None
_session_lock = threading.Lock()


def _get():
    global _session
    with _session_lock:
        if _session is None:
            path = _library_path()
            if path is None or os.environ.get("MLC_NO_CAPI"):
                return None
            _session = _Session(path)
        return _session


def available():
    """Whether libMLC-C.so was found (MLC_NO_CAPI=1 pretends it was not)."""
    return _get() is not None


def _release(owner, destroy):
    """Frees `owner.handle` with the C function `destroy`, once."""
    handle = getattr(owner, "handle", None)
    if handle is not None and handle.ptr:
        owner.handle = None
        try:
            getattr(owner._session.lib, destroy)(handle)
        except Exception:  # the interpreter is shutting down
            pass


class CAPIError(RuntimeError):
    """A parse or transform failed; the message is its diagnostics."""


class ParsedModule:
    """A module parsed once into the process's context (freed with this
    object)."""

    def __init__(self, text, source_name="<stdin>"):
        self._session = _get()
        lib = self._session.lib
        self.text, self.source_name = text, source_name
        with self._session.lock:
            self._session.take_diagnostics()
            self._session.sources = {source_name: text}
            self.handle = lib.mlcModuleCreateParseFromString(
                self._session.context, StringRef.of(text), StringRef.of(source_name))
            errors = self._session.take_diagnostics()
        if not self.handle.ptr:
            raise CAPIError(errors or "cannot parse the module")

    def __del__(self):
        _release(self, "mlirModuleDestroy")

    def apply_transform_script(self, script):
        """Applies the transform script's @__transform_main to a copy of
        this module (the module itself does not change). Returns (printed
        result or None on failure, diagnostics text as mlc-opt prints them:
        errors, remarks)."""
        session = self._session
        lib = session.lib
        with session.lock:
            session.take_diagnostics()
            session.sources = {self.source_name: self.text, "<trace>": script}
            transform = lib.mlcModuleCreateParseFromString(
                session.context, StringRef.of(script), StringRef.of("<trace>"))
            if not transform.ptr:
                return None, session.take_diagnostics()
            payload = lib.mlirOperationClone(lib.mlirModuleGetOperation(self.handle))
            try:
                entry = lib.mlirBlockGetFirstOperation(lib.mlirModuleGetBody(transform))
                result = lib.mlirTransformApplyNamedSequence(
                    payload, entry, lib.mlirModuleGetOperation(transform),
                    session.options)
                # As mlc-opt's pass manager, verify what the schedule made.
                ok = bool(result.value) and lib.mlirOperationVerify(payload)
                text = session._print(lib.mlirOperationPrint, payload) + "\n" \
                    if ok else None
            finally:
                lib.mlirOperationDestroy(payload)
                lib.mlirModuleDestroy(transform)
            return text, session.take_diagnostics()


def _parse_or_raise(session, text, source_name):
    """Parses `text` into a new module (caller holds the lock; the caller
    destroys it)."""
    session.sources = {source_name: text}
    module = session.lib.mlcModuleCreateParseFromString(
        session.context, StringRef.of(text), StringRef.of(source_name))
    if not module.ptr:
        raise CAPIError(session.take_diagnostics() or "cannot parse the module")
    return module


def _import(session, create, sources):
    """Runs `create()` (an importer returning an MlirModule) and returns the
    printed module; its diagnostics as CAPIError."""
    lib = session.lib
    with session.lock:
        session.take_diagnostics()
        session.sources = sources
        module = create()
        if not module.ptr:
            raise CAPIError(session.take_diagnostics() or "the import failed")
        try:
            return session._print(lib.mlirOperationPrint, lib.mlirModuleGetOperation(module))
        finally:
            lib.mlirModuleDestroy(module)


def import_relax_json(text, file_name):
    """mlc-translate --import-relax-json in process."""
    session = _get()
    return _import(session, lambda: session.lib.mlcImportRelaxJSONFromString(
        session.context, StringRef.of(text), StringRef.of(file_name)), {})


def has_onnx_importer():
    """Whether libMLC-C.so was built with the ONNX importer."""
    session = _get()
    return session is not None and bool(session.lib.mlcHasONNXImporter())


def import_onnx(data, file_name, keep_params_as_input=False, opset=0,
                input_shapes=None, external_data_dir=""):
    """mlc-translate --import-onnx in process: `data` is the serialized
    model, `input_shapes` maps an input's name to its shape."""
    session = _get()
    lib = session.lib
    options = lib.mlcONNXImportOptionsGetDefault()
    options.keepParamsAsInput = bool(keep_params_as_input)
    options.opset = int(opset or 0)
    options.externalDataDir = StringRef.of(external_data_dir)
    shapes = list((input_shapes or {}).items())
    names = (StringRef * max(1, len(shapes)))(*[StringRef.of(n) for n, _ in shapes])
    ranks = (ctypes.c_ssize_t * max(1, len(shapes)))(*[len(s) for _, s in shapes])
    flat = [int(d) for _, s in shapes for d in s]
    dims = (ctypes.c_int64 * max(1, len(flat)))(*flat)
    options.numInputShapes = len(shapes)
    options.inputShapeNames, options.inputShapeRanks = names, ranks
    options.inputShapeDims = dims
    return _import(session, lambda: lib.mlcImportONNXFromBytes(
        session.context, StringRef.of(data), StringRef.of(file_name),
        ctypes.byref(options)), {})


def import_relay(text, meta_path="", source_name="<relay>"):
    """mlc-translate --import-relay in process: the relay-dialect module's
    text."""
    session = _get()
    lib = session.lib
    with session.lock:
        session.take_diagnostics()
        session.sources = {source_name: text}
        module = lib.mlcImportRelayFromString(
            session.context, StringRef.of(text), StringRef.of(source_name),
            StringRef.of(meta_path or ""))
        if not module.ptr:
            raise CAPIError(session.take_diagnostics() or "cannot import the Relay text")
        try:
            return session._print(lib.mlirOperationPrint,
                                  lib.mlirModuleGetOperation(module))
        finally:
            lib.mlirModuleDestroy(module)


def transform_module(text, params_path=None, entry="main", pipeline=None,
                     source_name="<stdin>"):
    """Parses `text`, binds the tensors of `params_path` as constants of
    `entry` (relay/relax-bind-params, when given), runs the pass `pipeline`
    (textual, `builtin.module(...)`, when given) and returns the printed
    module, as `mlc-opt` would."""
    session = _get()
    lib = session.lib
    with session.lock:
        session.take_diagnostics()
        if not getattr(session, "passes_registered", False):
            lib.mlcRegisterAllPasses()
            session.passes_registered = True
        module = _parse_or_raise(session, text, source_name)
        try:
            if params_path:
                bound = ctypes.c_bool(False)
                ok = lib.mlcBindParametersFromFile(module, StringRef.of(entry),
                                                   StringRef.of(params_path),
                                                   ctypes.byref(bound))
                if not ok.value:
                    raise CAPIError(session.take_diagnostics())
            if pipeline:
                pm = lib.mlirPassManagerCreate(session.context)
                try:
                    errors = []
                    callback = STRING_CALLBACK(lambda s, _: errors.append(
                        ctypes.string_at(s.data, s.length).decode(errors="replace")))
                    ok = lib.mlirParsePassPipeline(lib.mlirPassManagerGetAsOpPassManager(pm),
                                                   StringRef.of(pipeline), callback, None)
                    if not ok.value:
                        raise CAPIError("".join(errors) or "invalid pipeline " + pipeline)
                    ok = lib.mlirPassManagerRunOnOp(pm, lib.mlirModuleGetOperation(module))
                    if not ok.value:
                        raise CAPIError(session.take_diagnostics() or pipeline + " failed")
                finally:
                    lib.mlirPassManagerDestroy(pm)
            return session._print(lib.mlirOperationPrint, lib.mlirModuleGetOperation(module))
        finally:
            lib.mlirModuleDestroy(module)


def make_prim_funcs_public(text):
    """The module `text` with every top-level tensorir.prim_func public (no
    sym_visibility), printed: TVM's rt_lib[name] runs private kernels too."""
    session = _get()
    lib = session.lib
    with session.lock:
        session.take_diagnostics()
        module = _parse_or_raise(session, text, "<stdin>")
        try:
            op = lib.mlirBlockGetFirstOperation(lib.mlirModuleGetBody(module))
            while op.ptr:
                name = _string(lib.mlirIdentifierStr(lib.mlirOperationGetName(op)))
                if name == "tensorir.prim_func":
                    lib.mlirOperationRemoveAttributeByName(op, StringRef.of("sym_visibility"))
                op = lib.mlirOperationGetNextInBlock(op)
            return session._print(lib.mlirOperationPrint, lib.mlirModuleGetOperation(module))
        finally:
            lib.mlirModuleDestroy(module)


def compile_to_file(text, output, entries=None, target="cpu", pipeline_options="",
                    opt_level=3, tuning_db="", tuning_num_cores=0, cpu="",
                    header="", source_name="<stdin>"):
    """mlc-compile in process (mlcCompileToFile): writes `output` (.so, .o,
    .ll, .s, .ptx by extension) and, when given, the C `header`."""
    session = _get()
    lib = session.lib
    with session.lock:
        session.take_diagnostics()
        module = _parse_or_raise(session, text, source_name)
        try:
            options = lib.mlcCompileOptionsGetDefault()
            options.target = StringRef.of(target)
            options.pipelineOptions = StringRef.of(pipeline_options)
            options.tuningDatabase = StringRef.of(tuning_db)
            options.cpu = StringRef.of(cpu)
            options.entries = StringRef.of(",".join(entries or []))
            options.sourceName = StringRef.of(source_name)
            options.optLevel = opt_level
            options.tuningNumCores = tuning_num_cores
            result = lib.mlcCompileToFile(module, ctypes.byref(options),
                                          StringRef.of(output), StringRef.of(header))
            if not result.value:
                raise CAPIError(session.take_diagnostics() or "compilation failed")
        finally:
            lib.mlirModuleDestroy(module)


class Executable:
    """mlc::Executable in process (what mlc-run does): `entry` of the module
    `text` compiled once, then called on numpy arrays. `params_path` (.npz)
    is bound as constants of a relay/relax entry before compiling; the
    parameters it binds leave the signature."""

    def __init__(self, text, entry="main", params_path=None, target="cpu",
                 pipeline_options="", opt_level=3, num_threads=1, use_cache=True,
                 source_name="<stdin>"):
        self._session = session = _get()
        lib = session.lib
        self.handle = None
        with session.lock:
            session.take_diagnostics()
            module = _parse_or_raise(session, text, source_name)
            try:
                if params_path:
                    bound = ctypes.c_bool(False)
                    ok = lib.mlcBindParametersFromFile(
                        module, StringRef.of(entry), StringRef.of(params_path),
                        ctypes.byref(bound))
                    if not ok.value:
                        raise CAPIError(session.take_diagnostics())
                options = lib.mlcExecutableOptionsGetDefault()
                options.target = StringRef.of(target)
                options.pipelineOptions = StringRef.of(pipeline_options)
                options.optLevel = opt_level
                options.numThreads = num_threads
                options.useCache = use_cache
                handle = lib.mlcExecutableCreate(module, StringRef.of(entry),
                                                 ctypes.byref(options))
                if not handle.ptr:
                    raise CAPIError(session.take_diagnostics() or "compilation failed")
            finally:
                lib.mlirModuleDestroy(module)
            self.handle = handle
            self.parameter_names = [
                _string(lib.mlcExecutableGetParameterName(handle, i))
                for i in range(lib.mlcExecutableGetNumParameters(handle))]
            self.num_results = lib.mlcExecutableGetNumResults(handle)
            self.buffer_entry = bool(lib.mlcExecutableIsBufferEntry(handle))

    def __del__(self):
        _release(self, "mlcExecutableDestroy")

    def _tensors(self, arrays):
        import numpy as np
        arrays = [np.ascontiguousarray(a) for a in arrays]
        keep, tensors = [], (Tensor * max(1, len(arrays)))()
        for i, array in enumerate(arrays):
            shape = (ctypes.c_int64 * max(1, array.ndim))(*array.shape)
            dtype = StringRef.of(array.dtype.name)
            keep += [shape, dtype]
            tensors[i] = Tensor(array.ctypes.data, shape, array.ndim, dtype)
        return arrays, keep, tensors

    def _results(self):
        import numpy as np
        lib = self._session.lib
        results = []
        for i in range(self.num_results):
            view = lib.mlcExecutableGetResult(self.handle, i)
            shape = tuple(view.shape[d] for d in range(view.rank))
            dtype = _string(view.dtype)
            dtype = np.uint16 if dtype == "bfloat16" else np.dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            size = count * np.dtype(dtype).itemsize
            raw = ctypes.string_at(view.data, size) if size else b""
            results.append(np.frombuffer(raw, dtype=dtype, count=count).reshape(shape).copy())
        return results

    def __call__(self, *arrays):
        """The results as numpy arrays (a buffer entry: none; its arrays are
        written in place)."""
        lib = self._session.lib
        arrays, keep, tensors = self._tensors(arrays)
        with self._session.lock:
            self._session.take_diagnostics()
            ok = lib.mlcExecutableCall(self.handle, tensors, len(arrays))
            if not ok.value:
                raise CAPIError(self._session.take_diagnostics())
            return self._results()

    def time(self, arrays, runs):
        """Per-run times in seconds of `runs` calls (after this one)."""
        lib = self._session.lib
        arrays, keep, tensors = self._tensors(arrays)
        millis = (ctypes.c_double * max(1, runs))()
        with self._session.lock:
            self._session.take_diagnostics()
            ok = lib.mlcExecutableCall(self.handle, tensors, len(arrays))
            if ok.value:
                ok = lib.mlcExecutableTime(self.handle, tensors, len(arrays), runs, millis)
            if not ok.value:
                raise CAPIError(self._session.take_diagnostics())
        return [m / 1e3 for m in millis[:runs]]


def _string(ref):
    return ctypes.string_at(ref.data, ref.length).decode() if ref.length else ""

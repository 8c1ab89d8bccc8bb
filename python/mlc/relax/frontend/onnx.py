"""ONNX front end: tvm.relax.frontend.onnx.from_onnx over mlc's C++
importer, in process (mlcImportONNXFromBytes), else through
`mlc-translate --import-onnx`."""

import os
import tempfile

from ... import tools
from ...ir import Module


def from_onnx(model, shape_dict=None, dtype_dict="float32", opset=None,
              keep_params_in_input=False):
    """Imports an ONNX model into a Module of the relax dialect (one
    function, `main`), with TVM's signature.

    `model` is a path to a `.onnx` file or an `onnx.ModelProto`.
    `shape_dict` maps graph input names to shapes that replace the model's
    (e.g. to make a symbolic batch size static). `dtype_dict` is accepted for
    TVM compatibility; element types always come from the model. `opset`
    converts with that opset of the default domain instead of the model's.
    With `keep_params_in_input`, floating-point initializers become
    parameters of `main` (named by `relax.name`, bound by name with
    `params=`) instead of constants.
    """
    del dtype_dict  # the model's element types are used
    from ... import _capi
    if _capi.available() and _capi.has_onnx_importer():
        if isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
            with open(path, "rb") as f:
                data = f.read()
        else:
            path, data = "model.onnx", model.SerializeToString()
        try:
            return Module(_capi.import_onnx(data, path, keep_params_in_input, opset or 0,
                                            shape_dict))
        except _capi.CAPIError as e:
            raise tools.ToolError("mlc-translate", 1, str(e)) from None
    with tempfile.TemporaryDirectory() as tmp:
        if isinstance(model, (str, os.PathLike)):
            path = os.fspath(model)
        else:
            path = os.path.join(tmp, "model.onnx")
            with open(path, "wb") as f:
                f.write(model.SerializeToString())
        args = ["--import-onnx", path]
        if keep_params_in_input:
            args.append("--onnx-keep-params-as-input")
        if opset is not None:
            args.append("--onnx-opset=%d" % int(opset))
        for name, shape in (shape_dict or {}).items():
            dims = "x".join(str(int(d)) for d in shape) if len(shape) else "scalar"
            args.append("--onnx-input-shape=%s:%s" % (name, dims))
        return Module(tools.run("mlc-translate", args))

"""Relax passes (tvm.relax.transform): each is a callable that takes a Module
and returns the transformed Module, like a TVM pass."""

from .. import tools
from ..ir import Module


class ToMixedPrecision:
    """tvm.relax.transform.ToMixedPrecision(out_dtype, fp16_input_names):
    matmuls and convolutions in float16 (compute_dtype="bfloat16" for
    bfloat16) accumulating in out_dtype, the ops around them in half
    precision where that is safe (mlc-opt --relax-to-mixed-precision)."""

    def __init__(self, out_dtype="float32", fp16_input_names=None,
                 compute_dtype="float16"):
        options = ["out-dtype=" + out_dtype, "compute-dtype=" + compute_dtype]
        if fp16_input_names:
            options.append("fp16-input-names=" + ",".join(fp16_input_names))
        self.pipeline = "relax-to-mixed-precision{%s}" % " ".join(options)

    def __call__(self, mod):
        text = mod.text if isinstance(mod, Module) else str(mod)
        return Module(tools.run_passes(text, self.pipeline))


class LiftTransformParams:
    """tvm.relax.transform.LiftTransformParams(): in each function with a
    `relax.num_input` attribute (TVM's `num_input`), the work that depends
    only on its weights (the parameters after its inputs) moves into a new
    function `<name>_transform_params(weights...)` returning what the rest
    reads; the function then takes its inputs and those results. Run the
    transform once, when the weights are loaded (mlc-opt
    --relax-lift-transform-params). `num_input` (mlc's addition) sets the
    attribute of `func_name` first; TVM sets it with
    `func.with_attr("num_input", n)`. One transform per function: a
    `shared_transform` across functions is not supported."""

    def __init__(self, shared_transform=False, num_input=None, func_name="main"):
        if shared_transform:
            raise NotImplementedError("LiftTransformParams: shared_transform is not "
                                      "supported (one transform per function)")
        options = []
        if num_input is not None:
            options += ["num-input=%d" % num_input, "func-name=" + func_name]
        self.pipeline = "relax-lift-transform-params{%s}" % " ".join(options)

    def __call__(self, mod):
        text = mod.text if isinstance(mod, Module) else str(mod)
        return Module(tools.run_passes(text, self.pipeline))

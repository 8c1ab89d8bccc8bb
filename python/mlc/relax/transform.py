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

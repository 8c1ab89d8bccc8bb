"""Importers into the relax dialect (tvm.relax.frontend)."""

from . import onnx
from .common import detach_params

# The PyTorch front end imports torch only when it is used.
from . import torch  # noqa: E402  (mlc.relax.frontend.torch.from_fx)

__all__ = ["onnx", "torch", "detach_params"]

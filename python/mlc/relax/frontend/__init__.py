"""Importers into the relax dialect (tvm.relax.frontend)."""

from . import onnx

__all__ = ["onnx"]

"""Relax front ends and passes (tvm.relax's entry points)."""

from . import frontend, transform

__all__ = ["frontend", "transform"]

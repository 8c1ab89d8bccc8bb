"""Relax front ends (tvm.relax's entry points)."""

from . import frontend

__all__ = ["frontend"]

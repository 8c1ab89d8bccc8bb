"""Relax (tvm.relax's entry points): front ends, passes, BlockBuilder,
build and VirtualMachine."""

from . import frontend, transform
from .block_builder import (BlockBuilder, Constant, DynTensorType, Expr,
                            TensorStructInfo, Var, const)
from .vm import Executable, VirtualMachine, build

__all__ = ["BlockBuilder", "Constant", "DynTensorType", "Executable", "Expr",
           "TensorStructInfo", "Var", "VirtualMachine", "build", "const",
           "frontend", "transform"]

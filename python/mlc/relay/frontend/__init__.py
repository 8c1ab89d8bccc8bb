"""Front ends to the relay dialect (tvm.relay.frontend)."""

from .pytorch import from_pytorch

__all__ = ["from_pytorch"]

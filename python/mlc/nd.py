"""Arrays and devices (TVM's `tvm.nd`, `tvm.cpu`, `tvm.cuda`): numpy-backed
host arrays that mlc.relax.VirtualMachine takes and returns. An NDArray of
device mlc.cuda() holds a host copy too: a GPU build's functions copy their
arrays to the GPU for each call and the results back (pass torch or cupy
CUDA arrays to keep data on the GPU)."""

import numpy as np

__all__ = ["Device", "NDArray", "array", "cpu", "cuda"]


class Device:
    """A device: the host CPU or an NVIDIA GPU (`kind` "cpu" or "cuda")."""

    def __init__(self, kind="cpu", index=0):
        self.kind, self.index = kind, index

    def __repr__(self):
        return "%s(%d)" % (self.kind, self.index)

    def __eq__(self, other):
        return isinstance(other, Device) and (self.kind, self.index) == (other.kind, other.index)


def cpu(index=0):
    """The host CPU (tvm.cpu)."""
    return Device("cpu", index)


def cuda(index=0):
    """An NVIDIA GPU (tvm.cuda). mlc's CUDA libraries run on the current
    CUDA device, which is device 0 unless the process chose another."""
    if index != 0:
        raise ValueError("mlc.cuda: only device 0 is supported, got %d" % index)
    return Device("cuda", index)


class NDArray:
    """A C-contiguous host array (tvm.nd.NDArray); `.numpy()` copies it
    out."""

    def __init__(self, data, device=None):
        self._data = np.ascontiguousarray(data)
        self.device = device or cpu()

    @property
    def shape(self):
        return tuple(self._data.shape)

    @property
    def dtype(self):
        return str(self._data.dtype)

    def numpy(self):
        return self._data.copy()

    asnumpy = numpy

    def copyfrom(self, source):
        np.copyto(self._data, source.numpy() if isinstance(source, NDArray) else source)
        return self

    def __array__(self, dtype=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def __repr__(self):
        return "<mlc.NDArray shape=%s, %s>\n%s" % (self.shape, self.device, self._data)


def array(source, device=None):
    """tvm.nd.array: an NDArray holding a copy of `source`."""
    return NDArray(np.array(source.numpy() if isinstance(source, NDArray) else source),
                   device)

"""Thread count of a torch baseline, its BLAS included.

torch.set_num_threads sets the threads of torch's own parallel loops
(OpenMP) only. Debian's torch 1.13 has no MKL: its GEMMs (linear, matmul,
bmm) call OpenBLAS, whose own thread pool starts with one thread per core
and ignores torch.set_num_threads. A "1-thread" torch baseline then ran its
GEMMs on every core (measured on a 2-vCPU machine: 4096 x 3072 x 768 took
65 ms with torch.set_num_threads(1) alone, 120 ms once OpenBLAS had one
thread too). `set_threads` sets both.
"""

import ctypes

import torch

def _openblas():
    """The OpenBLAS that torch loaded, if any (found among the process's
    mapped files: its soname varies, e.g. libopenblasp-r0.3.21.so)."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        if hasattr(lib, "openblas_set_num_threads"):
            return lib
    return None


def set_threads(threads):
    """torch's intra-op threads and, when torch's BLAS is OpenBLAS, its
    threads. Returns a note for the benchmark's output."""
    torch.set_num_threads(threads)
    lib = _openblas()
    if lib is None:
        return "torch: %d thread(s)" % threads
    lib.openblas_set_num_threads(threads)
    return "torch: %d thread(s), OpenBLAS %d" % (threads, lib.openblas_get_num_threads())

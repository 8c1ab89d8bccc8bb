"""Peak float32 FMA throughput of this machine, measured (not assumed).

    /usr/bin/python3 bench/peak_fma.py [--threads 1 2]

A C kernel of independent FMA chains on the widest vectors the CPU has
(AVX-512, AVX2 or SSE, from /proc/cpuinfo; GCC/Clang vector extensions, so no
intrinsics) is compiled with the system C compiler (`cc -O2 -march=native`)
and timed; with T threads, T processes run it at once and their rates add
up. Enough chains are in flight to cover the FMA latency of every core this
project has met (4 cycles, 2 pipes), so the loop is throughput bound. Other
benchmarks (bench/matmul.py) import `peak_gflops(threads)` to print their
speed as a fraction of this peak.
"""

import argparse
import ctypes
import multiprocessing
import os
import shutil
import subprocess
import tempfile
import time

def kernel_source(nbytes, chains):
    """C of `chains` independent FMA chains on `nbytes`-byte vectors, each
    in a variable of its own (an array would live in memory)."""
    lanes = nbytes // 4
    acc = ["a%d" % i for i in range(chains)]
    lines = ["typedef float vf __attribute__((vector_size(%d)));" % nbytes,
             "double fma_chains(long iters) {",
             "  vf zero = {0};",
             "  vf b = zero + 0.999f, c = zero + 1e-3f;"]
    # Whole-vector operations only: a subscripted vector lives in memory.
    lines += ["  vf %s = zero + %d.0f;" % (a, i) for i, a in enumerate(acc)]
    lines += ["  for (long it = 0; it < iters; ++it) {"]
    # The empty asm keeps each chain in a register, computed every time.
    lines += ['    %s = %s * b + c; __asm__ volatile("" : "+v"(%s));' % (a, a, a)
              for a in acc]
    lines += ["  }", "  vf total = %s;" % " + ".join(acc), "  double sum = 0;",
              "  for (int l = 0; l < %d; ++l)" % lanes, "    sum += total[l];",
              "  return sum;", "}", ""]
    return "\n".join(lines)


def vector_bytes():
    flags = set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    if "avx512f" in flags:
        return 64
    if "avx2" in flags and "fma" in flags:
        return 32
    return 16


_LIB = None


def _library():
    global _LIB
    if _LIB is None:
        nbytes = vector_bytes()
        # 32 vector registers with AVX-512, 16 otherwise (2 hold b and c).
        chains = 24 if nbytes == 64 else 12
        tmp = tempfile.mkdtemp(prefix="mlc-peak-")
        src, lib = os.path.join(tmp, "fma.c"), os.path.join(tmp, "fma.so")
        with open(src, "w") as f:
            f.write(kernel_source(nbytes, chains))
        subprocess.run(["cc", "-O2", "-march=native", "-ffp-contract=fast", "-shared",
                        "-fPIC", src, "-o", lib], check=True)
        dll = ctypes.CDLL(lib)
        shutil.rmtree(tmp)  # loaded: the files are no longer needed
        dll.fma_chains.argtypes = [ctypes.c_long]
        dll.fma_chains.restype = ctypes.c_double
        _LIB = (dll, chains * (nbytes // 4) * 2)
    return _LIB


def _rate(seconds=0.3):
    """GFLOP/s of one thread: the best of 5 timed runs of ~`seconds`."""
    dll, flops_per_iter = _library()
    iters = 1 << 16
    while True:
        start = time.perf_counter()
        dll.fma_chains(iters)
        elapsed = time.perf_counter() - start
        if elapsed > seconds / 4:
            break
        iters *= 4
    iters = int(iters * seconds / elapsed)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        dll.fma_chains(iters)
        best = min(best, time.perf_counter() - start)
    return iters * flops_per_iter / best / 1e9


def _worker(_):
    return _rate()


def peak_gflops(threads=1):
    """Float32 FMA peak of `threads` cores in GFLOP/s, measured now."""
    _library()  # compiled once, before the workers fork
    if threads == 1:
        return _rate()
    with multiprocessing.get_context("fork").Pool(threads) as pool:
        return sum(pool.map(_worker, range(threads)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    print("vector width: %d bytes" % vector_bytes())
    for t in args.threads:
        print("threads %d: %.1f GFLOP/s (f32 FMA peak)" % (t, peak_gflops(t)))


if __name__ == "__main__":
    main()

"""The OpenBLAS kernels of the numpy and torch baselines: the fastest this
machine has, measured.

Debian's OpenBLAS (0.3.21) picks its kernels from the CPU model. On a CPU
it does not know (a VM whose model is "Intel(R) Xeon(R) Processor", with
AVX-512) it falls back to Prescott's SSE3 kernels: measured on such a
machine, a 2048^3 sgemm ran at 31 GFLOP/s instead of 138 with
OPENBLAS_CORETYPE=Cooperlake, and torch's 1600x768x3072 linear layer took
388 ms instead of 92 (torch 1.13's GEMMs are OpenBLAS's). A baseline that
slow makes every ratio against it a lie. Other machines set
OPENBLAS_CORETYPE in their environment to a slower core than the one
OpenBLAS would pick.

`configure()` times a single-thread sgemm in subprocesses with the core
types the CPU's flags allow (OpenBLAS's own choice, the environment's, and
Haswell, SkylakeX, Cooperlake or Zen as the flags allow), sets
OPENBLAS_CORETYPE to the fastest and re-executes the script, so that
OpenBLAS reads it when it loads. Benchmarks call it first thing in main()
and print `describe()`. With MLC_BENCH_OPENBLAS_CORETYPE set, that value is
used without measuring ("auto": OpenBLAS's own choice).
"""

import os
import subprocess
import sys

_DONE = "MLC_BENCH_BLAS_CONFIGURED"
_AUTO = "auto"

_PROBE = """
import sys, time
import numpy as np
n = 768
a = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
a @ a
best = 1e9
for _ in range(5):
    start = time.perf_counter()
    a @ a
    best = min(best, time.perf_counter() - start)
print(2 * n ** 3 / best / 1e9)
"""


def _cpu():
    """(vendor, flags) of the first CPU in /proc/cpuinfo."""
    vendor, flags = "", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "vendor_id":
                    vendor = value.strip()
                elif key.strip() == "flags":
                    flags = set(value.split())
                    break
    except OSError:
        pass
    return vendor, flags


def candidates(env=os.environ):
    """The core types worth timing on this CPU; "auto" is OpenBLAS's own
    choice (OPENBLAS_CORETYPE unset)."""
    vendor, flags = _cpu()
    found = [_AUTO]
    if env.get("OPENBLAS_CORETYPE"):
        found.append(env["OPENBLAS_CORETYPE"])
    if "avx2" in flags and "fma" in flags:
        found.append("Haswell")
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        found.append("SkylakeX")
        if "avx512_bf16" in flags:
            found.append("Cooperlake")
    if vendor == "AuthenticAMD" and "avx2" in flags:
        found.append("Zen")
    return list(dict.fromkeys(found))


def _env_for(core):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    if core != _AUTO:
        env["OPENBLAS_CORETYPE"] = core
    return env


def measure():
    """{core type: single-thread sgemm GFLOP/s} (failed probes left out)."""
    rates = {}
    for core in candidates():
        env = dict(_env_for(core), OPENBLAS_NUM_THREADS="1",
                   OMP_NUM_THREADS="1")
        try:
            out = subprocess.run([sys.executable, "-c", _PROBE], env=env,
                                 capture_output=True, text=True, timeout=120,
                                 check=True)
            rates[core] = float(out.stdout.strip().splitlines()[-1])
        except (subprocess.SubprocessError, ValueError, IndexError):
            continue
    return rates


def configure():
    """Runs the script again with the fastest OpenBLAS core type in its
    environment (once: the re-executed script returns at once)."""
    if os.environ.get(_DONE):
        return
    chosen = os.environ.get("MLC_BENCH_OPENBLAS_CORETYPE")
    note = "set by MLC_BENCH_OPENBLAS_CORETYPE"
    if not chosen:
        rates = measure()
        chosen = max(rates, key=rates.get) if rates else _AUTO
        note = "fastest of " + ", ".join(
            "%s %.0f" % item for item in sorted(rates.items(),
                                                key=lambda item: -item[1]))
        note += " GFLOP/s (1-thread sgemm 768^3)"
    env = dict(_env_for(chosen), **{_DONE: note})
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def describe():
    """One line for the benchmark's output: the core type the baselines
    use, and why."""
    core = os.environ.get("OPENBLAS_CORETYPE", "OpenBLAS's own choice")
    return "baseline OpenBLAS core: %s (%s)" % (
        core, os.environ.get(_DONE, "not measured: blas_baseline.configure() "
                                    "was not called"))


if __name__ == "__main__":
    for core, rate in sorted(measure().items(), key=lambda item: -item[1]):
        print("%-12s %7.1f GFLOP/s" % (core, rate))

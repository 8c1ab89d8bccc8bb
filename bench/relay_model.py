"""A Relay model with its weights and inputs in a temporary directory, for
the benchmarks that compile and time it with mlc's tools (compile_time.py,
cnn_threads.py, peers/*.py).

    with RelayModel(text, params, {"data": x}) as model:
        median_ms, out0 = model.bench(threads=1, runs=20)

`model.mlir` is the imported module, `model.params` / `model.inputs` the
.npz files and `model.dir` the directory; `bench` runs `mlc-run --params
--inputs --bench=RUNS --threads=T` (weights bound at compile time) and
returns its median latency and first output.

To compare with a peer runtime in one process (bench/peers/), `load()`
compiles the model with its weights bound into a shared library and loads
it here (an mlc.runtime Function), `set_mlc_threads` sets its OpenMP
threads, and `time_alternating` times several callables in alternating
blocks, so that the machine's slow and fast phases (this project's VMs
drift by up to 1.5x within minutes) fall on all of them alike.
"""

import ctypes
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "python"))
from mlc.tools import find_tool  # noqa: E402


class RelayModel:
    def __init__(self, text, params, inputs):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name
        relay = os.path.join(self.dir, "model.relay")
        with open(relay, "w") as f:
            f.write(text)
        self.mlir = os.path.join(self.dir, "model.mlir")
        self.params = os.path.join(self.dir, "params.npz")
        self.inputs = os.path.join(self.dir, "inputs.npz")
        self.outputs = os.path.join(self.dir, "outputs.npz")
        np.savez(self.params, **params)
        np.savez(self.inputs, **inputs)
        subprocess.run([find_tool("mlc-translate"), "--import-relay", relay, "-o", self.mlir],
                       check=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._tmp.cleanup()

    def run_command(self, *extra):
        """`mlc-run` on the model with its weights and inputs."""
        return [find_tool("mlc-run"), self.mlir, "--params=" + self.params,
                "--inputs=" + self.inputs, "--outputs=" + self.outputs, "--quiet", *extra]

    def bench(self, threads, runs, extra=()):
        """(median ms of `runs` inferences on `threads` threads, output 0);
        `extra`: more mlc-run options."""
        out = subprocess.run(self.run_command("--bench=%d" % runs, "--threads=%d" % threads,
                                              *extra),
                             check=True, capture_output=True, text=True)
        median = float(re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr).group(1))
        return median, np.load(self.outputs)["out0"]

    def load(self, extra=()):
        """The model compiled (`mlc-compile`, weights bound as constants,
        `extra` more options) into a shared library loaded in this process:
        its mlc.runtime Function, called with the inputs."""
        from mlc import runtime
        bound = os.path.join(self.dir, "bound.mlir")
        library = os.path.join(self.dir, "model.so")
        subprocess.run([find_tool("mlc-opt"), self.mlir,
                        "--relay-bind-params=params=" + self.params, "-o", bound], check=True)
        subprocess.run([find_tool("mlc-compile"), bound, "-o", library, *extra], check=True)
        module = runtime.load_module(library)
        return module[module.entry_names[0]]


def set_mlc_threads(threads):
    """OpenMP threads of the mlc libraries loaded in this process (their
    libomp, already loaded: found by its soname)."""
    ctypes.CDLL("libomp.so.5").omp_set_num_threads(threads)


def time_alternating(calls, runs, block=5, pause=0.3):
    """Median milliseconds of each callable in `calls` over `runs` calls
    each, timed in alternating blocks of `block` calls. Each block follows
    a pause of `pause` seconds, so that the previous runtime's idle threads
    have stopped spinning (libomp spins 200 ms after a parallel region) and
    do not take a core from the next one."""
    times = [[] for _ in calls]
    for call in calls:
        call()  # warm-up
    while len(times[0]) < runs:
        for call, spent in zip(calls, times):
            time.sleep(pause)
            for _ in range(min(block, runs - len(spent))):
                start = time.perf_counter()
                call()
                spent.append(time.perf_counter() - start)
    return [statistics.median(spent) * 1e3 for spent in times]

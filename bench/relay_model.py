"""A Relay model with its weights and inputs in a temporary directory, for
the benchmarks that compile and time it with mlc's tools (compile_time.py,
cnn_threads.py, peers/*.py).

    with RelayModel(text, params, {"data": x}) as model:
        median_ms, out0 = model.bench(threads=1, runs=20)

`model.mlir` is the imported module, `model.params` / `model.inputs` the
.npz files and `model.dir` the directory; `bench` runs `mlc-run --params
--inputs --bench=RUNS --threads=T` (weights bound at compile time) and
returns its median latency and first output.
"""

import os
import re
import subprocess
import sys
import tempfile

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

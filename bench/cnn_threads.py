"""Latency and thread scaling of full-size CNNs (bench/cnn_models.py:
ResNet-50 v1 and MobileNet-v2, batch 1, 224x224, weights bound at compile
time) with `mlc-run --bench`.

    /usr/bin/python3 bench/cnn_threads.py [--models resnet50 mobilenet_v2]
        [--threads 1 2] [--runs 20]

For each model and thread count it prints the median latency of --runs
inferences (after a warm-up run) and the speed-up over the first thread
count (the issue's target: >= 1.7x from 1 to 2 threads, and never slower).
Each model's output is checked against its float64 numpy reference (rtol
1e-4, atol 1e-5). There is no peer baseline here: torch is not installed
on the build machines (see the bench/peers plan in the issue).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cnn_models  # noqa: E402


def tool(name):
    return os.path.join(os.environ.get("MLC_TOOLS_DIR", os.path.join(ROOT, "build", "bin")), name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", choices=sorted(cnn_models.MODELS),
                        default=["resnet50", "mobilenet_v2"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    failed = False
    print("%-14s %8s %12s %9s" % ("model", "threads", "median ms", "speed-up"))
    for name in args.models:
        build, reference = cnn_models.MODELS[name]
        text, params, data = build()
        want = reference(params, data)
        with tempfile.TemporaryDirectory() as tmp:
            relay, model = os.path.join(tmp, "model.relay"), os.path.join(tmp, "model.mlir")
            weights, inputs = os.path.join(tmp, "params.npz"), os.path.join(tmp, "inputs.npz")
            outputs = os.path.join(tmp, "out.npz")
            with open(relay, "w") as f:
                f.write(text)
            np.savez(weights, **params)
            np.savez(inputs, data=data)
            subprocess.run([tool("mlc-translate"), "--import-relay", relay, "-o", model],
                           check=True)
            first = None
            for threads in args.threads:
                out = subprocess.run(
                    [tool("mlc-run"), model, "--params=" + weights, "--inputs=" + inputs,
                     "--outputs=" + outputs, "--quiet", "--bench=%d" % args.runs,
                     "--threads=%d" % threads], check=True, capture_output=True, text=True)
                median = float(re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr)
                               .group(1))
                first = first or median
                ok = np.allclose(np.load(outputs)["out0"], want, rtol=1e-4, atol=1e-5)
                failed |= not ok
                print("%-14s %8d %12.2f %8.2fx%s" % (name, threads, median, first / median,
                                                   "" if ok else "  WRONG"), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

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
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cnn_models  # noqa: E402
from relay_model import RelayModel  # noqa: E402


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
        with RelayModel(text, params, {"data": data}) as model:
            first = None
            for threads in args.threads:
                median, got = model.bench(threads, args.runs)
                first = first or median
                ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
                failed |= not ok
                print("%-14s %8d %12.2f %8.2fx%s" % (name, threads, median, first / median,
                                                   "" if ok else "  WRONG"), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Latency and thread scaling of full-size CNNs (bench/cnn_models.py:
ResNet-50 v1 and MobileNet-v2, batch 1, 224x224, weights bound at compile
time) with `mlc-run --bench`.

    /usr/bin/python3 bench/cnn_threads.py [--models resnet50 mobilenet_v2]
        [--threads 1 2] [--runs 10] [--rounds 5]

For each model it runs `mlc-run --bench=RUNS` once per thread count in each
of ROUNDS rounds, the thread counts interleaved (the compiled model comes
from mlc-run's cache after the first round), and prints per thread count
the lowest and the median of the rounds' median latencies, and the
speed-up over the first thread count: that of the lowest latencies and the
range of the rounds' own speed-ups. The speed of this project's shared
2-vCPU machines drifts by up to 1.5x within minutes; rounds put both
thread counts under the same drift, where timing one after the other made
the speed-up of the same binary read anywhere from 1.2x to 1.9x. The
issue's target is >= 1.7x from 1 to 2 threads, and never slower. Each
model's output is checked against its float64 numpy reference (rtol 1e-4,
atol 1e-5). There is no peer baseline here (bench/torch_models.py and
bench/peers/ compare with torch and ONNX Runtime).
"""

import argparse
import os
import statistics
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
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    failed = False
    print("%-14s %8s %10s %10s %9s %15s" % ("model", "threads", "min ms", "median ms",
                                            "speed-up", "rounds' range"))
    for name in args.models:
        build, reference = cnn_models.MODELS[name]
        text, params, data = build()
        want = reference(params, data)
        with RelayModel(text, params, {"data": data}) as model:
            times = {t: [] for t in args.threads}
            for _ in range(max(args.rounds, 1)):
                for threads in args.threads:
                    median, got = model.bench(threads, args.runs)
                    times[threads].append(median)
                    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
                        print("%s, %d threads: WRONG output" % (name, threads))
                        failed = True
            first = times[args.threads[0]]
            for threads in args.threads:
                mine = times[threads]
                ratios = sorted(a / b for a, b in zip(first, mine))
                print("%-14s %8d %10.2f %10.2f %8.2fx %7.2f-%.2fx" % (
                    name, threads, min(mine), statistics.median(mine),
                    min(first) / min(mine), ratios[0], ratios[-1]), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

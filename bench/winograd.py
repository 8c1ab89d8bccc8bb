"""Winograd convolutions: mlc's direct 3x3 convolutions against
F(2x2, 3x3) and F(4x4, 3x3) (the CPU pipeline's winograd-tile option,
mlc-cpu-winograd-convolution) in one run.

    /usr/bin/python3 bench/winograd.py [--layers 56x64 28x128 14x256 7x512]
        [--model] [--threads 1 2] [--runs 20]

Each layer is ResNet-50's 3x3 stride-1 convolution with its folded batch
norm and relu, channels-last (NHWC images, HWIO weights) at batch 1, H x W
x C -> C channels, random weights bound at compile time; --model adds the
whole ResNet-50 of bench/cnn_models.py. Each is compiled three times
(winograd-tile = 0, 2, 4: a tile that does not divide the output falls
back to 2, then to the direct convolution), the libraries loaded in this
process and timed alternately (median ms of RUNS calls); the ratio is
direct / Winograd (> 1: Winograd is faster). Every output is compared with
a numpy float64 reference (atol 1e-5 * sqrt(9 C) * max |reference|, rtol
1e-5; ResNet-50: rtol 1e-4, atol 1e-5, as bench/cnn_threads.py); a
mismatch fails the script. Direct is the default: the tuner (mlc-tune,
bench/tuning.py) picks the algorithm per kernel.
"""

import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "python"))
import cnn_models  # noqa: E402
from relay_model import RelayModel, set_mlc_threads, time_alternating  # noqa: E402

TILES = (0, 2, 4)


def layer(h, c):
    """(relay text, params, data, reference) of a 3x3 conv + bn + relu."""
    builder = cnn_models.RelayBuilder(0, layout="NHWC")
    data = np.random.default_rng(1).standard_normal((1, h, h, c)).astype(np.float32)
    x = builder.arg("data", data)
    y = builder.conv_bn(x, "c", c, c, 3, 1)
    text, params = builder.finish(y)
    params.pop("data")

    def reference(p, d):
        w = p["c_weight"].astype(np.float64)  # HWIO
        padded = np.pad(d.astype(np.float64), ((0, 0), (1, 1), (1, 1), (0, 0)))
        out = np.zeros((1, h, h, c))
        for i in range(3):
            for j in range(3):
                out += padded[:, i:i + h, j:j + h, :] @ w[i, j]
        gamma, beta, mean, var = (p["c_bn_" + k].astype(np.float64)
                                  for k in ("gamma", "beta", "mean", "var"))
        scale = gamma / np.sqrt(var + 1e-5)
        return np.maximum(out * scale + beta - mean * scale, 0)

    return text, params, data, reference


def compile_variants(text, params, data, tmp, name):
    from mlc import runtime
    functions = []
    for tile in TILES:
        model = RelayModel(text, params, {"data": data})
        model.load(["--pipeline-options=winograd-tile=%d" % tile])
        library = os.path.join(tmp, "%s-%d.so" % (name, tile))
        shutil.copy(os.path.join(model.dir, "model.so"), library)
        module = runtime.load_module(library)
        functions.append(module[module.entry_names[0]])
    return functions


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", nargs="*", default=["56x64", "28x128", "14x256", "7x512"])
    parser.add_argument("--model", action="store_true", help="also the whole ResNet-50")
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    cases = []
    for spec in args.layers:
        h, c = map(int, spec.split("x"))
        text, params, data, reference = layer(h, c)
        want = reference(params, data)
        cases.append(("%dx%dx%d" % (h, h, c), text, params, data, want, 1e-5,
                      1e-5 * np.sqrt(9 * c) * np.abs(want).max()))
    if args.model:
        build, reference = cnn_models.MODELS["resnet50"]
        text, params, data = build()
        cases.append(("resnet50", text, params, data, reference(params, data), 1e-4, 1e-5))
    failed = False
    print("%-12s %7s %10s %10s %10s %8s %8s" % ("layer", "threads", "direct ms", "F(2) ms",
                                              "F(4) ms", "F(2) x", "F(4) x"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, params, data, want, rtol, atol in cases:
            functions = compile_variants(text, params, data, tmp, name)
            for tile, function in zip(TILES, functions):
                got = np.asarray(function(data))
                if not np.allclose(got, want, rtol=rtol, atol=atol):
                    print("%s winograd-tile=%d: MISMATCH (max |difference| %.3g)"
                          % (name, tile, np.abs(got - want).max()))
                    failed = True
            for threads in args.threads:
                set_mlc_threads(threads)
                ms = time_alternating([lambda f=f: f(data) for f in functions], args.runs)
                print("%-12s %7d %10.3f %10.3f %10.3f %8.2f %8.2f" % (
                    name, threads, ms[0], ms[1], ms[2], ms[0] / ms[1], ms[0] / ms[2]),
                    flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Compile time of a full-size model: ResNet-50 v1 (batch 1, 224x224,
weights bound at compile time), built here in Relay text.

    /usr/bin/python3 bench/compile_time.py [--runs 3] [--target cpu|cuda]

Measures, `--runs` times each (median reported):
  * `mlc-run --params --inputs` wall time: import, bind the weights, the
    whole CPU pipeline, LLVM, JIT, one inference (what a user waits for);
  * `mlc-opt --mlc-cpu-pipeline` on the bound model: the MLIR part alone;
  * `mlc-compile` (AOT, a shared library) wall time, with `--target cuda`
    `mlc-compile --target=cuda:sm_90` (needs the CUDA toolkit, no GPU).
The mlc-run result is checked against a float64 numpy ResNet-50 computed
here from the same weights (rtol 1e-4, atol 1e-5: 53 convolutions of f32
accumulation), so a fast compile of a wrong model does not pass unnoticed.
Prints seconds; there is no peer baseline for compile time: compare runs of
this script across commits on the same machine.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from models import batch_norm, conv2d_nchw, weight, batch_norm_params  # noqa: E402

STAGES = [(3, 64), (4, 128), (6, 256), (3, 512)]


def tool(name):
    return os.path.join(os.environ.get("MLC_TOOLS_DIR", os.path.join(ROOT, "build", "bin")), name)


def resnet50():
    """(relay text, params, input) of ResNet-50 v1 with random weights."""
    rng = np.random.default_rng(50)
    lines, args, params = [], [], {}
    count = [0]

    def let(expr):
        lines.append("  %%%d = %s;" % (count[0], expr))
        count[0] += 1
        return "%%%d" % (count[0] - 1)

    def arg(name, value):
        args.append("%%%s: Tensor[(%s), float32]" % (name, ", ".join(map(str, value.shape))))
        params[name] = value
        return "%" + name

    def conv_bn(x, name, cin, cout, k, stride, relu=True):
        w = arg(name + "_weight", weight(rng, cout, cin, k, k))
        pad = k // 2
        y = let("nn.conv2d(%s, %s, strides=[%d, %d], padding=[%d, %d, %d, %d], channels=%d, "
                "kernel_size=[%d, %d])" % (x, w, stride, stride, pad, pad, pad, pad, cout, k, k))
        bn = batch_norm_params(rng, name + "_bn", cout)
        y = let("nn.batch_norm(%s, %s)" % (y, ", ".join(arg(k, v) for k, v in bn.items())))
        y = let("%s.0" % y)
        return let("nn.relu(%s)" % y) if relu else y

    data = rng.random((1, 3, 224, 224)).astype(np.float32)
    args.append("%data: Tensor[(1, 3, 224, 224), float32]")
    x = conv_bn("%data", "stem", 3, 64, 7, 2)
    x = let("nn.max_pool2d(%s, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])" % x)
    cin = 64
    for s, (blocks, width) in enumerate(STAGES):
        for b in range(blocks):
            stride = 2 if b == 0 and s > 0 else 1
            name = "s%db%d" % (s, b)
            y = conv_bn(x, name + "_c1", cin, width, 1, 1)
            y = conv_bn(y, name + "_c2", width, width, 3, stride)
            y = conv_bn(y, name + "_c3", width, 4 * width, 1, 1, relu=False)
            shortcut = conv_bn(x, name + "_down", cin, 4 * width, 1, stride, relu=False) \
                if b == 0 else x
            x = let("nn.relu(%s)" % let("add(%s, %s)" % (y, shortcut)))
            cin = 4 * width
    x = let("nn.batch_flatten(%s)" % let("nn.global_avg_pool2d(%s)" % x))
    x = let("nn.dense(%s, %s, units=1000)" % (x, arg("fc_weight", weight(rng, 1000, 2048))))
    x = let("nn.bias_add(%s, %s)" % (x, arg("fc_bias", (rng.standard_normal(1000) * 0.1)
                                             .astype(np.float32))))
    text = '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n  %s\n}\n' % (
        ", ".join(args), "\n".join(lines), x)
    return text, params, data


def reference(p, data):
    """ResNet-50 v1 in float64 numpy."""
    p = {k: v.astype(np.float64) for k, v in p.items()}

    def conv_bn(x, name, stride, relu=True):
        w = p[name + "_weight"]
        y = batch_norm(conv2d_nchw(x, w, w.shape[2] // 2, stride), p, name + "_bn")
        return np.maximum(y, 0) if relu else y

    x = conv_bn(data.astype(np.float64), "stem", 2)
    x = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    h = (x.shape[2] - 3) // 2 + 1
    x = np.max([x[:, :, i:i + 2 * h:2, j:j + 2 * h:2] for i in range(3) for j in range(3)], 0)
    for s, (blocks, _) in enumerate(STAGES):
        for b in range(blocks):
            stride = 2 if b == 0 and s > 0 else 1
            name = "s%db%d" % (s, b)
            y = conv_bn(x, name + "_c1", 1)
            y = conv_bn(y, name + "_c2", stride)
            y = conv_bn(y, name + "_c3", 1, relu=False)
            shortcut = conv_bn(x, name + "_down", stride, relu=False) if b == 0 else x
            x = np.maximum(y + shortcut, 0)
    x = x.mean(axis=(2, 3))
    return x @ p["fc_weight"].T + p["fc_bias"]


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    text, params, data = resnet50()
    with tempfile.TemporaryDirectory() as tmp:
        relay = os.path.join(tmp, "resnet50.relay")
        with open(relay, "w") as f:
            f.write(text)
        model, bound = os.path.join(tmp, "resnet50.mlir"), os.path.join(tmp, "bound.mlir")
        weights, inputs = os.path.join(tmp, "params.npz"), os.path.join(tmp, "inputs.npz")
        outputs = os.path.join(tmp, "out.npz")
        np.savez(weights, **params)
        np.savez(inputs, data=data)
        subprocess.run([tool("mlc-translate"), "--import-relay", relay, "-o", model], check=True)
        subprocess.run([tool("mlc-opt"), model, "--relay-bind-params=params=" + weights,
                        "-o", bound], check=True)
        runs = {}
        if args.target == "cpu":
            runs["mlc-run (compile + 1 run)"] = [tool("mlc-run"), model, "--params=" + weights,
                                                 "--inputs=" + inputs, "--outputs=" + outputs,
                                                 "--quiet"]
            runs["mlc-opt --mlc-cpu-pipeline"] = [tool("mlc-opt"), bound, "--mlc-cpu-pipeline",
                                                  "-o", os.devnull]
            runs["mlc-compile (AOT .so)"] = [tool("mlc-compile"), bound, "-o",
                                             os.path.join(tmp, "cpu.so")]
        else:
            runs["mlc-compile --target=cuda:sm_90"] = [
                tool("mlc-compile"), "--target=cuda:sm_90", bound, "-o",
                os.path.join(tmp, "cuda.so")]
        print("ResNet-50 v1, batch 1, 224x224, %.1f M weights bound at compile time"
              % (sum(v.size for v in params.values()) / 1e6))
        for name, cmd in runs.items():
            times = [timed(cmd) for _ in range(args.runs)]
            print("%-34s %7.2f s  (median of %d; min %.2f)"
                  % (name, statistics.median(times), args.runs, min(times)))
        if args.target == "cpu":
            got = np.load(outputs)["out0"]
            want = reference(params, data)
            ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
            print("output vs float64 numpy: %s (max abs %.2e)"
                  % ("ok" if ok else "WRONG", np.abs(got - want).max()))
            return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""mlc vs torch on PyTorch models imported with from_fx (or, with
--frontend torchscript, traced and imported with relay's from_pytorch,
which also takes swin_t and vit_b_16): torchvision
classifiers (random weights, batch 1) and the BERT / GPT-2 / LLaMA-style
blocks of test/Inputs/python/torch_models.py (hidden 768, 12 heads,
sequence 128), at 1 and 2 threads in one run, plus mlc's compile time.

    /usr/bin/python3 bench/torch_models.py [--models resnet18 bert ...]
        [--threads 1 2] [--runs 10] [--resolution 224] [--frontend fx|torchscript]
        [--pipeline-options "conv-layout=NHWC"]

mlc: `mlc-run --bench=RUNS --threads=T` (weights bound at compile time),
median latency; compile time is the wall time of one mlc-run without
--bench (compilation plus one inference). torch: median of RUNS calls after
a warm-up, T threads for torch and its BLAS (bench/torch_threads.py). The ratio is torch time / mlc time
(> 1: mlc is faster). Each mlc output is checked against torch's (rtol 1e-4,
atol 1e-4 times the largest output magnitude).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torchvision

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "test", "Inputs", "python"))
from mlc.relax.frontend import detach_params  # noqa: E402
from mlc.relax.frontend.torch import from_fx  # noqa: E402
from mlc.relay.frontend import from_pytorch  # noqa: E402
from mlc.tools import find_tool, save_npz  # noqa: E402
import torch_models  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "bench"))
from torch_threads import set_threads  # noqa: E402
import blas_baseline  # noqa: E402

BLOCK_CONFIG = {"bert": dict(hidden=768, heads=12, ffn=3072),
                "gpt2": dict(hidden=768, heads=12, max_len=128),
                "llama": dict(hidden=768, heads=12, ffn=2048, max_len=128)}


def build(name, resolution, rng):
    if name in torch_models.BLOCKS:
        model = torch_models.BLOCKS[name](**BLOCK_CONFIG[name]).eval()
        inputs, _ = torch_models.block_inputs(name, rng, 1, 128, 768)
        info = [(x.shape, "float32") for x in inputs]
    else:
        model = getattr(torchvision.models, name)().eval()
        if hasattr(model, "heads"):  # ViT's head is zero-initialized
            torch.nn.init.normal_(model.heads.head.weight, std=0.02)
        inputs = (rng.standard_normal((1, 3, resolution, resolution)).astype("float32"),)
        info = [(inputs[0].shape, "float32")]
    return model, inputs, info


def torch_median(model, inputs, threads, runs):
    set_threads(threads)
    tensors = [torch.from_numpy(x) for x in inputs]
    times = []
    with torch.no_grad():
        model(*tensors)
        for _ in range(runs):
            start = time.perf_counter()
            model(*tensors)
            times.append(time.perf_counter() - start)
    return 1e3 * float(np.median(times))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+",
                        default=["resnet18", "mobilenet_v2", "bert", "gpt2", "llama"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--resolution", type=int, default=224)
    parser.add_argument("--frontend", choices=["fx", "torchscript"], default="fx")
    parser.add_argument("--pipeline-options", default="",
                        help="mlc-run --pipeline-options (e.g. conv-layout=NCHW)")
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    print("%-16s %7s %10s %10s %7s %12s" % ("model", "threads", "mlc ms", "torch ms",
                                             "ratio", "compile s"))
    failed = False
    for name in args.models:
        model, inputs, info = build(name, args.resolution, rng)
        with torch.no_grad():
            ref = model(*[torch.from_numpy(x) for x in inputs]).numpy()
        if args.frontend == "torchscript":
            with torch.no_grad():
                traced = torch.jit.trace(model, tuple(torch.from_numpy(x) for x in inputs),
                                         check_trace=False)
            mod, named = from_pytorch(traced, [("in%d" % i, (x.shape, "float32"))
                                               for i, x in enumerate(inputs)])
            mod.param_names = {"main": list(named)}
            params = {"main": list(named.values())}
        else:
            mod, params = detach_params(from_fx(torch.fx.symbolic_trace(model), info,
                                                keep_params_as_input=True))
        with tempfile.TemporaryDirectory() as tmp:
            paths = {k: os.path.join(tmp, k) for k in
                     ("model.mlir", "params.npz", "inputs.npz", "outputs.npz")}
            with open(paths["model.mlir"], "w") as f:
                f.write(mod.text)
            save_npz(paths["params.npz"], dict(zip(mod.param_names["main"], params["main"])))
            names = re.findall(r'rela[xy]\.name = "([^"]+)"', mod.text.split("\n")[1])
            save_npz(paths["inputs.npz"], dict(zip(names, inputs)))
            command = [find_tool("mlc-run"), paths["model.mlir"], "--quiet",
                       "--params=" + paths["params.npz"], "--inputs=" + paths["inputs.npz"],
                       "--outputs=" + paths["outputs.npz"]]
            if args.pipeline_options:
                command.append("--pipeline-options=" + args.pipeline_options)
            start = time.perf_counter()
            subprocess.run(command, check=True)
            compile_s = time.perf_counter() - start
            out = np.load(paths["outputs.npz"])["out0"]
            scale = float(np.abs(ref).max())
            if not np.allclose(out, ref, rtol=1e-4, atol=1e-4 * scale):
                print("%s: WRONG output (max error %.2e)" % (name, np.abs(out - ref).max()))
                failed = True
            for threads in args.threads:
                run = subprocess.run(command + ["--bench=%d" % args.runs, "--threads=%d" % threads],
                                     check=True, capture_output=True, text=True)
                mlc_ms = float(re.search(r"median ([0-9.]+) ms", run.stdout + run.stderr).group(1))
                torch_ms = torch_median(model, inputs, threads, args.runs)
                print("%-16s %7d %10.2f %10.2f %7.2f %12.1f" % (
                    name, threads, mlc_ms, torch_ms, torch_ms / mlc_ms, compile_s), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

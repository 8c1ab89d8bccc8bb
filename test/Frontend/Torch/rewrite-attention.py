# relax-rewrite-attention on the BERT, GPT-2 and LLaMA-style blocks of
# test/Inputs/python/torch_models.py, imported with from_fx (hidden 128,
# 2 heads of 64, batch 2, 64 tokens): each block's spelled-out attention
# becomes one relax.nn.attention (GPT-2's masked_fill of its tril buffer and
# LLaMA's -inf mask become causal masks), and the model still matches torch:
# - on the CPU with rewrite-attention=true, float32: rtol 1e-4, atol 1e-4
#   times the largest output magnitude;
# - as the GPU pipeline computes it, emulated on the host
#   (emulate-gpu-schedule, which rewrites attention, with
#   mixed-precision=float16): within 2e-3 of the largest output magnitude,
#   four float16 unit roundoffs, and "[fused]" when the attention kernel is
#   the default schedule's flash-attention kernel.
# The same blocks exported to ONNX (torch.onnx, opset 14) and imported with
# mlc-translate --import-onnx rewrite the same way.
# RUN: %python %s | FileCheck %s
# CHECK: bert: 1 attention, bias
# CHECK-NEXT: bert cpu float32: ok
# CHECK-NEXT: bert gpu float16 [fused]: ok
# CHECK-NEXT: bert onnx: 1 attention, bias
# CHECK: gpt2: 1 attention, causal TopLeft
# CHECK-NEXT: gpt2 cpu float32: ok
# CHECK-NEXT: gpt2 gpu float16 [fused]: ok
# CHECK-NEXT: gpt2 onnx: 1 attention, causal TopLeft
# CHECK: llama: 1 attention, causal TopLeft
# CHECK-NEXT: llama cpu float32: ok
# CHECK-NEXT: llama gpu float16 [fused]: ok
# CHECK-NEXT: llama onnx: 1 attention, causal TopLeft

import os
import re
import sys
import tempfile

import numpy as np
import torch

from torch_models import BLOCKS, block_inputs
from mlc import tools
from mlc.relax.frontend.torch import from_fx

torch.manual_seed(0)
rng = np.random.default_rng(0)
CONFIG = {"bert": dict(hidden=128, heads=2, ffn=256),
          "gpt2": dict(hidden=128, heads=2, max_len=64),
          "llama": dict(hidden=128, heads=2, ffn=192, max_len=64)}
GPU = "emulate-gpu-schedule=true mixed-precision=float16"


def run(tmp, model, options):
    out = os.path.join(tmp, "out.npz")
    tools.run("mlc-run", [model, "--quiet", "--inputs=" + os.path.join(tmp, "in.npz"),
                          "--outputs=" + out, "--pipeline-options=" + options])
    with np.load(out) as data:
        return data["out0"]


def attention_ops(model):
    """The relax.nn.attention ops relax-rewrite-attention makes of `model`:
    how many, with which causal mask or bias."""
    rewritten = tools.run("mlc-opt", [model, "--relax-rewrite-attention"])
    ops = re.findall(r"relax\.nn\.attention %[^{:]*(?:\{[^}]*\})?", rewritten)
    kinds = ["causal " + m for op in ops for m in re.findall(r'causal_mask = "(\w+)"', op)]
    kinds += ["bias" for op in ops if op.count("%") == 4]
    return "%d attention, %s" % (len(ops), ", ".join(kinds))


for name, config in CONFIG.items():
    block = BLOCKS[name](**config).eval()
    inputs, _ = block_inputs(name, rng, 2, 64, hidden=128)
    mod = from_fx(torch.fx.symbolic_trace(block), [(x.shape, "float32") for x in inputs])
    with torch.no_grad():
        ref = block(*[torch.from_numpy(x) for x in inputs]).numpy()
    scale = float(np.abs(ref).max())
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "model.mlir")
        with open(model, "w") as f:
            f.write(str(mod))
        np.savez(os.path.join(tmp, "in.npz"), **dict(zip(["x", "mask"], inputs)))

        print("%s: %s" % (name, attention_ops(model)))

        got = run(tmp, model, "rewrite-attention=true")
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-4 * scale, err_msg=name)
        print("%s cpu float32: ok" % name)

        scheduled = tools.run("mlc-opt", [
            model, "--relax-rewrite-attention", "--relax-to-mixed-precision",
            "--relax-legalize-ops", "--tensorir-annotate-op-pattern",
            "--relax-fuse-ops", "--relax-fuse-tir",
            "--tensorir-default-schedule=target=cuda"])
        got = run(tmp, model, GPU)
        error = float(np.abs(got - ref).max()) / scale
        assert error <= 2e-3, (name, error)
        print("%s gpu float16 [%s]: ok" % (name, "fused" if "O_update" in scheduled else "unfused"))

        onnx_model = os.path.join(tmp, "model.onnx")
        torch.onnx.export(block, tuple(torch.from_numpy(x) for x in inputs), onnx_model,
                          opset_version=14)
        imported = os.path.join(tmp, "onnx.mlir")
        tools.run("mlc-translate", ["--import-onnx", onnx_model, "-o", imported])
        print("%s onnx: %s" % (name, attention_ops(imported)))

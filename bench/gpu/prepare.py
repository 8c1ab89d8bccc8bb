"""Build machine side of the GPU benchmark: compiles the cases with
`mlc-compile --target=cuda`, writes their inputs and float64 numpy
references and manifest.json into a directory (default bench/gpu/build)
that bench/gpu/run.py reads on a machine with a GPU.

    /usr/bin/python3 bench/gpu/prepare.py [--dir bench/gpu/build] [--chip sm_90]

Cases: the five example models (weights bound at compile time; their
inputs and references are written here), a BERT-base encoder layer and
ResNet-50 (weights as inputs, made on the GPU machine) and single kernels written in Relay
(matmul 1024, 4096 and 1000x777x1023, dense 2048, add, relu, softmax, sum,
layer_norm) or relax (float16 attention), whose inputs and references run.py makes from a seed on the GPU
machine so that the directory stays small enough to copy.
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "examples"))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cnn_models  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import run as run_py  # noqa: E402  (the hashed weights of bound cases)
import models  # noqa: E402
from mlc.tools import find_tool as tool  # noqa: E402


def run(*args):
    subprocess.run([str(a) for a in args], check=True)


def relay_kernel(name, params, body, out_type, dtype="float32"):
    args = ", ".join(f"%{n}: Tensor[({', '.join(map(str, s))}), {dtype}]" for n, s in params)
    return f"#[version = \"0.0.5\"]\ndef @main({args}) -> {out_type} {{\n  {body}\n}}\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=os.path.join(ROOT, "bench", "gpu", "build"))
    parser.add_argument("--chip", default="sm_90")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    cases = []

    def compile_case(name, mlir, pipeline_options=None, chip=None, **case):
        so = f"{name}.so"
        extra = [f"--pipeline-options={pipeline_options}"] if pipeline_options else []
        run(tool("mlc-compile"), f"--target=cuda:{chip or args.chip}", *extra, mlir, "-o",
            os.path.join(args.dir, so))
        cases.append({"name": name, "so": so, "entry": "main", **case})

    for model in ("mlp", "cnn", "resnet", "mobilenet", "transformer"):
        mlir = os.path.join(args.dir, f"{model}.mlir")
        run(tool("mlc-translate"), "--import-relay", os.path.join(ROOT, "examples", f"{model}.relay"), "-o", mlir)
        params, inputs = os.path.join(args.dir, f"{model}-params.npz"), os.path.join(args.dir, f"{model}-inputs.npz")
        run(sys.executable, os.path.join(ROOT, "examples", "models.py"), "make", model, params, inputs)
        bound = os.path.join(args.dir, f"{model}-bound.mlir")
        run(tool("mlc-opt"), mlir, f"--relay-bind-params=params={params}", "-o", bound)
        p = {k: v.astype(np.float64) for k, v in np.load(params).items()}
        ref = models.MODELS[model][1](p, np.load(inputs)["data"].astype(np.float64))
        np.savez(os.path.join(args.dir, f"{model}-reference.npz"), out0=ref)
        compile_case(model, bound, kind="model", inputs=f"{model}-inputs.npz", params=f"{model}-params.npz",
                     reference=f"{model}-reference.npz", rtol=1e-5, atol=models.MODELS[model][2], flops=None, bytes=None,
                     torch={"op": f"model:{model}"})
        # Mixed precision (relax-to-mixed-precision): float16 or bfloat16
        # contractions with float32 accumulation, against torch under
        # autocast of the same type. Tolerance: 8 unit roundoffs of the type
        # (2^-11, 2^-8) of the output's magnitude.
        for suffix, dtype, roundoff in [("f16", "float16", 2.0 ** -11), ("bf16", "bfloat16", 2.0 ** -8)]:
            compile_case(f"{model}_{suffix}", bound, pipeline_options=f"mixed-precision={dtype}", kind="model",
                         inputs=f"{model}-inputs.npz", params=f"{model}-params.npz",
                         reference=f"{model}-reference.npz", rtol=0.0,
                         atol=float(8 * roundoff * np.abs(ref).max()), flops=None, bytes=None,
                         torch={"op": f"model:{model}", "autocast": dtype})

    def kernel(name, shapes, body, out_shape, op, flops=None, bytes_=None, rtol=1e-5, atol=1e-6, dtype="float32",
               pipeline_options=None, torch_extra=None, chip=None, out_dtype="float32", **extra):
        # Inputs and the float64 numpy reference are made on the GPU machine
        # from the seed (run.py's REFERENCES[op]): large arrays do not travel.
        out_type = f"Tensor[({', '.join(map(str, out_shape))}), {out_dtype}]"
        path = os.path.join(args.dir, f"{name}.relay")
        with open(path, "w") as f:
            f.write(relay_kernel(name, shapes, body, out_type, dtype))
        mlir = os.path.join(args.dir, f"{name}.mlir")
        run(tool("mlc-translate"), "--import-relay", path, "-o", mlir)
        compile_case(name, mlir, pipeline_options=pipeline_options, chip=chip, kind="kernel",
                     inputs={"seed": len(cases), "shapes": [[n, list(s), dtype] for n, s in shapes]},
                     reference={"op": op, **extra}, rtol=rtol, atol=atol, flops=flops, bytes=bytes_,
                     torch={"op": op, **extra, **(torch_extra or {})})

    def matmul(name, m, k, n, transpose_b=False, dtype="float32", tf32=False, chip=None, out16=False):
        # float16 or bfloat16 inputs: f32 results (the tensor-core Matmul
        # rule). numpy has no bfloat16: those cases take float32 inputs and
        # cast them in the model (two small kernels of their own, which the
        # torch baseline runs too), the reference rounds them the same way.
        b = (n, k) if transpose_b else (k, n)
        out = ', out_dtype="float32"' if dtype != "float32" else ""
        lhs, rhs, op = "%a", "%b", "dense" if transpose_b else "matmul"
        if dtype == "bfloat16":
            lhs, rhs = 'cast(%a, dtype="bfloat16")', 'cast(%b, dtype="bfloat16")'
            dtype, op = "float32", op + "_bf16"
        body = f"nn.dense({lhs}, {rhs}{out})" if transpose_b else f"nn.matmul({lhs}, {rhs}{out})"
        if out16:
            # float16 results, as cuBLAS writes them (the cast fused into the
            # write-back): one more rounding, 2^-11 relative.
            kernel(name, [("a", (m, k)), ("b", b)], f'cast({body}, dtype="float16")', (m, n), op,
                   flops=2 * m * n * k, rtol=2.0 ** -10, atol=1e-4 * np.sqrt(k), dtype=dtype, chip=chip,
                   out_dtype="float16")
            return
        if tf32:
            # allow-tf32: the operands keep 10 mantissa bits (mlc truncates,
            # cuBLAS rounds); tolerance 8 x 2^-10 x sqrt(k) for standard
            # normal inputs. torch runs with TF32 on too.
            kernel(name, [("a", (m, k)), ("b", b)], body, (m, n), op, flops=2 * m * n * k, rtol=0.0,
                   atol=8 * 2.0 ** -10 * np.sqrt(k), pipeline_options="allow-tf32=true",
                   torch_extra={"tf32": True})
            return
        kernel(name, [("a", (m, k)), ("b", b)], body, (m, n), op,
               flops=2 * m * n * k, rtol=1e-4, atol=1e-4 * np.sqrt(k), dtype=dtype, chip=chip)

    matmul("matmul1024", 1024, 1024, 1024)
    matmul("matmul4096", 4096, 4096, 4096)
    matmul("matmul_odd", 1000, 777, 1023)
    matmul("dense2048", 2048, 2048, 2048, transpose_b=True)
    # Tensor cores (mma.sync): 4096^3 and the BERT-base shapes (M = 32 x 128).
    matmul("matmul4096_f16", 4096, 4096, 4096, dtype="float16")
    matmul("bert_qkv_f16", 4096, 768, 2304, transpose_b=True, dtype="float16")
    matmul("bert_ffn1_f16", 4096, 768, 3072, transpose_b=True, dtype="float16")
    matmul("bert_ffn2_f16", 4096, 3072, 768, transpose_b=True, dtype="float16")
    # M and N that no tile divides (padded to whole tiles, masked copies and
    # write-back): a batch of 3 sequences of 100 tokens, an odd vocabulary.
    matmul("bert_ffn1_m300_f16", 300, 768, 3072, transpose_b=True, dtype="float16")
    matmul("matmul_odd_f16", 1000, 768, 1000, dtype="float16")
    # ... and a K that no step divides either (777, padded to 800). Rows of
    # 777 and 1023 f16 are no whole 16-byte pieces: A and B are padded by
    # kernels of their own before the GEMM (whose copies are then cp.async).
    matmul("matmul_odd3_f16", 1000, 777, 1023, dtype="float16")
    matmul("matmul4096_bf16", 4096, 4096, 4096, dtype="bfloat16")
    matmul("bert_ffn1_bf16", 4096, 768, 3072, transpose_b=True, dtype="bfloat16")
    # Split-K: BERT's FFN2 at batch 1 (128 tokens) is 24 thread blocks of
    # 64 x 64; K = 3072 in 4 parts makes 96, then a kernel sums them. On
    # sm_90a the Hopper rule keeps it (12 thread blocks of 128 x 64). B
    # stored K x N (a bound weight's layout).
    matmul("bert_ffn2_m128_f16", 128, 3072, 768, dtype="float16")
    matmul("bert_ffn2_m128_f16_sm90a", 128, 3072, 768, dtype="float16", chip="sm_90a")
    # sm_90a: the Hopper Matmul rule (TMA + wgmma), same shapes.
    for name, m, k, n, transpose_b, dtype in [("matmul4096_f16", 4096, 4096, 4096, False, "float16"),
                                              ("bert_ffn1_f16", 4096, 768, 3072, True, "float16"),
                                              ("bert_ffn2_f16", 4096, 3072, 768, True, "float16"),
                                              ("bert_ffn1_m300_f16", 300, 768, 3072, True, "float16"),
                                              ("matmul4096_bf16", 4096, 4096, 4096, False, "bfloat16")]:
        matmul(f"{name}_sm90a", m, k, n, transpose_b=transpose_b, dtype=dtype, chip="sm_90a")
    # The same work as cuBLAS's f16 GEMM: B stored K x N (what a bound
    # weight of nn.dense becomes once its transpose is folded; a weight that
    # is an argument, as above, takes a transpose kernel first) and float16
    # results, against torch.matmul of the same f16 tensors.
    for name, m, k, n in [("matmul4096", 4096, 4096, 4096), ("bert_qkv", 4096, 768, 2304),
                          ("bert_ffn1", 4096, 768, 3072), ("bert_ffn2", 4096, 3072, 768)]:
        matmul(f"{name}_f16_out16_sm90a", m, k, n, dtype="float16", chip="sm_90a", out16=True)
    # A deployed model's dense layer: the weight (N x K, as nn.dense takes
    # it) bound at compile time, its transpose folded. On sm_90a the GEMM
    # reads it through TMA from a device copy the runtime uploads at the
    # first call. The weight is made here (seeded) and travels as the
    # case's "bound" params, for the reference and torch's F.linear.
    def bound_dense(name, m, k, n, chip):
        weight = np.random.default_rng(len(cases)).standard_normal((n, k)).astype(np.float16)
        params = f"{name}-params.npz"
        np.savez(os.path.join(args.dir, params), b=weight)
        path = os.path.join(args.dir, f"{name}.relay")
        with open(path, "w") as f:
            f.write(relay_kernel(name, [("a", (m, k)), ("b", (n, k))],
                                 'cast(nn.dense(%a, %b, out_dtype="float32"), dtype="float16")',
                                 f"Tensor[({m}, {n}), float16]", "float16"))
        mlir = os.path.join(args.dir, f"{name}.mlir")
        run(tool("mlc-translate"), "--import-relay", path, "-o", mlir)
        bound = os.path.join(args.dir, f"{name}-bound.mlir")
        run(tool("mlc-opt"), mlir, f"--relay-bind-params=params={os.path.join(args.dir, params)}", "-o", bound)
        compile_case(name, bound, chip=chip, kind="kernel",
                     inputs={"seed": len(cases), "shapes": [["a", [m, k], "float16"]]}, params=params,
                     bound=["b"], reference={"op": "dense"}, rtol=2.0 ** -10, atol=1e-4 * np.sqrt(k),
                     flops=2 * m * n * k, bytes=None, torch={"op": "dense"})
        os.remove(bound)  # the weight again, as text: it does not travel

    bound_dense("bert_ffn1_f16_out16_bound_sm90a", 4096, 768, 3072, "sm_90a")
    # One tile along M and N (100 x 64): the accumulator shrunk to 100 x 64,
    # read in place in the 128 x 128 tile (memcheck runs it too).
    matmul("matmul_narrow_f16_sm90a", 100, 256, 64, dtype="float16", chip="sm_90a")
    matmul("matmul4096_tf32", 4096, 4096, 4096, tf32=True)
    matmul("bert_ffn1_tf32", 4096, 768, 3072, transpose_b=True, tf32=True)
    # Convolutions as implicit GEMMs on tensor cores (f16 in, f32 out):
    # ResNet-50's 3 x 3 and 1 x 1 layers at batch 32 and 1, against cuDNN.
    # NCHW models run in NHWC (the GPU pipeline's conv-layout), their image,
    # weight and result permuted by kernels of their own; the _nhwc cases
    # are NHWC/HWIO models, the convolution alone, against cuDNN on
    # channels-last tensors.
    def conv2d(name, n, c, hw, o, k, stride=1, layout="NCHW", chip=None):
        padding = k // 2
        ohw = (hw + 2 * padding - k) // stride + 1
        body = (f"nn.conv2d(%x, %w, strides=[{stride}, {stride}], padding=[{padding}, {padding}, {padding}, "
                f'{padding}], out_dtype="float32"')
        shapes, out = [("x", (n, c, hw, hw)), ("w", (o, c, k, k))], (n, o, ohw, ohw)
        if layout == "NHWC":
            body += ', data_layout="NHWC", kernel_layout="HWIO"'
            shapes, out = [("x", (n, hw, hw, c)), ("w", (k, k, c, o))], (n, ohw, ohw, o)
        kernel(name, shapes, body + ")", out, "conv2d", flops=2 * n * o * ohw * ohw * c * k * k, rtol=1e-4,
               atol=1e-4 * np.sqrt(c * k * k), dtype="float16", stride=stride, padding=padding, layout=layout,
               chip=chip)

    conv2d("resnet_conv3x3_b32_f16", 32, 64, 56, 64, 3)
    conv2d("resnet_conv1x1_b32_f16", 32, 256, 56, 64, 1)
    conv2d("resnet_conv3x3s2_b32_f16", 32, 128, 56, 128, 3, stride=2)
    conv2d("resnet_conv3x3_b1_f16", 1, 256, 14, 256, 3)
    conv2d("resnet_conv3x3_b32_f16_nhwc", 32, 64, 56, 64, 3, layout="NHWC")
    conv2d("resnet_conv1x1_b32_f16_nhwc", 32, 256, 56, 64, 1, layout="NHWC")
    conv2d("resnet_conv3x3s2_b32_f16_nhwc", 32, 128, 56, 128, 3, stride=2, layout="NHWC")
    # sm_90a: 1x1 convolutions as GEMMs on wgmma (relax-convert-1x1-conv2d-
    # to-matmul); 64 and 256 output channels.
    conv2d("resnet_conv1x1_b32_f16_nhwc_sm90a", 32, 256, 56, 64, 1, layout="NHWC", chip="sm_90a")
    conv2d("resnet_conv1x1_o256_b32_f16_nhwc_sm90a", 32, 64, 56, 256, 1, layout="NHWC", chip="sm_90a")
    # sm_90a: 3x3 convolutions as implicit GEMMs on wgmma (the threads
    # gather A's im2col rows with cp.async, B by TMA); batch 1 at 14 x 14 has
    # a tail tile (196 rows) and its layout changes (NCHW model).
    conv2d("resnet_conv3x3_b32_f16_nhwc_sm90a", 32, 64, 56, 64, 3, layout="NHWC", chip="sm_90a")
    conv2d("resnet_conv3x3s2_b32_f16_nhwc_sm90a", 32, 128, 56, 128, 3, stride=2, layout="NHWC",
           chip="sm_90a")
    conv2d("resnet_conv3x3_b1_f16_sm90a", 1, 256, 14, 256, 3, chip="sm_90a")
    # Fused attention (relax.nn.attention, float16, BSNH): BERT-base at
    # batch 32 and 1 (128 tokens, 12 heads of 64), long sequences, GPT-2's
    # causal attention; against torch's scaled_dot_product_attention.
    # Tolerance: 8 float16 unit roundoffs (2^-11), relative and absolute.
    def attention(name, b, s, n, h, causal=False, kv=None):
        kv = s if kv is None else kv
        q, t = f"tensor<{b}x{s}x{n}x{h}xf16>", f"tensor<{b}x{kv}x{n}x{h}xf16>"
        attrs = ' {causal_mask = "TopLeft"}' if causal else ""
        params = ", ".join(f'%{x}: {q if x == "q" else t} {{relax.name = "{x}"}}' for x in "qkv")
        mlir = os.path.join(args.dir, f"{name}.mlir")
        with open(mlir, "w") as f:
            f.write(f"func.func @main({params}) -> {q} {{\n"
                    f"  %o = relax.nn.attention %q, %k, %v{attrs} : ({q}, {t}, {t}) -> {q}\n"
                    f"  return %o : {q}\n}}\n")
        flops = 4 * b * n * s * kv * h // (2 if causal else 1)
        shapes = [[x, [b, s if x == "q" else kv, n, h], "float16"] for x in "qkv"]
        compile_case(name, mlir, kind="kernel",
                     inputs={"seed": len(cases), "shapes": shapes},
                     reference={"op": "attention", "causal": causal}, rtol=8 * 2.0 ** -11,
                     atol=8 * 2.0 ** -11, flops=flops, bytes=None,
                     torch={"op": "attention", "causal": causal})

    attention("attention_bert_b32_f16", 32, 128, 12, 64)
    attention("attention_bert_b1_f16", 1, 128, 12, 64)
    attention("attention_s1024_f16", 8, 1024, 16, 64)
    attention("attention_gpt2_causal_f16", 8, 1024, 12, 64, causal=True)
    # Heads of 128 (LLaMA's): 16 query rows per warp, 2 warps per block;
    # racecheck runs it (the barriers around K and V between warps).
    attention("attention_h128_f16", 2, 512, 8, 128)
    # Padded tiles: ViT-B/16's 197 tokens; Stable Diffusion 1.5's heads of
    # 40 on 64 x 64 latents, self-attention and cross-attention to 77 text
    # tokens (H to 48, H_v to 64, 77 keys to 96); memcheck runs the last.
    attention("attention_vit_b32_f16", 32, 197, 12, 64)
    attention("attention_sd_self_f16", 2, 4096, 8, 40)
    attention("attention_sd_cross_f16", 2, 4096, 8, 40, kv=77)
    # A BERT-base encoder layer (post-norm: hidden 768, 12 heads, FFN 3072,
    # erf GELU) on batch x 128 tokens, its weights inputs of the entry made
    # on the GPU machine from the seed (BERT's initialization: N(0, 0.02);
    # layer norm gains 1 + N(0, 0.1)), stored (in, out) as nn.matmul takes
    # them. float32, and float16 compute (mixed-precision, against torch
    # under autocast) with mma.sync (sm_90) or wgmma (sm_90a). The
    # attention chain becomes relax.nn.attention (rewrite-attention).
    def bert_layer(name, batch, seq=128, hidden=768, heads=12, ffn=3072, dtype=None, chip=None, bound=False):
        tokens, d = batch * seq, hidden // heads
        weights = [("qkv_weight", (hidden, 3 * hidden)), ("qkv_bias", (3 * hidden,)),
                   ("proj_weight", (hidden, hidden)), ("proj_bias", (hidden,)),
                   ("ln1_gamma", (hidden,)), ("ln1_beta", (hidden,)),
                   ("fc1_weight", (hidden, ffn)), ("fc1_bias", (ffn,)),
                   ("fc2_weight", (ffn, hidden)), ("fc2_bias", (hidden,)),
                   ("ln2_gamma", (hidden,)), ("ln2_beta", (hidden,))]
        body = "\n  ".join([
            f"%0 = reshape(%data, newshape=[{tokens}, {hidden}]);",
            "%1 = add(nn.matmul(%0, %qkv_weight), %qkv_bias);",
            f"%2 = reshape(%1, newshape=[{batch}, {seq}, 3, {heads}, {d}]);",
            "%3 = transpose(%2, axes=[2, 0, 3, 1, 4]);",
            "%4 = split(%3, indices_or_sections=3);",
            f"%5 = reshape(%4.0, newshape=[{batch * heads}, {seq}, {d}]);",
            f"%6 = reshape(%4.1, newshape=[{batch * heads}, {seq}, {d}]);",
            f"%7 = reshape(%4.2, newshape=[{batch * heads}, {seq}, {d}]);",
            "%8 = nn.batch_matmul(%5, %6, transpose_b=True);",
            f"%9 = nn.softmax(multiply(%8, {1 / np.sqrt(d)}f));",
            "%10 = nn.batch_matmul(%9, %7, transpose_b=False);",
            f"%11 = transpose(reshape(%10, newshape=[{batch}, {heads}, {seq}, {d}]), axes=[0, 2, 1, 3]);",
            f"%12 = add(nn.matmul(reshape(%11, newshape=[{tokens}, {hidden}]), %proj_weight), %proj_bias);",
            "%13 = nn.layer_norm(add(%12, %0), %ln1_gamma, %ln1_beta);",
            "%14 = add(nn.matmul(%13, %fc1_weight), %fc1_bias);",
            "%15 = multiply(multiply(%14, add(erf(multiply(%14, 0.707107f)), 1f)), 0.5f);",
            "%16 = add(nn.matmul(%15, %fc2_weight), %fc2_bias);",
            "%17 = nn.layer_norm(add(%16, %13), %ln2_gamma, %ln2_beta);",
            f"reshape(%17, newshape=[{batch}, {seq}, {hidden}])"])
        params = [("data", (batch, seq, hidden))] + weights
        path = os.path.join(args.dir, f"{name}.relay")
        with open(path, "w") as f:
            f.write(relay_kernel(name, params, body, f"Tensor[({batch}, {seq}, {hidden}), float32]"))
        mlir = os.path.join(args.dir, f"{name}.mlir")
        run(tool("mlc-translate"), "--import-relay", path, "-o", mlir)
        shapes = [["data", [batch, seq, hidden], "float32"]]
        weight_shapes = []
        for w, shape in weights:
            scale, offset = (0.1, 1.0) if w.endswith("gamma") else (0.1, 0.0) if w.endswith("beta") else (0.02, 0.0)
            weight_shapes.append([w, list(shape), "float32", scale, offset])
        extra = {}
        if bound:
            # A deployed layer: the weights bound at compile time (their
            # casts folded, the GEMMs reading them through TMA on sm_90a).
            # run.py makes the same hashed weights for the reference and
            # torch; 14 MB of float16 travel inside the library only.
            extra = {"params": {"hash": len(cases), "shapes": weight_shapes},
                     "bound": [w for w, _ in weights]}
            values = run_py.case_inputs(args.dir, extra["params"])
            params = os.path.join(args.dir, f"{name}-params.npz")
            np.savez(params, **values)
            bound_mlir = os.path.join(args.dir, f"{name}-bound.mlir")
            run(tool("mlc-opt"), mlir, f"--relay-bind-params=params={params}", "-o", bound_mlir)
            os.remove(params)
            mlir = bound_mlir
        else:
            shapes += weight_shapes
        flops = 2 * tokens * hidden * (4 * hidden + 2 * ffn) + 4 * batch * heads * seq * seq * d
        # Tolerance: float32, 1e-4 (K up to 3072); float16, 8 unit
        # roundoffs of the output's magnitude (at most about 6 after the
        # layer norm: 5.4 for batch 1).
        atol = 1e-4 if dtype is None else 8 * 2.0 ** -11 * 6
        options = f"mixed-precision={dtype}" if dtype else None
        if dtype and not bound:
            # The weights' float16 casts lifted into main_transform_params
            # (num-input=1), which run.py runs once, as a deployment does at
            # load: 4 kernels fewer per call. (A float32 layer has nothing
            # to lift.)
            options += " num-input=1"
            extra = {"transform": "main_transform_params"}
        compile_case(name, mlir, pipeline_options=options, chip=chip,
                     kind="model", inputs={"seed": len(cases), "shapes": shapes}, **extra,
                     reference={"op": "bert_layer", "heads": heads}, rtol=1e-4 if dtype is None else 0.0,
                     atol=atol, flops=flops, bytes=None,
                     torch={"op": "bert_layer", "heads": heads, **({"autocast": dtype} if dtype else {})})
        if bound:
            os.remove(mlir)  # the weights as text

    bert_layer("bert_layer_b1", 1)
    bert_layer("bert_layer_b32", 32)
    bert_layer("bert_layer_b1_f16", 1, dtype="float16")
    bert_layer("bert_layer_b32_f16", 32, dtype="float16")
    bert_layer("bert_layer_b1_f16_sm90a", 1, dtype="float16", chip="sm_90a")
    bert_layer("bert_layer_b32_f16_sm90a", 32, dtype="float16", chip="sm_90a")
    bert_layer("bert_layer_b1_f16_bound_sm90a", 1, dtype="float16", chip="sm_90a", bound=True)
    bert_layer("bert_layer_b32_f16_bound_sm90a", 32, dtype="float16", chip="sm_90a", bound=True)
    # ResNet-50 v1 (bench/cnn_models.py) in float16 compute on sm_90a, at
    # batch 1 and 32, against torch under autocast. Its 25.6 M weights are
    # inputs of the entry, made with the images on the GPU machine (bound,
    # they would not fit the directory), so the batch norms stay epilogues of
    # the convolutions instead of folding into their weights. What depends on
    # the weights alone (HWIO layouts, float16 casts, batch norm scales and
    # shifts) is lifted into main_transform_params (num-input=1), which
    # run.py runs once, before main is checked and timed. Tolerance: 8
    # float16 unit roundoffs of the logits' magnitude (emulate-gpu-schedule
    # on the host, batch 1: 2.5).
    def resnet50(name, batch, chip="sm_90a"):
        text, _, _ = cnn_models.resnet50(batch=batch)
        path = os.path.join(args.dir, f"{name}.relay")
        with open(path, "w") as f:
            f.write(text)
        mlir = os.path.join(args.dir, f"{name}.mlir")
        run(tool("mlc-translate"), "--import-relay", path, "-o", mlir)
        compile_case(name, mlir, pipeline_options="mixed-precision=float16 num-input=1", chip=chip, kind="model",
                     transform="main_transform_params",
                     inputs={"generator": "resnet50", "batch": batch}, reference={"generator": "resnet50"},
                     rtol=0.0, atol=0.0, atol_of_max=8 * 2.0 ** -11, flops=cnn_models.resnet50_flops(batch),
                     bytes=None, torch={"op": "model:resnet50", "autocast": "float16"})

    resnet50("resnet50_b1_f16_sm90a", 1)
    resnet50("resnet50_b32_f16_sm90a", 32)
    shape = (4096, 4096)
    nbytes = 4 * shape[0] * shape[1]
    kernel("add", [("x", shape), ("y", shape)], "add(%x, %y)", shape, "add", bytes_=3 * nbytes)
    kernel("relu", [("x", shape)], "nn.relu(%x)", shape, "relu", bytes_=2 * nbytes)
    kernel("softmax", [("x", shape)], "nn.softmax(%x)", shape, "softmax", bytes_=2 * nbytes)
    kernel("sum", [("x", shape)], "sum(%x, axis=[-1])", (shape[0],), "sum",
           bytes_=nbytes, rtol=1e-4, atol=1e-4)
    rows, width = 8192, 1024
    kernel("layer_norm", [("x", (rows, width)), ("gamma", (width,)), ("beta", (width,))],
           "nn.layer_norm(%x, %gamma, %beta, epsilon=1e-05f)", (rows, width), "layer_norm",
           bytes_=2 * 4 * rows * width, rtol=1e-4, atol=1e-5, eps=1e-5)

    with open(os.path.join(args.dir, "manifest.json"), "w") as f:
        json.dump(cases, f, indent=1)
    print(f"{len(cases)} cases in {args.dir}")


if __name__ == "__main__":
    main()

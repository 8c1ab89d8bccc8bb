"""GPU benchmark: mlc's CUDA libraries against torch on the same GPU.

    python3 bench/gpu/run.py [--dir bench/gpu/build] [--cases NAME ...]
        [--number 20] [--repeat 10] [--min-repeat-ms 50] [--warmup 10]
        [--peak-bw 3.0e12] [--no-timing] [--no-torch] [--torch-compile]

Runs on a machine with an NVIDIA GPU: python3 and numpy, torch with CUDA for
the baselines, no MLIR or mlc tools. The directory comes from the build
machine (bench/gpu/prepare.py): libraries written by `mlc-compile
--target=cuda`, and manifest.json, a list of cases:

    {"name": "matmul1024", "kind": "kernel", "so": "matmul1024.so",
     "entry": "main", "inputs": {"seed": 0, "shapes": [["a", [1024, 1024]],
     ["b", [1024, 1024]]]}, "reference": {"op": "matmul"}, "rtol": 1e-4,
     "atol": 1e-3, "flops": 2147483648, "bytes": null, "torch": {"op": "matmul"}}

Paths are relative to the directory. "inputs" is an .npz file, a seed and
shapes for standard normal float32 arrays made here, or {"generator": NAME,
"batch": N} for a full-size network's images and weights made here by
bench/cnn_models.py (GENERATORS below: too large to copy); "reference" an
.npz of float64 outputs, {"op": ...} for the float64 numpy function of that
name (REFERENCES below) applied to the inputs, or {"generator": NAME} for
the network's float64 numpy reference. "atol_of_max", when given, adds
that fraction of the reference's largest magnitude to "atol". Inputs are matched to the entry's
arguments by name (else taken in the file's order); a "params" .npz, when
named (or a {"hash": seed, "shapes"} spec, see case_inputs), holds more of
them (a model's weights). "bound", when given, names
params that the library binds at compile time (not entry arguments): the
reference and torch take them after the inputs. "transform", when given,
names the library's function that computes what the entry reads of the
weights (relax-lift-transform-params, compiled with num-input): it runs once
on them, outside the timing, and the entry takes its inputs and then the
transform's results. Reference arrays are matched to the outputs by name,
else as out0, out1, ..., else in order.

For each case the library is loaded with mlc.runtime.load_module and run on
the inputs (copied to the GPU and back); each output is compared with the
reference (|mlc - ref| <= atol + rtol·|ref|; max rel is over the elements
with |ref| > atol). With torch the entry runs once more on torch CUDA
tensors, passed without copies. mlc is timed with time_evaluator (CUDA
events around `number` calls on device-resident inputs; median of `repeat`
repeats, `number` grown until a repeat lasts --min-repeat-ms) after
--warmup calls, and the torch baseline the same way with torch.cuda.Event:

    matmul      torch.matmul of the two inputs (cuBLAS)
    dense       F.linear(first, second): first @ secondᵀ (cuBLAS)
    add         first + second input
    softmax     torch.softmax, last axis
    layer_norm  F.layer_norm over the last axis (inputs x[, gamma, beta];
                "eps" in the op's dict, default 1e-5)
    sum         sum over the last axis
    relu        torch.relu
    model:NAME  examples/models.py's model NAME (mlp, cnn, resnet,
                mobilenet, transformer) or ResNet-50 (resnet50) in
                torch.nn.functional from the same weights; with "autocast": "float16" in the dict, under
                torch.autocast (the mixed-precision cases, NAME_f16 and NAME_bf16)

torch runs in true float32 (TF32 off for cuBLAS and cuDNN), and its result
is checked against the reference too. Prints one row per case: correct?,
max errors, mlc and torch milliseconds, the ratio torch/mlc (> 1: mlc is
faster), GFLOP/s (cases with "flops") and GB/s with the fraction of
--peak-bw (cases with "bytes": memory-bound kernels). Writes the results as
JSON to $OUT/gpu-bench.json when OUT is set. Exits 1 when a case is wrong or
fails, or when there is no GPU (with the CUDA runtime's message).
"""

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from mlc import runtime  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples"))
import models  # noqa: E402  (float64 references shared with the examples)
sys.path.insert(0, os.path.join(HERE, ".."))
import cnn_models  # noqa: E402  (full-size networks: weights made here)

KERNEL_OPS = ("matmul", "dense", "matmul_bf16", "dense_bf16", "conv2d", "add", "softmax", "layer_norm", "sum",
              "relu", "attention", "bert_layer")
MODEL_OPS = ("model:mlp", "model:cnn", "model:resnet", "model:mobilenet",
             "model:transformer", "model:resnet50")


def import_torch():
    """(torch, None) when torch can use a CUDA device, else (None, why not)."""
    try:
        import torch
    except ImportError:
        return None, "torch is not installed: no torch baselines"
    if not torch.cuda.is_available():
        return None, "torch %s sees no CUDA device: no torch baselines" % torch.__version__
    # Compare with float32 arithmetic: no TF32 in cuBLAS or cuDNN.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch, None


def softmax64(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def layer_norm64(x, gamma=None, beta=None, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    y = (x - mean) / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + eps)
    return y if gamma is None else y * gamma + beta


def bf16_values(x):
    """x rounded to bfloat16 (to nearest, ties to even), in float64: what a
    cast to bfloat16 keeps."""
    bits = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def attention64(q, k, v, causal=None):
    """relax.nn.attention in float64: (B, S, N, H) operands, default scale
    1/sqrt(H), causal "TopLeft" (key j <= query i)."""
    q, k, v = (x.transpose(0, 2, 1, 3) for x in (q, k, v))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    if causal:
        rows, keys = s.shape[-2:]
        s = np.where(np.arange(keys)[None, :] <= np.arange(rows)[:, None], s, -np.inf)
    return (softmax64(s) @ v).transpose(0, 2, 1, 3)


def bert_layer64(data, qkv_w, qkv_b, proj_w, proj_b, ln1_g, ln1_b, fc1_w, fc1_b, fc2_w, fc2_b,
                ln2_g, ln2_b, heads=12):
    """A post-norm BERT encoder layer in float64, weights stored (in, out)."""
    try:
        from scipy.special import erf
    except ImportError:
        import math
        erf = np.vectorize(math.erf)
    batch, seq, hidden = data.shape
    x = data.reshape(-1, hidden)
    qkv = (x @ qkv_w + qkv_b).reshape(batch, seq, 3, heads, hidden // heads)
    q, k, v = qkv.transpose(2, 0, 1, 3, 4)
    o = attention64(q, k, v).reshape(-1, hidden)
    x = layer_norm64(o @ proj_w + proj_b + x, ln1_g, ln1_b)
    h = x @ fc1_w + fc1_b
    h = h * (1 + erf(h * 0.707107)) * 0.5
    return layer_norm64(h @ fc2_w + fc2_b + x, ln2_g, ln2_b).reshape(batch, seq, hidden)


# float64 numpy references of the kernel ops, for cases whose reference is
# {"op": ...} (computed here from the generated inputs).
REFERENCES = {
    "matmul": lambda a, b: a @ b,
    "dense": lambda a, b: a @ b.T,
    "matmul_bf16": lambda a, b: bf16_values(a) @ bf16_values(b),
    "dense_bf16": lambda a, b: bf16_values(a) @ bf16_values(b).T,
    "conv2d": lambda x, w, stride=1, padding=1, layout="NCHW": (
        models.conv2d_nchw(x, w, padding, stride) if layout == "NCHW" else
        models.conv2d_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), padding,
                           stride).transpose(0, 2, 3, 1)),
    "add": lambda x, y: x + y,
    "relu": lambda x: np.maximum(x, 0),
    "softmax": softmax64,
    "sum": lambda x: x.sum(-1),
    "layer_norm": lambda x, *w, eps=1e-5: layer_norm64(x, *w, eps=eps),
    "attention": attention64,
    "bert_layer": bert_layer64,
}


# Full-size networks whose images and weights are made here (their .npz
# would not fit the directory): (params, data) of a batch, and the float64
# reference of the network on them.
GENERATORS = {
    "resnet50": (lambda batch: cnn_models.resnet50(batch=batch)[1:],
                 cnn_models.reference_resnet50),
}


def hashed_uniform(seed, shape):
    """Uniform values of mean 0 and variance 1 that every machine and numpy
    version computes alike (splitmix64 of seed and index, integer
    arithmetic only): weights bound into a library on the build machine and
    made again here for the reference and torch."""
    mask = (1 << 64) - 1
    start = (seed * 0x9E3779B97F4A7C15) & mask
    x = np.arange(int(np.prod(shape)), dtype=np.uint64) + np.uint64(start)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    unit = (x >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
    return ((2 * unit - 1) * np.sqrt(3)).reshape(shape)


def case_inputs(root, spec):
    """The inputs of a case: an .npz path, {"seed", "shapes": [[name,
    shape(, dtype)], ...]} for standard normal arrays made here (float32
    unless a dtype is given), {"hash": seed, "shapes": ...} the same with
    hashed_uniform values (arrays the build machine made too), or
    {"generator", "batch"} for a network's images ("data") and weights
    (GENERATORS)."""
    if isinstance(spec, str):
        return load_npz(os.path.join(root, spec))
    if "hash" in spec:
        arrays = {}
        for i, entry in enumerate(spec["shapes"]):
            x = hashed_uniform(spec["hash"] * 1000 + i, entry[1])
            if len(entry) > 3:
                x = x * entry[3] + entry[4]
            arrays[entry[0]] = x.astype(entry[2] if len(entry) > 2 else np.float32)
        return arrays
    if "generator" in spec:
        params, data = GENERATORS[spec["generator"]][0](spec["batch"])
        return {"data": data, **params}
    rng = np.random.default_rng(spec["seed"])
    arrays = {}
    for entry in spec["shapes"]:
        # [name, shape(, dtype(, scale, offset))]: offset + scale * N(0, 1).
        x = rng.standard_normal(entry[1])
        if len(entry) > 3:
            x = x * entry[3] + entry[4]
        arrays[entry[0]] = x.astype(entry[2] if len(entry) > 2 else np.float32)
    return arrays


def case_reference(root, spec, arrays):
    """The expected outputs of a case: an .npz path, or {"op": ...[, "eps"]}
    for REFERENCES[op] on the inputs in float64."""
    if isinstance(spec, str):
        return load_npz(os.path.join(root, spec))
    if "generator" in spec:
        params = {k: v for k, v in arrays.items() if k != "data"}
        return {"out0": GENERATORS[spec["generator"]][1](params, arrays["data"])}
    op = spec["op"]
    if op not in REFERENCES:
        raise ValueError("no numpy reference for op %r (known: %s)" % (op, ", ".join(REFERENCES)))
    extra = {k: v for k, v in spec.items() if k != "op"}
    return {"out0": REFERENCES[op](*[a.astype(np.float64) for a in arrays.values()], **extra)}


def load_npz(path):
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def entry_inputs(function, arrays, params):
    """The entry's inputs in call order: by name from the inputs and params,
    else the inputs file's arrays in order."""
    available = dict(params)
    available.update(arrays)
    names = function.input_names
    if all(name in available for name in names):
        return [available[name] for name in names]
    if len(arrays) == len(names):
        return list(arrays.values())
    missing = [name for name in names if name not in available]
    raise ValueError("inputs %s of %s are in neither the inputs nor the params"
                     % (", ".join(missing), function.name))


def transformed_inputs(transform, function, arrays, params):
    """The entry's inputs when the library lifted its weights' transforms
    into `transform` (relax-lift-transform-params, num-input): the transform
    runs once on the weights, as a deployment runs it at load, and the entry
    takes its inputs, then the transform's results in order."""
    weights = entry_inputs(transform, arrays, params)
    results = [np.empty(a.shape, a.dtype) for a in transform.args if a.kind == "output"]
    transform(*weights, *results)
    names = function.input_names
    available = dict(params)
    available.update(arrays)
    return [available[name] for name in names[:len(names) - len(results)]] + results


def reference_outputs(function, reference):
    names = function.output_names
    if not names:
        raise ValueError("%s has no outputs to check (a prim_func's buffers are inputs, "
                         "which are not copied back from the GPU)" % function.name)
    for keys in (names, ["out%d" % i for i in range(len(names))]):
        if all(key in reference for key in keys):
            return [reference[key] for key in keys]
    if len(reference) == len(names):
        return list(reference.values())
    raise ValueError("the reference has %s; %s returns %s"
                     % (", ".join(reference), function.name, ", ".join(names)))


def compare(got, want, rtol, atol):
    """Max abs/rel error of one output and whether it is within tolerance."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return {"ok": False, "max_abs": None, "max_rel": None,
                "note": "shape %s, reference %s" % (list(got.shape), list(want.shape))}
    got64, want64 = got.astype(np.float64), want.astype(np.float64)
    diff = np.abs(got64 - want64)
    max_abs = float(diff.max()) if diff.size else 0.0
    big = np.abs(want64) > atol
    max_rel = float((diff[big] / np.abs(want64[big])).max()) if big.any() else 0.0
    return {"ok": bool(np.allclose(got64, want64, rtol=rtol, atol=atol)),
            "max_abs": max_abs, "max_rel": max_rel}


def torch_dtype(torch, dtype):
    return torch.from_numpy(np.empty(0, dtype)).dtype


def model_mlp(torch, w):
    F = torch.nn.functional
    hidden = F.relu(F.linear(w["data"], w["w0"], w["b0"]))
    return torch.softmax(F.linear(hidden, w["w1"], w["b1"]), dim=-1)


def model_cnn(torch, w):
    F = torch.nn.functional
    x = F.conv2d(w["data"], w["conv1_weight"], w["conv1_bias"], padding=1)
    x = F.max_pool2d(F.relu(x), 2)
    x = F.conv2d(x, w["conv2_weight"], w["conv2_bias"], padding=1)
    x = F.max_pool2d(F.relu(x), 2)
    return torch.softmax(F.linear(x.flatten(1), w["dense_weight"], w["dense_bias"]), dim=-1)


def model_resnet(torch, w):
    F = torch.nn.functional

    def conv_bn(x, conv, bn, padding, stride=1):
        x = F.conv2d(x, w[conv + "_weight"], padding=padding, stride=stride)
        return F.batch_norm(x, w[bn + "_mean"], w[bn + "_var"], w[bn + "_gamma"],
                            w[bn + "_beta"], training=False, eps=1e-5)

    x = F.relu(conv_bn(w["data"], "stem", "stem_bn", 1))
    y = F.relu(conv_bn(x, "b1_conv1", "b1_bn1", 1))
    x = F.relu(conv_bn(y, "b1_conv2", "b1_bn2", 1) + x)
    y = F.relu(conv_bn(x, "b2_conv1", "b2_bn1", 1, 2))
    y = conv_bn(y, "b2_conv2", "b2_bn2", 1)
    x = F.relu(y + conv_bn(x, "b2_down", "b2_down_bn", 0, 2))
    x = F.adaptive_avg_pool2d(x, 1).flatten(1)
    return torch.softmax(F.linear(x, w["fc_weight"], w["fc_bias"]), dim=-1)


def model_resnet50(torch, w):
    """bench/cnn_models.py's ResNet-50 v1 (batch norms in inference mode)."""
    F = torch.nn.functional

    def conv_bn(x, name, stride=1, relu=True):
        weight = w[name + "_weight"]
        x = F.conv2d(x, weight, stride=stride, padding=weight.shape[-1] // 2)
        x = F.batch_norm(x, w[name + "_bn_mean"], w[name + "_bn_var"], w[name + "_bn_gamma"],
                         w[name + "_bn_beta"], training=False, eps=1e-5)
        return F.relu(x) if relu else x

    x = F.max_pool2d(conv_bn(w["data"], "stem", 2), 3, 2, 1)
    for s, (blocks, _) in enumerate(cnn_models.RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "s%db%d" % (s, i)
            y = conv_bn(conv_bn(conv_bn(x, name + "_c1"), name + "_c2", stride), name + "_c3",
                        relu=False)
            shortcut = conv_bn(x, name + "_down", stride, relu=False) if i == 0 else x
            x = F.relu(y + shortcut)
    x = F.adaptive_avg_pool2d(x, 1).flatten(1)
    return F.linear(x, w["fc_weight"], w["fc_bias"])


def model_mobilenet(torch, w):
    F = torch.nn.functional

    def conv(x, name, padding, stride=1, groups=1, relu6=True):
        x = F.conv2d(x, w[name + "_weight"], w[name + "_bias"], stride=stride,
                     padding=padding, groups=groups)
        return F.relu6(x) if relu6 else x

    x = conv(w["data"], "stem", 1, 2)
    x = conv(conv(x, "dw1", 1, groups=16), "pw1", 0)
    x = conv(conv(x, "dw2", 1, 2, groups=32), "pw2", 0)
    y = conv(conv(x, "ir_expand", 0), "ir_dw", 1, groups=128)
    x = conv(y, "ir_project", 0, relu6=False) + x
    x = F.adaptive_avg_pool2d(x, 1).flatten(1)
    return torch.softmax(F.linear(x, w["fc_weight"], w["fc_bias"]), dim=-1)


def model_transformer(torch, w):
    F = torch.nn.functional

    def linear(x, name):
        return F.linear(x, w[name + "_weight"], w[name + "_bias"])

    x = w["data"][0]
    h = F.layer_norm(x, (64,), w["ln1_gamma"], w["ln1_beta"], eps=1e-5)
    q, k, v = linear(h, "qkv").reshape(32, 3, 4, 16).permute(1, 2, 0, 3)
    attention = torch.softmax(q @ k.transpose(1, 2) * 0.25, dim=-1) @ v
    x = linear(attention.permute(1, 0, 2).reshape(32, 64), "proj") + x
    h = linear(F.layer_norm(x, (64,), w["ln2_gamma"], w["ln2_beta"], eps=1e-5), "fc1")
    h = h * (1 + torch.erf(h * 0.707107)) * 0.5
    return (linear(h, "fc2") + x)[None]


def bert_layer_torch(torch, t, heads):
    """bert_layer64 in torch: addmm (cuBLAS) and scaled_dot_product_attention."""
    F = torch.nn.functional
    data, qkv_w, qkv_b, proj_w, proj_b, ln1_g, ln1_b, fc1_w, fc1_b, fc2_w, fc2_b, ln2_g, ln2_b = t
    batch, seq, hidden = data.shape
    x = data.reshape(-1, hidden)
    qkv = torch.addmm(qkv_b, x, qkv_w).reshape(batch, seq, 3, heads, hidden // heads)
    q, k, v = qkv.permute(2, 0, 3, 1, 4)
    o = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(-1, hidden)
    x = F.layer_norm(torch.addmm(proj_b, o, proj_w) + x, (hidden,), ln1_g, ln1_b)
    h = torch.addmm(fc1_b, x, fc1_w)
    h = h * (1 + torch.erf(h * 0.707107)) * 0.5
    return F.layer_norm(torch.addmm(fc2_b, h, fc2_w) + x, (hidden,), ln2_g, ln2_b).reshape(
        batch, seq, hidden)


MODELS = {"model:mlp": model_mlp, "model:cnn": model_cnn,
          "model:resnet": model_resnet, "model:mobilenet": model_mobilenet,
          "model:transformer": model_transformer, "model:resnet50": model_resnet50}


def torch_baseline(torch, spec, inputs, arrays, params):
    """A function of no arguments computing the case in torch on the GPU."""
    op = spec["op"]
    if "autocast" in spec:
        # Any op under torch.autocast (mlc's mixed-precision cases).
        dtype = getattr(torch, spec["autocast"])
        plain = torch_baseline(torch, {k: v for k, v in spec.items() if k != "autocast"},
                               inputs, arrays, params)

        def autocast():
            with torch.autocast("cuda", dtype=dtype):
                return plain().float()
        return autocast
    if op in MODEL_OPS:
        weights = dict(params)
        weights.update(arrays)
        weights = {k: torch.as_tensor(v, device="cuda") for k, v in weights.items()}
        return lambda: MODELS[op](torch, weights)
    if op not in KERNEL_OPS:
        raise ValueError("unknown torch op %r (known: %s)"
                         % (op, ", ".join(KERNEL_OPS + MODEL_OPS)))
    t = [torch.as_tensor(x, device="cuda") for x in inputs]
    if op == "bert_layer":
        return lambda: bert_layer_torch(torch, t, spec.get("heads", 12))
    if spec.get("tf32"):
        # The allow-tf32 cases: cuBLAS in its TF32 mode too.
        def tf32(fn):
            def run():
                torch.backends.cuda.matmul.allow_tf32 = True
                try:
                    return fn()
                finally:
                    torch.backends.cuda.matmul.allow_tf32 = False
            return run
        return tf32(torch_baseline(torch, {k: v for k, v in spec.items() if k != "tf32"},
                                   inputs, arrays, params))
    if op == "matmul":
        return lambda: torch.matmul(t[0], t[1])
    if op == "dense":
        return lambda: torch.nn.functional.linear(t[0], t[1])
    # bfloat16: the model casts its float32 inputs, and so does torch.
    if op == "matmul_bf16":
        return lambda: torch.matmul(t[0].bfloat16(), t[1].bfloat16())
    if op == "dense_bf16":
        return lambda: torch.nn.functional.linear(t[0].bfloat16(), t[1].bfloat16())
    if op == "conv2d":
        # cuDNN (f16 in, f16 out, f32 accumulation); mlc writes f32. NHWC
        # (HWIO weights): cuDNN on channels-last tensors, the weight made
        # channels-last (OHWI) once, outside the timing.
        stride, padding = spec.get("stride", 1), spec.get("padding", 1)
        if spec.get("layout", "NCHW") == "NHWC":
            x = t[0].permute(0, 3, 1, 2)
            w = t[1].permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
            return lambda: torch.nn.functional.conv2d(x, w, stride=stride,
                                                      padding=padding).permute(0, 2, 3, 1)
        return lambda: torch.nn.functional.conv2d(t[0], t[1], stride=stride, padding=padding)
    if op == "add":
        return lambda: t[0] + t[1]
    if op == "softmax":
        return lambda: torch.softmax(t[0], dim=-1)
    if op == "layer_norm":
        weight, bias = (t[1], t[2]) if len(t) == 3 else (None, None)
        eps = spec.get("eps", 1e-5)
        return lambda: torch.nn.functional.layer_norm(t[0], t[0].shape[-1:], weight, bias, eps)
    if op == "sum":
        return lambda: t[0].sum(dim=-1)
    if op == "attention":
        # torch's SDPA (FlashAttention-2 on sm_80+) takes (B, N, S, H): the
        # (B, S, N, H) inputs transposed as views, as the model's would be.
        causal = bool(spec.get("causal"))
        q, k, v = (x.transpose(1, 2) for x in t)
        return lambda: torch.nn.functional.scaled_dot_product_attention(
            q, k, v, is_causal=causal).transpose(1, 2)
    return lambda: torch.relu(t[0])


def time_torch(torch, fn, number, repeat, min_repeat_ms, warmup):
    """Median seconds per call of fn, timed like time_evaluator with
    torch.cuda.Event on torch's current stream."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    def timed(n):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(n):
            fn()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 1e3

    results = runtime.measure_repeats(timed, number, repeat, min_repeat_ms)
    return float(np.median(results))


def run_case(case, root, args, torch):
    """Checks and times one case; returns its result row."""
    row = {"name": case["name"], "kind": case.get("kind"), "ok": False, "outputs": [],
           "max_abs": None, "max_rel": None, "mlc_ms": None, "torch_ms": None,
           "torch_over_mlc": None, "gflops": None, "gbps": None, "peak_bw_fraction": None,
           "notes": []}
    mod = runtime.load_module(os.path.join(root, case["so"]))
    row["target"] = mod.target
    entry = case.get("entry", "main")
    function = mod[entry]
    arrays = case_inputs(root, case["inputs"])
    params = case_inputs(root, case["params"]) if case.get("params") else {}
    if case.get("transform"):
        inputs = transformed_inputs(mod[case["transform"]], function, arrays, params)
    else:
        inputs = entry_inputs(function, arrays, params)
    # Weights bound in the library: operands of the reference and of torch.
    bound = [params[name] for name in case.get("bound", [])]
    operands = {**arrays, **{name: params[name] for name in case.get("bound", [])}}
    want = reference_outputs(function, case_reference(root, case["reference"], operands))
    rtol, atol = case["rtol"], case["atol"]
    if case.get("atol_of_max"):
        atol += case["atol_of_max"] * max(float(np.abs(w).max(initial=0.0)) for w in want)

    # Outputs of the reference's shapes: dynamic ones must be passed.
    output_args = [a for a in function.args if a.kind == "output"]
    got = [np.empty(w.shape, a.dtype) for a, w in zip(output_args, want)]
    function(*inputs, *got)
    for name, g, w in zip(function.output_names, got, want):
        result = compare(g, w, rtol, atol)
        result["name"] = name
        row["outputs"].append(result)
        if "note" in result:
            row["notes"].append("output %s: %s" % (name, result["note"]))
    measured = [o for o in row["outputs"] if o["max_abs"] is not None]
    if measured:
        row["max_abs"] = max(o["max_abs"] for o in measured)
        row["max_rel"] = max(o["max_rel"] for o in measured)
    row["ok"] = all(o["ok"] for o in row["outputs"])

    if torch is not None and mod.target == "cuda":
        # The same entry on torch CUDA tensors, inputs and outputs passed as
        # device pointers (__cuda_array_interface__).
        scalar = [a.kind == "scalar" for a in function.args if a.kind != "output"]
        device_inputs = [x if s else torch.as_tensor(x, device="cuda").contiguous()
                         for x, s in zip(inputs, scalar)]
        device_outputs = [torch.empty(w.shape, dtype=torch_dtype(torch, a.dtype), device="cuda")
                          for a, w in zip(output_args, want)]
        function(*device_inputs, *device_outputs)
        for name, out, w in zip(function.output_names, device_outputs, want):
            if not compare(out.cpu().numpy(), w, rtol, atol)["ok"]:
                row["ok"] = False
                row["notes"].append("output %s differs when passed as a torch tensor" % name)

    if args.no_timing:
        return row
    if args.warmup:
        mod.time_evaluator(entry, number=args.warmup)(*inputs, *got)
    timer = mod.time_evaluator(entry, number=args.number, repeat=args.repeat,
                               min_repeat_ms=args.min_repeat_ms)
    mlc_s = timer(*inputs, *got).median
    row["mlc_ms"] = mlc_s * 1e3
    if case.get("flops"):
        row["gflops"] = case["flops"] / mlc_s / 1e9
    if case.get("bytes"):
        row["gbps"] = case["bytes"] / mlc_s / 1e9
        row["peak_bw_fraction"] = case["bytes"] / mlc_s / args.peak_bw

    spec = case.get("torch")
    if torch is not None and spec:
        with torch.inference_mode():
            baseline = torch_baseline(torch, spec, inputs + bound, arrays, params)
            result = baseline()
            # Compared by value: torch's sum may keep or drop the reduced axis.
            # A float16/bfloat16 result (cuBLAS, cuDNN on half inputs) is
            # rounded once more than mlc's float32 one: 8 unit roundoffs of
            # its type, of the output's magnitude, are added to the tolerance.
            torch_atol, torch_rtol = atol, rtol
            half_eps = {torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8}.get(result.dtype)
            if half_eps:
                torch_rtol = max(rtol, 8 * half_eps)
                torch_atol = atol + 8 * half_eps * float(np.abs(want[0]).max(initial=0.0))
            if result.numel() != np.size(want[0]) or not compare(
                    result.float().cpu().numpy().reshape(np.shape(want[0])), want[0],
                    torch_rtol, torch_atol)["ok"]:
                row["notes"].append("torch %s disagrees with the reference: its time is "
                                    "not comparable" % spec["op"])
            torch_s = time_torch(torch, baseline, args.number, args.repeat,
                                 args.min_repeat_ms, args.warmup)
            if args.torch_compile and case.get("kind") == "model":
                compiled_s = time_torch_compile(torch, baseline, want[0], torch_rtol, torch_atol,
                                                args, row["notes"])
                if compiled_s:
                    row["torch_compile_ms"] = compiled_s * 1e3
                    row["torch_compile_over_mlc"] = compiled_s / mlc_s
                    row["notes"].append("torch.compile %.4g ms, torch.compile/mlc %.2f"
                                        % (compiled_s * 1e3, compiled_s / mlc_s))
        row["torch_ms"] = torch_s * 1e3
        row["torch_over_mlc"] = torch_s / mlc_s
    return row


def time_torch_compile(torch, baseline, want, rtol, atol, args, notes):
    """Seconds per call of torch.compile(baseline) (the default inductor
    mode), after its compilation in the warm-up; None, with a note, when it
    does not compile or disagrees with the reference."""
    try:
        compiled = torch.compile(baseline)
        result = compiled()
        torch.cuda.synchronize()
        if not compare(result.float().cpu().numpy().reshape(np.shape(want)), want, rtol,
                       atol)["ok"]:
            notes.append("torch.compile disagrees with the reference: its time is not comparable")
        return time_torch(torch, compiled, args.number, args.repeat, args.min_repeat_ms,
                          args.warmup)
    except Exception as err:  # no triton, no C compiler: a note, not a failure
        first = str(err).splitlines()[0] if str(err) else ""
        notes.append("torch.compile failed: %s: %s" % (type(err).__name__, first))
        return None


COLUMNS = [("case", "%-24s", "name"), ("correct", "%-7s", None), ("max abs", "%9s", "max_abs"),
           ("max rel", "%9s", "max_rel"), ("mlc ms", "%10s", "mlc_ms"),
           ("torch ms", "%10s", "torch_ms"), ("torch/mlc", "%9s", "torch_over_mlc"),
           ("GFLOP/s", "%9s", "gflops"), ("GB/s", "%8s", "gbps"),
           ("%peak", "%6s", "peak_bw_fraction")]

FORMATS = {"max_abs": "%.2e", "max_rel": "%.2e", "mlc_ms": "%.4g", "torch_ms": "%.4g",
           "torch_over_mlc": "%.2f", "gflops": "%.1f", "gbps": "%.1f",
           "peak_bw_fraction": "%.0f%%"}


def format_row(row):
    cells = []
    for _, fmt, key in COLUMNS:
        if key is None:
            value = "error" if "error" in row else ("ok" if row["ok"] else "WRONG")
        elif key == "name":
            value = row["name"]
        elif row.get(key) is None:
            value = "-"
        else:
            scale = 100 if key == "peak_bw_fraction" else 1
            value = FORMATS[key] % (row[key] * scale)
        cells.append(fmt % value)
    return " ".join(cells).rstrip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=os.path.join(HERE, "build"),
                        help="the directory prepare.sh wrote (with manifest.json)")
    parser.add_argument("--cases", nargs="+", help="run only the cases of these names")
    parser.add_argument("--number", type=int, default=20, help="calls per timed repeat")
    parser.add_argument("--repeat", type=int, default=10, help="timed repeats (median)")
    parser.add_argument("--min-repeat-ms", type=float, default=50,
                        help="grow --number until a repeat lasts this long")
    parser.add_argument("--warmup", type=int, default=10, help="untimed calls first")
    parser.add_argument("--no-timing", action="store_true",
                        help="check correctness only (for runs under compute-sanitizer)")
    parser.add_argument("--no-torch", action="store_true",
                        help="skip the torch runs and baselines")
    parser.add_argument("--torch-compile", action="store_true",
                        help="also time torch.compile of the model cases' baselines "
                             "(a note when it does not compile)")
    parser.add_argument("--peak-bw", type=float, default=3.0e12,
                        help="the GPU's memory bandwidth in B/s, for %%peak")
    args = parser.parse_args()

    manifest_path = os.path.join(args.dir, "manifest.json")
    if not os.path.exists(manifest_path):
        print("error: no %s: run bench/gpu/prepare.py on the build machine and copy its "
              "output directory here" % manifest_path, file=sys.stderr)
        return 1
    with open(manifest_path) as f:
        cases = json.load(f)
    if args.cases:
        unknown = set(args.cases) - {c["name"] for c in cases}
        if unknown:
            print("error: no cases named %s in %s" % (", ".join(sorted(unknown)), manifest_path),
                  file=sys.stderr)
            return 1
        cases = [c for c in cases if c["name"] in args.cases]

    if not cases:
        print("error: %s lists no cases" % manifest_path, file=sys.stderr)
        return 1

    # The GPU, through the CUDA runtime of the first library that loads (one
    # that does not is reported with its case): without a GPU, stop here
    # with the runtime's message.
    device = None
    for case in cases:
        try:
            mod = runtime.load_module(os.path.join(args.dir, case["so"]))
        except (OSError, ValueError):
            continue
        try:
            device = mod.device_name
        except RuntimeError as err:
            print("error: %s" % err, file=sys.stderr)
            return 1
        break
    torch, torch_note = (None, "--no-torch: no torch baselines") if args.no_torch \
        else import_torch()
    report = {"device": device, "torch": torch.__version__ if torch else None,
              "peak_bw": args.peak_bw, "number": args.number, "repeat": args.repeat,
              "min_repeat_ms": args.min_repeat_ms, "warmup": args.warmup, "cases": []}
    print("device: %s" % device)
    if torch_note:
        print("note: " + torch_note)
        report["note"] = torch_note
    print(" ".join(fmt % title for title, fmt, _ in COLUMNS).rstrip(), flush=True)
    for case in cases:
        try:
            row = run_case(case, args.dir, args, torch)
        except Exception as err:  # a case that fails is reported; the others still run
            row = {"name": case["name"], "kind": case.get("kind"), "ok": False,
                   "error": "%s: %s" % (type(err).__name__, err), "notes": []}
        report["cases"].append(row)
        print(format_row(row), flush=True)
    for row in report["cases"]:
        for note in ([row["error"]] if "error" in row else []) + row["notes"]:
            print("%s: %s" % (row["name"], note))

    if os.environ.get("OUT"):
        path = os.path.join(os.environ["OUT"], "gpu-bench.json")
        with open(path, "w") as f:
            json.dump(report, f, indent=1)
        print("wrote " + path)
    failed = [row["name"] for row in report["cases"] if not row["ok"]]
    if failed:
        print("%d of %d cases wrong or failed: %s" % (len(failed), len(cases), ", ".join(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

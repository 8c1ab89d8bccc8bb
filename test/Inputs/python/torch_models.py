"""Models shared by the PyTorch front-end tests and bench/torch_models.py:
HF-style transformer blocks written with torch.nn (transformers is not
packaged for Debian), and a checker that runs a model with mlc and torch."""

import math, torch
from torch import nn
import torch.nn.functional as F


class BertLayer(nn.Module):
    """A BERT encoder layer: self-attention with an additive mask, erf GELU."""

    def __init__(self, hidden=64, heads=4, ffn=128):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self.attn_out = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.inter = nn.Linear(hidden, ffn)
        self.out = nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)
        self.dropout = nn.Dropout(0.1)

    def split_heads(self, x):
        b, t = x.size(0), x.size(1)
        return x.view(b, t, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q = self.split_heads(self.query(x))
        k = self.split_heads(self.key(x))
        v = self.split_heads(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        scores = scores + (1.0 - mask[:, None, None, :]) * -10000.0
        probs = self.dropout(F.softmax(scores, dim=-1))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(ctx.size(0), ctx.size(1), -1)
        h = self.ln1(x + self.attn_out(ctx))
        return self.ln2(h + self.out(F.gelu(self.inter(h))))


class GPT2Block(nn.Module):
    """A GPT-2 block: pre-LayerNorm, fused QKV, causal mask, tanh GELU."""

    def __init__(self, hidden=64, heads=4, max_len=16):
        super().__init__()
        self.heads = heads
        self.ln_1 = nn.LayerNorm(hidden)
        self.c_attn = nn.Linear(hidden, 3 * hidden)
        self.c_proj = nn.Linear(hidden, hidden)
        self.ln_2 = nn.LayerNorm(hidden)
        self.fc = nn.Linear(hidden, 4 * hidden)
        self.proj = nn.Linear(4 * hidden, hidden)
        self.register_buffer("bias", torch.tril(torch.ones(max_len, max_len)).view(1, 1, max_len, max_len))

    def forward(self, x):
        b, t, c = x.size(0), x.size(1), x.size(2)
        qkv = self.c_attn(self.ln_1(x))
        q = qkv[:, :, :c].view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = qkv[:, :, c:2 * c].view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = qkv[:, :, 2 * c:].view(b, t, self.heads, c // self.heads).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(c // self.heads))
        att = att.masked_fill(self.bias == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        x = x + self.c_proj(y)
        return x + self.proj(F.gelu(self.fc(self.ln_2(x)), approximate="tanh"))


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim) + 0.1 * torch.randn(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class LlamaBlock(nn.Module):
    """A LLaMA decoder block: RMSNorm, rotary embeddings, causal attention,
    SiLU-gated MLP (no biases)."""

    def __init__(self, hidden=64, heads=4, ffn=96, max_len=16):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.attention_norm = RMSNorm(hidden)
        self.wq = nn.Linear(hidden, hidden, bias=False)
        self.wk = nn.Linear(hidden, hidden, bias=False)
        self.wv = nn.Linear(hidden, hidden, bias=False)
        self.wo = nn.Linear(hidden, hidden, bias=False)
        self.ffn_norm = RMSNorm(hidden)
        self.w1 = nn.Linear(hidden, ffn, bias=False)
        self.w2 = nn.Linear(ffn, hidden, bias=False)
        self.w3 = nn.Linear(hidden, ffn, bias=False)
        inv = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        freqs = torch.outer(torch.arange(max_len).float(), inv)
        self.register_buffer("cos", torch.cat([freqs.cos(), freqs.cos()], -1))
        self.register_buffer("sin", torch.cat([freqs.sin(), freqs.sin()], -1))
        self.register_buffer("mask", torch.full((max_len, max_len), float("-inf")).triu(1))

    def rotate(self, x, t):
        half = self.head_dim // 2
        rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
        return x * self.cos + rotated * self.sin

    def forward(self, x):
        b, t = x.size(0), x.size(1)
        h = self.attention_norm(x)
        q = self.wq(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        v = self.wv(h).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        q, k = self.rotate(q, t), self.rotate(k, t)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.head_dim)
        scores = F.softmax(scores + self.mask, dim=-1)
        out = torch.matmul(scores, v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.wo(out)
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


BLOCKS = {"bert": BertLayer, "gpt2": GPT2Block, "llama": LlamaBlock}


def block_inputs(name, rng, batch, seq=16, hidden=64):
    """Inputs of block `name` and their input_info (batch symbolic; BERT's
    sequence length too)."""
    x = rng.standard_normal((batch, seq, hidden)).astype("float32")
    if name == "bert":
        mask = (rng.random((batch, seq)) > 0.3).astype("float32")
        mask[:, 0] = 1
        return (x, mask), [(("b", "t", hidden), "float32"), (("b", "t"), "float32")]
    return (x,), [(("b", seq, hidden), "float32")]


def check(name, model, input_info, input_sets, rtol=1e-4):
    """Imports `model` with from_fx, runs it with mlc on each input set and
    compares with torch: rtol, and atol of rtol times the largest reference
    magnitude (deep f32 networks sum in another order than torch). Prints
    "name: ok" with the largest relative error."""
    import mlc
    from mlc.relax.frontend.torch import from_fx

    mod = from_fx(torch.fx.symbolic_trace(model), input_info)
    compare(name, model, mlc.create_executor(mod=mod).evaluate(), input_sets, rtol)


def compare(name, model, run, input_sets, rtol):
    """Runs `run` (mlc) and `model` (torch) on each input set and compares
    them as `check` describes; prints "name: ok" with the largest error."""
    import numpy as np

    worst = 0.0
    for inputs in input_sets:
        out = run(*inputs)
        with torch.no_grad():
            ref = model(*[torch.from_numpy(x) for x in inputs]).numpy()
        scale = float(np.abs(ref).max())
        assert scale > 0, "%s: the reference output is all zeros" % name
        np.testing.assert_allclose(out, ref, rtol=rtol, atol=rtol * scale,
                                   err_msg="%s on inputs of shapes %s" % (
                                       name, [x.shape for x in inputs]))
        worst = max(worst, float(np.abs(out - ref).max()) / scale)
    print("%s: ok (max error %.1e of the largest output)" % (name, worst))


def check_onnx(name, model, input_sets, opset, dynamic_axes=None, rtol=1e-4):
    """Exports `model` with torch.onnx.export on the first input set (inputs
    named in0, in1, ...; `dynamic_axes` maps an input index to the axes to
    export as symbolic, {axis: name}), imports it with mlc's from_onnx, runs
    it with mlc on every input set and compares with torch like `check`.
    Prints "name: ok"."""
    import io

    import onnx

    import mlc
    from mlc.relax.frontend.onnx import from_onnx

    names = ["in%d" % i for i in range(len(input_sets[0]))]
    buffer = io.BytesIO()
    torch.onnx.export(model, tuple(torch.from_numpy(x) for x in input_sets[0]), buffer,
                      opset_version=opset, input_names=names,
                      dynamic_axes={names[i]: axes for i, axes in (dynamic_axes or {}).items()})
    mod = from_onnx(onnx.load_from_string(buffer.getvalue()))
    compare(name, model, mlc.create_executor(mod=mod).evaluate(), input_sets, rtol)


def check_torchscript(name, model, inputs, rtol=1e-4):
    """Traces `model` with torch.jit.trace on `inputs`, imports the trace
    with mlc's relay from_pytorch (static shapes: those of `inputs`, named
    in0, in1, ...), runs it with mlc, binding the returned params, and
    compares with torch like `check`. Prints "name: ok"."""
    import mlc
    from mlc.relay.frontend import from_pytorch

    with torch.no_grad():
        traced = torch.jit.trace(model, tuple(torch.from_numpy(x) for x in inputs),
                                 check_trace=False)
    infos = [("in%d" % i, (x.shape, str(x.dtype))) for i, x in enumerate(inputs)]
    mod, params = from_pytorch(traced, infos)
    run = mlc.create_executor(mod=mod, params=params).evaluate()
    compare(name, model, run, [inputs], rtol)

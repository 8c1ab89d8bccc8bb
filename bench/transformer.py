"""Transformer layers: mlc vs torch on the same machine in one run.

    /usr/bin/python3 bench/transformer.py [--models gpt2_mlp bert_layer dense]
        [--threads 1 2] [--runs 10]

Models, built here in Relay text with random weights (bound at compile
time, as `mlc-run --params` does):
  * gpt2_mlp: GPT-2's MLP half-block on 50 x 32 tokens (M = 1600): dense
    768 -> 768 + bias + residual, layer norm, dense 768 -> 3072 + bias,
    tanh GELU (GPT-2's formula, x^3 as power).
  * bert_layer: a BERT-base encoder layer (post-norm) on 128 tokens: QKV
    dense 768 -> 2304, 12 heads of 64 (batch_matmul, scaled softmax),
    output projection + residual + layer norm, dense 768 -> 3072 + bias,
    erf GELU, dense 3072 -> 768 + bias + residual + layer norm.
  * dense: nn.dense (transposed weight) + bias + tanh GELU for M in
    {128, 1600, 4096} and (K, N) in {(768, 3072), (3072, 768)}.
mlc: `mlc-run --bench=RUNS --threads=T`, median latency. torch: the same
computation in torch (float32, T threads for torch and its BLAS:
bench/torch_threads.py), median of RUNS
calls after two warm-up calls. The ratio is torch time / mlc time (> 1:
mlc is faster). Every mlc output is checked against torch in float64
(max |error| <= 1e-4 * max |reference| + 1e-5); a wrong output fails the
script.
"""

import argparse
import os
import statistics
import sys
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from relay_model import RelayModel  # noqa: E402
from torch_threads import set_threads  # noqa: E402
import blas_baseline  # noqa: E402

F = torch.nn.functional


class Relay:
    """Relay text of @main: one let per line, weights as named params."""

    def __init__(self, rng):
        self.rng, self.lines, self.args, self.params = rng, [], [], {}

    def arg(self, name, shape):
        self.args.append("%%%s: Tensor[(%s), float32]" % (name, ", ".join(map(str, shape))))
        return "%" + name

    def weight(self, name, shape, scale):
        self.params[name] = (self.rng.standard_normal(shape) * scale).astype(np.float32)
        return self.arg(name, shape)

    def let(self, expr):
        self.lines.append("  %%%d = %s;" % (len(self.lines), expr))
        return "%%%d" % (len(self.lines) - 1)

    def text(self, result):
        return ('#[version = "0.0.5"]\ndef @main(%s) {\n%s\n  %s\n}\n'
                % (", ".join(self.args), "\n".join(self.lines), result))

    def dense(self, x, name, k, n):
        w = self.weight(name + "_weight", (n, k), 1.0 / np.sqrt(k))
        b = self.weight(name + "_bias", (n,), 0.1)
        return self.let("add(%s, %s)" % (self.let("nn.dense(%s, %s, units=%d)" % (x, w, n)), b))

    def layer_norm(self, x, name, n):
        g = self.weight(name + "_gamma", (n,), 1.0)
        b = self.weight(name + "_beta", (n,), 0.1)
        return self.let("nn.layer_norm(%s, %s, %s)" % (x, g, b))

    def gelu_tanh(self, x):
        cube = self.let("power(%s, 3f)" % x)
        inner = self.let("add(%s, %s)" % (x, self.let("multiply(%s, 0.044715f)" % cube)))
        t = self.let("tanh(%s)" % self.let("multiply(%s, 0.797885f)" % inner))
        return self.let("multiply(%s, 0.5f)"
                        % self.let("multiply(%s, %s)" % (x, self.let("add(%s, 1f)" % t))))

    def gelu_erf(self, x):
        e = self.let("erf(%s)" % self.let("multiply(%s, 0.707107f)" % x))
        return self.let("multiply(%s, 0.5f)"
                        % self.let("multiply(%s, %s)" % (x, self.let("add(%s, 1f)" % e))))


def gelu_tanh(x):
    return 0.5 * x * (1 + torch.tanh(0.797885 * (x + 0.044715 * x.pow(3))))


def gelu_erf(x):
    return 0.5 * x * (1 + torch.erf(x * 0.707107))


def gpt2_mlp(rng):
    tokens, hidden, ffn = (50, 32), 768, 3072
    r = Relay(rng)
    data = r.arg("data", (*tokens, hidden))
    x = r.let("reshape(%s, newshape=[%d, %d])" % (data, tokens[0] * tokens[1], hidden))
    h = r.let("reshape(%s, newshape=[%d, %d, %d])" % (r.dense(x, "proj", hidden, hidden),
                                                       *tokens, hidden))
    h = r.layer_norm(r.let("add(%s, %s)" % (h, data)), "ln", hidden)
    h = r.let("reshape(%s, newshape=[%d, %d])" % (h, tokens[0] * tokens[1], hidden))
    h = r.let("reshape(%s, newshape=[%d, %d, %d])" % (r.dense(h, "fc", hidden, ffn), *tokens, ffn))
    text = r.text(r.gelu_tanh(h))

    def forward(p, x):
        h = F.layer_norm(F.linear(x, p["proj_weight"], p["proj_bias"]) + x, (hidden,),
                         p["ln_gamma"], p["ln_beta"])
        return gelu_tanh(F.linear(h, p["fc_weight"], p["fc_bias"]))
    data = rng.standard_normal((*tokens, hidden)).astype(np.float32)
    return text, r.params, data, forward


def bert_layer(rng):
    seq, hidden, heads, ffn = 128, 768, 12, 3072
    dim = hidden // heads
    r = Relay(rng)
    data = r.arg("data", (1, seq, hidden))
    x = r.let("reshape(%s, newshape=[%d, %d])" % (data, seq, hidden))
    qkv = r.let("reshape(%s, newshape=[%d, 3, %d, %d])" % (r.dense(x, "qkv", hidden, 3 * hidden),
                                                           seq, heads, dim))
    qkv = r.let("split(%s, indices_or_sections=3)"
                % r.let("transpose(%s, axes=[1, 2, 0, 3])" % qkv))
    q, k, v = (r.let("reshape(%s, newshape=[%d, %d, %d])" % (r.let("%s.%d" % (qkv, i)),
                                                             heads, seq, dim))
               for i in range(3))
    scores = r.let("multiply(%s, %gf)" % (r.let("nn.batch_matmul(%s, %s, transpose_b=True)"
                                                % (q, k)), 1.0 / np.sqrt(dim)))
    probs = r.let("nn.softmax(%s)" % scores)
    ctx = r.let("nn.batch_matmul(%s, %s, transpose_b=False)" % (probs, v))
    ctx = r.let("reshape(%s, newshape=[%d, %d])"
                % (r.let("transpose(%s, axes=[1, 0, 2])" % ctx), seq, hidden))
    h = r.let("reshape(%s, newshape=[1, %d, %d])" % (r.dense(ctx, "out", hidden, hidden),
                                                      seq, hidden))
    h1 = r.layer_norm(r.let("add(%s, %s)" % (h, data)), "ln1", hidden)
    f = r.let("reshape(%s, newshape=[%d, %d])" % (h1, seq, hidden))
    f = r.dense(r.gelu_erf(r.dense(f, "ffn1", hidden, ffn)), "ffn2", ffn, hidden)
    f = r.let("reshape(%s, newshape=[1, %d, %d])" % (f, seq, hidden))
    text = r.text(r.layer_norm(r.let("add(%s, %s)" % (f, h1)), "ln2", hidden))

    def forward(p, x):
        qkv = F.linear(x, p["qkv_weight"], p["qkv_bias"]).reshape(seq, 3, heads, dim)
        q, k, v = qkv.permute(1, 2, 0, 3)
        probs = torch.softmax(q @ k.transpose(1, 2) / np.sqrt(dim), dim=-1)
        ctx = (probs @ v).transpose(0, 1).reshape(1, seq, hidden)
        h1 = F.layer_norm(F.linear(ctx, p["out_weight"], p["out_bias"]) + x, (hidden,),
                          p["ln1_gamma"], p["ln1_beta"])
        f = F.linear(gelu_erf(F.linear(h1, p["ffn1_weight"], p["ffn1_bias"])),
                     p["ffn2_weight"], p["ffn2_bias"])
        return F.layer_norm(f + h1, (hidden,), p["ln2_gamma"], p["ln2_beta"])
    data = rng.standard_normal((1, seq, hidden)).astype(np.float32)
    return text, r.params, data, forward


def dense_gelu(m, k, n):
    def build(rng):
        r = Relay(rng)
        data = r.arg("data", (m, k))
        text = r.text(r.gelu_tanh(r.dense(data, "fc", k, n)))

        def forward(p, x):
            return gelu_tanh(F.linear(x, p["fc_weight"], p["fc_bias"]))
        return text, r.params, rng.standard_normal((m, k)).astype(np.float32), forward
    return build


MODELS = {"gpt2_mlp": [("gpt2_mlp", gpt2_mlp)], "bert_layer": [("bert_layer", bert_layer)],
          "dense": [("dense_gelu %dx%dx%d" % (m, k, n), dense_gelu(m, k, n))
                    for m in (128, 1600, 4096) for k, n in ((768, 3072), (3072, 768))]}


def torch_median(forward, params, x, threads, runs):
    set_threads(threads)
    p = {name: torch.from_numpy(w) for name, w in params.items()}
    x = torch.from_numpy(x)
    with torch.no_grad():
        for _ in range(2):
            forward(p, x)
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            forward(p, x)
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", choices=sorted(MODELS),
                        default=["gpt2_mlp", "bert_layer", "dense"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)
    failed = False
    print("%-24s %7s %10s %10s %7s" % ("model", "threads", "mlc ms", "torch ms", "ratio"))
    for group in args.models:
        for name, build in MODELS[group]:
            text, params, data, forward = build(np.random.default_rng(0))
            with torch.no_grad():
                want = forward({k: torch.from_numpy(v).double() for k, v in params.items()},
                               torch.from_numpy(data).double()).numpy()
            with RelayModel(text, params, {"data": data}) as model:
                for threads in args.threads:
                    mlc_ms, got = model.bench(threads, args.runs)
                    error = np.abs(got.reshape(want.shape) - want).max()
                    ok = error <= 1e-4 * np.abs(want).max() + 1e-5
                    failed |= not ok
                    torch_ms = torch_median(forward, params, data, threads, args.runs)
                    print("%-24s %7d %10.2f %10.2f %7.2f%s"
                          % (name, threads, mlc_ms, torch_ms, torch_ms / mlc_ms,
                             "" if ok else "  WRONG (max error %.2e)" % error), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

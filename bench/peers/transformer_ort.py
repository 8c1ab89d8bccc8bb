"""mlc against ONNX Runtime on a transformer block: GPT-2's MLP block as in
the issue (x: 1600x768; dense 768->768 + bias + residual, layer norm, dense
768->3072 + bias, tanh-GELU), same weights, same machine, same run.

    bash bench/peers/setup.sh            # once: bench/peers/.venv
    bench/peers/.venv/bin/python bench/peers/transformer_ort.py
        [--tokens 1600] [--threads 1 2] [--runs 20]

mlc: the block in Relay (nn.dense with [out, in] weights, bias_add, add,
nn.layer_norm, power(h, 3f) in the GELU), weights bound at compile time,
compiled to a shared library loaded into this process and timed against
ORT in alternating blocks of 5 calls (relay_model.time_alternating: both
see the same phases of the machine). ORT: the same block in ONNX (Gemm transB=1,
Add, LayerNormalization, Pow/Mul/Tanh), CPU provider, intra-op threads =
the thread count. Both outputs are checked against float64 numpy (rtol
1e-4, atol 1e-4). Prints median milliseconds and ORT time / mlc time
(> 1: mlc is faster).
"""

import argparse
import os
import sys

import numpy as np
import onnxruntime as ort
from onnx import helper, numpy_helper, TensorProto

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from relay_model import RelayModel, set_mlc_threads, time_alternating  # noqa: E402

D, H = 768, 3072


def weights(rng):
    return {"w_proj": (rng.standard_normal((D, D)) / np.sqrt(D)).astype(np.float32),
            "b_proj": (rng.standard_normal(D) * 0.1).astype(np.float32),
            "ln_gamma": (1 + rng.standard_normal(D) * 0.1).astype(np.float32),
            "ln_beta": (rng.standard_normal(D) * 0.1).astype(np.float32),
            "w_fc": (rng.standard_normal((H, D)) / np.sqrt(D)).astype(np.float32),
            "b_fc": (rng.standard_normal(H) * 0.1).astype(np.float32)}


def relay_text(tokens):
    t = lambda *s: "Tensor[(%s), float32]" % ", ".join(map(str, s))  # noqa: E731
    return """#[version = "0.0.5"]
def @main(%%x: %s, %%w_proj: %s, %%b_proj: %s, %%ln_gamma: %s, %%ln_beta: %s,
          %%w_fc: %s, %%b_fc: %s) {
  %%0 = nn.bias_add(nn.dense(%%x, %%w_proj, units=%d), %%b_proj, axis=1);
  %%1 = add(%%0, %%x);
  %%2 = nn.layer_norm(%%1, %%ln_gamma, %%ln_beta, epsilon=1e-05f);
  %%3 = nn.bias_add(nn.dense(%%2, %%w_fc, units=%d), %%b_fc, axis=1);
  multiply(multiply(%%3, 0.5f), add(tanh(multiply(add(%%3, multiply(power(%%3, 3f),
    0.044715f)), 0.797885f)), 1f))
}
""" % (t(tokens, D), t(D, D), t(D), t(D), t(D), t(H, D), t(H), D, H)


def onnx_model(w, tokens):
    nodes, inits = [], [numpy_helper.from_array(v, k) for k, v in w.items()]

    def const(name, value):
        inits.append(numpy_helper.from_array(np.asarray(value, np.float32), name))
        return name

    def node(op, inputs, out, **attrs):
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    y = node("Gemm", ["x", "w_proj", "b_proj"], "proj", transB=1)
    y = node("Add", [y, "x"], "res")
    y = node("LayerNormalization", [y, "ln_gamma", "ln_beta"], "ln", axis=-1, epsilon=1e-5)
    h = node("Gemm", [y, "w_fc", "b_fc"], "fc", transB=1)
    cube = node("Pow", [h, const("three", 3.0)], "cube")
    inner = node("Add", [h, node("Mul", [cube, const("c", 0.044715)], "c1")], "inner")
    t = node("Tanh", [node("Mul", [inner, const("k", 0.797885)], "scaled")], "t")
    out = node("Mul", [node("Mul", [h, const("half", 0.5)], "half_h"),
                       node("Add", [t, const("one", 1.0)], "t1")], "out")
    graph = helper.make_graph(
        nodes, "gpt2_mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [tokens, D])],
        [helper.make_tensor_value_info(out, TensorProto.FLOAT, [tokens, H])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def reference(w, x):
    w = {k: v.astype(np.float64) for k, v in w.items()}
    y = x.astype(np.float64) @ w["w_proj"].T + w["b_proj"] + x
    mean = y.mean(-1, keepdims=True)
    y = (y - mean) / np.sqrt(((y - mean) ** 2).mean(-1, keepdims=True) + 1e-5)
    h = (y * w["ln_gamma"] + w["ln_beta"]) @ w["w_fc"].T + w["b_fc"]
    return 0.5 * h * (1 + np.tanh(0.797885 * (h + 0.044715 * h ** 3)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=1600)
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    rng = np.random.default_rng(2)
    w = weights(rng)
    x = rng.standard_normal((args.tokens, D)).astype(np.float32)
    want = reference(w, x)
    model = onnx_model(w, args.tokens).SerializeToString()
    print("onnxruntime %s; GPT-2 MLP block, %d tokens" % (ort.__version__, args.tokens))
    print("%8s %10s %10s %9s" % ("threads", "mlc ms", "ORT ms", "ORT/mlc"))
    failed = False
    with RelayModel(relay_text(args.tokens), w, {"x": x}) as mlc_model:
        run_mlc = mlc_model.load()
        for threads in args.threads:
            set_mlc_threads(threads)
            mlc_out = np.asarray(run_mlc(x)).copy()
            mlc_ok = np.allclose(mlc_out, want, rtol=1e-4, atol=1e-4)
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            got = session.run(None, {"x": x})[0]
            mlc_ms, ort_ms = time_alternating(
                [lambda: run_mlc(x), lambda: session.run(None, {"x": x})], args.runs)
            ort_ok = np.allclose(got, want, rtol=1e-4, atol=1e-4)
            failed |= not (mlc_ok and ort_ok)
            print("%8d %10.2f %10.2f %9.2f%s%s" % (
                threads, mlc_ms, ort_ms, ort_ms / mlc_ms, "" if mlc_ok else "  mlc WRONG",
                "" if ort_ok else "  ORT WRONG"), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

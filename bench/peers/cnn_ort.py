"""mlc against ONNX Runtime and Apache TVM's Relax on the full-size CNNs of
bench/cnn_models.py (ResNet-50 v1, MobileNet-v2; batch 1, 224x224), same
weights, same machine, same run.

    bash bench/peers/setup.sh            # once: bench/peers/.venv
    bench/peers/.venv/bin/python bench/peers/cnn_ort.py [--models ...]
        [--threads 1 2] [--runs 20] [--no-tvm]

The ONNX model is built here from the same weights (Conv, BatchNormalization,
Relu / Clip(0, 6), MaxPool, Add, GlobalAveragePool, Flatten, Gemm) and run
with ONNX Runtime's CPU provider at each thread count (intra-op threads,
sequential execution, all graph optimizations: ORT folds the batch norms
into the convolutions, as mlc does with bound weights). mlc is compiled
to a shared library (weights bound at compile time) and loaded into this
process; the two are timed in alternating blocks of 5 calls
(relay_model.time_alternating), so that both see the same phases of the
machine (timed one after the other, their ratio moved by 1.4x between
runs). TVM imports the same
ONNX model (tvm.relax.frontend.onnx.from_onnx, weights as constants) and
builds it with `tvm.compile` for `llvm -mcpu=<host>`: its default CPU
pipeline (LegalizeOps, FoldConstant, FuseOps, FuseTIR; no schedule, no
tuning, as a TVM user gets without MetaSchedule; TVM's dlight has no CPU
rule for convolutions), its thread pool set to each thread count. Every
output is checked against the float64 numpy reference (rtol 1e-4, atol
1e-5). Prints median milliseconds and the ratios peer time / mlc time (> 1:
mlc is faster).
"""

import argparse
import multiprocessing
import os
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort
from onnx import helper, numpy_helper, TensorProto

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cnn_models  # noqa: E402
from relay_model import RelayModel, set_mlc_threads, time_alternating  # noqa: E402


class OnnxBuilder:
    def __init__(self, params):
        self.params, self.nodes, self.inits, self.count = params, [], [], 0

    def fresh(self):
        self.count += 1
        return "t%d" % self.count

    def init(self, name, value):
        self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def node(self, op, inputs, **attrs):
        out = self.fresh()
        self.nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def conv_bn(self, x, name, stride, groups=1, act="relu"):
        w = self.params[name + "_weight"]
        k = w.shape[2]
        y = self.node("Conv", [x, self.init(name + "_weight", w)], strides=[stride, stride],
                      pads=[k // 2] * 4, group=groups, kernel_shape=[k, k])
        bn = [self.init(name + "_bn_" + s, self.params[name + "_bn_" + s])
              for s in ("gamma", "beta", "mean", "var")]
        y = self.node("BatchNormalization", [y] + bn, epsilon=1e-5)
        if act == "relu":
            return self.node("Relu", [y])
        if act == "relu6":
            return self.node("Clip", [y, self.init(self.fresh(), np.float32(0)),
                                      self.init(self.fresh(), np.float32(6))])
        return y

    def classifier(self, x):
        x = self.node("Flatten", [self.node("GlobalAveragePool", [x])])
        return self.node("Gemm", [x, self.init("fc_weight", self.params["fc_weight"]),
                                  self.init("fc_bias", self.params["fc_bias"])], transB=1)

    def model(self, out):
        graph = helper.make_graph(
            self.nodes, "model",
            [helper.make_tensor_value_info("data", TensorProto.FLOAT, [1, 3, 224, 224])],
            [helper.make_tensor_value_info(out, TensorProto.FLOAT, [1, 1000])], self.inits)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def onnx_resnet50(params):
    b = OnnxBuilder(params)
    x = b.conv_bn("data", "stem", 2)
    x = b.node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    for s, (blocks, _) in enumerate(cnn_models.RESNET50_STAGES):
        for i in range(blocks):
            stride = 2 if i == 0 and s > 0 else 1
            name = "s%db%d" % (s, i)
            y = b.conv_bn(x, name + "_c1", 1)
            y = b.conv_bn(y, name + "_c2", stride)
            y = b.conv_bn(y, name + "_c3", 1, act=None)
            shortcut = b.conv_bn(x, name + "_down", stride, act=None) if i == 0 else x
            x = b.node("Relu", [b.node("Add", [y, shortcut])])
    return b.model(b.classifier(x))


def onnx_mobilenet_v2(params):
    b = OnnxBuilder(params)
    x = b.conv_bn("data", "stem", 2, act="relu6")
    for name, cin, hidden, cout, stride, residual in cnn_models.mobilenet_v2_layers():
        y = x
        if hidden != cin:
            y = b.conv_bn(y, name + "_expand", 1, act="relu6")
        y = b.conv_bn(y, name + "_dw", stride, groups=hidden, act="relu6")
        y = b.conv_bn(y, name + "_project", 1, act=None)
        x = b.node("Add", [y, x]) if residual else y
    return b.model(b.classifier(b.conv_bn(x, "head", 1, act="relu6")))


ONNX_MODELS = {"resnet50": onnx_resnet50, "mobilenet_v2": onnx_mobilenet_v2}


def ort_session(model_bytes, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(model_bytes, options, providers=["CPUExecutionProvider"])


def time_tvm(model_bytes, data, thread_counts, runs):
    """[(median ms, output)] per thread count of TVM's Relax VM of the model,
    built by tvm.compile's default CPU pipeline for this host's CPU. Runs in
    a child process (tvm_in_child), whose exit ends TVM's thread pool: its
    workers would otherwise take cycles from the mlc and ORT timings."""
    import onnx
    import tvm
    from tvm import relax
    from tvm.relax.frontend.onnx import from_onnx

    mod = from_onnx(onnx.load_from_string(model_bytes), keep_params_in_input=False)
    cpu = tvm.target.codegen.llvm_get_system_cpu()
    target = tvm.target.Target({"kind": "llvm", "mcpu": cpu})
    vm = relax.VirtualMachine(tvm.compile(mod, target=target), tvm.cpu())
    x = tvm.runtime.tensor(data)
    results = []
    for threads in thread_counts:
        # (affinity mode 0: the runtime's default; the number of workers.)
        tvm.get_global_func("runtime.config_threadpool")(0, threads)
        out = vm["main"](x).numpy()
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            vm["main"](x)
            times.append(time.perf_counter() - start)
        results.append((statistics.median(times) * 1e3, out))
    return results


def tvm_in_child(*args):
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(time_tvm, args)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", choices=sorted(ONNX_MODELS),
                        default=["resnet50", "mobilenet_v2"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-tvm", action="store_true",
                        help="leave TVM out (its untuned build is slow)")
    args = parser.parse_args()
    print("onnxruntime %s" % ort.__version__)
    if not args.no_tvm:
        import tvm
        print("tvm %s" % tvm.__version__)
    print("%-14s %8s %10s %10s %9s %10s %9s" % ("model", "threads", "mlc ms", "ORT ms",
                                              "ORT/mlc", "TVM ms", "TVM/mlc"))
    failed = False
    for name in args.models:
        build, reference = cnn_models.MODELS[name]
        text, params, data = build()
        want = reference(params, data)
        model_bytes = ONNX_MODELS[name](params).SerializeToString()
        # Fewer runs for TVM: its untuned kernels take seconds.
        tvm_results = (None if args.no_tvm else
                       tvm_in_child(model_bytes, data, args.threads, max(3, args.runs // 4)))
        with RelayModel(text, params, {"data": data}) as model:
            run_mlc = model.load()
            for i, threads in enumerate(args.threads):
                set_mlc_threads(threads)
                session = ort_session(model_bytes, threads)
                feed = {"data": data}
                mlc_out = np.asarray(run_mlc(data)).copy()
                ort_out = session.run(None, feed)[0]
                mlc_ms, ort_ms = time_alternating(
                    [lambda: run_mlc(data), lambda: session.run(None, feed)], args.runs)
                results = [("mlc", mlc_out), ("ORT", ort_out)]
                tvm_column = "%10s %9s" % ("-", "-")
                if tvm_results:
                    tvm_ms, tvm_out = tvm_results[i]
                    results.append(("TVM", tvm_out))
                    tvm_column = "%10.2f %9.2f" % (tvm_ms, tvm_ms / mlc_ms)
                notes = ""
                for who, out in results:
                    if not np.allclose(out, want, rtol=1e-4, atol=1e-5):
                        failed = True
                        notes += "  %s WRONG" % who
                print("%-14s %8d %10.2f %10.2f %9.2f %s%s" % (
                    name, threads, mlc_ms, ort_ms, ort_ms / mlc_ms, tvm_column, notes),
                    flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

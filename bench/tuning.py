"""Auto-tuning benchmark: default schedule vs tuned, per kernel.

    /usr/bin/python3 bench/tuning.py [--kernels all|NAME ...] [--trials 32]
        [--per-iter 8] [--threads 1] [--work-dir DIR] [--space knobs|tiles]
        [--cost-model gbdt|random]
    /usr/bin/python3 bench/tuning.py --model resnet|mobilenet|cnn|mlp|transformer
        |resnet50|resnet50_v2|mobilenet_v2
        [--trials 200] [--per-iter 16] [--threads 1] [--work-dir DIR]
        [--cost-model gbdt|random] [--cache-flush] [--rounds 15]

Tunes each kernel with mlc.meta_schedule.tune_tir (the default schedule's
knobs, or with --space tiles a TVM-course-style stochastic TensorIR schedule
for the matmul kernels) and prints the untuned time, the tuned time, their
ratio, the trials and the tuning wall time. The untuned kernel is the
baseline measured in the same run: tune_tir measures it first and measures
it again alternately with the winner at the end; the ratio is from that
final pair. Kernels:

- resnet18's conv layers (bench/conv2d.py's te.compute pad + conv2d_nchw);
- transformer dense shapes (M = batch·seq rows, K -> N), the te.compute
  matmul that relax-legalize-ops writes (bench/matmul.py's kernel).

With --model, a whole model (examples/<model>.relay with random weights from
examples/models.py, or a full-size CNN of bench/cnn_models.py) is tuned with tune_relax (what mlc-tune runs) and
compiled twice with mlc-compile -O3, without and with --tuning-db; the two
libraries are timed back to back in one process, --rounds times (each a
time_evaluator of 10 calls, at least 200 ms), and the tuned outputs are
checked against the model's numpy float64 reference. The ratio is the
median over the rounds of each round's untuned / tuned time, printed with
its quartiles: this machine's speed drifts over seconds, and a pair timed
back to back shares the drift, where the minima of two series need not.
"""

import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import conv2d  # noqa: E402
from matmul import KERNEL  # noqa: E402
import mlc.meta_schedule as ms  # noqa: E402

def matmul_kernel(m, k, n):
    return KERNEL.format(m=m, k=k, n=n, visibility="")


def conv_kernel(name):
    text, _ = conv2d.kernel(*conv2d.LAYERS[name])
    return text[:text.index("func.func @main")].replace("private @conv2d", "@conv2d")


KERNELS = {name: (lambda name=name: conv_kernel(name)) for name in conv2d.LAYERS}
KERNELS.update({
    "dense_128x768x3072": lambda: matmul_kernel(128, 768, 3072),
    "dense_128x3072x768": lambda: matmul_kernel(128, 3072, 768),
    "matmul_512": lambda: matmul_kernel(512, 512, 512),
})


def stochastic_tiles(sch):
    """The MLC course's stochastic matmul schedule (j split by a sampled
    perfect tile, the reduction inside), for --space tiles."""
    block = sch.get_block("T_matmul_NN")
    i, j, k = sch.get_loops(block)
    j0, j1 = sch.split(j, factors=sch.sample_perfect_tile(j, n=2, max_innermost_factor=64))
    sch.reorder(i, j0, k, j1)
    sch.decompose_reduction(block, k)
    return sch


def tune_model(name, trials, per_iter, threads, work, seed, cost_model,
               cache_flush=False, rounds=15):
    import numpy as np
    from mlc import relay, runtime, tools
    sys.path.insert(0, os.path.join(HERE, "..", "examples"))
    import cnn_models
    import models
    if name in cnn_models.MODELS:
        build, reference = cnn_models.MODELS[name]
        text, params, data = build()
        # As bench/cnn_threads.py: some 50 convolutions of f32 accumulation
        # (the untuned ResNet-50 is 8.5e-6 off too).
        inputs, rtol, atol = {"data": data}, 1e-4, 1e-5
    else:
        make, reference, atol = models.MODELS[name]
        rtol = 1e-5
        params, inputs = make(np.random.default_rng(0))
        with open(os.path.join(HERE, "..", "examples", name + ".relay")) as f:
            text = f.read()
    mod = relay.fromtext(text)
    target = ms.Target("llvm --num-cores=%d" % threads)
    start = time.time()
    if trials > 0:  # --trials 0: only compare, with the records in --work-dir
        runner = ms.runner.LocalRunner(num_cores=threads,
                                       enable_cpu_cache_flush=cache_flush)
        ms.tune_relax(mod, params, target, work, trials, per_iter, seed=seed,
                      verbose=False, cost_model=cost_model, runner=runner)
    tuning_secs = time.time() - start
    tasks = ms.extract_tasks(mod, target, params)

    model = os.path.join(work, name + ".mlir")
    with open(model, "w") as f:
        f.write(mod.text)
    params_path = os.path.join(work, "params.npz")
    tools.save_npz(params_path, params)
    bound = os.path.join(work, name + "-bound.mlir")
    tools.run("mlc-opt", [model, "--relay-bind-params=params=" + params_path,
                          "-o", bound])
    model = bound
    libraries = {}
    for kind, extra in (("untuned", []), ("tuned", ["--tuning-db=" + work,
                                                    "--tuning-num-cores=%d" % threads])):
        path = os.path.join(work, "%s-%s.so" % (name, kind))
        tools.run("mlc-compile", [model, "-O3", "-o", path] + extra)
        libraries[kind] = runtime.load_module(path)
    os.environ["OMP_NUM_THREADS"] = str(threads)
    data = inputs["data"]
    out = {k: np.zeros(reference(params, data.astype(np.float64)).shape, np.float32)
           for k in libraries}
    for kind, lib in libraries.items():
        lib["main"](data, out[kind])
    want = reference({k: v.astype(np.float64) for k, v in params.items()},
                     data.astype(np.float64))
    ok = np.allclose(out["tuned"], want, rtol=rtol, atol=atol)
    times = {k: [] for k in libraries}
    for round_ in range(rounds):
        # Alternate which goes first, so that neither always follows the other.
        kinds = list(libraries) if round_ % 2 == 0 else list(libraries)[::-1]
        for kind in kinds:
            timer = libraries[kind].time_evaluator("main", number=10, repeat=1,
                                                   min_repeat_ms=200)
            times[kind].append(min(timer(data, out[kind]).results))
    ratios = np.array(times["untuned"]) / np.array(times["tuned"])
    untuned, tuned = np.median(times["untuned"]), np.median(times["tuned"])
    print("%-12s %6s %12s %12s %8s %13s %7s %9s %s" % (
        "model", "tasks", "untuned ms", "tuned ms", "ratio", "quartiles",
        "trials", "tuning s", "numerics"))
    print("%-12s %6d %12.4f %12.4f %8.2f %6.2f-%-6.2f %7d %9.1f %s" % (
        name, len(tasks), untuned * 1e3, tuned * 1e3, np.median(ratios),
        np.percentile(ratios, 25), np.percentile(ratios, 75), trials,
        tuning_secs, "ok" if ok else "MISMATCH"))
    print("records in %s" % work)
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", nargs="+", default=["all"])
    parser.add_argument("--trials", type=int, default=32)
    parser.add_argument("--per-iter", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--work-dir", default=None)
    parser.add_argument("--space", choices=("knobs", "tiles"), default="knobs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cost-model", choices=("gbdt", "random"), default="gbdt",
                        help="which proposals each round measures (random: "
                             "no cost model)")
    parser.add_argument("--cache-flush", action="store_true",
                        help="measure candidates with their weights cold in "
                             "L2, as in the model (LocalRunner's "
                             "enable_cpu_cache_flush)")
    parser.add_argument("--rounds", type=int, default=15,
                        help="with --model: untuned/tuned pairs timed back "
                             "to back")
    parser.add_argument("--model", default=None,
                        help="tune a whole example model (tune_relax) instead")
    args = parser.parse_args()
    if args.model:
        work = args.work_dir or tempfile.mkdtemp(prefix="mlc-tuning-bench-")
        return tune_model(args.model, args.trials, args.per_iter, args.threads,
                          work, args.seed, args.cost_model, args.cache_flush,
                          args.rounds)
    names = list(KERNELS) if args.kernels == ["all"] else args.kernels
    work = args.work_dir or tempfile.mkdtemp(prefix="mlc-tuning-bench-")
    target = "llvm --num-cores=%d" % args.threads
    print("%-22s %12s %12s %8s %7s %7s %9s" % ("kernel", "untuned ms", "tuned ms",
                                              "ratio", "trials", "failed", "wall s"))
    for name in names:
        if name not in KERNELS:
            sys.exit("unknown kernel %r (known: %s)" % (name, ", ".join(KERNELS)))
        space = None
        if args.space == "tiles":
            if not name.startswith(("dense", "matmul")):
                continue
            space = ms.ScheduleFn(stochastic_tiles)
        start = time.time()
        result = ms.tune_tir(KERNELS[name](), target=target,
                             work_dir=os.path.join(work, name),
                             max_trials_global=args.trials,
                             num_trials_per_iter=args.per_iter, space=space,
                             seed=args.seed, verbose=False, return_result=True,
                             cost_model=args.cost_model)
        print("%-22s %12.4f %12.4f %8.2f %7d %7d %9.1f" % (
            name, result.default_secs * 1e3, result.best_secs * 1e3, result.speedup,
            result.trials, result.failed, time.time() - start), flush=True)
    print("records in %s" % work)


if __name__ == "__main__":
    sys.exit(main())

"""Auto-tuning benchmark: default schedule vs tuned, per kernel.

    /usr/bin/python3 bench/tuning.py [--kernels all|NAME ...] [--trials 32]
        [--per-iter 8] [--threads 1] [--work-dir DIR] [--space knobs|tiles]

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
    args = parser.parse_args()
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
                             seed=args.seed, verbose=False, return_result=True)
        print("%-22s %12.4f %12.4f %8.2f %7d %7d %9.1f" % (
            name, result.default_secs * 1e3, result.best_secs * 1e3, result.speedup,
            result.trials, result.failed, time.time() - start), flush=True)
    print("records in %s" % work)


if __name__ == "__main__":
    main()

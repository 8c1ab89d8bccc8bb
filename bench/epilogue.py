"""Epilogues on the register tile: mlc with and without fuse-epilogues in
one run.

    /usr/bin/python3 bench/epilogue.py [--models dense gpt2_mlp bert_layer
        mobilenet_v2 resnet50] [--threads 1 2] [--runs 10] [--rounds 2]

The models are bench/transformer.py's (dense: nn.dense + bias + tanh GELU
for M in {128, 1600, 4096}, (K, N) in {(768, 3072), (3072, 768)}; the GPT-2
MLP block; a BERT-base layer) and bench/cnn_models.py's (MobileNet-v2 and
ResNet-50, 224x224, batch 1), random weights bound at compile time. Each is
timed by `mlc-run --bench=RUNS --threads=T` with the CPU pipeline's
fuse-epilogues on (the default) and off, the two alternating for ROUNDS
rounds; the best median of each is kept. The ratio is off / on (> 1: the
fused epilogues are faster). Both outputs are compared with each other
(max |difference| <= 1e-4 * max |output| + 1e-5); a mismatch fails the
script.
"""

import argparse
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from relay_model import RelayModel  # noqa: E402


def transformer_models(group):
    import transformer
    for name, build in transformer.MODELS[group]:
        text, params, data, _ = build(np.random.default_rng(0))
        yield name, text, params, data


def cnn_model(name):
    import cnn_models
    text, params, data = getattr(cnn_models, name)()
    yield name, text, params, data


SOURCES = {"dense": lambda: transformer_models("dense"),
           "gpt2_mlp": lambda: transformer_models("gpt2_mlp"),
           "bert_layer": lambda: transformer_models("bert_layer"),
           "mobilenet_v2": lambda: cnn_model("mobilenet_v2"),
           "resnet50": lambda: cnn_model("resnet50")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", choices=sorted(SOURCES),
                        default=["dense", "gpt2_mlp", "bert_layer", "mobilenet_v2", "resnet50"])
    parser.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    failed = False
    print("%-24s %7s %10s %10s %7s" % ("model", "threads", "fused ms", "unfused ms", "ratio"))
    for group in args.models:
        for name, text, params, data in SOURCES[group]():
            with RelayModel(text, params, {"data": data}) as model:
                for threads in args.threads:
                    best = {}
                    outputs = {}
                    for _ in range(args.rounds):
                        for fuse in (1, 0):
                            ms, out = model.bench(
                                threads, args.runs,
                                ["--pipeline-options=fuse-epilogues=%d" % fuse])
                            best[fuse] = min(best.get(fuse, ms), ms)
                            outputs[fuse] = out
                    diff = np.abs(outputs[1] - outputs[0]).max()
                    ok = diff <= 1e-4 * np.abs(outputs[0]).max() + 1e-5
                    failed |= not ok
                    print("%-24s %7d %10.2f %10.2f %7.2f%s"
                          % (name, threads, best[1], best[0], best[0] / best[1],
                             "" if ok else "  MISMATCH (max difference %.2e)" % diff),
                          flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

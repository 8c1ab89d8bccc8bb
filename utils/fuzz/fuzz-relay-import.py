#!/usr/bin/python3
"""Mutation fuzzer for `mlc-translate --import-relay`.

Takes the Relay test inputs (and the tensor files the meta-constant tests
use), mutates them (byte flips, token deletions, duplications, swaps and
insertions, truncations) and runs the importer on each mutant. Every run must
end either successfully or with a clean error (exit code 1 and an `error:`
diagnostic); a signal exit (crash, assertion, sanitizer abort), a timeout or
a failure without a diagnostic is a failure. Failing inputs are saved with
the command that reproduces them (utils/fuzz/fuzzlib.py, docs/Fuzzing.md).

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-relay-import.py --runs 2000 --seed 1
With a sanitizer build (cmake -DMLC_ENABLE_SANITIZERS=ON ...), pass its binary:
  /usr/bin/python3 utils/fuzz/fuzz-relay-import.py --mlc-translate BUILD/bin/mlc-translate

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

# Fragments that reach the parser's and importer's less common paths.
INTERESTING = [
    b"(", b")", b"[", b"]", b"{", b"}", b",", b";", b"=", b".", b":", b"?",
    b"->", b"%0", b"%1.0", b"%x.0.1", b"@main", b"@f(", b"let %v = ", b"fn",
    b"if", b"free_var %q: float32;", b"meta[relay.Constant][0]",
    b"meta[relay.Constant][99]", b"meta[relay.Foo][0]", b"#[metadata]",
    b"#[version = \"0.0.4\"]", b"/*", b"*/", b"/* ty=Tensor[(1), float32] */",
    b"\"", b"\\", b"-", b"1e999f", b"-0f", b"99999999999999999999i64",
    b"300i8", b"2u1", b"1f16", b"True", b"None", b"Tensor[(?, 3), int64]",
    b"Tensor[(), bool]", b"(Tensor[(1), float32],)", b"()", b"(,)",
    b"axis=-1", b"axis=[[1], [2, [3]]]", b"dtype=\"int4\"", b"out_dtype=\"\"",
    b"padding=[0.5f]", b"\x00", b"\xff", b"\xc3\xa9", b"\t", b"\n",
]


class RelayImportFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-translate"]
    work_prefix = "fuzz-relay-"

    def add_arguments(self, parser):
        parser.add_argument("--inputs", nargs="*",
                            default=sorted(glob.glob(os.path.join(ROOT, "test", "Target", "Relay", "**", "*.relay"),
                                                     recursive=True)))
        parser.add_argument("--tensor-fraction", type=float, default=0.15,
                            help="share of runs that damage the --relay-meta file instead of the program")

    def setup(self, args, runner, rng):
        self.tensor_fraction = args.tensor_fraction
        self.seeds = [(p, open(p, "rb").read()) for p in args.inputs]
        if not self.seeds:
            sys.exit("error: no inputs")
        # Tensor files as the tests make them; the meta test program uses them.
        self.tensor_files = []
        maker = os.path.join(ROOT, "test", "Target", "Relay", "Inputs", "make-tensors.py")
        self.meta_program = os.path.join(ROOT, "test", "Target", "Relay", "meta-constants.relay")
        if os.path.exists(maker) and os.path.exists(self.meta_program):
            tdir = os.path.join(runner.work, "tensors")
            subprocess.run([sys.executable, maker, tdir], check=True)
            for name in ["stored.npz", "compressed.npz", "consts.safetensors"]:
                self.tensor_files.append(open(os.path.join(tdir, name), "rb").read())

    def generate(self, rng, index):
        files = {}
        if self.tensor_files and rng.random() < self.tensor_fraction:
            origin = self.meta_program + " (tensor file)"
            text = open(self.meta_program, "rb").read()
            files["meta.bin"] = fuzzlib.mutate_binary(rng.choice(self.tensor_files), rng)
        else:
            origin, text = rng.choice(self.seeds)
            text = fuzzlib.mutate_text(text, rng, INTERESTING)
            if self.tensor_files:
                files["meta.bin"] = self.tensor_files[0]
        files["input.relay"] = text
        args = ["--import-relay", "input.relay", "-o", os.devnull]
        if "meta.bin" in files:
            args.append("--relay-meta=meta.bin")
        return fuzzlib.Case("mlc-translate", args, files, origin=os.path.basename(origin),
                            label="mlc-translate --import-relay")


if __name__ == "__main__":
    sys.exit(fuzzlib.main(RelayImportFuzzer(), __doc__))

#!/usr/bin/python3
"""Mutation fuzzer for `relax-meta-schedule-apply-database` (tuning records).

Seeds are the databases test/MetaSchedule/Inputs/make-tuning-db.py writes for
the kernels of test/MetaSchedule/Inputs/kernels.mlir (records of this host's
target, so that they are looked up and replayed). Each run damages one
thing: a JSON line of either file (as text), a record's trace or a stored
workload (MLIR-aware mutations of the transform script or the kernel, then
base64 again), a record's index, run times or target, or the kernels the
pass runs on; then runs `mlc-opt --relax-meta-schedule-apply-database` with
a random num-cores. Every run must succeed (a record that does not replay
is a warning) or fail with a diagnostic (docs/Fuzzing.md).

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-tuning-db.py --runs 1000 --seed 1

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import base64
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

INPUTS = os.path.join(ROOT, "test", "MetaSchedule", "Inputs")
JSON_FRAGMENTS = [b"[", b"]", b"{", b"}", b",", b'"', b"null", b"1e10", b"-1", b"1e999",
                  b"9223372036854775808", b"\\u0000", b"true", b"[]", b"{}", b"\"\""]


class TuningDatabaseFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-opt"]
    work_prefix = "fuzz-tuning-db-"

    def setup(self, args, runner, rng):
        out = os.path.join(runner.work, "seed-dbs")
        kernels = os.path.join(INPUTS, "kernels.mlir")
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"),
                   MLC_TOOLS_DIR=os.path.dirname(runner.tool_paths["mlc-opt"]))
        subprocess.run([sys.executable, os.path.join(INPUTS, "make-tuning-db.py"), kernels, out],
                       check=True, env=env)
        self.kernels = open(kernels, "rb").read()
        good = os.path.join(out, "good")
        self.workloads = [json.loads(l) for l in open(os.path.join(good, "database_workload.json"))]
        self.records = [json.loads(l) for l in open(os.path.join(good, "database_tuning_record.json"))]

    def mutate_records(self, rng):
        workloads = json.loads(json.dumps(self.workloads))
        records = json.loads(json.dumps(self.records))
        kind = rng.choice(["trace", "workload", "index", "secs", "target"])
        if kind == "trace":
            record = rng.choice(records)
            record[1][0] = fuzzlib.mutate_mlir(record[1][0].encode(), rng).decode("utf-8", "replace")
        elif kind == "workload":
            entry = rng.choice(workloads)
            text = base64.b64decode(entry[1])
            entry[1] = base64.b64encode(fuzzlib.mutate_mlir(text, rng)).decode()
        elif kind == "index":
            rng.choice(records)[0] = fuzzlib.boundary_int(rng)
        elif kind == "secs":
            rng.choice(records)[1][1] = rng.choice([[], [0], [-1.0], [1e300], ["x"], None, [1e10, 1e-9]])
        else:
            target = rng.choice(records)[1][2]
            if isinstance(target, dict) and target:
                key = rng.choice(sorted(target))
                target[key] = rng.choice([None, 0, -1, "", [], {}, 2**63, "llvm"])
        return workloads, records

    def generate(self, rng, index):
        workloads, records = self.mutate_records(rng) if rng.random() < 0.6 else (self.workloads, self.records)
        workload_text = b"".join(json.dumps(w).encode() + b"\n" for w in workloads)
        record_text = b"".join(json.dumps(r).encode() + b"\n" for r in records)
        kernels = self.kernels
        choice = rng.random()
        if choice < 0.15:
            workload_text = fuzzlib.mutate_text(workload_text, rng, JSON_FRAGMENTS)
        elif choice < 0.3:
            record_text = fuzzlib.mutate_text(record_text, rng, JSON_FRAGMENTS)
        elif choice < 0.4:
            kernels = fuzzlib.mutate_mlir(kernels, rng)
        files = {"kernels.mlir": kernels, "db/database_workload.json": workload_text,
                 "db/database_tuning_record.json": record_text}
        cores = rng.choice([0, 1, 2, 3, 2**31, -1])
        args = ["kernels.mlir", "--relax-meta-schedule-apply-database=work-dir=db num-cores=%d" % cores,
                "-o", os.devnull]
        return fuzzlib.Case("mlc-opt", args, files, origin="make-tuning-db.py",
                            label="relax-meta-schedule-apply-database", mlir=kernels)


if __name__ == "__main__":
    sys.exit(fuzzlib.main(TuningDatabaseFuzzer(), __doc__))

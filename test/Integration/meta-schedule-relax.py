# Tuning a whole model (mlc.meta_schedule.tune_relax, mlc-tune) and compiling
# it with the records (mlc-run/mlc-compile --tuning-db, compile_relax): an MLP
# of dense 64->128, two dense 128->128 layers (one kernel after
# deduplication, so one task of weight 2) and dense 128->10, each + bias and
# relu, with random weights bound by name. Each kernel is timed through its
# task's harness, with the model's weights as constants. The tuned model computes what a
# numpy float64 reference computes (rtol 1e-5, atol 1e-5 * sqrt(128)); the
# C++ pass picks the record Python's database picks for every kernel; the
# drivers reject bad uses. Nothing here is timed against a threshold.
# RUN: %python %s | FileCheck %s

import os
import re
import subprocess
import tempfile

import numpy as np
import mlc
import mlc.meta_schedule as ms
from mlc import relay, tools

MLP = """#[version = "0.0.5"]
def @main(%x: Tensor[(4, 64), float32], %w0: Tensor[(128, 64), float32], %b0: Tensor[(128), float32], %w1: Tensor[(128, 128), float32], %b1: Tensor[(128), float32], %w2: Tensor[(128, 128), float32], %b2: Tensor[(128), float32], %w3: Tensor[(10, 128), float32], %b3: Tensor[(10), float32]) -> Tensor[(4, 10), float32] {
  %0 = nn.dense(%x, %w0, units=128);
  %1 = nn.relu(nn.bias_add(%0, %b0));
  %2 = nn.dense(%1, %w1, units=128);
  %3 = nn.relu(nn.bias_add(%2, %b1));
  %4 = nn.dense(%3, %w2, units=128);
  %5 = nn.relu(nn.bias_add(%4, %b2));
  %6 = nn.dense(%5, %w3, units=10);
  nn.relu(nn.bias_add(%6, %b3))
}
"""

rng = np.random.default_rng(19)
params = {}
for i, (n, k) in enumerate([(128, 64), (128, 128), (128, 128), (10, 128)]):
    params["w%d" % i] = (rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
    params["b%d" % i] = (rng.standard_normal(n) * 0.1).astype(np.float32)
x = rng.standard_normal((4, 64)).astype(np.float32)


def reference():
    h = x.astype(np.float64)
    for i in range(4):
        h = np.maximum(h @ params["w%d" % i].T.astype(np.float64) + params["b%d" % i], 0)
    return h


def check(name, out):
    np.testing.assert_allclose(out, reference(), rtol=1e-5, atol=1e-5 * np.sqrt(128))
    print(name + ": ok")


mod = relay.fromtext(MLP)
TARGET = "llvm --num-cores=1"

# Tasks: the distinct kernels after fusion, weighted by their calls.
tasks = ms.extract_tasks(mod, TARGET, params)
weights = sorted(t.weight for t in tasks)
print("tasks:", len(tasks), "weights:", weights,
      "distinct:", len({t.workload_hash for t in tasks}) == len(tasks))
# CHECK: tasks: 3 weights: [1, 1, 2] distinct: True

# Each kernel takes bound weights (its dense weight and bias), so each task
# has a harness: a func.func that calls it with them.
print("harnesses:", sorted((t.task_name, t.harness_entry) for t in tasks) ==
      sorted((t.task_name, t.task_name + "__with_weights") for t in tasks),
      all(t.harness.count("relax.constant") == 2 for t in tasks))
# CHECK: harnesses: True True


class RecordingRunner(ms.runner.LocalRunner):
    """A LocalRunner that remembers which entries it timed, and how many
    candidates it timed paired with their untuned kernel."""
    entries = set()
    paired = 0

    def run(self, path, func, reference=None, save_reference=None, baseline=None):
        self.entries.add(func)
        result = super().run(path, func, reference, save_reference, baseline)
        if baseline and not result.error and \
                len(result.baseline_secs) == len(result.run_secs):
            RecordingRunner.paired += 1
        return result


with tempfile.TemporaryDirectory() as tmp:
    work = os.path.join(tmp, "tune")
    runner = RecordingRunner(num_cores=1)
    db = ms.tune_relax(mod, params, TARGET, work, max_trials_global=6,
                       num_trials_per_iter=3, seed=0, verbose=False, runner=runner)
    runner.close()
    # The kernels were timed through their harnesses (weights as constants,
    # as in the model), never alone.
    print("timed entries:", sorted(runner.entries) ==
          sorted(t.harness_entry for t in tasks))
    # CHECK: timed entries: True
    # Candidates are timed back to back with their untuned kernel (the
    # search's 6 trials, 3 of which are default points and may share the
    # untuned library's measurement, and the duels).
    print("paired:", RecordingRunner.paired >= 3)
    # CHECK: paired: True
    hashes = {t.workload_hash for t in tasks}
    records = db.get_all_tuning_records()
    print("records:", len(records) >= 6,
          "of the tasks:", all(ms.workload_hash(r.workload) in hashes for r in records))
    # CHECK: records: True of the tasks: True

    # The C++ pass applies, to each kernel, the record Python's database
    # picks (the fastest by each trace's newest measurement).
    model = os.path.join(tmp, "mlp.mlir")
    with open(model, "w") as f:
        f.write(mod.text)
    params_path = os.path.join(tmp, "params.npz")
    tools.save_npz(params_path, params)
    applied = tools.run("mlc-opt", [model, "--pass-pipeline=builtin.module("
                        "relay-bind-params{params=%s},mlc-graph-to-kernels{"
                        "tuning-db=%s tuning-num-cores=1})" % (params_path, work)])
    def knobs(text, name):
        header = re.search(r"tensorir\.prim_func (?:private )?@%s\(.*" % name,
                           text).group(0)
        return dict(re.findall(r"mlc\.schedule\.(\w+) = (\d+)", header))

    agree = True
    for task in tasks:
        record = db.query_tuning_record(task.mod, TARGET)
        want = knobs(mlc.tir.Schedule.from_script(task.mod, record.trace).mod.text,
                     task.task_name) if record else {}
        agree &= knobs(applied, task.task_name) == want
    print("C++ and Python pick the same records:", agree)
    # CHECK: C++ and Python pick the same records: True

    # mlc-run --tuning-db: the tuned model computes the reference.
    inputs = os.path.join(tmp, "inputs.npz")
    outputs = os.path.join(tmp, "outputs.npz")
    tools.save_npz(inputs, {"x": x})
    tools.run("mlc-run", [model, "--params=" + params_path, "--inputs=" + inputs,
                          "--outputs=" + outputs, "--tuning-db=" + work, "--quiet",
                          "--no-cache"])
    with np.load(outputs) as out:
        check("mlc-run --tuning-db", out["out0"])

    # compile_relax: mlc-compile --tuning-db, loaded as a library.
    lib = ms.relax_integration.compile_relax(db, mod, TARGET, params)
    out = np.zeros((4, 10), np.float32)
    lib["main"](x, out)
    check("compile_relax", out)
    # CHECK: mlc-run --tuning-db: ok
    # CHECK: compile_relax: ok

    # mlc-tune: the same from the command line, into another database.
    proc = subprocess.run([tools.find_tool("mlc-tune"), model, "--params=" + params_path,
                           "--target=" + TARGET, "--work-dir=" + os.path.join(tmp, "cli"),
                           "--trials=3", "--trials-per-iter=2", "--seed=1"],
                          capture_output=True, text=True)
    print("mlc-tune:", proc.returncode, proc.stdout.strip().split(" in ")[0],
          "progress:", "task 1/3" in proc.stderr)
    # CHECK: mlc-tune: 0 mlc-tune: {{[0-9]+}} records progress: True
    tools.run("mlc-run", [model, "--params=" + params_path, "--inputs=" + inputs,
                          "--outputs=" + outputs, "--tuning-db=" + os.path.join(tmp, "cli"),
                          "--quiet", "--no-cache"])
    with np.load(outputs) as out:
        check("mlc-tune's records", out["out0"])
    # CHECK: mlc-tune's records: ok

    # Bad uses: a clear error and a non-zero exit.
    def fails(tool, args):
        proc = subprocess.run([tools.find_tool(tool)] + args, capture_output=True,
                              text=True)
        return proc.returncode, [l for l in proc.stderr.splitlines() if "error" in l][0]

    print(*fails("mlc-tune", [os.path.join(tmp, "nope.mlir"), "--work-dir=" + work]))
    # CHECK: 1 mlc-tune: error: [Errno 2] No such file or directory: '{{.*}}nope.mlir'
    print(*fails("mlc-tune", [model, "--work-dir=" + work, "--target=cuda"]))
    # CHECK: 1 mlc-tune: error: tuning supports the host CPU (target 'llvm'), got 'cuda'
    print(*fails("mlc-run", [model, "--tuning-db=" + work, "--target=cuda"]))
    # CHECK: 1 {{.*}}--tuning-db holds CPU schedules; it cannot be used with --target=cuda
    print(*fails("mlc-compile", [model, "--tuning-db=" + os.path.join(tmp, "none"),
                                 "-o", os.path.join(tmp, "m.so")]))
    # CHECK: 1 {{.*}}error: no tuning database: '{{.*}}none' is not a directory
    print("no partial output:", not os.path.exists(os.path.join(tmp, "m.so")))
    # CHECK: no partial output: True

# Stochastic schedules and tuning (mlc.tir sampling instructions,
# mlc.meta_schedule.tune_tir): the MLC course's stochastic mm_relu schedule
# draws valid perfect tiles for every seed, replays from its trace, and
# computes what numpy computes (float64 reference, rtol 1e-5, atol
# 1e-5 * sqrt(K)); tune_tir over a ScheduleFn space and over the default
# schedule's knobs returns a schedule that computes the same, writes TVM's
# two JSON-lines files keyed by target, and goes on past candidates that
# fail to build or run; NaN outputs of random inputs are compared in place;
# sample_compute_location's decisions all compute the same; the cost
# model ranks a known function's points in order.
# Nothing here is timed against a threshold.
# RUN: %python %s | FileCheck %s

import base64
import json
import os
import tempfile

import numpy as np
import mlc
import mlc.meta_schedule as ms
from mlc import tools
from mlc.tir import Schedule, ScheduleError, Trace

rng = np.random.default_rng(5)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(ROOT, "examples", "mm_relu.mlir")) as f:
    MM_RELU = f.read()
SMALL = MM_RELU.replace("128", "48")


def check(mod, n):
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.full((n, n), np.nan, np.float32)
    mlc.build(mod)["mm_relu"](a, b, c)
    want = np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5 * np.sqrt(n))


def stochastic_schedule_mm(sch):
    block_Y = sch.get_block("Y", "mm_relu")
    i, j, k = sch.get_loops(block=block_Y)
    j_factors = sch.sample_perfect_tile(loop=j, n=2)
    j_0, j_1 = sch.split(loop=j, factors=j_factors)
    sch.reorder(i, j_0, k, j_1)
    sch.decompose_reduction(block_Y, k)
    return sch


# Every seed gives a perfect tile of 128 with the innermost at most 16
# (the default max_innermost_factor), recorded as the decision.
decisions = set()
for seed in range(6):
    sch = stochastic_schedule_mm(Schedule(MM_RELU, seed=seed))
    (tile,) = sch.trace.decisions
    assert tile[0] * tile[1] == 128 and tile[1] <= 16, tile
    decisions.add(tuple(tile))
print("decisions drawn:", len(decisions) > 1)
# CHECK: decisions drawn: True

# The same seed draws the same schedule.
a = stochastic_schedule_mm(Schedule(MM_RELU, seed=3))
b = stochastic_schedule_mm(Schedule(MM_RELU, seed=3))
print("deterministic:", a.trace.decisions == b.trace.decisions and a.mod.text == b.mod.text)
# CHECK: deterministic: True
check(a.mod, 128)

# The trace shows the decision, split takes the sampled params, and
# mlc-opt replays the script to the same module.
script = str(a.trace)
print("trace:", "sample_perfect_tile" in script and "decision = array<i64:" in script)
# CHECK: trace: True
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "trace.mlir")
    with open(path, "w") as f:
        f.write(script)
    replayed = tools.run("mlc-opt", ["--transform-preload-library=transform-library-paths=" + path,
                                     "--transform-interpreter"], input_text=MM_RELU)
print("replayed:", replayed == a.mod.text)
# CHECK: replayed: True

# A trace parsed back keeps its decisions; another decision gives another
# loop nest, still correct.
parsed = Trace.parse(script)
print("parsed:", parsed.decisions == a.trace.decisions)
# CHECK: parsed: True
c = Schedule.from_trace(MM_RELU, parsed.with_decisions([[32, 4]]))
print("j_1 extent 4:", "tensorir.for %j_1 = 0 to 4" in c.mod.text)
# CHECK: j_1 extent 4: True
check(c.mod, 128)

# A decision that is not a perfect tile is mlc's diagnostic.
try:
    sch = Schedule(MM_RELU)
    i, j, k = sch.get_loops(sch.get_block("Y"))
    sch.sample_perfect_tile(j, n=2, max_innermost_factor=64, decision=[3, 40])
except ScheduleError as e:
    print("error:", str(e).splitlines()[0])
# CHECK: error: {{.*}}cannot sample a perfect tile of loop 'j': the product of [3, 40] is not the extent 128

# sample_categorical: the decision is an index; the value what split takes.
sch = Schedule(MM_RELU, seed=1)
i, j, k = sch.get_loops(sch.get_block("Y"))
u = sch.sample_categorical([2, 4, 8], [0.0, 0.0, 1.0])
print("categorical:", sch.get(u), sch.trace.decisions)
# CHECK: categorical: 8 [2]
sch.split(i, factors=[None, u])
check(sch.mod, 128)

# sample_compute_location: Y's locations are C's loops i and j; each
# decision (-1: Y stays) computes what numpy computes, a drawn one is one
# of them, and a mutation moves it to another.
def compute_location_schedule(sch, decision=None):
    block_Y = sch.get_block("Y", "mm_relu")
    location = sch.sample_compute_location(block_Y, decision=decision)
    sch.compute_at(block_Y, location)
    return sch


nests = []
for decision in (-1, 0, 1):
    sch = compute_location_schedule(Schedule(SMALL), decision)
    check(sch.mod, 48)
    nests.append(sch.mod.text.count("tensorir.for %i = "))
print("locations:", sch.trace.samples[0].num_locations, "loop nests:", nests)
# CHECK: locations: 2 loop nests: [2, 1, 1]
drawn = compute_location_schedule(Schedule(SMALL, seed=4))
print("drawn:", drawn.trace.decisions[0] in (-1, 0, 1))
# CHECK: drawn: True
import random as _random
mutated = ms.tune._mutate(drawn.trace, _random.Random(0))
print("mutated:", mutated[0] != drawn.trace.decisions[0] and mutated[0] in (-1, 0, 1))
# CHECK: mutated: True
check(Schedule.from_trace(SMALL, drawn.trace.with_decisions(mutated)).mod, 48)
reparsed = Trace.parse(str(drawn.trace))
print("parsed location:", reparsed.decisions == drawn.trace.decisions)
# CHECK: parsed location: True
try:
    compute_location_schedule(Schedule(SMALL), 2)
except ScheduleError as e:
    print("error:", str(e).splitlines()[0])
# CHECK: error: {{.*}}cannot sample a compute location of block 'Y': decision 2 is not -1 (where it is) or the index of one of its 2 compute_at locations

# The cost model: gradient-boosted trees rank unseen points of a known
# function (a bowl in one feature, an interaction of two others) in its
# order; before it has learned, the space's prior ranks the register tiles
# that spill last.
points = [[a, b, c] for a in range(5) for b in range(4) for c in range(4)]
_random.Random(1).shuffle(points)
secs = lambda p: 1e-3 * (1 + (p[0] - 2) ** 2 + 0.5 * p[1] * (p[2] > 1))
model = ms.GBDTModel()
model.update(points[:40], [secs(p) for p in points[:40]])
held = points[40:]
order = np.argsort(np.argsort(model.predict(held)))
truth = np.argsort(np.argsort([-secs(p) for p in held]))
print("rank correlation > 0.8:", np.corrcoef(order, truth)[0, 1] > 0.8)
# CHECK: rank correlation > 0.8: True
# The default point is the CPU pipeline's tiles for the target: 6x64 (24
# zmm accumulators) with AVX-512, 6x16 (12 ymm) without; neither spills.
host = ms.Target("llvm --num-cores=1")
derived, prior = ms.DefaultScheduleKnobs().analytic(host)
knobs = ms.DefaultScheduleKnobs.KNOBS
spilling = [knobs[0][1].index(16), knobs[1][1].index(64)] + [0] * (len(knobs) - 2)
default = ms.DefaultScheduleKnobs().default_decisions(None, host)
print("prior:", prior(default) == 0 and prior(spilling) < 0, derived(default)[0])
# CHECK: prior: True {{24.0|12.0}}
avx512 = ms.DefaultScheduleKnobs().default_decisions(None)
print("AVX-512 default:", [knobs[i][1][d] for i, d in enumerate(avx512)][:2])
# CHECK: AVX-512 default: [6, 64]
# On Zen 4 the pipeline's contraction tile is 6x32 (mlc-default-schedule's
# n-register; test/Pipelines/cpu-pipeline-vector-bits.mlir), so that is the
# default point there; without AVX-512 Zen 4 is like any AVX2 CPU.
zen4 = ms.Target(host)
zen4.cpu, zen4.features = "znver4", ["avx2", "avx512f", "fma"]
print("Zen 4 default:", [knobs[i][1][d] for i, d in
                         enumerate(ms.DefaultScheduleKnobs().default_decisions(None, zen4))][:2])
# CHECK: Zen 4 default: [6, 32]
zen4.features = ["avx2", "fma"]
print("Zen 4 without AVX-512:", [knobs[i][1][d] for i, d in
                                 enumerate(ms.DefaultScheduleKnobs().default_decisions(None, zen4))][:2])
# CHECK: Zen 4 without AVX-512: [6, 16]

# tune_tir over the course's space: the best schedule is correct, the
# records are TVM's two JSON-lines files, keyed by this machine's target.
with tempfile.TemporaryDirectory() as work:
    result = ms.tune_tir(SMALL, target="llvm --num-cores=1", work_dir=work,
                         max_trials_global=5, num_trials_per_iter=3,
                         space=ms.space_generator.ScheduleFn(stochastic_schedule_mm),
                         seed=0, verbose=False, return_result=True)
    check(result.schedule.mod, 48)
    print("trials:", result.trials, "failed:", result.failed,
          "never slower:", result.best_secs <= result.default_secs)
    # CHECK: trials: {{[1-5]}} failed: 0 never slower: True
    with open(os.path.join(work, "database_workload.json")) as f:
        workloads = [json.loads(line) for line in f]
    with open(os.path.join(work, "database_tuning_record.json")) as f:
        records = [json.loads(line) for line in f]
    shash, encoded = workloads[0]
    print("workloads:", len(workloads), "prim_func" in base64.b64decode(encoded).decode())
    # CHECK: workloads: 1 True
    index, (trace, run_secs, target, args_info) = records[0]
    print("record:", index, "sample_perfect_tile" in trace, len(run_secs) > 0,
          sorted(target), args_info[0])
    # CHECK: record: 0 True True ['cpu', 'features', 'kind', 'mlc', 'num_cores'] ['A', 'memref<48x48xf32>']
    # Every trial, then the final duel's winner and untuned kernel (an
    # empty trace) measured again, and so each runner-up that read faster
    # than them: the fastest record, the one applied, is a dueled trace.
    db = ms.JSONDatabase(work)
    all_records = db.get_all_tuning_records()
    last = all_records[-1]
    duels = (len(db) - result.trials) // 2
    top = db.query_tuning_record(SMALL, "llvm --num-cores=1")
    dueled = {r.trace for r in all_records[len(all_records) - 2 * duels:]}
    print("records:", len(db) == result.trials + 2 * duels and duels >= 1,
          "untuned last:", "transform.tensorir" not in last.trace,
          "applied dueled:", top.trace in dueled,
          "other target:", db.query_tuning_record(SMALL, "llvm --num-cores=64"))
    # CHECK: records: True untuned last: True applied dueled: True other target: None
    best = ms.tir_integration.compile_tir(db, SMALL, "llvm --num-cores=1")
    check(best.mod, 48)
    # The same kernel under another name is the same workload.
    renamed = SMALL.replace("@mm_relu", "@other")
    print("renamed:", ms.workload_hash(renamed) == ms.workload_hash(SMALL))
    # CHECK: renamed: True

# The default schedule's knobs: the first candidate is the default point;
# a knob value that does not compile (m_register 0) is a failed trial and
# the search goes on.
knobs = ms.DefaultScheduleKnobs([("m_register", (0, 4, 8), 8), ("k_tile", (16, 512), 512)])
with tempfile.TemporaryDirectory() as work:
    result = ms.tune_tir(SMALL, target="llvm --num-cores=1", work_dir=work,
                         max_trials_global=6, num_trials_per_iter=6, space=knobs,
                         seed=0, verbose=False, return_result=True,
                         cost_model="random")
    check(result.schedule.mod, 48)
    db = ms.JSONDatabase(work)
    first = Trace.parse(db.get_all_tuning_records()[0].trace).decisions
    print("first is default:", first == [2, 1], "trials:", result.trials,
          "failed:", result.failed)
    # CHECK: first is default: True trials: 6 failed: 2

# A kernel whose outputs hold NaNs for the runner's random inputs (sqrt of
# negative values): NaNs must match in place and the other values within
# the tolerance, so the default point (the same code) is no failed trial.
SQRT = """tensorir.prim_func @root(%A: memref<64xf32>, %B: memref<64xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 64 {
    tensorir.block "B"(%vi = spatial(64, %i)) reads(%A[%vi] : memref<64xf32>) writes(%B[%vi] : memref<64xf32>) {
      %a = memref.load %A[%vi] : memref<64xf32>
      %r = math.sqrt %a : f32
      memref.store %r, %B[%vi] : memref<64xf32>
    }
  }
}
"""
result = ms.tune_tir(SQRT, target="llvm --num-cores=1", max_trials_global=2,
                     num_trials_per_iter=2, seed=0, verbose=False, return_result=True)
print("nan outputs: trials:", result.trials, "failed:", result.failed)
# CHECK: nan outputs: trials: 2 failed: 0
# Measured with the non-first arguments cold (TVM's enable_cpu_cache_flush).
cold_runner = ms.LocalRunner(enable_cpu_cache_flush=True)
result = ms.tune_tir(SQRT, target="llvm --num-cores=1", max_trials_global=2,
                     num_trials_per_iter=2, seed=0, verbose=False, return_result=True,
                     runner=cold_runner)
print("cold: trials:", result.trials, "failed:", result.failed, result.default_secs > 0)
# CHECK: cold: trials: 2 failed: 0 True
cold_runner.close()

# The runner reports what it cannot run and keeps serving.
runner = ms.LocalRunner(timeout_sec=30)
print("missing:", runner.run("/nonexistent.so", "f").error.split(":")[0])
# CHECK: missing: OSError
runner.close()

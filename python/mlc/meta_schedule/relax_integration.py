"""Tuning whole models (TVM's ms.relax_integration and ms.tune_relax).

    import mlc.meta_schedule as ms
    database = ms.tune_relax(mod, params, target="llvm --num-cores=1",
                             work_dir="tune", max_trials_global=200)
    lib = ms.relax_integration.compile_relax(database, mod, "llvm", params)

Tasks are the kernels of the model after fusion and deduplication (the
CPU pipeline's graph part, `mlc-graph-to-kernels`), each weighted by the
number of calls to it; a kernel that occurs in several places is one task.
A kernel that the model passes bound weights is measured with those
weights as constants (the task's harness), so that its candidates are
timed with the weights prepacked at compile time, as the model runs them,
not packed on every call.
The trial budget is split by each task's share of the model's run time
(calls x untuned time). The records go to one JSONDatabase, which
`mlc-run/mlc-compile --tuning-db` and the pass
`relax-meta-schedule-apply-database` apply.
"""

import os
import random
import re
import tempfile
import time

from .. import tools
from ..ir import Module
from .database import JSONDatabase, export_tasks
from .target import Target
from .tune import _log, _make_space, _Measured, _prepare_task, _search, _Session

__all__ = ["ExtractedTask", "compile_relax", "extract_tasks", "tune_relax"]


class ExtractedTask:
    """One kernel of a model (TVM's ExtractedTask)."""

    def __init__(self, task_name, mod, weight, workload_hash, harness=None,
                 harness_entry=None):
        self.task_name = task_name
        self.mod = mod                  # a Module of the one prim_func
        self.weight = weight            # calls to it in the model
        self.workload_hash = workload_hash
        # A func.func that calls the kernel with the model's bound weights
        # (None when the model passes it none): the tuner measures the
        # kernel through it, its weights prepacked as in the model.
        self.harness = harness
        self.harness_entry = harness_entry

    def __repr__(self):
        return "ExtractedTask(%s, weight=%d)" % (self.task_name, self.weight)


def _as_text(mod):
    return mod.text if isinstance(mod, Module) else str(mod)


def _bind_params_pass(text, params, tmp):
    """The bind-params pass of `params` (name -> array, or an .npz or
    .safetensors path) for the module's dialect, or None."""
    if not params:
        return None
    path = params
    if not isinstance(params, str):
        path = os.path.join(tmp, "params.npz")
        tools.save_npz(path, params)
    dialect = "relay" if re.search(r"\brelay\.\w", text) else "relax"
    return "%s-bind-params{params=%s}" % (dialect, path)


def extract_tasks(mod, target="llvm", params=None, pipeline_options=""):
    """The tuning tasks of `mod` (relay or relax, as text or Module) with
    `params` bound as mlc-run binds them."""
    Target(target)  # only the host CPU is tuned
    text = _as_text(mod)
    with tempfile.TemporaryDirectory() as tmp:
        passes = [p for p in (_bind_params_pass(text, params, tmp),) if p]
        passes.append("mlc-graph-to-kernels{%s}" % pipeline_options)
        kernels = tools.run_passes(text, ",".join(passes))
    return [ExtractedTask(t["name"], Module(t["mod"]), t["weight"], t["workload_hash"],
                          t.get("harness"), t.get("harness_entry"))
            for t in export_tasks(kernels)["tasks"]]


def _split_budget(shares, budget):
    """Trials per task, proportional to `shares` (largest remainder), at
    least one each while the budget lasts."""
    total = sum(shares) or 1.0
    exact = [budget * s / total for s in shares]
    trials = [int(e) for e in exact]
    by_remainder = sorted(range(len(shares)), key=lambda i: exact[i] - trials[i],
                          reverse=True)
    for i in by_remainder[:budget - sum(trials)]:
        trials[i] += 1
    # Every task measures at least its default point when the budget
    # allows, taken from the largest allocations.
    for i in range(len(trials)):
        if trials[i] == 0 and shares[i] > 0:
            donor = max(range(len(trials)), key=lambda j: trials[j])
            if trials[donor] <= 1:
                break
            trials[donor] -= 1
            trials[i] = 1
    return trials


def tune_relax(mod, params, target, work_dir, max_trials_global,
               num_trials_per_iter=16, *, space=None, seed=None,
               pipeline_options="", verbose=True, runner=None, builder=None,
               database=None, cost_model="gbdt"):
    """Tunes the kernels of a model; returns the JSONDatabase in
    `work_dir`. `space` is as for tune_tir (default: the default schedule's
    knobs). A progress line per trial goes to stderr: task i/n, trials, best
    so far against the untuned kernel."""
    target = Target(target)
    start = time.monotonic()
    tasks = extract_tasks(mod, target, params, pipeline_options)
    rng = random.Random(seed)
    space = _make_space(space)
    with _Session(target, work_dir, runner, builder, database) as session:
        _log(verbose, "[mlc.meta_schedule] %d tasks on %r; measuring the "
             "untuned kernels" % (len(tasks), target))
        prepared = []
        for i, task in enumerate(tasks):
            label = "task %d/%d %s" % (i + 1, len(tasks), task.task_name)
            try:
                measured = _Measured(task.task_name, task.harness, task.harness_entry)
                prepared.append(_prepare_task(task.mod, task.task_name, label,
                                              session.builder, session.runner,
                                              session.scratch, measured))
            except RuntimeError as e:
                # One kernel that cannot be measured (e.g. dynamic shapes)
                # keeps the default schedule; the others are still tuned.
                _log(verbose, "[mlc.meta_schedule] %s: skipped, %s" % (label, e))
                prepared.append(None)
        shares = [t.weight * p.default_secs if p else 0.0
                  for t, p in zip(tasks, prepared)]
        budgets = _split_budget(shares, max(0, int(max_trials_global)))
        untuned_total = sum(shares)
        tuned = list(shares)
        for i, (task, ready, trials) in enumerate(zip(tasks, prepared, budgets)):
            if trials == 0 or ready is None:
                continue
            result = _search(ready, space, target, rng, trials,
                             max(1, int(num_trials_per_iter)), session, verbose,
                             cost_model)
            tuned[i] = task.weight * result.best_secs
            _log(verbose, "[mlc.meta_schedule] %d/%d tasks done; model estimate "
                 "%.3f ms tuned vs %.3f ms untuned (%.2fx), %.0f s"
                 % (i + 1, len(tasks), sum(tuned) * 1e3, untuned_total * 1e3,
                    untuned_total / max(sum(tuned), 1e-12), time.monotonic() - start))
        return session.database


def compile_relax(database, mod, target="llvm", params=None, output=None):
    """Compiles `mod` with `params` bound, each kernel scheduled by its best
    record in `database` (a JSONDatabase or its work_dir); returns the
    loaded library (mlc.runtime), written to `output` when given."""
    from ..executor import compile_module
    target = Target(target)
    work_dir = database.work_dir if isinstance(database, JSONDatabase) else database
    text = _as_text(mod)
    with tempfile.TemporaryDirectory() as tmp:
        bind = _bind_params_pass(text, params, tmp)
        if bind:
            text = tools.run_passes(text, bind)
    return compile_module(Module(text), args=[
        "-O3", "--tuning-db=" + work_dir,
        "--tuning-num-cores=%d" % target.num_cores], output=output)

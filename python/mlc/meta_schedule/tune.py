"""tune_tir: evolutionary search over a kernel's schedule space.

Each round takes `num_trials_per_iter` new candidates: in the first, the
default schedule's point (when the space has one) and random points; later,
mostly mutations of the best measured traces (a perfect tile moves a prime
factor between two of its loops; a categorical choice takes another
candidate; a compute location moves to another loop or back to where the
block is) and some random points. Candidates are compiled in parallel and
measured one by one in the runner's worker process. Candidates whose library
is byte-for-byte one already measured take its time without running. At
the end, the best candidate and the untuned kernel are measured again,
alternately, and the faster one wins: tuning never returns a kernel slower
than the default. Then every candidate whose one measurement still reads
faster than those (up to MAX_CHALLENGERS) duels the untuned kernel the same
way, so that the database's fastest record, the one applied, is a dueled
one.

A round is picked from a pool of proposals 8 times its size by a cost
model (cost_model.py: gradient-boosted trees on the decisions, learned from
the task's measurements; before that, the space's analytic prior), plus a
quarter picked at random.
"""

import inspect
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time

from ..ir import Module
from ..tir import Schedule, ScheduleError
from .cost_model import featurize, make_cost_model
from .database import FAILED_RUN_SECS, JSONDatabase, TuningRecord
from .runner import LocalBuilder, LocalRunner
from .space_generator import DefaultScheduleKnobs, ScheduleFn
from .target import Target

__all__ = ["TuneConfig", "TuneResult", "tune_tir"]


class TuneConfig:
    """The older TVM spelling of the budget (ms.TuneConfig)."""

    def __init__(self, max_trials_global=64, num_trials_per_iter=64, **_):
        self.max_trials_global = max_trials_global
        self.num_trials_per_iter = num_trials_per_iter


class TuneResult:
    """What the search found: the best schedule and the numbers."""

    def __init__(self, schedule, best_secs, default_secs, trials, failed):
        self.schedule = schedule
        self.best_secs = best_secs
        self.default_secs = default_secs
        self.trials = trials
        self.failed = failed

    @property
    def speedup(self):
        return self.default_secs / self.best_secs if self.best_secs else 0.0


def _prim_func_names(text):
    return re.findall(r"tensorir\.prim_func\s+(?:\w+\s+)?@([\w$.-]+)", text)


def _mutate(sch_trace, rng):
    """Another valid decision for one sampling instruction, or None."""
    samples = sch_trace.samples
    if not samples:
        return None
    decisions = [s.decision for s in samples]
    for _ in range(16):
        index = rng.randrange(len(samples))
        sample = samples[index]
        if sample.kind == "sample_compute_location":
            # Another location; one that no longer exists after other
            # decisions changed fails to replay and is skipped.
            upper = sample.num_locations if sample.num_locations is not None \
                else sample.decision + 2
            choices = [d for d in range(-1, upper) if d != sample.decision]
            if not choices:
                continue
            decisions[index] = rng.choice(choices)
            return decisions
        if sample.kind == "sample_categorical":
            choices = [i for i, p in enumerate(sample.probs)
                       if p > 0 and i != sample.decision]
            if not choices:
                continue
            decisions[index] = rng.choice(choices)
            return decisions
        factors = list(sample.decision)
        if len(factors) < 2:
            continue
        sources = [i for i, f in enumerate(factors) if f > 1]
        if not sources:
            continue
        src = rng.choice(sources)
        primes = _prime_factors(factors[src])
        prime = rng.choice(primes)
        dst = rng.choice([i for i in range(len(factors)) if i != src])
        factors[src] //= prime
        factors[dst] *= prime
        limit = sample.max_innermost_factor
        if limit and factors[-1] > limit:
            continue
        decisions[index] = factors
        return decisions
    return None


def _prime_factors(n):
    primes, p = [], 2
    while p * p <= n:
        while n % p == 0:
            primes.append(p)
            n //= p
        p += 1
    if n > 1:
        primes.append(n)
    return primes


def _key(decisions):
    return json.dumps(decisions)


class _Measured:
    """What is built and timed for a kernel: its module alone (the entry is
    the kernel), or, for a model's kernel that the model passes its bound
    weights (a task's `harness`), the kernel made private beside the
    harness, a func.func `entry` that calls it with those weights. The
    kernel then sees them as constants, as in the model: mlc-default-schedule
    prepacks them at compile time instead of packing them on every call."""

    def __init__(self, func_name, harness=None, entry=None):
        self.func_name = func_name
        self.harness = harness if harness and entry else None
        self.entry = entry if self.harness else func_name

    def text(self, text):
        """The module to build for a candidate module `text`."""
        if not self.harness:
            return text
        text = re.sub(r"(tensorir\.prim_func\s+)(?:public\s+)?@%s\("
                      % re.escape(self.func_name),
                      lambda m: m.group(1) + "private @%s(" % self.func_name,
                      text, count=1)
        resources = text.find("{-#")
        body, tail = (text[:resources], text[resources:]) if resources >= 0 else (text, "")
        close = body.rstrip().rfind("}")
        return body[:close] + self.harness + "\n" + body[close:] + tail


class _Task:
    """A kernel to tune and its untuned baseline: the library, the outputs
    every candidate must reproduce, and its time."""

    def __init__(self, mod, func_name, label, baseline, run_secs, reference,
                 measured):
        self.mod = mod
        self.func_name = func_name
        self.measured = measured
        self.label = label
        self.baseline = baseline
        self.run_secs = run_secs
        self.default_secs = _mean(run_secs)
        self.reference = reference


def _prim_func_module(mod):
    """`mod` as a Module of one prim_func and that function's name."""
    text = mod.text if isinstance(mod, Module) else str(mod)
    names = _prim_func_names(text)
    if len(names) != 1:
        raise ValueError("tune_tir needs a module of one prim_func; it has %s"
                         % (names or "none"))
    return Module(text), names[0]


def _prepare_task(mod, func_name, label, builder, runner, scratch_dir,
                  measured=None):
    """Builds and measures the untuned kernel (the reference and the
    baseline time); `measured` (a _Measured) says how it is measured."""
    measured = measured or _Measured(func_name)
    (baseline,) = builder.build([measured.text(mod.text)])
    if baseline.error:
        raise RuntimeError("the untuned kernel %s does not build:\n%s"
                           % (func_name, baseline.error))
    reference = os.path.join(scratch_dir, "reference-%s.npz" % label.replace("/", "-"))
    run = runner.run(baseline.path, measured.entry, save_reference=reference)
    if run.error:
        raise RuntimeError("the untuned kernel %s does not run: %s"
                           % (func_name, run.error))
    return _Task(mod, func_name, label, baseline, run.run_secs, reference, measured)


def _make_space(space):
    if space is None:
        return DefaultScheduleKnobs()
    if isinstance(space, (ScheduleFn, DefaultScheduleKnobs)):
        return space
    return ScheduleFn(space)


def tune_tir(mod, target="llvm", work_dir=None, max_trials_global=64,
             num_trials_per_iter=64, *, config=None, space=None,
             task_name=None, seed=None, runner=None, builder=None,
             database=None, verbose=True, return_result=False,
             cost_model="gbdt"):
    """Tunes the prim_func of `mod` (a module of one prim_func) for the
    host CPU; returns the best mlc.tir.Schedule
    (with `return_result`, a TuneResult). Records go to the JSONDatabase in
    `work_dir` (a temporary directory when None). `space` is a ScheduleFn,
    a function f(sch), or None for the default schedule's knobs.
    `cost_model` ("gbdt", "random" or a cost_model.CostModel) picks which
    proposals of a round are measured."""
    if config is not None:
        max_trials_global = config.max_trials_global
        num_trials_per_iter = config.num_trials_per_iter
    mod, func_name = _prim_func_module(mod)  # task_name (TVM's) only names the task
    target = Target(target)
    with _Session(target, work_dir, runner, builder, database) as session:
        _log(verbose, "[mlc.meta_schedule] %s on %r" % (func_name, target))
        task = _prepare_task(mod, func_name, func_name, session.builder,
                             session.runner, session.scratch)
        result = _search(task, _make_space(space), target, random.Random(seed),
                         max(1, int(max_trials_global)),
                         max(1, int(num_trials_per_iter)), session, verbose,
                         cost_model)
    return result if return_result else result.schedule


class _Session:
    """The builder, runner, database and scratch directory of a tuning run."""

    def __init__(self, target, work_dir, runner, builder, database):
        self._scratch = tempfile.TemporaryDirectory(prefix="mlc-tune-")
        self.scratch = self._scratch.name
        self.database = database or JSONDatabase(work_dir or self.scratch)
        self.builder = builder or LocalBuilder(os.path.join(self.scratch, "builds"))
        self.runner = runner or LocalRunner(num_cores=target.num_cores)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.runner.close()
        self._scratch.cleanup()


def _log(verbose, message):
    if verbose:
        print(message, file=sys.stderr, flush=True)


# At most this many candidates besides the winner duel the untuned kernel
# at the end of a task's search.
MAX_CHALLENGERS = 8

# A round's pool of proposals is this many times the round's size; this
# share of the round is picked from the pool at random (epsilon-greedy).
POOL_FACTOR = 8
RANDOM_SHARE = 0.25


def _search(task, space, target, rng, max_trials_global, num_trials_per_iter,
            session, verbose, cost_model=None):
    mod, func_name, reference = task.mod, task.func_name, task.reference
    builder, runner, database = session.builder, session.runner, session.database
    baseline, default_secs = task.baseline, task.default_secs
    args_info = None
    # decisions key -> (mean seconds, FAILED_RUN_SECS for failures; Schedule)
    seen = {}
    by_digest = {baseline.digest: task.run_secs}
    best = None          # (secs, schedule)
    trials = failed = 0
    if hasattr(space, "for_kernel"):
        space = space.for_kernel(mod)
    default_decisions = space.default_decisions(mod, target)
    model = make_cost_model(cost_model)
    derived, prior = space.analytic(target)
    template = None      # a trace whose decisions proposals replace

    def features(trace, decisions):
        return featurize(trace.samples, decisions, derived)

    def sample_fresh():
        try:
            return space.generate(mod, rng.randrange(1, 2 ** 62))
        except ScheduleError:
            return None

    def next_round(batch):
        """The round's schedules: the default point while unmeasured, then
        the best-scored proposals of a pool plus some random ones."""
        nonlocal template
        chosen, keys = [], set()
        if default_decisions is not None and _key(default_decisions) not in seen:
            sch = space.generate(mod, 0, decisions=default_decisions)
            chosen.append(sch)
            keys.add(_key(sch.trace.decisions))
            template = template or sch.trace
        pool = []            # (trace, decisions, schedule or None)

        def propose(trace, decisions, sch=None):
            key = _key(decisions)
            if key not in seen and key not in keys:
                keys.add(key)
                pool.append((trace, decisions, sch))

        parents = sorted((m for m in seen.values() if m[0] < FAILED_RUN_SECS),
                         key=lambda m: m[0])[:8]
        fresh = 0
        for _ in range(4 * POOL_FACTOR * batch):
            if len(pool) >= POOL_FACTOR * batch:
                break
            if parents and rng.random() < 0.7:
                parent = rng.choice(parents)[1]
                decisions = _mutate(parent.trace, rng)
                if decisions is not None:
                    propose(parent.trace, decisions)
            elif template and hasattr(space, "random_decisions"):
                propose(template, space.random_decisions(rng))
            elif fresh < batch:
                # Drawing a point means building it: as many as a round.
                fresh += 1
                sch = sample_fresh()
                if sch is not None:
                    template = template or sch.trace
                    propose(sch.trace, sch.trace.decisions, sch)
        if not pool:
            return chosen
        priors = [prior(d) for _, d, _ in pool] if prior else None
        scores = model.predict([features(t, d) for t, d, _ in pool], priors)
        ranked = sorted(range(len(pool)), key=lambda i: -scores[i])
        wanted = batch - len(chosen)
        explore = min(len(ranked), max(1, int(round(RANDOM_SHARE * wanted))))
        picked = ranked[:max(0, wanted - explore)]
        rest = ranked[len(picked):]
        picked += rng.sample(rest, min(len(rest), explore))
        picked += [i for i in rest if i not in picked]  # replacements
        for i in picked:
            if len(chosen) >= batch:
                break
            trace, decisions, sch = pool[i]
            if sch is None:
                try:
                    sch = Schedule.from_trace(mod, trace.with_decisions(decisions))
                except ScheduleError:
                    continue
            chosen.append(sch)
        return chosen

    while trials < max_trials_global:
        batch = min(num_trials_per_iter, max_trials_global - trials)
        candidates = next_round(batch)
        if not candidates:
            _log(verbose, "[mlc.meta_schedule] the space is exhausted after %d trials"
                 % trials)
            break
        builds = builder.build([task.measured.text(sch.mod.text) for sch in candidates])
        measured_rows, measured_secs = [], []
        for sch, build in zip(candidates, builds):
            trials += 1
            key = _key(sch.trace.decisions)
            if build.error:
                run_secs, error = [FAILED_RUN_SECS], build.error.splitlines()[0]
            elif build.digest in by_digest:
                run_secs, error = by_digest[build.digest], None
            else:
                result = _run_paired(runner, build.path, task, reference)
                run_secs, error = (_in_task_frame(result, task), None) \
                    if not result.error else ([FAILED_RUN_SECS], result.error)
                if not result.error:
                    by_digest[build.digest] = run_secs
            if build.path and os.path.exists(build.path):
                os.remove(build.path)
            secs = _mean(run_secs)
            seen[key] = (secs, sch)
            if error:
                failed += 1
            elif best is None or secs < best[0]:
                best = (secs, sch)
            if args_info is None:
                args_info = _args_info(sch.mod.text, func_name)
            database.commit_tuning_record(mod, TuningRecord(
                sch.trace.as_script(), run_secs, target.as_json(), args_info, mod.text))
            measured_rows.append(features(sch.trace, sch.trace.decisions))
            measured_secs.append(secs)
            _log(verbose, "[mlc.meta_schedule] %s: trial %d/%d %s best %.4f ms "
                 "(untuned %.4f ms, %.2fx)"
                 % (task.label, trials, max_trials_global,
                    ("failed: " + error[:80]) if error else "%.4f ms" % (secs * 1e3),
                    (best[0] if best else default_secs) * 1e3, default_secs * 1e3,
                    default_secs / best[0] if best else 1.0))
        model.update(measured_rows, measured_secs)

    # Measure the winner against the untuned kernel once more, alternately.
    # Both go to the database: a trace counts by its newest record there
    # (relax-meta-schedule-apply-database, get_top_k), so a winner that
    # loses this duel is not applied; the untuned kernel's trace is empty.
    if best is None:
        return TuneResult(Schedule(mod), default_secs, default_secs, trials, failed)
    untuned = Schedule(mod)

    def duel(sch):
        """The candidate's seconds in the task's frame (see _in_task_frame):
        three more paired runs against the untuned kernel, the median of
        all their pairs' ratios; committed with the untuned kernel's."""
        (final,) = builder.build([task.measured.text(sch.mod.text)])
        ratios = []
        for _ in range(3):
            if final.error:
                break
            a = _run_paired(runner, final.path, task)
            if a.error:
                continue
            pairs = _pair_ratios(a)
            if pairs is None:  # a runner without `baseline`: one after the other
                b = runner.run(task.baseline.path, task.measured.entry)
                if b.error:
                    continue
                pairs = [_mean(a.run_secs) / _mean(b.run_secs)]
            ratios.extend(pairs)
        if final.path and os.path.exists(final.path):
            os.remove(final.path)
        if not ratios:
            return FAILED_RUN_SECS
        secs = statistics.median(ratios) * default_secs
        for s, t in ((sch, secs), (untuned, default_secs)):
            database.commit_tuning_record(mod, TuningRecord(
                s.trace.as_script(), [t], target.as_json(), args_info or [],
                mod.text))
        return secs

    schedule, best_secs = best[1], duel(best[1])
    # A candidate measured once during the search may still read faster
    # than the duel's numbers (the luck of one noisy measurement; the apply
    # pass takes the database's fastest record): each such one duels the
    # untuned kernel too, until the fastest record is a dueled one.
    by_trace = {sch.trace.as_script(): sch for _, sch in seen.values()}
    dueled = {best[1].trace.as_script(), untuned.trace.as_script()}
    for _ in range(MAX_CHALLENGERS):
        top = database.get_top_k(mod, 1, target)
        if not top or top[0].trace in dueled or top[0].trace not in by_trace:
            break
        challenger = by_trace[top[0].trace]
        dueled.add(top[0].trace)
        challenger_secs = duel(challenger)
        if challenger_secs < best_secs:
            schedule, best_secs = challenger, challenger_secs
    if best_secs >= default_secs:
        schedule, best_secs = untuned, default_secs
    _log(verbose, "[mlc.meta_schedule] %s: %d trials (%d failed); tuned %.4f ms, "
         "untuned %.4f ms: %.2fx"
         % (task.label, trials, failed, best_secs * 1e3, default_secs * 1e3,
            default_secs / best_secs))
    return TuneResult(schedule, best_secs, default_secs, trials, failed)


def _run_paired(runner, path, task, reference=None):
    """runner.run of a candidate of `task`, paired with the untuned kernel
    when the runner can (LocalRunner's `baseline`)."""
    run = runner.run
    try:
        parameters = inspect.signature(run).parameters
    except (TypeError, ValueError):
        parameters = {}
    paired = "baseline" in parameters or any(
        p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    if paired:
        return run(path, task.measured.entry, reference=reference,
                   baseline=task.baseline.path)
    return run(path, task.measured.entry, reference=reference)


def _pair_ratios(result):
    """candidate / untuned per pair of a paired RunResult; None unpaired."""
    baseline = getattr(result, "baseline_secs", None)
    if not baseline or len(baseline) != len(result.run_secs):
        return None
    return [c / b for c, b in zip(result.run_secs, baseline) if b > 0]


def _in_task_frame(result, task):
    """A candidate's run times as the task records them. Paired with the
    untuned kernel, each is its ratio to the untuned time timed beside it,
    times the untuned kernel's first measurement (`task.default_secs`): every
    record of a task is then in one frame, whatever the machine's speed
    when it was measured (on a 2-vCPU VM the same code read up to 30 %
    apart in one search). Unpaired, the raw times."""
    ratios = _pair_ratios(result)
    if not ratios:
        return result.run_secs
    return [r * task.default_secs for r in ratios]


def _mean(run_secs):
    return sum(run_secs) / len(run_secs) if run_secs else FAILED_RUN_SECS


def _args_info(text, func_name):
    match = re.search(r"tensorir\.prim_func\s+(?:\w+\s+)?@%s\((.*?)\)\s*(?:attributes|\{)"
                      % re.escape(func_name), text, re.S)
    if not match:
        return []
    return [[name, type_] for name, type_ in
            re.findall(r"%([\w$.]+)\s*:\s*([^,]+?)(?=,\s*%|$)", match.group(1).strip())]

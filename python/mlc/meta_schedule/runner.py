"""Building candidates (LocalBuilder) and measuring them in a separate
process (LocalRunner).

The builder compiles each scheduled module with `mlc-compile -O3` into a
shared library, several at once. The runner keeps one worker process that
loads a library, fills its arguments with seeded random data, runs it once,
compares every buffer with the reference outputs (those of the untuned
kernel), and times it like TVM's time_evaluator. A candidate that crashes
the worker, runs past the timeout or gives other numbers is a failed
measurement; the worker is restarted and the search goes on.
"""

import concurrent.futures
import hashlib
import json
import os
import select
import subprocess
import sys
import time

from .. import tools

__all__ = ["BuildResult", "LocalBuilder", "LocalRunner", "RunResult"]


class BuildResult:
    def __init__(self, path=None, error=None, digest=None):
        self.path = path
        self.error = error
        self.digest = digest  # sha256 of the library: equal code, equal time


class LocalBuilder:
    """Compiles modules to shared libraries, `max_workers` at a time."""

    def __init__(self, build_dir, max_workers=None, timeout_sec=300):
        self.build_dir = build_dir
        os.makedirs(build_dir, exist_ok=True)
        self.max_workers = max_workers or os.cpu_count() or 1
        self.timeout_sec = timeout_sec
        self._count = 0

    def build(self, texts):
        """One BuildResult per module text."""
        jobs = []
        for text in texts:
            self._count += 1
            jobs.append((text, os.path.join(self.build_dir, "candidate%d" % self._count)))
        with concurrent.futures.ThreadPoolExecutor(self.max_workers) as pool:
            return list(pool.map(lambda job: self._build_one(*job), jobs))

    def _build_one(self, text, stem):
        source, library = stem + ".mlir", stem + ".so"
        with open(source, "w") as f:
            f.write(text)
        try:
            proc = subprocess.run([tools.find_tool("mlc-compile"), source, "-O3",
                                   "-o", library], capture_output=True, text=True,
                                  timeout=self.timeout_sec)
        except subprocess.TimeoutExpired:
            return BuildResult(error="mlc-compile ran past %d s" % self.timeout_sec)
        finally:
            os.remove(source)
        if proc.returncode != 0:
            return BuildResult(error=proc.stderr.strip() or "mlc-compile failed")
        with open(library, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        return BuildResult(path=library, digest=digest)


class RunResult:
    def __init__(self, run_secs=None, error=None, baseline_secs=None):
        self.run_secs = run_secs
        self.error = error
        # With a baseline: its times, each repeat timed right before or
        # after the candidate's repeat of the same index.
        self.baseline_secs = baseline_secs


class LocalRunner:
    """Measures libraries in a worker process (TVM's LocalRunner: number
    calls per repeat, repeats, min_repeat_ms, enable_cpu_cache_flush),
    `num_cores` OpenMP threads. With `enable_cpu_cache_flush`, every
    argument but the first is cold in L2 at each call, as a kernel's weights
    are in a model (time_evaluator's f_preproc)."""

    def __init__(self, number=3, repeat=3, min_repeat_ms=50, timeout_sec=60,
                 num_cores=None, rtol=1e-4, atol=1e-4, enable_cpu_cache_flush=False):
        self.config = {"number": number, "repeat": repeat,
                       "min_repeat_ms": min_repeat_ms, "rtol": rtol, "atol": atol,
                       "enable_cpu_cache_flush": bool(enable_cpu_cache_flush)}
        self.timeout_sec = timeout_sec
        self.num_cores = num_cores
        self._worker = None

    def run(self, path, func, reference=None, save_reference=None, baseline=None):
        """Times entry `func` of library `path`; checks its buffers against
        the .npz `reference`, or writes them to `save_reference`. With
        `baseline` (another library with the same entry), each repeat of
        the candidate is paired with one of the baseline, timed back to
        back in alternating order (RunResult.baseline_secs): this machine's
        speed drifts over seconds, and a pair shares the drift."""
        request = dict(self.config, path=path, func=func, reference=reference,
                       save_reference=save_reference, baseline=baseline)
        for attempt in range(2):
            worker = self._ensure_worker()
            try:
                worker.stdin.write(json.dumps(request) + "\n")
                worker.stdin.flush()
            except BrokenPipeError:
                self.close()
                continue
            reply = self._read_reply(worker)
            if reply is None:
                error = ("the candidate ran past %d s" % self.timeout_sec
                         if worker.poll() is None else
                         "the candidate crashed the worker (exit code %s)"
                         % worker.poll())
                self.close()
                return RunResult(error=error)
            if "error" in reply:
                return RunResult(error=reply["error"])
            return RunResult(run_secs=reply["run_secs"],
                             baseline_secs=reply.get("baseline_secs"))
        return RunResult(error="the worker process could not be started")

    def _read_reply(self, worker):
        deadline = time.monotonic() + self.timeout_sec
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([worker.stdout], [], [], remaining)
            if not ready:
                return None
            line = worker.stdout.readline()
            if not line:
                return None
            try:
                return json.loads(line)
            except ValueError:
                continue  # a library printed something; not ours

    def _ensure_worker(self):
        if self._worker is None or self._worker.poll() is not None:
            env = dict(os.environ)
            package_root = os.path.dirname(os.path.dirname(os.path.dirname(
                os.path.abspath(__file__))))
            env["PYTHONPATH"] = package_root + os.pathsep + env.get("PYTHONPATH", "")
            if self.num_cores:
                env["OMP_NUM_THREADS"] = str(self.num_cores)
            self._worker = subprocess.Popen(
                [sys.executable, "-c",
                 "from mlc.meta_schedule.runner import _serve; _serve()"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        return self._worker

    def close(self):
        if self._worker is not None:
            if self._worker.poll() is None:
                self._worker.kill()
            self._worker.wait()
            self._worker = None

    def __del__(self):
        self.close()


def _arguments(function, seed=0):
    """Seeded random arguments of `function` (a mlc.runtime Function)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    args = []
    for arg in function.args:
        if arg.shape is None:
            args.append(arg.dtype.type(1))
        elif arg.dtype.kind == "f":
            args.append(rng.standard_normal(arg.shape).astype(arg.dtype))
        elif arg.dtype.kind == "b":
            args.append(rng.integers(0, 2, arg.shape).astype(arg.dtype))
        else:
            args.append(rng.integers(0, 4, arg.shape).astype(arg.dtype))
    return args


def _measure(request):
    import numpy as np
    from .. import runtime
    function = runtime.load_module(request["path"])[request["func"]]
    if any(a.shape is not None and min(a.shape, default=0) < 0 for a in function.args):
        return {"error": "cannot measure a kernel with dynamic shapes"}
    args = _arguments(function)
    function(*args)
    buffers = {a.name: v for a, v in zip(function.args, args) if a.shape is not None}
    if request.get("save_reference"):
        np.savez(request["save_reference"], **buffers)
    if request.get("reference"):
        with np.load(request["reference"]) as expected:
            for name, value in buffers.items():
                want = expected[name]
                # NaNs must match in place (e.g. sqrt of a random variance
                # argument); the tolerance scales with the finite values.
                finite = np.abs(want[np.isfinite(want)]) if want.dtype.kind == "f" else want
                scale = float(np.max(finite)) if finite.size else 0.0
                if value.dtype.kind == "f":
                    ok = np.allclose(value, want, rtol=request["rtol"],
                                     atol=request["atol"] * max(scale, 1.0),
                                     equal_nan=True)
                else:
                    ok = np.array_equal(value, want)
                if not ok:
                    return {"error": "buffer %r differs from the untuned kernel's"
                            % name}
    def evaluator(module, repeat):
        return module.time_evaluator(
            request["func"], number=request["number"], repeat=repeat,
            min_repeat_ms=request["min_repeat_ms"],
            f_preproc="cache_flush_cpu_non_first_arg"
            if request.get("enable_cpu_cache_flush") else "")

    if not request.get("baseline"):
        return {"run_secs": list(evaluator(function.module, request["repeat"])(*args).results)}
    baseline = _BASELINES.get(request["baseline"])
    if baseline is None:
        baseline = _BASELINES[request["baseline"]] = runtime.load_module(request["baseline"])
    timers = [evaluator(function.module, 1), evaluator(baseline, 1)]
    run_secs, baseline_secs = [], []
    for r in range(request["repeat"]):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for i in order:
            (run_secs if i == 0 else baseline_secs).append(timers[i](*args).results[0])
    return {"run_secs": run_secs, "baseline_secs": baseline_secs}


_BASELINES = {}  # path -> the loaded baseline library (one per task)


def _serve():
    """The worker: one JSON request per line in, one reply per line out."""
    out = sys.stdout
    sys.stdout = sys.stderr  # stray prints must not look like replies
    for line in sys.stdin:
        try:
            reply = _measure(json.loads(line))
        except Exception as e:  # noqa: BLE001 - reported, the search goes on
            reply = {"error": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(reply) + "\n")
        out.flush()

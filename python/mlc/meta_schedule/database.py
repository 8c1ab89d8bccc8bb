"""Tuning records in TVM's two-file JSON-lines layout (JSONDatabase).

    <work_dir>/database_workload.json       one line per workload:
        [structural_hash, base64(the prim_func's module text)]
    <work_dir>/database_tuning_record.json  one line per measured candidate:
        [workload_index, [trace, run_secs, target, args_info]]

`trace` is the candidate's transform script (mlc's trace: the schedule
primitives and sampling decisions as `transform.*` ops), `run_secs` the
measured seconds per call of each repeat ([1e10] for a candidate that failed
to build, run or match the reference), `target` the Target's key and
`args_info` the arguments as [name, dtype, shape]. Lines are appended, so a
database grows across tuning runs and is read back by later ones.
"""

import base64
import json
import os

from .. import tools
from ..ir import Module
from .target import Target

__all__ = ["JSONDatabase", "TuningRecord", "export_tasks", "workload_hash",
           "FAILED_RUN_SECS"]

FAILED_RUN_SECS = 1e10


def export_tasks(mod):
    """mlc-translate --export-tuning-tasks on `mod` (a module after
    mlc-graph-to-kernels, or of prim_funcs): {"target": the host's key
    without num_cores, "tasks": [{name, workload_hash, weight, mod}]}."""
    text = mod.text if isinstance(mod, Module) else str(mod)
    exported = _EXPORTED.get(text)
    if exported is None:
        exported = json.loads(tools.run("mlc-translate", ["--export-tuning-tasks"],
                                        input_text=text))
        _EXPORTED[text] = exported
    return exported


_EXPORTED = {}


def workload_hash(mod):
    """The structural hash of the prim_func of `mod` (a module of one), as
    the C++ side computes it (mlc::meta_schedule::computeWorkloadHash): the
    kernel's printed form under the name `main`, so that the same kernel
    under another name matches."""
    tasks = export_tasks(mod)["tasks"]
    if len(tasks) != 1:
        raise ValueError("a workload is a module of one prim_func; this one has %d"
                         % len(tasks))
    return tasks[0]["workload_hash"]


class TuningRecord:
    """One measured candidate of a workload."""

    def __init__(self, trace, run_secs, target, args_info, workload):
        self.trace = trace          # transform script text
        self.run_secs = list(run_secs)
        self.target = target        # Target.as_json()
        self.args_info = args_info
        self.workload = workload    # the workload's module text

    @property
    def failed(self):
        return not self.run_secs or min(self.run_secs) >= FAILED_RUN_SECS

    @property
    def mean_secs(self):
        return sum(self.run_secs) / len(self.run_secs) if self.run_secs else FAILED_RUN_SECS


class JSONDatabase:
    """TVM's JSONDatabase: workloads and tuning records in `work_dir`."""

    def __init__(self, work_dir):
        self.work_dir = work_dir
        os.makedirs(work_dir, exist_ok=True)
        self.path_workload = os.path.join(work_dir, "database_workload.json")
        self.path_tuning_record = os.path.join(work_dir, "database_tuning_record.json")
        self._workloads = []     # [(hash, text)]
        self._records = []       # TuningRecord
        if os.path.exists(self.path_workload):
            with open(self.path_workload) as f:
                for number, line in enumerate(f, 1):
                    if line.strip():
                        shash, encoded = self._parse(line, self.path_workload, number)
                        self._workloads.append(
                            (shash, base64.b64decode(encoded).decode()))
        if os.path.exists(self.path_tuning_record):
            with open(self.path_tuning_record) as f:
                for number, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    index, (trace, run_secs, target, args_info) = self._parse(
                        line, self.path_tuning_record, number)
                    if not 0 <= index < len(self._workloads):
                        raise ValueError("%s:%d: workload index %d out of range"
                                         % (self.path_tuning_record, number, index))
                    self._records.append(TuningRecord(
                        trace, run_secs, target, args_info, self._workloads[index][1]))

    @staticmethod
    def _parse(line, path, number):
        try:
            return json.loads(line)
        except ValueError as e:
            raise ValueError("%s:%d: not a JSON line: %s" % (path, number, e)) from None

    def commit_workload(self, mod):
        """The index of the workload of `mod` (a prim_func module), added if
        new."""
        text = mod.text if isinstance(mod, Module) else str(mod)
        shash = workload_hash(text)
        for index, (existing, _) in enumerate(self._workloads):
            if existing == shash:
                return index
        self._workloads.append((shash, text))
        with open(self.path_workload, "a") as f:
            f.write(json.dumps([shash, base64.b64encode(text.encode()).decode()]) + "\n")
        return len(self._workloads) - 1

    def commit_tuning_record(self, mod, record):
        index = self.commit_workload(mod)
        record.workload = self._workloads[index][1]
        self._records.append(record)
        with open(self.path_tuning_record, "a") as f:
            f.write(json.dumps([index, [record.trace, record.run_secs, record.target,
                                        record.args_info]]) + "\n")

    def get_all_tuning_records(self):
        return list(self._records)

    def get_top_k(self, mod, k, target=None):
        """The k fastest successful records of `mod`'s workload, measured on
        `target` (a Target or target string; any target when None)."""
        shash = workload_hash(mod)
        target = None if target is None else Target(target)
        # A trace measured again counts by its newest record (tuning
        # re-measures its winner and the untuned kernel at the end).
        newest = {}
        for r in self._records:
            if workload_hash(r.workload) == shash and \
                    (target is None or target.matches(r.target)):
                newest[(r.trace, json.dumps(r.target, sort_keys=True))] = r
        records = [r for r in newest.values() if not r.failed]
        return sorted(records, key=lambda r: r.mean_secs)[:k]

    def query_tuning_record(self, mod, target=None):
        """The best record of `mod`'s workload on `target`, or None."""
        top = self.get_top_k(mod, 1, target)
        return top[0] if top else None

    def __len__(self):
        return len(self._records)

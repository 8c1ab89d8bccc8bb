"""Writes the tuning databases of apply-database.mlir into the directory
argv[2], for the kernels of argv[1] measured on this host (the records'
targets must name this CPU, so they cannot be checked-in files)."""

import base64
import json
import os
import sys

from mlc.meta_schedule.database import export_tasks

with open(sys.argv[1]) as f:
    exported = export_tasks(f.read())
host = exported["target"]
tasks = {t["name"]: t for t in exported["tasks"]}
out = sys.argv[2]


def target(num_cores=1, **changes):
    key = dict(host, num_cores=num_cores)
    key.update(changes)
    return key


def trace(func, ops):
    return ("module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%root: !transform.any_op "
            "{transform.readonly}) {\n"
            '    %f = transform.structured.match ops{["tensorir.prim_func"]} '
            'attributes {sym_name = "' + func + '"} in %root : '
            "(!transform.any_op) -> !transform.any_op\n"
            + ops + "    transform.yield\n  }\n}\n")


def knob(name, value, func="add_a"):
    return trace(func, "    %%v = transform.param.constant %d : i64 -> "
                 "!transform.param<i64>\n"
                 '    transform.annotate %%f "mlc.schedule.%s" = %%v : '
                 "!transform.any_op, !transform.param<i64>\n" % (value, name))


def write(name, workloads, records):
    path = os.path.join(out, name)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "database_workload.json"), "w") as f:
        for line in workloads:
            f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")
    if records is not None:
        with open(os.path.join(path, "database_tuning_record.json"), "w") as f:
            for line in records:
                f.write((line if isinstance(line, str) else json.dumps(line)) + "\n")


def workload(task):
    return [task["workload_hash"], base64.b64encode(task["mod"].encode()).decode()]


add, scale = tasks["add_a"], tasks["scale"]
bad_trace = trace("scale", '    %b = transform.tensorir.get_block "missing" in %f '
                  ": (!transform.any_op) -> !transform.any_op\n")
write("good", [workload(add), workload(scale)], [
    [0, [knob("vector_width", 8), [2e-6], target(1), []]],
    [0, [knob("vector_width", 16), [1e-6], target(2), []]],
    [0, [knob("k_tile", 128), [0.5e-6], target(1, cpu="Another CPU"), []]],
    [0, [knob("k_tile", 64), [0.5e-6], target(1, mlc="0.0.1"), []]],
    [0, [knob("m_register", 4), [1e10], target(1), []]],
    # Measured twice: the newest time (5e-6) counts, not the first.
    [0, [knob("vector_width", 4), [1.5e-6], target(1), []]],
    [0, [knob("vector_width", 4), [5e-6], target(1), []]],
    [1, [bad_trace, [1e-6], target(1), []]],
])
# A workload file without records, and records with wrong indices or
# shapes.
write("no-records", [workload(add)], None)
write("bad-index", [workload(add)], [[3, [knob("k_tile", 8), [1e-6], target(1), []]]])
write("bad-line", [workload(add)], ["[0, [\"trace\", [1e-6]"])
write("bad-base64", [[add["workload_hash"], "not base64!"]], None)
write("bad-workload", [[add["workload_hash"]]], None)
os.makedirs(os.path.join(out, "empty"), exist_ok=True)

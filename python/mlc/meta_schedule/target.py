"""The target a tuning record was measured on.

TVM's database keys records by a target string that does not say which CPU
it ran on, so records from other machines come back (apache/tvm#15549).
mlc's key names the CPU model, its vector ISA features, the number of cores
used and mlc's version; `Target.matches` compares them all.
"""

import os

__all__ = ["Target"]


def _host_key():
    """The host's CPU model, vector features and mlc's version, as the C++
    side (which applies records: relax-meta-schedule-apply-database) reads
    them."""
    from .database import export_tasks
    return export_tasks("module {}")["target"]


class Target:
    """`Target("llvm")` or `Target("llvm --num-cores=1")` (TVM's target
    strings): the host CPU, with all its cores or the given number."""

    def __init__(self, target="llvm"):
        if isinstance(target, Target):
            self.__dict__.update(target.__dict__)
            return
        parts = str(target).split()
        if not parts or parts[0] not in ("llvm", "cpu"):
            raise ValueError("tuning supports the host CPU (target 'llvm'), got %r"
                             % (target,))
        self.num_cores = os.cpu_count() or 1
        for option in parts[1:]:
            name, _, value = option.partition("=")
            if name == "--num-cores" and value.isdigit() and int(value) > 0:
                self.num_cores = int(value)
            elif name in ("-mcpu", "--mcpu", "-keys", "--keys"):
                pass  # the host CPU is measured, whatever it is called
            else:
                raise ValueError("unknown target option %r in %r" % (option, target))
        host = _host_key()
        self.kind, self.cpu = host["kind"], host["cpu"]
        self.features, self.mlc_version = host["features"], host["mlc"]

    def as_json(self):
        return {"kind": self.kind, "cpu": self.cpu, "features": self.features,
                "num_cores": self.num_cores, "mlc": self.mlc_version}

    def matches(self, record_target):
        """Whether a record's target (as_json of some Target) is this one."""
        return record_target == self.as_json()

    def __repr__(self):
        return "Target(llvm --num-cores=%d; %s)" % (self.num_cores, self.cpu)

"""The target a tuning record was measured on.

TVM's database keys records by a target string that does not say which CPU
it ran on, so records from other machines come back (apache/tvm#15549).
mlc's key names the CPU model, its vector ISA features, the number of cores
used and mlc's version; `Target.matches` compares them all.
"""

import os
import platform

__all__ = ["Target"]

MLC_VERSION = "0.1.dev0"

# The flags of /proc/cpuinfo that change generated code or its speed.
_FEATURES = ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw",
             "avx512vl", "avx512dq", "avx512_bf16", "avx512_fp16", "amx_tile",
             "neon", "asimd", "sve")


def _cpu_info():
    model, flags = platform.processor() or platform.machine(), set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and value.strip():
                    model = value.strip()
                elif key in ("flags", "Features"):
                    flags.update(value.split())
                if key == "" and flags:
                    break  # the first processor tells
    except OSError:
        pass
    return model, sorted(f for f in _FEATURES if f in flags)


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
        self.kind = "llvm"
        self.cpu, self.features = _cpu_info()

    def as_json(self):
        return {"kind": self.kind, "cpu": self.cpu, "features": self.features,
                "num_cores": self.num_cores, "mlc": MLC_VERSION}

    def matches(self, record_target):
        """Whether a record's target (as_json of some Target) is this one."""
        return record_target == self.as_json()

    def __repr__(self):
        return "Target(llvm --num-cores=%d; %s)" % (self.num_cores, self.cpu)

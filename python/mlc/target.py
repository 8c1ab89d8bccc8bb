"""Compilation targets (TVM's `tvm.target.Target`), as mlc-compile's
`--target` spells them: the host CPU or an NVIDIA GPU.

    Target("llvm")                         # the host CPU (also "cpu", "c")
    Target("llvm -mcpu=znver4")            # ... for another x86-64 CPU
    Target("cuda")                         # mlc's default chip (sm_90)
    Target("cuda -arch=sm_90a")            # TVM's older CLI string form
    Target({"kind": "cuda", "arch": "sm_80"})  # TVM's dict form
    Target("nvidia/nvidia-h100")           # TVM's tags: H100 is sm_90a

TVM picks "cuda"'s arch from the GPU it runs on; mlc compiles where there
may be none, so a bare "cuda" is mlc-compile's default chip, sm_90.
"""

__all__ = ["Target"]

# TVM's target tags for NVIDIA GPUs (src/target/tag.cc) that mlc compiles
# for: the chip each names (as apache-tvm's registry gives it).
_CUDA_TAGS = {
    "nvidia/nvidia-h100": "sm_90a",
    "nvidia/nvidia-a100": "sm_80",
    "nvidia/nvidia-a10": "sm_86",
    "nvidia/geforce-rtx-4090": "sm_89",
    "nvidia/geforce-rtx-3090": "sm_86",
}

_KINDS = {"llvm": "llvm", "cpu": "llvm", "c": "llvm", "cuda": "cuda", "nvptx": "cuda"}


class Target:
    """A target: `kind` ("llvm" for the host CPU or "cuda"), `arch` (the
    GPU's chip, sm_XX; None for mlc's default) and `mcpu` (the CPU; None
    for the host's). `host` is accepted as TVM's is and must be a CPU."""

    def __init__(self, target, host=None):
        if isinstance(target, Target):
            self.kind, self.arch, self.mcpu = target.kind, target.arch, target.mcpu
        elif isinstance(target, dict):
            self._from_dict(target)
        elif isinstance(target, str):
            self._from_string(target)
        else:
            raise TypeError("Target: expected a string, a dict or a Target, got %s"
                            % type(target).__name__)
        if self.arch is not None and not _is_chip(self.arch):
            raise ValueError("Target: arch %r is no NVIDIA chip (sm_XX, sm_XXa)" % self.arch)
        if host is not None and Target(host).kind != "llvm":
            raise ValueError("Target: the host must be a CPU target, got %r" % (host,))

    def _from_dict(self, spec):
        unknown = set(spec) - {"kind", "arch", "mcpu", "host", "tag", "keys"}
        if "kind" not in spec or unknown:
            raise ValueError("Target: a dict takes 'kind' and optionally 'arch' or "
                             "'mcpu', got %s" % sorted(spec))
        self._set_kind(spec["kind"])
        self.arch = spec.get("arch") if self.kind == "cuda" else None
        self.mcpu = spec.get("mcpu") if self.kind == "llvm" else None

    def _from_string(self, text):
        words = text.split()
        if not words:
            raise ValueError("Target: empty target string")
        if words[0] in _CUDA_TAGS and len(words) == 1:
            self.kind, self.arch, self.mcpu = "cuda", _CUDA_TAGS[words[0]], None
            return
        self._set_kind(words[0])
        self.arch = self.mcpu = None
        for word in words[1:]:
            key, _, value = word.lstrip("-").partition("=")
            if key == "arch" and self.kind == "cuda" and value:
                self.arch = value
            elif key == "mcpu" and self.kind == "llvm" and value:
                self.mcpu = value
            else:
                raise ValueError("Target: unsupported option %r of %r (mlc takes -arch= "
                                 "for cuda and -mcpu= for llvm)" % (word, text))

    def _set_kind(self, kind):
        if kind not in _KINDS:
            raise ValueError("Target: unsupported target %r: mlc compiles for the host "
                             "CPU (llvm) and NVIDIA GPUs (cuda, or a tag: %s)"
                             % (kind, ", ".join(sorted(_CUDA_TAGS))))
        self.kind = _KINDS[kind]

    @property
    def mlc_target(self):
        """mlc-compile's --target: "cpu" or "cuda[:sm_XX]"."""
        if self.kind == "llvm":
            return "cpu"
        return "cuda:" + self.arch if self.arch else "cuda"

    def __str__(self):
        option = (" -arch=" + self.arch if self.arch else "") if self.kind == "cuda" else (
            " -mcpu=" + self.mcpu if self.mcpu else "")
        return self.kind + option

    def __repr__(self):
        return "Target(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Target) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


def _is_chip(arch):
    digits = arch[3:-1] if arch.endswith("a") else arch[3:]
    return arch.startswith("sm_") and digits.isdigit()

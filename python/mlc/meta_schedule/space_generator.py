"""Search spaces: what a candidate of a kernel is.

- ScheduleFn(f): TVM's user-defined space. `f(sch)` applies schedule
  primitives and sampling instructions to a `mlc.tir.Schedule`; each call
  with another random state is a point of the space, its trace's decisions
  the point's coordinates.
- DefaultScheduleKnobs(): the space when none is given. mlc's default CPU
  schedule (mlc-default-schedule: cache tiles, register tile, packing,
  parallel tasks, vector width) with its knobs sampled per kernel and set as
  the prim_func's `mlc.schedule.<knob>` attributes. The default values are
  one point of the space (`default_decisions`), so the search always
  measures the default schedule and tuning never ends slower than it.
  The algorithm of a 3x3 stride-1 convolution (`winograd_tile`: direct or
  Winograd) is a knob too, kept only for kernels that have one
  (`for_kernel`).

A space may also give `random_decisions(rng)` (a point drawn without
building it) and `analytic(target)`: derived features and a prior for the
cost model (cost_model.py).
"""

import re

from ..tir import Schedule

__all__ = ["DefaultScheduleKnobs", "ScheduleFn", "winograd_candidate"]


class ScheduleFn:
    """A space given by a stochastic schedule function f(sch)."""

    def __init__(self, sch_fn):
        self.sch_fn = sch_fn

    def generate(self, mod, seed):
        sch = Schedule(mod, seed=seed)
        result = self.sch_fn(sch)
        return result if isinstance(result, Schedule) else sch

    def default_decisions(self, mod, target=None):
        return None  # the untuned kernel is measured on its own

    def analytic(self, target):
        return None, None  # no derived features, no prior


def winograd_candidate(text):
    """Whether the prim_func `text` takes a channels-last 3x3 convolution's
    operands that mlc-cpu-winograd-convolution may rewrite: an HWIO weight
    of 3 x 3 x C x K (C > 1, not depthwise), an image of C channels before
    it, and last an output of K channels whose rows and columns are even
    and as many as the image's (padded inside the kernel) or two fewer:
    stride 1. The pass
    decides on the bufferized kernel; this only prunes the search space."""
    match = re.search(r"@\w+\((.*?)\)\s*(?:->|attributes|\{)", text, re.S)
    if not match:
        return False
    shapes = [tuple(map(int, dims)) for dims in
              re.findall(r"<(\d+)x(\d+)x(\d+)x(\d+)xf32>", match.group(1))]
    if not shapes:
        return False
    out = shapes[-1]  # the output is the last parameter (TVM's convention)
    for index, (kh, kw, c, k) in enumerate(shapes[:-1]):
        if (kh, kw) != (3, 3) or c <= 1 or out[3] != k:
            continue
        # The image comes before the weight.
        for image in shapes[:index]:
            if (image[3] == c and out[1] % 2 == 0 and out[2] % 2 == 0 and
                    out[1] <= image[1] <= out[1] + 2 and
                    out[2] <= image[2] <= out[2] + 2):
                return True
    return False


def _avx512(target):
    return "avx512f" in str(target.features)


class DefaultScheduleKnobs:
    """The knobs of mlc's default CPU schedule as categorical choices. Each
    entry: knob name, candidates, the default (the pass option's default)."""

    KNOBS = (
        ("m_register", (4, 6, 8, 12, 16), 6),
        ("n_register", (16, 32, 64), 64),
        ("m_parallel", (32, 64, 128, 256), 128),
        ("k_tile", (128, 256, 512, 1024), 256),
        ("n_cache_tile", (256, 512, 1024, 2048), 1024),
        # Wider than a register: several vectors per step (e.g. 64 output
        # columns of a depthwise convolution carried across its window).
        ("vector_width", (8, 16, 32, 64), 16),
        # Output pixels of a convolution's register tile (one vector wide);
        # channels-last rows of four or more m_register tiles take the
        # contraction's m_register x n_register tile instead.
        ("conv_m_register", (6, 8, 12, 16, 24), 16),
        # 3x3 stride-1 convolutions with bound weights as Winograd
        # F(m x m, 3 x 3), m at most this (mlc-cpu-winograd-convolution);
        # 0: the direct convolution.
        ("winograd_tile", (0, 2, 4), 0),
    )

    def __init__(self, knobs=None):
        self.knobs = tuple(knobs or self.KNOBS)

    def for_kernel(self, mod):
        """This space without the knobs that cannot change `mod`'s code:
        winograd_tile unless `mod` may have a convolution that
        mlc-cpu-winograd-convolution rewrites (winograd_candidate), so that
        no trial is spent on points that build the same library."""
        text = mod.text if hasattr(mod, "text") else str(mod)
        if winograd_candidate(text):
            return self
        return DefaultScheduleKnobs([k for k in self.knobs if k[0] != "winograd_tile"])

    def generate(self, mod, seed, decisions=None):
        sch = Schedule(mod, seed=seed)
        func = sch.get_prim_func()
        for index, (name, candidates, _) in enumerate(self.knobs):
            value = sch.sample_categorical(
                candidates, [1.0] * len(candidates),
                decision=None if decisions is None else decisions[index])
            sch.annotate(func, "mlc.schedule." + name, value)
        return sch

    # What the CPU pipeline gives the schedule (mlc::getDefaultRegisterTiles)
    # where it differs from the pass's defaults: tiles for 16 vector
    # registers without AVX-512, and 6 x 32 on Zen 4, whose 512-bit FMAs
    # run as two 256-bit halves.
    NARROW_DEFAULTS = {"n_register": 16, "conv_m_register": 6}
    ZEN4_DEFAULTS = {"n_register": 32}

    def default_decisions(self, mod, target=None):
        """The point of the default schedule, as the CPU pipeline sets it
        for `target` (None: the tiles of an AVX-512 CPU other than Zen 4)."""
        overrides = {}
        if target is not None and not _avx512(target):
            overrides = self.NARROW_DEFAULTS
        elif target is not None and target.cpu == "znver4":
            overrides = self.ZEN4_DEFAULTS
        return [list(candidates).index(overrides.get(name, default))
                for name, candidates, default in self.knobs]

    def random_decisions(self, rng):
        """A uniformly random point, without building its schedule."""
        return [rng.randrange(len(candidates)) for _, candidates, _ in self.knobs]

    def analytic(self, target):
        """(derived features, prior) of a point for the cost model on
        `target`: the register tile's accumulators (m_register rows of
        n_register / lanes vectors; 16 f32 lanes and 32 registers with
        AVX-512, else 8 and 16) and how many exceed the registers left
        for operands; the prior ranks spilling tiles last."""
        knobs = [name for name, _, _ in self.knobs]
        if "m_register" not in knobs or "n_register" not in knobs:
            return None, None
        lanes, registers = (16, 32) if _avx512(target) else (8, 16)

        def derived(decisions):
            value = {name: candidates[int(d)] for (name, candidates, _), d
                     in zip(self.knobs, decisions)}
            accumulators = value["m_register"] * -(-value["n_register"] // lanes)
            return [float(accumulators), float(max(0, accumulators - (registers - 4)))]

        def prior(decisions):
            return -derived(decisions)[1]

        return derived, prior

"""Auto-tuning of TensorIR kernels, shaped like TVM's `tvm.meta_schedule`.

    import mlc.meta_schedule as ms
    sch = ms.tune_tir(mod, target="llvm --num-cores=1", work_dir="tune",
                      max_trials_global=64, num_trials_per_iter=16,
                      space=ms.space_generator.ScheduleFn(stochastic_schedule))
    sch.mod, sch.trace          # the best schedule found, as TVM returns it

Without `space`, the space is mlc's default CPU schedule with its knobs
(tiles, register tile, parallel tasks, vector width) sampled per kernel.
Candidates are compiled with mlc-compile and measured in a separate process
against the untuned kernel's outputs; records go to a JSONDatabase (TVM's
two JSON-lines files) keyed by the CPU model, ISA features, cores and mlc's
version. `ms.tir_integration.compile_tir(database, mod, target)` replays
the best record.
"""

from . import database, runner, space_generator, tir_integration
from .database import JSONDatabase, TuningRecord, workload_hash
from .runner import LocalBuilder, LocalRunner
from .space_generator import DefaultScheduleKnobs, ScheduleFn
from .target import Target
from .tune import TuneConfig, TuneResult, tune_tir

__all__ = ["DefaultScheduleKnobs", "JSONDatabase", "LocalBuilder", "LocalRunner",
           "ScheduleFn", "Target", "TuneConfig", "TuneResult", "TuningRecord",
           "database", "runner", "space_generator", "tir_integration", "tune_tir",
           "workload_hash"]

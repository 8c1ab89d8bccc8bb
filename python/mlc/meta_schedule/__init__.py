"""Auto-tuning of TensorIR kernels, shaped like TVM's `tvm.meta_schedule`.

    import mlc.meta_schedule as ms
    sch = ms.tune_tir(mod, target="llvm --num-cores=1", work_dir="tune",
                      max_trials_global=64, num_trials_per_iter=16,
                      space=ms.space_generator.ScheduleFn(stochastic_schedule))
    sch.mod, sch.trace          # the best schedule found, as TVM returns it

Without `space`, the space is mlc's default CPU schedule with its knobs
(tiles, register tile, parallel tasks, vector width) sampled per kernel.
A cost model (gradient-boosted trees on the decisions, `cost_model`)
picks which proposals of each round are measured. Candidates are compiled
with mlc-compile and measured in a separate process
against the untuned kernel's outputs; records go to a JSONDatabase (TVM's
two JSON-lines files) keyed by the CPU model, ISA features, cores and mlc's
version. `ms.tir_integration.compile_tir(database, mod, target)` replays
the best record.

Whole models: `ms.tune_relax(mod, params, target, work_dir,
max_trials_global)` tunes each distinct kernel after fusion (the budget
split by run-time share); `mlc-tune` is its command line, and
`mlc-run/mlc-compile --tuning-db=<work_dir>` (the pass
relax-meta-schedule-apply-database) compile a model with the records.
"""

from . import (cost_model, database, relax_integration, runner, space_generator,
               tir_integration)
from .cost_model import GBDTModel, RandomModel
from .database import JSONDatabase, TuningRecord, workload_hash
from .relax_integration import extract_tasks, tune_relax
from .runner import LocalBuilder, LocalRunner
from .space_generator import DefaultScheduleKnobs, ScheduleFn
from .target import Target
from .tune import TuneConfig, TuneResult, tune_tir

__all__ = ["DefaultScheduleKnobs", "GBDTModel", "JSONDatabase", "LocalBuilder", "LocalRunner",
           "RandomModel", "ScheduleFn", "Target", "TuneConfig", "TuneResult", "TuningRecord",
           "cost_model", "database", "extract_tasks", "relax_integration", "runner",
           "space_generator", "tir_integration", "tune_relax", "tune_tir",
           "workload_hash"]

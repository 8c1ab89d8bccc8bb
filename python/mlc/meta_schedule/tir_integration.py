"""Applying tuning records to a kernel (TVM's ms.tir_integration)."""

from ..tir import Schedule, Trace
from .database import JSONDatabase

__all__ = ["compile_tir"]


def compile_tir(database, mod, target="llvm"):
    """The schedule of the best record of `mod`'s kernel on `target` in
    `database` (a JSONDatabase or its work_dir), replayed on `mod`; None
    when there is no record for this kernel and target."""
    if not isinstance(database, JSONDatabase):
        database = JSONDatabase(database)
    record = database.query_tuning_record(mod, target)
    if record is None:
        return None
    return Schedule.from_script(mod, record.trace)

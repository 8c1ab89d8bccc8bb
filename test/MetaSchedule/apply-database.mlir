// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make-tuning-db.py %S/Inputs/kernels.mlir %t

// Records measured with 1 core are preferred with num-cores=1: of those the
// fastest successful one by its newest measurement (vector_width 8; the
// vector_width 4 trace was re-measured slower, m_register 4 failed), never
// one of another CPU or mlc version. Both names of the tuned kernel get it.
// The record of @scale does not replay: a warning, and @scale keeps the
// default schedule.
// RUN: mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/good num-cores=1" 2>%t/warnings | FileCheck %s --check-prefix=ONE
// RUN: FileCheck %s --input-file=%t/warnings --check-prefix=WARN
// ONE: tensorir.prim_func private @add_a(
// ONE-SAME: mlc.schedule.vector_width = 8 : i64
// ONE: tensorir.prim_func private @add_b(
// ONE-SAME: mlc.schedule.vector_width = 8 : i64
// ONE: tensorir.prim_func private @scale(
// ONE-NOT: mlc.schedule
// ONE: relax.call_tir @add_a
// WARN: warning: the tuning record of 'scale' (workload {{[0-9a-f]+}} in '{{.*}}good') does not apply, the kernel keeps the default schedule: {{.*}}'missing'
// WARN-NOT: warning

// Any core count (num-cores=0), or one no record has: the fastest of all.
// RUN: mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/good" 2>/dev/null | FileCheck %s --check-prefix=ANY
// RUN: mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/good num-cores=3" 2>/dev/null | FileCheck %s --check-prefix=ANY
// ANY: tensorir.prim_func private @add_a(
// ANY-SAME: mlc.schedule.vector_width = 16 : i64

// No records: nothing changes.
// RUN: mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/no-records" | FileCheck %s --check-prefix=NONE
// NONE-NOT: mlc.schedule

// Errors: no option, no database, malformed files (named with the line).
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database 2>&1 | FileCheck %s --check-prefix=NOOPT
// NOOPT: error: relax-meta-schedule-apply-database needs the 'work-dir' option
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: no tuning database: '{{.*}}missing' is not a directory
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/empty" 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: no tuning database in '{{.*}}empty' (it has no database_workload.json; mlc-tune writes one)
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/bad-index" 2>&1 | FileCheck %s --check-prefix=INDEX
// INDEX: error: {{.*}}database_tuning_record.json:1: workload index 3 is out of range (1 workloads)
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/bad-line" 2>&1 | FileCheck %s --check-prefix=LINE
// LINE: error: {{.*}}database_tuning_record.json:1: not a JSON line
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/bad-base64" 2>&1 | FileCheck %s --check-prefix=BASE64
// BASE64: error: {{.*}}database_workload.json:1: the module is not base64
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/bad-workload" 2>&1 | FileCheck %s --check-prefix=WORKLOAD
// WORKLOAD: error: {{.*}}database_workload.json:1: expected [workload_hash, base64(module)]
// RUN: not mlc-opt %S/Inputs/kernels.mlir --relax-meta-schedule-apply-database="work-dir=%t/good num-cores=-1" 2>&1 | FileCheck %s --check-prefix=CORES
// CORES: error: relax-meta-schedule-apply-database: num-cores -1 is negative

//===- Database.h - tuning records (TVM's JSONDatabase) ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Reads the tuning records that `mlc.meta_schedule` writes, in TVM's two-file
// JSON-lines layout:
//
//   <dir>/database_workload.json       [workload_hash, base64(module text)]
//   <dir>/database_tuning_record.json  [workload_index,
//                                       [trace, run_secs, target, args_info]]
//
// and picks the record to apply to a kernel: the fastest successful one of its
// workload measured on this CPU (model, vector features, mlc version).
//
//===----------------------------------------------------------------------===//

#ifndef MLC_METASCHEDULE_DATABASE_H
#define MLC_METASCHEDULE_DATABASE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlc::meta_schedule {

/// mlc's version as tuning records name it: records of another version are
/// not applied (the same schedule may compile to other code).
inline constexpr llvm::StringLiteral kMLCVersion = "0.1.dev0";

/// The run time of a candidate that failed to build, run or match.
inline constexpr double kFailedRunSecs = 1e10;

/// What a record was measured on. TVM's key (a target string) does not name
/// the CPU, so records of other machines come back (apache/tvm#15549); this
/// one names the CPU model, the vector ISA features that change code or speed,
/// the number of cores and mlc's version.
struct TargetKey {
  std::string kind = "llvm";
  std::string cpu;
  std::vector<std::string> features;
  /// OpenMP threads the kernel ran with; 0 in a query: any number.
  int64_t numCores = 0;
  std::string mlcVersion = kMLCVersion.str();

  /// {"kind", "cpu", "features", "num_cores", "mlc"}, as Python writes it
  /// (without "num_cores" when it is 0).
  llvm::json::Object toJSON() const;
};

/// The host CPU (the first processor of /proc/cpuinfo; LLVM's host CPU name
/// where that file is missing) with `numCores` cores.
TargetKey getHostTargetKey(int64_t numCores);

/// A tuned kernel: its structural hash and its module text.
struct Workload {
  std::string hash;
  std::string text;
};

/// One measured candidate of a workload.
struct TuningRecord {
  size_t workloadIndex = 0;
  /// The schedule: a transform script (`transform.named_sequence
  /// @__transform_main` over the workload's module).
  std::string trace;
  std::vector<double> runSecs;
  llvm::json::Value target = nullptr;

  bool failed() const;
  double meanSecs() const;
};

class JSONDatabase {
public:
  /// Reads the database in `dir`. A missing directory or workload file, a
  /// line that is not the expected JSON or an index out of range is an error
  /// naming the file and line.
  static llvm::Expected<JSONDatabase> open(llvm::StringRef dir);

  /// The fastest successful record of the workload `hash` measured on
  /// `target`'s kind, CPU, features and mlc version; among them, those
  /// measured with `target.numCores` cores when there are any (any core
  /// count when that is 0). A trace recorded more than once (with one core
  /// count) counts by its newest record. Null when there is none.
  const TuningRecord *queryBest(llvm::StringRef hash,
                                const TargetKey &target) const;

  const Workload &getWorkload(const TuningRecord &record) const {
    return workloads[record.workloadIndex];
  }
  size_t size() const { return records.size(); }

  /// A digest of the database files' contents (e.g. for a compile cache key).
  static std::string computeDigest(llvm::StringRef dir);

private:
  std::vector<Workload> workloads;
  std::vector<TuningRecord> records;
  llvm::StringMap<std::vector<size_t>> recordsByHash;
};

} // namespace mlc::meta_schedule

#endif // MLC_METASCHEDULE_DATABASE_H

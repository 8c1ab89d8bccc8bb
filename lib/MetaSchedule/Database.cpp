//===- Database.cpp - tuning records (TVM's JSONDatabase) -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/MetaSchedule/Database.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/TargetParser/Host.h"

#include <limits>

using namespace mlc::meta_schedule;
using llvm::StringRef;

static constexpr StringRef kWorkloadFile = "database_workload.json";
static constexpr StringRef kRecordFile = "database_tuning_record.json";

// The flags of /proc/cpuinfo that change generated code or its speed.
static constexpr StringRef kKeyFeatures[] = {
    "sse4_2",      "avx",      "avx2",     "fma",      "f16c",
    "avx512f",     "avx512bw", "avx512vl", "avx512dq", "avx512_bf16",
    "avx512_fp16", "amx_tile", "neon",     "asimd",    "sve"};

llvm::json::Object TargetKey::toJSON() const {
  llvm::json::Object object{{"kind", kind},
                            {"cpu", cpu},
                            {"features", llvm::json::Array(features)},
                            {"mlc", mlcVersion}};
  if (numCores != 0)
    object["num_cores"] = numCores;
  return object;
}

TargetKey mlc::meta_schedule::getHostTargetKey(int64_t numCores) {
  TargetKey key;
  key.numCores = numCores;
  key.cpu = llvm::sys::getHostCPUName().str();
  auto cpuinfo = llvm::MemoryBuffer::getFileAsStream("/proc/cpuinfo");
  if (!cpuinfo)
    return key;
  llvm::StringSet<> flags;
  llvm::SmallVector<StringRef> lines;
  (*cpuinfo)->getBuffer().split(lines, '\n');
  for (StringRef line : lines) {
    auto [name, value] = line.split(':');
    name = name.trim();
    value = value.trim();
    if (name.empty() && !flags.empty())
      break; // The first processor tells.
    if (name == "model name" && !value.empty())
      key.cpu = value.str();
    else if (name == "flags" || name == "Features") {
      llvm::SmallVector<StringRef> words;
      value.split(words, ' ', -1, /*KeepEmpty=*/false);
      for (StringRef word : words)
        flags.insert(word);
    }
  }
  for (StringRef feature : kKeyFeatures)
    if (flags.contains(feature))
      key.features.push_back(feature.str());
  llvm::sort(key.features);
  return key;
}

bool TuningRecord::failed() const {
  return runSecs.empty() || *llvm::min_element(runSecs) >= kFailedRunSecs;
}

double TuningRecord::meanSecs() const {
  if (runSecs.empty())
    return kFailedRunSecs;
  double sum = 0;
  for (double secs : runSecs)
    sum += secs;
  return sum / runSecs.size();
}

namespace {
/// Calls `parseLine(json, lineNumber)` on each non-empty line of `path`.
llvm::Error forEachJSONLine(
    const std::string &path,
    llvm::function_ref<llvm::Error(llvm::json::Value &, size_t)> parseLine) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(), "cannot read '%s': %s",
                                   path.c_str(),
                                   buffer.getError().message().c_str());
  llvm::SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (auto [index, line] : llvm::enumerate(lines)) {
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    if (!value)
      return llvm::createStringError("%s:%zu: not a JSON line: %s",
                                     path.c_str(), index + 1,
                                     llvm::toString(value.takeError()).c_str());
    if (llvm::Error error = parseLine(*value, index + 1))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error malformed(const std::string &path, size_t line, StringRef what) {
  return llvm::createStringError("%s:%zu: %s", path.c_str(), line,
                                 what.str().c_str());
}

/// Whether a record's target is `key` (any core count when that is 0).
bool isSameMachine(const llvm::json::Value &recordTarget,
                   const TargetKey &key) {
  const llvm::json::Object *object = recordTarget.getAsObject();
  if (!object)
    return false;
  llvm::json::Object expected = key.toJSON();
  for (StringRef field : {"kind", "cpu", "features", "mlc"})
    if (!object->get(field) || *object->get(field) != *expected.get(field))
      return false;
  return true;
}

int64_t getNumCores(const llvm::json::Value &recordTarget) {
  if (const llvm::json::Object *object = recordTarget.getAsObject())
    return object->getInteger("num_cores").value_or(0);
  return 0;
}
} // namespace

llvm::Expected<JSONDatabase> JSONDatabase::open(StringRef dir) {
  if (!llvm::sys::fs::is_directory(dir))
    return llvm::createStringError(
        "no tuning database: '%s' is not a directory", dir.str().c_str());
  llvm::SmallString<256> workloadPath(dir), recordPath(dir);
  llvm::sys::path::append(workloadPath, kWorkloadFile);
  llvm::sys::path::append(recordPath, kRecordFile);
  if (!llvm::sys::fs::exists(workloadPath))
    return llvm::createStringError(
        "no tuning database in '%s' (it has no %s; mlc-tune writes one)",
        dir.str().c_str(), kWorkloadFile.data());

  JSONDatabase database;
  std::string path = workloadPath.str().str();
  if (llvm::Error error = forEachJSONLine(
          path, [&](llvm::json::Value &value, size_t line) -> llvm::Error {
            const llvm::json::Array *entry = value.getAsArray();
            std::optional<StringRef> hash, encoded;
            if (entry && entry->size() == 2) {
              hash = (*entry)[0].getAsString();
              encoded = (*entry)[1].getAsString();
            }
            if (!hash || !encoded)
              return malformed(path, line,
                               "expected [workload_hash, base64(module)]");
            std::vector<char> text;
            if (llvm::Error error = llvm::decodeBase64(*encoded, text)) {
              llvm::consumeError(std::move(error));
              return malformed(path, line, "the module is not base64");
            }
            database.workloads.push_back(
                {hash->str(), std::string(text.begin(), text.end())});
            return llvm::Error::success();
          }))
    return std::move(error);

  if (!llvm::sys::fs::exists(recordPath))
    return database;
  path = recordPath.str().str();
  if (llvm::Error error = forEachJSONLine(
          path, [&](llvm::json::Value &value, size_t line) -> llvm::Error {
            const llvm::json::Array *entry = value.getAsArray();
            const llvm::json::Array *fields = entry && entry->size() == 2
                                                  ? (*entry)[1].getAsArray()
                                                  : nullptr;
            std::optional<int64_t> index = entry && !entry->empty()
                                               ? (*entry)[0].getAsInteger()
                                               : std::nullopt;
            if (!fields || fields->size() < 3 || !index ||
                !(*fields)[0].getAsString() || !(*fields)[1].getAsArray())
              return malformed(path, line,
                               "expected [workload_index, [trace, run_secs, "
                               "target, args_info]]");
            if (*index < 0 ||
                static_cast<size_t>(*index) >= database.workloads.size())
              return malformed(path, line,
                               "workload index " + std::to_string(*index) +
                                   " is out of range (" +
                                   std::to_string(database.workloads.size()) +
                                   " workloads)");
            TuningRecord record;
            record.workloadIndex = *index;
            record.trace = fields->front().getAsString()->str();
            for (const llvm::json::Value &secs : *(*fields)[1].getAsArray()) {
              std::optional<double> number = secs.getAsNumber();
              if (!number)
                return malformed(path, line, "run_secs holds a non-number");
              record.runSecs.push_back(*number);
            }
            record.target = (*fields)[2];
            database.recordsByHash[database.workloads[*index].hash].push_back(
                database.records.size());
            database.records.push_back(std::move(record));
            return llvm::Error::success();
          }))
    return std::move(error);
  return database;
}

const TuningRecord *JSONDatabase::queryBest(StringRef hash,
                                            const TargetKey &target) const {
  auto it = recordsByHash.find(hash);
  if (it == recordsByHash.end())
    return nullptr;
  // A trace measured again (tuning re-measures its winner against the
  // untuned kernel at the end) is known by its newest measurement.
  llvm::StringMap<const TuningRecord *> newest;
  for (size_t index : it->second) {
    const TuningRecord &record = records[index];
    if (!isSameMachine(record.target, target))
      continue;
    std::string key = record.trace;
    key += '\0';
    key += std::to_string(getNumCores(record.target));
    newest[key] = &record;
  }
  const TuningRecord *best = nullptr, *bestSameCores = nullptr;
  for (const auto &entry : newest) {
    const TuningRecord &record = *entry.getValue();
    if (record.failed())
      continue;
    if (!best || record.meanSecs() < best->meanSecs())
      best = &record;
    if (target.numCores != 0 && getNumCores(record.target) == target.numCores &&
        (!bestSameCores || record.meanSecs() < bestSameCores->meanSecs()))
      bestSameCores = &record;
  }
  return bestSameCores ? bestSameCores : best;
}

std::string JSONDatabase::computeDigest(StringRef dir) {
  llvm::SHA256 sha;
  for (StringRef file : {kWorkloadFile, kRecordFile}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, file);
    if (auto buffer = llvm::MemoryBuffer::getFile(path))
      sha.update((*buffer)->getBuffer());
    sha.update(StringRef("\0", 1));
  }
  return llvm::toHex(sha.final(), /*LowerCase=*/true);
}

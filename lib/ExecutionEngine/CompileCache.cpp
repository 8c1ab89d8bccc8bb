//===- CompileCache.cpp - On-disk cache of compiled modules ---------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/CompileCache.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstring>

using namespace mlir;
using namespace mlc;

namespace {

/// Bumped when the entry layout or what the key covers changes.
constexpr llvm::StringLiteral kFormat = "mlc-compile-cache-1";

/// An entry is the object's bytes followed by this trailer.
struct Trailer {
  char magic[8];
  uint64_t size;
  uint32_t flags;
  uint32_t reserved;
  uint8_t checksum[32];
};
constexpr char kMagic[8] = {'M', 'L', 'C', 'O', 'B', 'J', '1', '\0'};

/// A stream that hashes what is written to it.
class HashingStream : public llvm::raw_ostream {
public:
  explicit HashingStream(llvm::BLAKE3 &hasher) : hasher(hasher) {}
  ~HashingStream() override { flush(); }

private:
  void write_impl(const char *data, size_t size) override {
    hasher.update(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data), size));
    position += size;
  }
  uint64_t current_pos() const override { return position; }

  llvm::BLAKE3 &hasher;
  uint64_t position = 0;
};

void hashString(llvm::BLAKE3 &hasher, llvm::StringRef text) {
  // Length-prefixed, so that adjacent fields cannot run into each other.
  uint64_t size = text.size();
  hasher.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(&size), sizeof(size)));
  hasher.update(text);
}

/// The identity of the running build of mlc: its executable's path, size
/// and modification time, so that a rebuilt compiler never reuses objects
/// of the previous one.
std::string getBuildIdentity() {
  std::string path =
      llvm::sys::fs::getMainExecutable(nullptr, (void *)&getBuildIdentity);
  llvm::sys::fs::file_status status;
  if (path.empty() || llvm::sys::fs::status(path, status))
    return "unknown";
  return path + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(
             status.getLastModificationTime().time_since_epoch().count());
}

} // namespace

CompileCache::CompileCache(std::string directory)
    : directory(std::move(directory)) {}

std::string CompileCache::getDefaultDirectory() {
  SmallString<256> path;
  if (std::optional<std::string> xdg =
          llvm::sys::Process::GetEnv("XDG_CACHE_HOME");
      xdg && !xdg->empty()) {
    path = *xdg;
  } else if (std::optional<std::string> home =
                 llvm::sys::Process::GetEnv("HOME");
             home && !home->empty()) {
    path = *home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(path, "mlc");
  return std::string(path);
}

std::string CompileCache::computeKey(ModuleOp module, StringRef options) {
  llvm::BLAKE3 hasher;
  hashString(hasher, kFormat);
  hashString(hasher, getBuildIdentity());
  hashString(hasher, LLVM_VERSION_STRING);
  hashString(hasher, llvm::sys::getProcessTriple());
  hashString(hasher, llvm::sys::getHostCPUName());
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> enabled;
  for (const auto &feature : features)
    if (feature.getValue())
      enabled.push_back(feature.getKey().str());
  std::sort(enabled.begin(), enabled.end());
  hashString(hasher, llvm::join(enabled, ","));
  hashString(hasher, options);
  {
    HashingStream stream(hasher);
    // Bytecode: the module's structure and its constants' raw bytes
    // (dense_resource weights included), without printing them as text.
    (void)writeBytecodeToFile(module, stream);
  }
  return llvm::toHex(hasher.final(), /*LowerCase=*/true);
}

std::string CompileCache::getEntryPath(StringRef key) const {
  SmallString<256> path(directory);
  llvm::sys::path::append(path, key + ".o");
  return std::string(path);
}

std::optional<CachedObject> CompileCache::lookup(StringRef key) {
  if (directory.empty())
    return std::nullopt;
  std::string path = getEntryPath(key);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return std::nullopt;
  StringRef bytes = (*file)->getBuffer();
  Trailer trailer;
  bool valid = bytes.size() >= sizeof(Trailer);
  if (valid) {
    std::memcpy(&trailer, bytes.end() - sizeof(Trailer), sizeof(Trailer));
    valid = std::memcmp(trailer.magic, kMagic, sizeof(kMagic)) == 0 &&
            trailer.size == bytes.size() - sizeof(Trailer);
  }
  if (valid) {
    auto checksum = llvm::BLAKE3::hash(
        llvm::arrayRefFromStringRef(bytes.take_front(trailer.size)));
    valid = std::memcmp(checksum.data(), trailer.checksum,
                        sizeof(trailer.checksum)) == 0;
  }
  if (!valid) {
    // Truncated or corrupted: never served, compiled and stored again.
    (void)llvm::sys::fs::remove(path);
    return std::nullopt;
  }
  CachedObject entry;
  entry.object = llvm::MemoryBuffer::getMemBufferCopy(
      bytes.take_front(trailer.size), path);
  entry.flags = trailer.flags;
  return entry;
}

static llvm::Error cacheError(const std::string &directory,
                              std::error_code error) {
  return llvm::createStringError(error, "cannot write to the cache '" +
                                            directory +
                                            "': " + error.message());
}

llvm::Expected<std::string> CompileCache::createTemporaryFile(StringRef key) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return cacheError(directory, error);
  // In the cache's directory, so that the rename of commit() is atomic.
  SmallString<256> model(getEntryPath(key));
  model += ".tmp-%%%%%%%%";
  SmallString<256> path;
  int fd;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(model, fd, path))
    return cacheError(directory, error);
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return std::string(path);
}

llvm::Error CompileCache::commit(StringRef key, StringRef temporaryPath,
                                 uint32_t flags) {
  auto fail = [&](std::error_code error) {
    (void)llvm::sys::fs::remove(temporaryPath);
    return cacheError(directory, error);
  };
  Trailer trailer;
  {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> object =
        llvm::MemoryBuffer::getFile(temporaryPath, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!object)
      return fail(object.getError());
    std::memcpy(trailer.magic, kMagic, sizeof(kMagic));
    trailer.size = (*object)->getBufferSize();
    trailer.flags = flags;
    trailer.reserved = 0;
    auto checksum =
        llvm::BLAKE3::hash(llvm::arrayRefFromStringRef((*object)->getBuffer()));
    std::memcpy(trailer.checksum, checksum.data(), sizeof(trailer.checksum));
  }
  {
    std::error_code error;
    llvm::raw_fd_ostream os(temporaryPath, error, llvm::sys::fs::OF_Append);
    if (error)
      return fail(error);
    os.write(reinterpret_cast<const char *>(&trailer), sizeof(trailer));
    os.close();
    if (os.has_error()) {
      error = os.error();
      os.clear_error();
      return fail(error);
    }
  }
  // A concurrent reader sees the old entry, the new one or none, never
  // half of one; concurrent writers of a key write the same bytes.
  if (std::error_code error =
          llvm::sys::fs::rename(temporaryPath, getEntryPath(key)))
    return fail(error);
  return llvm::Error::success();
}

//===- CompileCache.h - On-disk cache of compiled modules -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The on-disk cache of compiled modules behind `mlc-run --cache-dir`: a
// module's object code, keyed by a hash of the module before compilation,
// the compile options, the host (triple, CPU, features) and the compiler
// (mlc's build, LLVM's version), so that running a model again skips the
// pipeline and LLVM. Entries are written to a temporary file and renamed
// into place (safe under concurrent runs) and carry a BLAKE3 checksum of
// their contents; an entry that does not verify is removed and reported as
// a miss, so a corrupt entry is never served.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_EXECUTIONENGINE_COMPILECACHE_H
#define MLC_EXECUTIONENGINE_COMPILECACHE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mlc {

/// A compiled module as the cache holds it.
struct CachedObject {
  /// The object file (ELF) of the module, with `_mlir_` packed entries.
  std::unique_ptr<llvm::MemoryBuffer> object;
  /// What the runner needs to know without the module (kUsesOpenMP, ...).
  uint32_t flags = 0;
  /// The module calls the OpenMP runtime (parallel loops).
  static constexpr uint32_t kUsesOpenMP = 1;
};

class CompileCache {
public:
  /// A cache in `directory` (created when the first entry is stored).
  explicit CompileCache(std::string directory);

  /// `$XDG_CACHE_HOME/mlc`, or `$HOME/.cache/mlc`; empty if neither is set.
  static std::string getDefaultDirectory();

  /// The key of `module` compiled with `options` (everything else that
  /// changes the code: pipeline options, target, optimization level) for
  /// this host by this build of mlc: a hex BLAKE3 hash.
  static std::string computeKey(mlir::ModuleOp module, llvm::StringRef options);

  /// The entry of `key`, or nullopt when there is none or it does not verify
  /// (then it is removed).
  std::optional<CachedObject> lookup(llvm::StringRef key);

  /// Storing an entry, for object code that a JIT writes to a file: a new
  /// file in the cache's directory to write the object to, then `commit`,
  /// which appends the trailer (flags, checksum) and makes it `key`'s entry
  /// (or removes it on failure).
  llvm::Expected<std::string> createTemporaryFile(llvm::StringRef key);
  llvm::Error commit(llvm::StringRef key, llvm::StringRef temporaryPath,
                     uint32_t flags);

  const std::string &getDirectory() const { return directory; }

private:
  std::string getEntryPath(llvm::StringRef key) const;

  std::string directory;
};

} // namespace mlc

#endif // MLC_EXECUTIONENGINE_COMPILECACHE_H

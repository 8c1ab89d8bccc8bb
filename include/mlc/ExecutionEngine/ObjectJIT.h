//===- ObjectJIT.h - Run compiled object code in-process --------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Runs a module compiled earlier (a CompileCache entry) without compiling
// it again: an ORC LLJIT over its object code, resolving what the code
// calls in the given shared libraries (MLIR's C runner utilities, libomp)
// and in the process, entered through the `_mlir_<name>` packed wrappers
// that MLIR's ExecutionEngine put into the object when it compiled it.
// Host (CPU) code only: the object's global constructors are not run.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_EXECUTIONENGINE_OBJECTJIT_H
#define MLC_EXECUTIONENGINE_OBJECTJIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace mlc {

class ObjectJIT {
public:
  ~ObjectJIT();

  /// Links `object` with `sharedLibPaths` and the process's symbols.
  static llvm::Expected<std::unique_ptr<ObjectJIT>>
  create(std::unique_ptr<llvm::MemoryBuffer> object,
         llvm::ArrayRef<llvm::StringRef> sharedLibPaths);

  /// Resolves `name`'s packed wrapper (linking the object on first use).
  llvm::Error lookupPacked(llvm::StringRef name);

  /// Calls `name`'s packed wrapper with `args`: pointers to the arguments,
  /// then to the results, as mlir::ExecutionEngine::invokePacked takes them.
  llvm::Error invokePacked(llvm::StringRef name,
                           llvm::MutableArrayRef<void *> args);

private:
  ObjectJIT();

  std::unique_ptr<llvm::orc::LLJIT> jit;
};

} // namespace mlc

#endif // MLC_EXECUTIONENGINE_OBJECTJIT_H

//===- NpzWriter.h - write named tensors as a numpy .npz -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_NPZWRITER_H
#define MLC_SUPPORT_NPZWRITER_H

#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlc {

/// Collects tensors and writes them as an uncompressed .npz archive (a zip of
/// .npy v1.0 files) that `numpy.load` reads.
class NpzWriter {
public:
  /// Adds `name` (stored as `name.npy`) with the given shape and element
  /// type; `data` holds the C-order bytes. Returns false, setting `error`,
  /// for an element type numpy has no dtype for.
  bool add(llvm::StringRef name, llvm::ArrayRef<int64_t> shape,
           mlir::Type elementType, llvm::ArrayRef<char> data,
           std::string &error);

  /// Writes the archive atomically (no partial file on failure).
  bool write(llvm::StringRef path, std::string &error) const;

private:
  struct Entry {
    std::string fileName;
    std::string bytes; // the whole .npy file
  };
  std::vector<Entry> entries;
};

/// The numpy dtype string ("<f4", "|b1", ...) of an MLIR element type, or an
/// empty string when numpy has none.
std::string getNumpyDType(mlir::Type elementType);

} // namespace mlc

#endif // MLC_SUPPORT_NPZWRITER_H

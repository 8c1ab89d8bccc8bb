//===- TensorFile.h - read named tensors from .npz / .safetensors -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Reads named tensors from NumPy archives (`.npz`, entries stored or deflated,
// holding `.npy` v1/v2/v3 arrays) and from `.safetensors` files. The file is
// memory-mapped; entries that are stored uncompressed are never copied by the
// reader, deflated entries are inflated once on first lookup.
//
// Every malformed, truncated or unsupported input is reported as an
// llvm::Error whose message names the file and the entry.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_TENSORFILE_H
#define MLC_SUPPORT_TENSORFILE_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace mlc {

/// Element types a tensor file can hold (little-endian storage). BF16 comes
/// from safetensors; numpy has no bfloat16, so .npy files hold its bit
/// patterns as uint16 (U16), as onnx.numpy_helper does.
enum class TensorDType {
  F16,
  BF16,
  F32,
  F64,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  Bool
};

/// Size in bytes of one element of `dtype`.
unsigned getDTypeByteSize(TensorDType dtype);
/// The MLIR element type of `dtype`: f16, f32, f64, i8, i16, i32, i64, ui8,
/// i1 (bool is stored as one byte per element).
mlir::Type getDTypeElementType(TensorDType dtype, mlir::MLIRContext *context);
/// A short name for messages ("float32", ...), as TVM spells it.
llvm::StringRef getDTypeName(TensorDType dtype);

/// One tensor of a file: a view of its bytes plus whatever keeps them alive.
struct TensorView {
  std::string name;
  llvm::SmallVector<int64_t> shape;
  TensorDType dtype = TensorDType::F32;
  /// The raw little-endian, row-major element bytes.
  llvm::ArrayRef<char> data;
  /// Owner of `data` (the mapped file or the inflated buffer). Holding a copy
  /// keeps `data` valid after the TensorFile is gone.
  std::shared_ptr<const void> keepAlive;

  int64_t getNumElements() const;
  /// The builtin tensor type of this entry.
  mlir::RankedTensorType getType(mlir::MLIRContext *context) const;
};

/// A memory-mapped `.npz` or `.safetensors` file.
class TensorFile {
public:
  /// Opens `path`; the format is chosen by content (zip magic → npz, else
  /// safetensors). The directory is parsed eagerly, entries lazily.
  static llvm::Expected<std::unique_ptr<TensorFile>> open(llvm::StringRef path);
  /// Same, for a buffer already in memory; `name` is used in messages.
  static llvm::Expected<std::unique_ptr<TensorFile>>
  open(std::unique_ptr<llvm::MemoryBuffer> buffer);

  ~TensorFile();

  llvm::StringRef getPath() const { return path; }
  /// Names of all entries, in file order (npz: without the `.npy` suffix).
  llvm::ArrayRef<std::string> getNames() const { return names; }
  bool contains(llvm::StringRef name) const { return entries.count(name); }

  /// Decodes entry `name`: header checks, inflation if needed. A missing name
  /// is an error too (use `contains` to test first).
  llvm::Expected<TensorView> lookup(llvm::StringRef name);

  /// Turns `view` into a `DenseResourceElementsAttr` whose blob is registered
  /// under a name derived from `blobName`. Copies the bytes at most once:
  /// when they are suitably aligned they are shared, not copied.
  static mlir::DenseResourceElementsAttr
  getResourceAttr(const TensorView &view, mlir::MLIRContext *context,
                  llvm::StringRef blobName);

private:
  struct Entry;
  TensorFile() = default;
  llvm::Error parseZip();
  llvm::Error parseSafetensors();
  llvm::Error entryError(llvm::StringRef name, const llvm::Twine &msg) const;

  std::string path;
  std::shared_ptr<llvm::MemoryBuffer> buffer;
  bool isZip = false;
  std::vector<std::string> names;
  llvm::StringMap<std::unique_ptr<Entry>> entries;
};

} // namespace mlc

#endif // MLC_SUPPORT_TENSORFILE_H

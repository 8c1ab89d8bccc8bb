//===- tensor-file-fuzzer.cpp - libFuzzer target: .npz/.safetensors -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Any bytes through mlc::TensorFile (what mlc-run --inputs/--params, the
// bind-params passes and the Relay meta constants read): the directory, then
// every entry (header checks, inflation), its type and every byte of its
// data. Errors are fine; ASan and libFuzzer report crashes and misuse.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/TensorFile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = new mlir::MLIRContext();
  auto file = mlc::TensorFile::open(llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  unsigned checksum = 0;
  for (const std::string &name : (*file)->getNames()) {
    llvm::Expected<mlc::TensorView> view = (*file)->lookup(name);
    if (!view) {
      llvm::consumeError(view.takeError());
      continue;
    }
    // The view's size must match its shape and dtype, and every byte must be
    // readable.
    if (view->getNumElements() >= 0 && view->getNumElements() < (1 << 24))
      (void)view->getType(context);
    for (char byte : view->data)
      checksum += static_cast<unsigned char>(byte);
  }
  return checksum == 0xffffffffu ? 1 : 0;
}

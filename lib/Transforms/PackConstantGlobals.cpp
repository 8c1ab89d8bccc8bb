//===- PackConstantGlobals.cpp - constant globals as byte arrays ----------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlc {
#define GEN_PASS_DEF_PACKCONSTANTGLOBALSPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The size in bytes of the dense value `attr` if it is one that packs:
/// non-splat dense or dense_resource data of integers or floats of whole
/// bytes.
std::optional<int64_t> getPackableBytes(Attribute attr) {
  auto elements = dyn_cast<ElementsAttr>(attr);
  if (!elements)
    return std::nullopt;
  Type elementType = elements.getShapedType().getElementType();
  if (!elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  // Checked: a splat's type may count more bytes than int64_t holds.
  std::optional<int64_t> bytes = elementType.getIntOrFloatBitWidth() / 8;
  for (int64_t extent : elements.getShapedType().getShape())
    if (bytes)
      bytes = llvm::checkedMul(*bytes, extent);
  if (!bytes)
    return std::nullopt;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    if (dense.isSplat())
      return std::nullopt;
    return bytes;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || static_cast<int64_t>(blob->getData().size()) != *bytes)
      return std::nullopt;
    return bytes;
  }
  return std::nullopt;
}

struct PackConstantGlobalsPass
    : public mlc::impl::PackConstantGlobalsPassBase<PackConstantGlobalsPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    Type i8 = IntegerType::get(ctx, 8);
    // Also in nested modules (gpu.module: the constants its kernels read).
    SmallVector<LLVM::GlobalOp> globals;
    getOperation()->walk([&](LLVM::GlobalOp global) {
      globals.push_back(global);
      return WalkResult::skip();
    });
    for (LLVM::GlobalOp global : globals) {
      if (!global.getConstant() || !global.getValueOrNull() ||
          !global.getInitializerRegion().empty())
        continue;
      Attribute value = global.getValueOrNull();
      std::optional<int64_t> bytes = getPackableBytes(value);
      if (!bytes || *bytes < minBytes)
        continue;
      auto packedType = RankedTensorType::get({*bytes}, i8);
      Attribute packed;
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
        packed =
            DenseResourceElementsAttr::get(packedType, resource.getRawHandle());
      else
        packed = DenseElementsAttr::getFromRawBuffer(
            packedType, cast<DenseElementsAttr>(value).getRawData());
      global.setValueAttr(packed);
      global.setGlobalType(LLVM::LLVMArrayType::get(i8, *bytes));
    }
  }
};

} // namespace

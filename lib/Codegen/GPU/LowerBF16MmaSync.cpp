//===- LowerBF16MmaSync.cpp - bf16 nvgpu.mma.sync to nvvm.mma.sync --------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// MLIR 22's convert-nvgpu-to-nvvm cannot deduce the PTX type of bf16
// nvgpu.mma.sync operands ("failed to deduce operand PTX types"), although
// nvvm.mma.sync (and PTX's mma.sync.m16n8k16...bf16) takes them: pairs of
// bf16 packed in a 32-bit register, as for f16. This pass emits that
// nvvm.mma.sync itself, so that the tensor-core rule applies to bf16 too.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlc {
#define GEN_PASS_DEF_GPULOWERBF16MMASYNCPASS
#include "mlc/Codegen/GPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The rows of `fragment` (vector<N x 2 x bf16>) as N i32 registers, the
/// low half the row's first element (PTX's packed .bf16x2).
SmallVector<Value> packRows(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  auto packedType = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> registers;
  for (int64_t i = 0, e = type.getDimSize(0); i < e; ++i) {
    Value row = vector::ExtractOp::create(b, loc, fragment, i);
    Value packed = vector::BitCastOp::create(b, loc, packedType, row);
    registers.push_back(vector::ExtractOp::create(b, loc, packed, 0));
  }
  return registers;
}

/// Whether `mma` is the m16n8k16 bf16 x bf16 + f32 form this pass lowers.
bool isBF16MmaSync(nvgpu::MmaSyncOp mma) {
  auto a = cast<VectorType>(mma.getMatrixA().getType());
  auto b = cast<VectorType>(mma.getMatrixB().getType());
  auto c = cast<VectorType>(mma.getMatrixC().getType());
  return a.getElementType().isBF16() && b.getElementType().isBF16() &&
         c.getElementType().isF32() &&
         a.getShape() == ArrayRef<int64_t>{4, 2} &&
         b.getShape() == ArrayRef<int64_t>{2, 2} &&
         c.getShape() == ArrayRef<int64_t>{2, 2} &&
         ArrayRef<int64_t>(mma.getMmaShapeAsArray()) ==
             ArrayRef<int64_t>{16, 8, 16};
}

void lower(nvgpu::MmaSyncOp mma) {
  OpBuilder b(mma);
  Location loc = mma.getLoc();
  SmallVector<Value> a = packRows(b, loc, mma.getMatrixA());
  SmallVector<Value> bRegisters = packRows(b, loc, mma.getMatrixB());
  SmallVector<Value> c;
  for (int64_t i = 0; i < 4; ++i)
    c.push_back(vector::ExtractOp::create(b, loc, mma.getMatrixC(),
                                          ArrayRef<int64_t>{i / 2, i % 2}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  auto result = NVVM::MmaOp::create(
      b, loc, resultType, a, bRegisters, c, ArrayRef<int64_t>{16, 8, 16},
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> d;
  for (int64_t i = 0; i < 4; ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, result, i));
  Value dFragment = vector::FromElementsOp::create(
      b, loc, cast<VectorType>(mma.getType()), d);
  mma.getResult().replaceAllUsesWith(dFragment);
  mma.erase();
}

struct GPULowerBF16MmaSyncPass
    : public mlc::impl::GPULowerBF16MmaSyncPassBase<GPULowerBF16MmaSyncPass> {
  void runOnOperation() override {
    SmallVector<nvgpu::MmaSyncOp> mmas;
    getOperation()->walk([&](nvgpu::MmaSyncOp mma) {
      if (isBF16MmaSync(mma))
        mmas.push_back(mma);
    });
    for (nvgpu::MmaSyncOp mma : mmas)
      lower(mma);
  }
};

} // namespace

//===- Utils.cpp - helpers shared by the GPU code generation passes -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

gpu::AddressSpace mlc::getGPUAddressSpace(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space ? space.getValue() : gpu::AddressSpace::Global;
}

bool mlc::isWorkgroupMemory(Value memref) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(
      cast<MemRefType>(memref.getType()));
}

bool mlc::writesGlobalMemory(scf::ForOp loop) {
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return isMemoryEffectFree(op) || op->hasTrait<OpTrait::IsTerminator>() ||
                     op->getNumRegions() > 0
                 ? WalkResult::advance()
                 : WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value value = effect.getValue();
      if (!value || !isa<MemRefType>(value.getType()) ||
          getGPUAddressSpace(value) == gpu::AddressSpace::Global)
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

std::optional<int64_t> mlc::getStaticByteSize(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<int64_t> bytes =
      llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  for (int64_t size : type.getShape())
    bytes = bytes ? llvm::checkedMul(*bytes, size) : std::nullopt;
  return bytes;
}

std::optional<int64_t>
mlc::evaluateIndex(Value value, const DenseMap<Value, int64_t> &known) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    auto attr = dyn_cast<IntegerAttr>(constant.getValue());
    if (!attr)
      return std::nullopt;
    return attr.getType().isInteger(1) ? int64_t(attr.getValue().getBoolValue())
                                       : attr.getValue().getSExtValue();
  }
  auto apply = dyn_cast<affine::AffineApplyOp>(def);
  SmallVector<int64_t> operands;
  for (auto [i, operand] : llvm::enumerate(def->getOperands())) {
    std::optional<int64_t> v = evaluateIndex(operand, known);
    // An affine.apply operand its map does not use may be anything.
    if (!v && apply) {
      AffineMap map = apply.getAffineMap();
      bool unused = i < map.getNumDims()
                        ? !map.isFunctionOfDim(i)
                        : !map.isFunctionOfSymbol(i - map.getNumDims());
      if (unused)
        v = 0;
    }
    if (!v)
      return std::nullopt;
    operands.push_back(*v);
  }
  if (apply) {
    SmallVector<Attribute> constants;
    Builder builder(def->getContext());
    for (int64_t v : operands)
      constants.push_back(builder.getIndexAttr(v));
    SmallVector<Attribute> results;
    if (failed(apply.getAffineMap().constantFold(constants, results)) ||
        results.size() != 1)
      return std::nullopt;
    auto attr = dyn_cast<IntegerAttr>(results.front());
    return attr ? std::optional<int64_t>(attr.getInt()) : std::nullopt;
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp, arith::TruncIOp>(def))
    return operands[0];
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return operands[0] ? operands[1] : operands[2];
  if (auto cmp = dyn_cast<arith::CmpIOp>(def)) {
    int64_t a = operands[0], b = operands[1];
    uint64_t ua = a, ub = b;
    switch (cmp.getPredicate()) {
    case arith::CmpIPredicate::eq:
      return a == b;
    case arith::CmpIPredicate::ne:
      return a != b;
    case arith::CmpIPredicate::slt:
      return a < b;
    case arith::CmpIPredicate::sle:
      return a <= b;
    case arith::CmpIPredicate::sgt:
      return a > b;
    case arith::CmpIPredicate::sge:
      return a >= b;
    case arith::CmpIPredicate::ult:
      return ua < ub;
    case arith::CmpIPredicate::ule:
      return ua <= ub;
    case arith::CmpIPredicate::ugt:
      return ua > ub;
    case arith::CmpIPredicate::uge:
      return ua >= ub;
    }
    return std::nullopt;
  }
  if (operands.size() != 2)
    return std::nullopt;
  int64_t a = operands[0], b = operands[1];
  bool divides =
      isa<arith::DivUIOp, arith::RemUIOp, arith::DivSIOp, arith::RemSIOp,
          arith::FloorDivSIOp, arith::CeilDivSIOp>(def);
  if (divides && (b == 0 || (b == -1 && a == INT64_MIN)))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(def)
      .Case([&](arith::AddIOp) { return a + b; })
      .Case([&](arith::SubIOp) { return a - b; })
      .Case([&](arith::MulIOp) { return a * b; })
      .Case([&](arith::AndIOp) { return a & b; })
      .Case([&](arith::OrIOp) { return a | b; })
      .Case([&](arith::XOrIOp) { return a ^ b; })
      .Case([&](arith::DivUIOp) { return int64_t(uint64_t(a) / uint64_t(b)); })
      .Case([&](arith::RemUIOp) { return int64_t(uint64_t(a) % uint64_t(b)); })
      .Case([&](arith::DivSIOp) { return a / b; })
      .Case([&](arith::RemSIOp) { return a % b; })
      .Case([&](arith::FloorDivSIOp) {
        return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
      })
      .Case([&](arith::CeilDivSIOp) {
        return a / b + ((a % b != 0) && ((a < 0) == (b < 0)));
      })
      .Case([&](arith::MinSIOp) { return std::min(a, b); })
      .Case([&](arith::MaxSIOp) { return std::max(a, b); })
      .Case([&](arith::MinUIOp) {
        return int64_t(std::min(uint64_t(a), uint64_t(b)));
      })
      .Case([&](arith::MaxUIOp) {
        return int64_t(std::max(uint64_t(a), uint64_t(b)));
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> mlc::evaluateIndex(Value value) {
  return evaluateIndex(value, DenseMap<Value, int64_t>());
}

bool mlc::addressesRows(memref::LoadOp load, Value k, int64_t rows,
                        DenseMap<Value, int64_t> known) {
  ArrayRef<int64_t> shape = load.getMemRefType().getShape();
  for (int64_t row = 0; row < rows; ++row) {
    known[k] = row;
    int64_t position = 0;
    for (auto [index, size] :
         llvm::zip(load.getIndices().drop_back(), shape.drop_back())) {
      std::optional<int64_t> value = evaluateIndex(index, known);
      if (!value || *value < 0 || *value >= size)
        return false;
      position = position * size + *value;
    }
    if (position != row)
      return false;
  }
  return true;
}

memref::LoadOp mlc::matchZeroPaddedLoad(Value value, Value *predicate) {
  if (predicate)
    *predicate = Value();
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    auto zero = select.getFalseValue().getDefiningOp<arith::ConstantOp>();
    auto attr = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
    if (!attr || !attr.getValue().isZero())
      return nullptr;
    if (predicate)
      *predicate = select.getCondition();
    value = select.getTrueValue();
  }
  return value.getDefiningOp<memref::LoadOp>();
}

//===- Utils.cpp - helpers shared by the GPU code generation passes -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Codegen/GPU/Utils.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
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

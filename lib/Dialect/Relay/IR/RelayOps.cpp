//===- RelayOps.cpp - relay dialect operations -------------------*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relay/IR/Relay.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlc::relay;

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  ConstantOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto value = dyn_cast_or_null<ElementsAttr>(adaptor.getValueAttr());
  if (!value)
    return emitOptionalError(location, "'relay.constant' op requires an "
                                       "ElementsAttr 'value'");
  if (!isa<RankedTensorType>(value.getType()))
    return emitOptionalError(location,
                             "'relay.constant' op value must have a ranked "
                             "tensor type, got ",
                             value.getType());
  inferredReturnTypes.push_back(value.getType());
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

#define GET_OP_CLASSES
#include "mlc/Dialect/Relay/IR/RelayOps.cpp.inc"

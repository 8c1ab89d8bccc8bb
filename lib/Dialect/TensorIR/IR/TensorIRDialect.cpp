//===- TensorIRDialect.cpp - tensorir dialect -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlc::tensorir;

#include "mlc/Dialect/TensorIR/IR/TensorIROpsDialect.cpp.inc"

#include "mlc/Dialect/TensorIR/IR/TensorIREnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mlc/Dialect/TensorIR/IR/TensorIRAttrs.cpp.inc"

void TensorIRDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/TensorIR/IR/TensorIROps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mlc/Dialect/TensorIR/IR/TensorIRAttrs.cpp.inc"
      >();
}

LogicalResult TensorIRDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
  if (attr.getName() == getNoAliasAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'")
             << getNoAliasAttrName() << "' must be a unit attribute, got "
             << attr.getValue();
    if (!isa<PrimFuncOp>(op))
      return op->emitError("'")
             << getNoAliasAttrName()
             << "' is only meaningful on a 'tensorir.prim_func'";
    return success();
  }
  if (attr.getName() == getLoopKindAttrName()) {
    if (!isa<ForKindAttr>(attr.getValue()))
      return op->emitError("'")
             << getLoopKindAttrName() << "' must be a #tensorir.for_kind, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getLoopAnnotationsAttrName()) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError("'")
             << getLoopAnnotationsAttrName() << "' must be a dictionary, got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == getOpPatternAttrName()) {
    if (!isa<OpPatternKindAttr>(attr.getValue()))
      return op->emitError("'")
             << getOpPatternAttrName()
             << "' must be a #tensorir.op_pattern, got " << attr.getValue();
    if (!isa<PrimFuncOp>(op))
      return op->emitError("'")
             << getOpPatternAttrName()
             << "' is only meaningful on a 'tensorir.prim_func'";
    return success();
  }
  return op->emitError("unknown tensorir attribute '")
         << attr.getName().getValue() << "'";
}

LogicalResult TensorIRDialect::verifyRegionArgAttribute(Operation *op,
                                                        unsigned regionIndex,
                                                        unsigned argIndex,
                                                        NamedAttribute attr) {
  if (attr.getName() == getArgNameAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError("'")
             << getArgNameAttrName() << "' of argument #" << argIndex
             << " must be a string, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getConstantArgAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError("'")
             << getConstantArgAttrName() << "' of argument #" << argIndex
             << " must be a unit attribute, got " << attr.getValue();
    return success();
  }
  return op->emitError("unknown tensorir argument attribute '")
         << attr.getName().getValue() << "' on argument #" << argIndex;
}

BufferRegionAttr BufferRegionAttr::getPoint(MLIRContext *ctx,
                                            unsigned numIterVars,
                                            ArrayRef<AffineExpr> indices) {
  SmallVector<AffineExpr> upper =
      llvm::map_to_vector(indices, [](AffineExpr e) { return e + 1; });
  return get(ctx,
             AffineMapAttr::get(AffineMap::get(numIterVars, 0, indices, ctx)),
             AffineMapAttr::get(AffineMap::get(numIterVars, 0, upper, ctx)));
}

//===- RelaxDialect.cpp - relax dialect -------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/IR/Relax.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

#include "mlc/Dialect/Relax/IR/RelaxOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "mlc/Dialect/Relax/IR/RelaxAttrs.cpp.inc"

void RelaxDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "mlc/Dialect/Relax/IR/RelaxAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "mlc/Dialect/Relax/IR/RelaxOps.cpp.inc"
      >();
}

Operation *RelaxDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}

//===----------------------------------------------------------------------===//
// ShapeAttr
//===----------------------------------------------------------------------===//

ShapeAttr ShapeAttr::get(MLIRContext *context, ArrayRef<StringAttr> names,
                         ArrayRef<AffineExpr> dims) {
  // Canonical form: only the names used, sorted, numbered in that order.
  SymbolScope scope(context);
  SymShape imported = scope.import(names, dims);
  SmallVector<StringAttr> canonicalNames;
  SmallVector<AffineExpr> canonicalDims;
  scope.exportCanonical(imported, canonicalNames, canonicalDims);
  return Base::get(context, canonicalNames, canonicalDims);
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  SymbolScope scope(parser.getContext());
  SmallVector<AffineExpr> dims;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square,
          [&]() { return parseSymDim(parser, scope, dims.emplace_back()); }) ||
      parser.parseGreater())
    return {};
  return ShapeAttr::get(parser.getContext(), scope.getNames(), dims);
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printer << "<[";
  llvm::interleaveComma(getDims(), printer, [&](AffineExpr dim) {
    printSymDim(printer.getStream(), dim, getNames());
  });
  printer << "]>";
}

LogicalResult
ShapeAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                          function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getRank())
    return emitError() << "#relax.shape has " << getRank()
                       << " dimensions but the tensor has rank "
                       << shape.size();
  if (getNames().empty())
    return emitError() << "#relax.shape without symbolic dimensions is "
                          "redundant; drop the encoding (static and '?' "
                          "sizes are in the tensor type)";
  for (auto [i, size, dim] : llvm::enumerate(shape, getDims())) {
    std::optional<int64_t> constant = getConstantSize(dim);
    if (constant && *constant < 0)
      return emitError() << "#relax.shape dimension " << i << " is negative ("
                         << *constant << ")";
    if (constant ? size == *constant : ShapedType::isDynamic(size))
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    printSymDim(os, dim, getNames());
    InFlightDiagnostic diag = emitError();
    diag << "#relax.shape dimension " << i << " is '" << text
         << "' but the tensor dimension is ";
    if (ShapedType::isDynamic(size))
      diag << "'?'";
    else
      diag << size;
    diag << (constant ? " (a constant dimension must be static)"
                      : " (a symbolic dimension must be '?')");
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Symbolic tensor types
//===----------------------------------------------------------------------===//

SymShape mlc::relax::getSymbolicShape(RankedTensorType type,
                                      SymbolScope &scope) {
  if (auto shape = dyn_cast_or_null<ShapeAttr>(type.getEncoding()))
    return scope.import(shape.getNames(), shape.getDims());
  return scope.importStatic(type.getShape());
}

RankedTensorType mlc::relax::getSymbolicTensorType(ArrayRef<SymDim> dims,
                                                   Type elementType,
                                                   const SymbolScope &scope) {
  SmallVector<int64_t> sizes;
  bool symbolic = false;
  for (SymDim dim : dims) {
    std::optional<int64_t> size = getConstantSize(dim);
    sizes.push_back(size ? *size : ShapedType::kDynamic);
    symbolic |= dim && !size;
  }
  Attribute encoding;
  if (symbolic)
    encoding = ShapeAttr::get(scope.getContext(), scope.getNames(), dims);
  return RankedTensorType::get(sizes, elementType, encoding);
}

RankedTensorType mlc::relax::getNamedSymbolicType(RankedTensorType type,
                                                  ArrayRef<std::string> symbols,
                                                  SymbolScope &scope) {
  if (symbols.empty())
    return type;
  SymShape dims;
  for (auto [size, symbol] : llvm::zip(type.getShape(), symbols))
    dims.push_back(symbol.empty() ? scope.getConstant(size)
                                  : scope.getSymbol(symbol));
  return getSymbolicTensorType(dims, type.getElementType(), scope);
}

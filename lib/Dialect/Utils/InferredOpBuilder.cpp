//===- InferredOpBuilder.cpp - build ops by name, types inferred -*- C++
//-*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/InferredOpBuilder.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemAlloc.h"

#include <climits>
#include <utility>

using namespace mlir;

namespace {

/// The operand count an op's traits require: {min, max}, max = UINT_MAX for
/// variadic ops. Checked before inference, which reads operands by position.
template <unsigned... Ns>
std::pair<unsigned, unsigned>
getOperandCountRange(RegisteredOperationName name,
                     std::integer_sequence<unsigned, Ns...>) {
  if (name.hasTrait<OpTrait::ZeroOperands>())
    return {0, 0};
  if (name.hasTrait<OpTrait::OneOperand>())
    return {1, 1};
  std::pair<unsigned, unsigned> range = {0, UINT_MAX};
  // NOperands<N> exists for N >= 2, AtLeastNOperands<N> for N >= 1.
  ((name.hasTrait<OpTrait::NOperands<Ns + 2>::template Impl>()
        ? (void)(range = {Ns + 2, Ns + 2})
        : (void)0),
   ...);
  ((name.hasTrait<OpTrait::AtLeastNOperands<Ns + 1>::template Impl>()
        ? (void)(range = {Ns + 1, UINT_MAX})
        : (void)0),
   ...);
  return range;
}

} // namespace

FailureOr<Operation *>
mlc::createInferredOp(OpBuilder &builder, Location location, StringRef fullName,
                      ValueRange operands, ArrayRef<NamedAttribute> attrs) {
  MLIRContext *context = builder.getContext();
  std::optional<RegisteredOperationName> opName =
      RegisteredOperationName::lookup(fullName, context);
  auto *inferInterface =
      opName ? opName->getInterface<InferTypeOpInterface>() : nullptr;
  if (!inferInterface) {
    mlir::emitError(location)
        << "'" << fullName << "' is not a registered op with type inference";
    return failure();
  }

  // Attributes the op does not declare would silently change meaning (or be
  // dropped): reject them, all at once.
  ArrayRef<StringAttr> known = opName->getAttributeNames();
  SmallVector<StringRef> unknownNames;
  for (const NamedAttribute &attr : attrs)
    if (!llvm::is_contained(known, attr.getName()))
      unknownNames.push_back(attr.getName().getValue());
  if (!unknownNames.empty()) {
    SmallVector<StringRef> knownNames;
    for (StringAttr k : known)
      knownNames.push_back(k.getValue());
    mlir::emitError(location)
        << "'" << fullName << "' has no attribute"
        << (unknownNames.size() > 1 ? "s " : " ") << "'"
        << llvm::join(unknownNames, "', '") << "' (it has: "
        << (knownNames.empty() ? std::string("none")
                               : llvm::join(knownNames, ", "))
        << ")";
    return failure();
  }

  auto [minOperands, maxOperands] =
      getOperandCountRange(*opName, std::make_integer_sequence<unsigned, 17>());
  if (operands.size() < minOperands || operands.size() > maxOperands) {
    InFlightDiagnostic diag = mlir::emitError(location)
                              << "'" << fullName << "' takes ";
    if (minOperands == maxOperands)
      diag << minOperands;
    else
      diag << "at least " << minOperands;
    diag << " operand" << (maxOperands == 1 ? "" : "s") << ", "
         << operands.size() << " given";
    return failure();
  }

  DictionaryAttr dict = DictionaryAttr::get(context, attrs);
  // Properties storage, constructed with the op's defaults and released on
  // every path.
  int propSize = opName->getOpPropertyByteSize();
  void *storage = nullptr;
  OpaqueProperties props(nullptr);
  llvm::scope_exit releaseProps([&] {
    if (!storage)
      return;
    opName->destroyOpProperties(props);
    llvm::deallocate_buffer(storage, propSize, alignof(std::max_align_t));
  });
  if (propSize > 0) {
    void *raw = llvm::allocate_buffer(propSize, alignof(std::max_align_t));
    props = OpaqueProperties(raw);
    opName->initOpProperties(props, OpaqueProperties(nullptr));
    storage = raw;
    auto emitPropError = [&]() {
      return mlir::emitError(location)
             << "invalid attribute for '" << fullName << "': ";
    };
    if (failed(opName->setOpPropertiesFromAttribute(*opName, props, dict,
                                                    emitPropError)))
      return failure();
  }

  SmallVector<Type> resultTypes;
  if (failed(detail::inferWithDiagnostic(location, *opName, [&] {
        return inferInterface->inferReturnTypes(context, location, operands,
                                                dict, props, /*regions=*/{},
                                                resultTypes);
      })))
    return failure();

  NamedAttrList attrList;
  if (propSize == 0)
    attrList.append(attrs.begin(), attrs.end());
  Operation *op =
      Operation::create(location, *opName, resultTypes, operands,
                        std::move(attrList), props, /*successors=*/{},
                        /*numRegions=*/0);
  builder.insert(op);
  if (failed(mlir::verify(op)))
    return failure();
  return op;
}

LogicalResult
mlc::detail::inferWithDiagnostic(Location location, OperationName name,
                                 function_ref<LogicalResult()> infer) {
  // Inference reports its own errors; make sure there is always one.
  bool sawError = false;
  ScopedDiagnosticHandler watch(location.getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      sawError = true;
    return failure(); // let the tool's handler print it
  });
  if (succeeded(infer()))
    return success();
  if (!sawError)
    mlir::emitError(location) << "type inference failed for '" << name << "'";
  return failure();
}

LogicalResult mlc::inferResultTypes(Operation *op,
                                    SmallVectorImpl<Type> &types) {
  types.clear();
  auto infer = dyn_cast<InferTypeOpInterface>(op);
  if (!infer) {
    llvm::append_range(types, op->getResultTypes());
    return success();
  }
  return detail::inferWithDiagnostic(op->getLoc(), op->getName(), [&] {
    return infer.inferReturnTypes(
        op->getContext(), op->getLoc(), op->getOperands(),
        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
        op->getRegions(), types);
  });
}

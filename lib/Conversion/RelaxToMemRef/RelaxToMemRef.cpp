//===- RelaxToMemRef.cpp - relax host lowering to func/memref ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Lowers legalized relax functions (dataflow, call_tir, call_dps_packed,
// match_cast, constant) to memref-level host code: TVM's CallTIRRewrite,
// ToNonDataflow and VMShapeLower in one conversion. Symbolic dims become
// index values computed from memref.dim of the buffers that bind them.
//
// The rewrite is direct rather than a dialect conversion: each op needs the
// original tensor types of its operands (for `#relax.shape` encodings) next
// to the converted buffers, and a per-function table of bound symbols that
// only makes sense in program order. New ops are built in front of the old
// ones, which are erased once the whole body is converted.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/RelaxToMemRef/Passes.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlc {
#define GEN_PASS_DEF_CONVERTRELAXTOMEMREF
#include "mlc/Conversion/RelaxToMemRef/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

namespace {

/// Alignment of every buffer this pass allocates (TVM's kAllocAlignment).
constexpr int64_t kAlignment = 64;

/// The buffer type of a tensor: same shape and element type, identity
/// layout, no encoding.
MemRefType getBufferType(RankedTensorType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

Type convertType(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return getBufferType(tensor);
  return type;
}

bool hasShapeEncoding(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa_and_nonnull<ShapeAttr>(tensor.getEncoding());
}

/// A relax function: holds a relax op or has a `#relax.shape` tensor in its
/// signature. Other tensor functions (linalg, ...) are left to
/// bufferization, even when their parameters carry `relax.name`.
bool isRelaxFunction(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (llvm::any_of(type.getInputs(), hasShapeEncoding) ||
      llvm::any_of(type.getResults(), hasShapeEncoding))
    return true;
  bool hasRelaxOp = false;
  func.walk([&](Operation *op) {
    if (isa_and_nonnull<RelaxDialect>(op->getDialect())) {
      hasRelaxOp = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return hasRelaxOp;
}

/// A relax.reshape between static shapes (what relax-rewrite-dataflow-reshape
/// makes of a kernel that only reshapes): a view of its input's buffer.
bool isViewReshape(Operation *op) {
  auto reshape = dyn_cast<ReshapeOp>(op);
  if (!reshape)
    return false;
  auto input = cast<RankedTensorType>(reshape.getData().getType());
  auto result = cast<RankedTensorType>(reshape.getResult().getType());
  return input.hasStaticShape() && result.hasStaticShape() &&
         input.getRank() > 0 && result.getRank() > 0 &&
         input.getNumElements() == result.getNumElements();
}

bool isHostOp(Operation *op) {
  return isa<DataflowOp, OutputOp, CallTIROp, CallDPSPackedOp, MatchCastOp,
             ConstantOp>(op) ||
         isViewReshape(op);
}

bool hasTensorType(TypeRange types) {
  return llvm::any_of(types, llvm::IsaPred<TensorType>);
}

std::string toString(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

std::string toString(AffineExpr expr, ArrayRef<StringAttr> names) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printSymDim(os, expr, names);
  return text;
}

/// The contiguous buffer `buffer` (static shape, identity layout) viewed as
/// `type` (same element count): collapsed to one dimension, then expanded.
Value reshapeView(OpBuilder &builder, Location loc, Value buffer,
                  MemRefType type) {
  auto source = cast<MemRefType>(buffer.getType());
  Value view = buffer;
  if (source.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, source.getRank()));
    view = memref::CollapseShapeOp::create(builder, loc, view,
                                           ArrayRef<ReassociationIndices>{all});
  }
  if (type.getRank() > 1) {
    ReassociationIndices all =
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
    view = memref::ExpandShapeOp::create(builder, loc, type, view,
                                         ArrayRef<ReassociationIndices>{all});
  }
  return view;
}

/// Module-wide state: the symbol table, the relax functions and the constant
/// globals created so far.
struct ModuleState {
  ModuleOp module;
  SymbolTable symbols;
  DenseSet<Operation *> relaxFunctions;
  DenseMap<Attribute, memref::GlobalOp> constants;

  explicit ModuleState(ModuleOp module) : module(module), symbols(module) {}
};

/// Lowers the body of one relax function.
class FunctionLowering {
public:
  FunctionLowering(func::FuncOp func, ModuleState &state,
                   ArrayRef<Type> originalArgTypes)
      : func(func), state(state), builder(func.getContext()),
        originalArgTypes(originalArgTypes) {}

  LogicalResult run();

private:
  /// Where a symbol's value comes from: a dimension of a buffer, computed
  /// (once) when first needed.
  struct Binding {
    Value buffer;
    unsigned dim;
    Value value;
  };

  Value lookup(Value old) { return mapping.lookupOrDefault(old); }
  /// The tensor type a value had before this pass (block arguments are
  /// retyped in place).
  Type getOriginalType(Value old) {
    if (auto arg = dyn_cast<BlockArgument>(old))
      if (arg.getOwner() == &func.getBody().front())
        return originalArgTypes[arg.getArgNumber()];
    return old.getType();
  }

  Value getIndex(Location loc, int64_t value) {
    return arith::ConstantIndexOp::create(builder, loc, value);
  }
  Value getSymbolValue(StringAttr name);
  /// Binds the plain names among the dims of `type` not bound yet to the
  /// run-time sizes of `buffer`; records which dims did so in `boundDims`.
  void bindNames(Value buffer, RankedTensorType type,
                 SmallVectorImpl<bool> &boundDims);
  /// Emits a `cf.assert` per dimension of `buffer` that `type` fixes (static
  /// size or expression over bound names), except those in `boundDims`.
  LogicalResult checkDims(Operation *op, Value buffer, RankedTensorType type,
                          ArrayRef<bool> boundDims, StringRef what);
  /// The index value of `expr` (over `names`) at the current insertion
  /// point; names not bound yet are looked up in the dims of `op`'s
  /// operands.
  FailureOr<Value> evaluate(Operation *op, AffineExpr expr,
                            ArrayRef<StringAttr> names, const Twine &what);
  /// A fresh buffer for a result of type `type` of `op`.
  FailureOr<Value> allocate(Operation *op, RankedTensorType type,
                            unsigned index);
  /// `value` cast to `type` (a callee's parameter type, a match_cast
  /// target) if they differ.
  FailureOr<Value> castTo(Operation *op, Value value, Type type,
                          const Twine &what);

  LogicalResult bindParameters();
  LogicalResult lowerCallTIR(CallTIROp op);
  LogicalResult lowerCallDPSPacked(CallDPSPackedOp op);
  LogicalResult lowerMatchCast(MatchCastOp op);
  LogicalResult lowerConstant(ConstantOp op);
  LogicalResult lowerReshape(ReshapeOp op);
  LogicalResult lowerCall(func::CallOp op);
  LogicalResult lowerReturn(func::ReturnOp op);
  FailureOr<func::FuncOp> getPackedFunction(CallDPSPackedOp op,
                                            FunctionType type);

  func::FuncOp func;
  ModuleState &state;
  OpBuilder builder;
  ArrayRef<Type> originalArgTypes;
  IRMapping mapping;
  llvm::MapVector<StringAttr, Binding> bindings;
  /// Buffers this function allocated (or received from a relax callee),
  /// which it may return without a copy.
  DenseSet<Value> fresh;
};

Value FunctionLowering::getSymbolValue(StringAttr name) {
  auto it = bindings.find(name);
  if (it == bindings.end())
    return nullptr;
  Binding &binding = it->second;
  if (binding.value)
    return binding.value;
  // Right after the buffer's definition, so it dominates every later use.
  OpBuilder::InsertionGuard guard(builder);
  Value buffer = binding.buffer;
  if (Operation *def = buffer.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(buffer.getParentBlock());
  auto type = cast<MemRefType>(buffer.getType());
  Location loc = buffer.getLoc();
  if (!type.isDynamicDim(binding.dim))
    binding.value = getIndex(loc, type.getDimSize(binding.dim));
  else
    binding.value =
        memref::DimOp::create(builder, loc, buffer, getIndex(loc, binding.dim));
  return binding.value;
}

void FunctionLowering::bindNames(Value buffer, RankedTensorType type,
                                 SmallVectorImpl<bool> &boundDims) {
  boundDims.assign(type.getRank(), false);
  auto shape = dyn_cast_or_null<ShapeAttr>(type.getEncoding());
  if (!shape)
    return;
  for (auto [dim, expr] : llvm::enumerate(shape.getDims())) {
    auto symbol = dyn_cast_or_null<AffineSymbolExpr>(expr);
    if (!symbol)
      continue;
    StringAttr name = shape.getNames()[symbol.getPosition()];
    if (bindings.contains(name))
      continue;
    bindings[name] = {buffer, static_cast<unsigned>(dim), nullptr};
    boundDims[dim] = true;
  }
}

FailureOr<Value> FunctionLowering::evaluate(Operation *op, AffineExpr expr,
                                            ArrayRef<StringAttr> names,
                                            const Twine &what) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return getIndex(op->getLoc(), constant.getValue());
  SmallVector<Value> symbolValues(names.size());
  SetVector<unsigned> used;
  expr.walk([&](AffineExpr sub) {
    if (auto symbol = dyn_cast<AffineSymbolExpr>(sub))
      used.insert(symbol.getPosition());
  });
  for (unsigned position : used) {
    StringAttr name = names[position];
    if (!bindings.contains(name)) {
      // Not bound by a parameter or match_cast (the function is not
      // well-formed): an operand of `op` with the name as a dim still
      // determines it.
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<RankedTensorType>(getOriginalType(operand));
        if (!type)
          continue;
        SmallVector<bool> unused;
        bindNames(lookup(operand), type, unused);
        if (bindings.contains(name))
          break;
      }
    }
    symbolValues[position] = getSymbolValue(name);
    if (!symbolValues[position])
      return op->emitOpError()
             << "cannot compute " << what << ": symbolic dimension '"
             << name.getValue()
             << "' is not bound by a parameter, a relax.match_cast or an "
                "operand's shape";
  }
  return affine::expandAffineExpr(builder, op->getLoc(), expr,
                                  /*dimValues=*/ValueRange(), symbolValues);
}

LogicalResult FunctionLowering::checkDims(Operation *op, Value buffer,
                                          RankedTensorType type,
                                          ArrayRef<bool> boundDims,
                                          StringRef what) {
  auto bufferType = cast<MemRefType>(buffer.getType());
  auto shape = dyn_cast_or_null<ShapeAttr>(type.getEncoding());
  Location loc = op->getLoc();
  for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim) {
    if (boundDims[dim])
      continue;
    std::string expected;
    Value expectedValue;
    if (!type.isDynamicDim(dim)) {
      // Statically equal already (the verifiers check static sizes).
      if (!bufferType.isDynamicDim(dim))
        continue;
      expected = std::to_string(type.getDimSize(dim));
      expectedValue = getIndex(loc, type.getDimSize(dim));
    } else {
      AffineExpr expr = shape ? shape.getDims()[dim] : AffineExpr();
      if (!expr)
        continue;
      expected = toString(expr, shape.getNames());
      // Names in an expression are bound elsewhere: a match_cast binds only
      // plain names (as TVM's MatchCast does).
      for (unsigned position = 0; position < shape.getNames().size();
           ++position)
        if (expr.isFunctionOfSymbol(position) &&
            !bindings.contains(shape.getNames()[position]))
          return op->emitOpError()
                 << what << ": dimension " << dim << " ('" << expected
                 << "') uses '" << shape.getNames()[position].getValue()
                 << "', which is not bound; only a plain name binds a "
                    "symbolic dimension";
      FailureOr<Value> value =
          evaluate(op, expr, shape.getNames(), "dimension " + Twine(dim));
      if (failed(value))
        return failure();
      expectedValue = *value;
    }
    Value actual = memref::DimOp::create(builder, loc, buffer, dim);
    Value equal = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        actual, expectedValue);
    std::string message = ("@" + func.getSymName() + ": " + what +
                           ": dimension " + Twine(dim) + " must be " + expected)
                              .str();
    cf::AssertOp::create(builder, loc, equal, message);
  }
  return success();
}

LogicalResult FunctionLowering::bindParameters() {
  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  // All parameters bind first (TVM binds the whole signature at once), then
  // repeated names and expressions are checked.
  SmallVector<SmallVector<bool>> boundDims(entry.getNumArguments());
  for (BlockArgument arg : entry.getArguments())
    if (auto type = dyn_cast<RankedTensorType>(getOriginalType(arg)))
      bindNames(arg, type, boundDims[arg.getArgNumber()]);
  for (BlockArgument arg : entry.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(getOriginalType(arg));
    if (!type)
      continue;
    std::string what = "parameter " + std::to_string(arg.getArgNumber());
    if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kParamNameAttr))
      what += " ('" + name.str() + "')";
    if (failed(checkDims(func, arg, type, boundDims[arg.getArgNumber()], what)))
      return failure();
  }
  return success();
}

FailureOr<Value> FunctionLowering::allocate(Operation *op,
                                            RankedTensorType type,
                                            unsigned index) {
  auto shape = dyn_cast_or_null<ShapeAttr>(type.getEncoding());
  SmallVector<Value> sizes;
  for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim) {
    if (!type.isDynamicDim(dim))
      continue;
    AffineExpr expr = shape ? shape.getDims()[dim] : AffineExpr();
    if (!expr)
      return op->emitOpError() << "cannot allocate result " << index
                               << " of type " << type << ": dimension " << dim
                               << " is dynamic without a symbolic expression";
    FailureOr<Value> size = evaluate(op, expr, shape.getNames(),
                                     "the size of result " + Twine(index) +
                                         " (" + toString(type) + ")");
    if (failed(size))
      return failure();
    sizes.push_back(*size);
  }
  auto alloc =
      memref::AllocOp::create(builder, op->getLoc(), getBufferType(type), sizes,
                              builder.getI64IntegerAttr(kAlignment));
  fresh.insert(alloc);
  return alloc.getResult();
}

FailureOr<Value> FunctionLowering::castTo(Operation *op, Value value, Type type,
                                          const Twine &what) {
  if (value.getType() == type)
    return value;
  if (!isa<MemRefType>(type) ||
      !memref::CastOp::areCastCompatible(value.getType(), type))
    return op->emitOpError()
           << what << " is a buffer of type " << value.getType()
           << ", which cannot be cast to " << type;
  return memref::CastOp::create(builder, op->getLoc(), type, value).getResult();
}

LogicalResult FunctionLowering::lowerCallTIR(CallTIROp op) {
  // The callee was checked by verifyCallee before anything changed.
  auto kernel = state.symbols.lookup<func::FuncOp>(op.getCallee());
  FunctionType type = kernel.getFunctionType();
  ShapeAttr tirVars = op.getTirVarsAttr();
  unsigned numArgs = op.getArgs().size(), numResults = op.getNumResults();
  unsigned numVars = tirVars ? tirVars.getRank() : 0;

  SmallVector<Value> operands;
  for (auto [index, arg] : llvm::enumerate(op.getArgs())) {
    FailureOr<Value> buffer = castTo(op, lookup(arg), type.getInput(index),
                                     "argument " + Twine(index));
    if (failed(buffer))
      return failure();
    operands.push_back(*buffer);
  }
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    FailureOr<Value> buffer =
        allocate(op, cast<RankedTensorType>(result.getType()), index);
    if (failed(buffer))
      return failure();
    results.push_back(*buffer);
    FailureOr<Value> passed = castTo(
        op, *buffer, type.getInput(numArgs + index), "result " + Twine(index));
    if (failed(passed))
      return failure();
    operands.push_back(*passed);
  }
  for (unsigned i = 0; i < numVars; ++i) {
    if (!tirVars.getDims()[i])
      return op.emitOpError() << "tir_vars entry " << i
                              << " is '?'; a scalar argument needs a value";
    FailureOr<Value> value =
        evaluate(op, tirVars.getDims()[i], tirVars.getNames(),
                 "tir_vars entry " + Twine(i));
    if (failed(value))
      return failure();
    Type paramType = type.getInput(numArgs + numResults + i);
    if (isa<IntegerType>(paramType))
      *value =
          arith::IndexCastOp::create(builder, op.getLoc(), paramType, *value);
    operands.push_back(*value);
  }
  func::CallOp::create(builder, op.getLoc(), kernel, operands);
  for (auto [result, buffer] : llvm::zip(op.getResults(), results))
    mapping.map(result, buffer);
  return success();
}

FailureOr<func::FuncOp> FunctionLowering::getPackedFunction(CallDPSPackedOp op,
                                                            FunctionType type) {
  StringRef name = op.getCallee();
  Operation *existing = state.symbols.lookup(name);
  if (!existing) {
    // A private declaration next to the first caller; the user links the
    // implementation (`_mlir_ciface_<name>` through the C interface).
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(func);
    auto decl = func::FuncOp::create(builder, op.getLoc(), name, type);
    decl.setPrivate();
    decl->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
    state.symbols.insert(decl);
    return decl;
  }
  auto existingFunc = dyn_cast<func::FuncOp>(existing);
  if (!existingFunc || existingFunc.getFunctionType() != type) {
    InFlightDiagnostic diag = op.emitOpError()
                              << "calls \"" << name << "\" as " << type
                              << ", but the module already has a symbol of "
                                 "that name";
    if (existingFunc)
      diag << " of type " << existingFunc.getFunctionType();
    diag.attachNote(existing->getLoc()) << "symbol defined here";
    return failure();
  }
  return existingFunc;
}

LogicalResult FunctionLowering::lowerCallDPSPacked(CallDPSPackedOp op) {
  SmallVector<Value> operands;
  for (auto [index, arg] : llvm::enumerate(op.getArgs())) {
    Type type = getOriginalType(arg);
    if (!isa<RankedTensorType>(type) && !type.isIntOrIndexOrFloat())
      return op.emitOpError() << "argument " << index << " has type " << type
                              << "; only ranked tensors and scalars can be "
                                 "passed to an external function";
    operands.push_back(lookup(arg));
  }
  SmallVector<Value> results;
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type)
      return op.emitOpError()
             << "result " << index << " has type " << result.getType()
             << "; only ranked tensor results can be "
                "allocated for an external function";
    FailureOr<Value> buffer = allocate(op, type, index);
    if (failed(buffer))
      return failure();
    results.push_back(*buffer);
    operands.push_back(*buffer);
  }
  auto type =
      FunctionType::get(op.getContext(), ValueRange(operands).getTypes(), {});
  FailureOr<func::FuncOp> callee = getPackedFunction(op, type);
  if (failed(callee))
    return failure();
  func::CallOp::create(builder, op.getLoc(), *callee, operands);
  for (auto [result, buffer] : llvm::zip(op.getResults(), results))
    mapping.map(result, buffer);
  return success();
}

LogicalResult FunctionLowering::lowerMatchCast(MatchCastOp op) {
  // Dimensions are read from the source: the cast result may be static.
  Value source = lookup(op.getValue());
  auto type = op.getResult().getType();
  SmallVector<bool> boundDims;
  bindNames(source, type, boundDims);
  std::string what = "relax.match_cast to " + toString(type);
  if (failed(checkDims(op, source, type, boundDims, what)))
    return failure();
  FailureOr<Value> result =
      castTo(op, source, getBufferType(type), "the value");
  if (failed(result))
    return failure();
  // A cast of a fresh buffer is still the function's own.
  if (fresh.contains(source))
    fresh.insert(*result);
  mapping.map(op.getResult(), *result);
  return success();
}

LogicalResult FunctionLowering::lowerConstant(ConstantOp op) {
  auto type = cast<RankedTensorType>(op.getResult().getType());
  MemRefType bufferType = getBufferType(type);
  ElementsAttr value = op.getValue();
  memref::GlobalOp &global = state.constants[value];
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(state.module.getBody());
    global = memref::GlobalOp::create(
        builder, op.getLoc(), "__relax_constant",
        builder.getStringAttr("private"), bufferType, value,
        /*constant=*/true, builder.getI64IntegerAttr(kAlignment));
    state.symbols.insert(global); // uniques the name
  }
  auto get = memref::GetGlobalOp::create(builder, op.getLoc(), bufferType,
                                         global.getSymName());
  mapping.map(op.getResult(), get.getResult());
  return success();
}

LogicalResult FunctionLowering::lowerReshape(ReshapeOp op) {
  // The buffer's bytes in the new shape: collapsed to one dimension, then
  // expanded (both views of a contiguous buffer, no copy).
  Value view = lookup(op.getData());
  auto type = dyn_cast<MemRefType>(view.getType());
  if (!type || !type.getLayout().isIdentity() || !type.hasStaticShape())
    return op.emitOpError("cannot reshape a buffer of type ")
           << view.getType() << " as a view; it needs a static shape and "
           << "the identity layout";
  auto result = cast<RankedTensorType>(op.getResult().getType());
  mapping.map(
      op.getResult(),
      reshapeView(builder, op.getLoc(), view,
                  MemRefType::get(result.getShape(), type.getElementType(),
                                  MemRefLayoutAttrInterface(),
                                  type.getMemorySpace())));
  return success();
}

LogicalResult FunctionLowering::lowerCall(func::CallOp op) {
  auto callee = state.symbols.lookup<func::FuncOp>(op.getCallee());
  if (!callee || !state.relaxFunctions.contains(callee))
    return op.emitOpError()
           << "calls @" << op.getCallee()
           << " with tensors, but it is not a relax function; only calls "
              "between relax functions are lowered";
  SmallVector<Value> operands;
  for (Value operand : op.getOperands())
    operands.push_back(lookup(operand));
  SmallVector<Type> resultTypes;
  for (Type type : op.getResultTypes())
    resultTypes.push_back(convertType(type));
  auto call = func::CallOp::create(builder, op.getLoc(), op.getCallee(),
                                   resultTypes, operands);
  // Relax functions return buffers their caller owns.
  for (auto [old, result] : llvm::zip(op.getResults(), call.getResults())) {
    mapping.map(old, result);
    if (isa<MemRefType>(result.getType()))
      fresh.insert(result);
  }
  return success();
}

LogicalResult FunctionLowering::lowerReturn(func::ReturnOp op) {
  SmallVector<Value> values;
  // Allocations already returned, seen through memref.cast (match_cast).
  DenseSet<Value> returned;
  auto getRoot = [](Value value) {
    while (auto cast = value.getDefiningOp<memref::CastOp>())
      value = cast.getSource();
    return value;
  };
  // The allocation under the reshape views of `value`, if any.
  auto getReshapedAlloc = [](Value value) -> memref::AllocOp {
    Value source = value;
    while (Operation *def = source.getDefiningOp()) {
      if (!isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
        break;
      source = def->getOperand(0);
    }
    return source == value ? nullptr : source.getDefiningOp<memref::AllocOp>();
  };
  // How many results each allocation underlies, directly or viewed.
  DenseMap<Value, unsigned> uses;
  for (Value operand : op.getOperands()) {
    Value value = lookup(operand);
    if (memref::AllocOp alloc = getReshapedAlloc(value))
      ++uses[alloc.getResult()];
    else
      ++uses[getRoot(value)];
  }
  for (Value operand : op.getOperands()) {
    Value value = lookup(operand);
    auto type = dyn_cast<MemRefType>(value.getType());
    if (!type ||
        (fresh.contains(value) && returned.insert(getRoot(value)).second)) {
      values.push_back(value);
      continue;
    }
    // A reshaped view (relax-rewrite-dataflow-reshape) of a buffer of this
    // function that no other result uses: the buffer is allocated in the
    // returned shape instead and its writers see it through the view, so
    // the result needs no copy.
    memref::AllocOp alloc = getReshapedAlloc(value);
    if (alloc && fresh.contains(alloc.getResult()) &&
        uses[alloc.getResult()] == 1 && type.hasStaticShape() &&
        type.getLayout().isIdentity() && alloc.getType().hasStaticShape() &&
        alloc.getType().getLayout().isIdentity()) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(alloc);
      auto whole =
          memref::AllocOp::create(builder, alloc.getLoc(), type, ValueRange(),
                                  alloc.getAlignmentAttr());
      Value view = reshapeView(builder, alloc.getLoc(), whole, alloc.getType());
      fresh.erase(alloc.getResult());
      alloc.getResult().replaceAllUsesWith(view);
      alloc.erase();
      fresh.insert(whole.getResult());
      returned.insert(whole.getResult());
      values.push_back(whole.getResult());
      continue;
    }
    // A parameter, a constant or a buffer returned twice: results are fresh
    // buffers the caller owns.
    SmallVector<Value> sizes;
    for (int64_t dim = 0, rank = type.getRank(); dim < rank; ++dim)
      if (type.isDynamicDim(dim))
        sizes.push_back(
            memref::DimOp::create(builder, op.getLoc(), value, dim));
    auto copy = memref::AllocOp::create(builder, op.getLoc(), type, sizes,
                                        builder.getI64IntegerAttr(kAlignment));
    memref::CopyOp::create(builder, op.getLoc(), value, copy);
    values.push_back(copy);
  }
  func::ReturnOp::create(builder, op.getLoc(), values);
  return success();
}

LogicalResult FunctionLowering::run() {
  Block &entry = func.getBody().front();
  if (failed(bindParameters()))
    return failure();

  // ToNonDataflow: inline every dataflow block.
  IRRewriter rewriter(func.getContext());
  for (auto dataflow : llvm::make_early_inc_range(entry.getOps<DataflowOp>())) {
    OutputOp output = dataflow.getOutput();
    SmallVector<Value> values(output.getValues());
    rewriter.inlineBlockBefore(&dataflow.getBody().front(), dataflow);
    rewriter.eraseOp(output);
    rewriter.replaceOp(dataflow, values);
  }

  SmallVector<Operation *> lowered;
  for (Operation &op : entry) {
    builder.setInsertionPoint(&op);
    bool lower = true;
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](CallTIROp op) { return lowerCallTIR(op); })
            .Case([&](CallDPSPackedOp op) { return lowerCallDPSPacked(op); })
            .Case([&](MatchCastOp op) { return lowerMatchCast(op); })
            .Case([&](ConstantOp op) { return lowerConstant(op); })
            .Case([&](ReshapeOp op) { return lowerReshape(op); })
            .Case([&](func::ReturnOp op) { return lowerReturn(op); })
            .Case([&](func::CallOp op) {
              // Calls without tensors (to other functions) stay.
              lower = state.relaxFunctions.contains(
                          state.symbols.lookup(op.getCallee())) ||
                      hasTensorType(op.getOperandTypes()) ||
                      hasTensorType(op.getResultTypes());
              return lower ? lowerCall(op) : success();
            })
            .Default([&](Operation *) {
              lower = false;
              return success();
            });
    if (failed(result))
      return failure();
    if (lower)
      lowered.push_back(&op);
  }
  // Users come after their producers: erase in reverse.
  for (Operation *op : llvm::reverse(lowered)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

struct ConvertRelaxToMemRefPass
    : public mlc::impl::ConvertRelaxToMemRefBase<ConvertRelaxToMemRefPass> {
  void runOnOperation() override;
};

/// The callee of a call_tir must be a buffer function by now.
LogicalResult verifyCallee(CallTIROp op, ModuleState &state) {
  Operation *callee = state.symbols.lookup(op.getCallee());
  if (isa_and_nonnull<tensorir::PrimFuncOp>(callee))
    return op.emitOpError()
           << "callee @" << op.getCallee()
           << " is still a tensorir.prim_func; run convert-tensorir-to-scf "
              "before convert-relax-to-memref";
  auto kernel = dyn_cast_or_null<func::FuncOp>(callee);
  if (!kernel)
    return op.emitOpError()
           << "callee @" << op.getCallee() << " is not a func.func";
  FunctionType type = kernel.getFunctionType();
  unsigned numBuffers = op.getArgs().size() + op.getNumResults();
  unsigned numVars = op.getTirVarsAttr() ? op.getTirVarsAttr().getRank() : 0;
  if (type.getNumInputs() != numBuffers + numVars || type.getNumResults() != 0)
    return op.emitOpError() << "callee @" << op.getCallee() << " has type "
                            << type << "; expected " << numBuffers + numVars
                            << " parameters and no results";
  for (unsigned i = 0; i < numBuffers; ++i)
    if (!isa<MemRefType>(type.getInput(i)))
      return op.emitOpError()
             << "callee @" << op.getCallee() << " takes " << type.getInput(i)
             << " as parameter " << i
             << "; call_tir lowers to a call of a buffer (memref) function";
  for (unsigned i = 0; i < numVars; ++i) {
    Type varType = type.getInput(numBuffers + i);
    if (!varType.isIndex() && !isa<IntegerType>(varType))
      return op.emitOpError() << "tir_vars entry " << i << " is passed to a "
                              << varType << " parameter of @" << op.getCallee()
                              << "; expected index or an integer";
  }
  return success();
}

/// Checks that everything relax in the module can be lowered before
/// anything changes.
LogicalResult verifyLowerable(ModuleState &state) {
  bool failedAny = false;
  auto fail = [&](InFlightDiagnostic &&diag) { failedAny = true; };
  for (Operation *func : state.relaxFunctions) {
    Region &body = cast<func::FuncOp>(func).getBody();
    if (!body.empty() && !body.hasOneBlock())
      fail(func->emitOpError()
           << "is a relax function with " << body.getBlocks().size()
           << " blocks; only single-block relax functions are lowered");
  }
  state.module.walk([&](Operation *op) {
    if (isa_and_nonnull<RelaxDialect>(op->getDialect()) && !isHostOp(op))
      return fail(op->emitError()
                  << "'" << op->getName()
                  << "' has no lowering; run relax-legalize-ops first");
    auto func = op->getParentOfType<func::FuncOp>();
    bool inRelaxFunction = func && state.relaxFunctions.contains(func);
    if (isHostOp(op)) {
      if (!inRelaxFunction)
        return fail(op->emitOpError()
                    << "is not in a func.func of the module; it cannot be "
                       "lowered");
      Operation *parent = op->getParentOp();
      if (isa<DataflowOp>(parent))
        parent = parent->getParentOp();
      if (parent != func)
        fail(op->emitOpError()
             << "is nested in '" << op->getParentOp()->getName()
             << "'; only relax ops directly in a function body or its "
                "relax.dataflow are lowered");
      else if (auto callTIR = dyn_cast<CallTIROp>(op))
        if (failed(verifyCallee(callTIR, state)))
          failedAny = true;
      return;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      // Relax functions change their signature: every caller must too.
      Operation *callee = state.symbols.lookup(call.getCallee());
      if (!inRelaxFunction && callee && state.relaxFunctions.contains(callee))
        fail(op->emitOpError()
             << "calls relax function @" << call.getCallee()
             << " from a function that is not a relax function; its "
                "signature becomes buffers");
      return;
    }
    if (!inRelaxFunction || isa<func::ReturnOp, func::FuncOp>(op))
      return;
    if (hasTensorType(op->getOperandTypes()) ||
        hasTensorType(op->getResultTypes()))
      fail(op->emitOpError()
           << "operates on tensors in relax function @" << func.getSymName()
           << "; only relax host ops (call_tir, call_dps_packed, match_cast, "
              "constant, static reshape, dataflow) are lowered to buffers");
  });
  return failure(failedAny);
}

} // namespace

void ConvertRelaxToMemRefPass::runOnOperation() {
  ModuleState state(getOperation());
  SmallVector<func::FuncOp> functions;
  for (auto func : state.module.getOps<func::FuncOp>())
    if (isRelaxFunction(func)) {
      functions.push_back(func);
      state.relaxFunctions.insert(func);
    }
  // A function whose only tensor ops are calls of relax functions is host
  // code too (the entry of relay-fuse-ops' output).
  auto isRelaxCall = [&](Operation *op) {
    auto call = dyn_cast<func::CallOp>(op);
    return call && state.relaxFunctions.contains(
                       state.symbols.lookup(call.getCallee()));
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (auto func : state.module.getOps<func::FuncOp>()) {
      if (func.isExternal() || state.relaxFunctions.contains(func))
        continue;
      bool callsRelax = false, otherTensorOps = false;
      func.walk([&](Operation *op) {
        if (isRelaxCall(op))
          callsRelax = true;
        else if (!isa<func::ReturnOp>(op) &&
                 (hasTensorType(op->getOperandTypes()) ||
                  hasTensorType(op->getResultTypes())))
          otherTensorOps = true;
      });
      if (callsRelax && !otherTensorOps) {
        functions.push_back(func);
        state.relaxFunctions.insert(func);
        grew = true;
      }
    }
  }
  if (failed(verifyLowerable(state)))
    return signalPassFailure();

  for (func::FuncOp func : functions) {
    FunctionType type = func.getFunctionType();
    SmallVector<Type> originalArgTypes(type.getInputs());
    SmallVector<Type> inputs, results;
    for (Type input : type.getInputs())
      inputs.push_back(convertType(input));
    for (Type result : type.getResults())
      results.push_back(convertType(result));
    func.setFunctionType(FunctionType::get(&getContext(), inputs, results));
    if (func.isExternal())
      continue;
    for (auto [arg, input] :
         llvm::zip(func.getBody().front().getArguments(), inputs))
      arg.setType(input);
    if (failed(FunctionLowering(func, state, originalArgTypes).run()))
      return signalPassFailure();
  }
}

//===- Interpreter.cpp - reference interpreter for TensorIR ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A tree-walking interpreter: scalars live in a map from SSA values, buffers
// are host arrays. Integers are kept sign-extended from their width in an
// int64_t (i1 true is -1), floats in a double that always holds a value of
// the op's type (f32 ops compute in float).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/TensorIR/Utils/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mlc;
using namespace mlc::tensorir;

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

std::optional<unsigned> Buffer::getElementByteSize(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isF16() || type.isBF16())
    return 2;
  if (type.isF32())
    return 4;
  if (type.isF64())
    return 8;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    switch (intType.getWidth()) {
    case 1:
    case 8:
      return 1;
    case 16:
      return 2;
    case 32:
      return 4;
    case 64:
      return 8;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Buffer::Buffer(Type elementType, ArrayRef<int64_t> shape)
    : elementType(elementType), shape(shape) {
  data.assign(getNumElements() * getElementByteSize(elementType).value_or(0),
              0);
}

int64_t Buffer::getNumElements() const {
  int64_t n = 1;
  for (int64_t size : shape)
    n *= size;
  return n;
}

FailureOr<Buffer> Buffer::fromAttr(ElementsAttr attr) {
  auto type = dyn_cast<ShapedType>(attr.getType());
  if (!type || !type.hasStaticShape())
    return failure();
  Type elementType = type.getElementType();
  std::optional<unsigned> byteSize = getElementByteSize(elementType);
  if (!byteSize)
    return failure();
  Buffer buffer(elementType, type.getShape());
  size_t bytes = buffer.data.size();
  bool isBool = elementType.isInteger(1);
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (isBool) {
      // i1 is bit-packed in DenseElementsAttr: go through the values.
      int64_t i = 0;
      for (bool value : dense.getValues<bool>())
        buffer.data[i++] = value;
      return buffer;
    }
    ArrayRef<char> raw = dense.getRawData();
    if (dense.isSplat()) {
      if (raw.size() < *byteSize)
        return failure();
      for (size_t offset = 0; offset < bytes; offset += *byteSize)
        std::memcpy(buffer.data.data() + offset, raw.data(), *byteSize);
      return buffer;
    }
    if (raw.size() != bytes)
      return failure();
    if (bytes) // memcpy of an empty tensor may see null pointers
      std::memcpy(buffer.data.data(), raw.data(), bytes);
    return buffer;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob || blob->getData().size() != bytes)
      return failure();
    if (bytes)
      std::memcpy(buffer.data.data(), blob->getData().data(), bytes);
    if (isBool)
      for (char &c : buffer.data)
        c = c != 0;
    return buffer;
  }
  return failure();
}

ElementsAttr Buffer::toAttr(ShapedType type, StringRef blobName) const {
  if (elementType.isInteger(1)) {
    SmallVector<bool> values(data.size());
    for (size_t i = 0; i < data.size(); ++i)
      values[i] = data[i] != 0;
    return DenseElementsAttr::get(type, values);
  }
  ArrayRef<char> raw(data);
  if (!blobName.empty()) {
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        raw, *getElementByteSize(elementType));
    return DenseResourceElementsAttr::get(type, blobName, std::move(blob));
  }
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

namespace {

struct Scalar {
  int64_t i = 0;
  double f = 0;
};

unsigned getIntWidth(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth();
  return 64; // index
}

int64_t signExtend(uint64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(value);
  unsigned shift = 64 - width;
  return static_cast<int64_t>(value << shift) >> shift;
}

uint64_t zeroExtend(int64_t value, unsigned width) {
  if (width >= 64)
    return static_cast<uint64_t>(value);
  return static_cast<uint64_t>(value) & ((uint64_t(1) << width) - 1);
}

float roundToSemantics(float value, const llvm::fltSemantics &semantics) {
  APFloat f(value);
  bool losesInfo;
  f.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  f.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven, &losesInfo);
  return f.convertToFloat();
}

/// Rounds a float result to `type` (f16/bf16 are computed in float and
/// rounded after each op, as LLVM's promotion does).
double roundFloat(Type type, float value) {
  if (type.isF16())
    return roundToSemantics(value, APFloat::IEEEhalf());
  if (type.isBF16())
    return roundToSemantics(value, APFloat::BFloat());
  return value;
}

/// `fn` applied in the precision of `type`.
template <typename Fn> double applyFloat(Type type, Fn fn, double a) {
  if (type.isF64())
    return fn(a);
  return roundFloat(type, fn(static_cast<float>(a)));
}
template <typename Fn> double applyFloat(Type type, Fn fn, double a, double b) {
  if (type.isF64())
    return fn(a, b);
  return roundFloat(type, fn(static_cast<float>(a), static_cast<float>(b)));
}
template <typename Fn>
double applyFloat(Type type, Fn fn, double a, double b, double c) {
  if (type.isF64())
    return fn(a, b, c);
  return roundFloat(type, fn(static_cast<float>(a), static_cast<float>(b),
                             static_cast<float>(c)));
}

/// A value converted to float type `type`.
double convertToFloat(Type type, double value) {
  if (type.isF64())
    return value;
  return roundFloat(type, static_cast<float>(value));
}

template <typename T> T maximum(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename T> T minimum(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t ceilDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

std::string formatIndices(ArrayRef<int64_t> indices) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(indices, os);
  os << "]";
  return s;
}

//===----------------------------------------------------------------------===//
// The interpreter
//===----------------------------------------------------------------------===//

class Interpreter {
public:
  explicit Interpreter(int64_t maxSteps) : maxSteps(maxSteps) {}
  LogicalResult run(PrimFuncOp func, MutableArrayRef<Buffer> args);

private:
  LogicalResult runOps(Block &block);
  LogicalResult runOp(Operation *op);
  LogicalResult runFor(ForOp op);
  LogicalResult runBlock(BlockOp op);
  LogicalResult runAllocBuffer(AllocBufferOp op);
  LogicalResult runLoad(memref::LoadOp op);
  LogicalResult runStore(memref::StoreOp op);
  LogicalResult runScfFor(scf::ForOp op);
  LogicalResult runScfIf(scf::IfOp op);
  LogicalResult runAffine(Operation *op, AffineMap map, ValueRange operands,
                          int kind);
  LogicalResult runArith(Operation *op, bool &handled);
  LogicalResult runMath(Operation *op, bool &handled);

  FailureOr<int64_t> getFlatIndex(Operation *op, Value memref,
                                  ValueRange indices, Buffer *&buffer,
                                  bool isStore);
  std::string getBufferName(Value memref);

  int64_t getInt(Value v) { return scalars.lookup(v).i; }
  double getFloat(Value v) { return scalars.lookup(v).f; }
  void setInt(Value v, int64_t i) {
    scalars[v].i =
        signExtend(static_cast<uint64_t>(i), getIntWidth(v.getType()));
  }
  void setFloat(Value v, double f) { scalars[v].f = f; }
  void setBool(Value v, bool b) { scalars[v].i = b ? -1 : 0; }

  llvm::DenseMap<Value, Scalar> scalars;
  llvm::DenseMap<Value, Buffer *> buffers;
  /// Buffers of tensorir.alloc_buffer, released at the end of their scope.
  std::vector<std::unique_ptr<Buffer>> allocated;
  Dialect *arithDialect = nullptr;
  Dialect *mathDialect = nullptr;
  /// Operations executed so far, and the limit (0: none).
  int64_t steps = 0;
  int64_t maxSteps;
};

} // namespace

LogicalResult Interpreter::run(PrimFuncOp func, MutableArrayRef<Buffer> args) {
  Block &body = func.getBody().front();
  arithDialect = func->getContext()->getLoadedDialect<arith::ArithDialect>();
  mathDialect = func->getContext()->getLoadedDialect<math::MathDialect>();
  if (args.size() != body.getNumArguments())
    return func.emitError("tensorir interpreter: @")
           << func.getSymName() << " takes " << body.getNumArguments()
           << " arguments but " << args.size() << " buffers were given";
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type)
      return func.emitError("tensorir interpreter: argument #")
             << i << " of @" << func.getSymName() << " has type "
             << arg.getType() << "; only buffer arguments are supported";
    if (type.getElementType() != args[i].getElementType() ||
        type.getRank() != static_cast<int64_t>(args[i].getShape().size()) ||
        !type.getLayout().isIdentity())
      return func.emitError("tensorir interpreter: argument #")
             << i << " of @" << func.getSymName() << " has type " << type
             << " which does not fit the given "
             << formatIndices(args[i].getShape()) << " buffer of "
             << args[i].getElementType();
    for (auto [size, given] : llvm::zip(type.getShape(), args[i].getShape()))
      if (!ShapedType::isDynamic(size) && size != given)
        return func.emitError("tensorir interpreter: argument #")
               << i << " of @" << func.getSymName() << " has type " << type
               << " but the given buffer has shape "
               << formatIndices(args[i].getShape());
    buffers[arg] = &args[i];
  }
  return runOps(body);
}

LogicalResult Interpreter::runOps(Block &block) {
  for (Operation &op : block.without_terminator()) {
    if (failed(runOp(&op)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runFor(ForOp op) {
  // static_bounds holds lb, ub, step; dynamic ones come from the operands.
  ArrayRef<int64_t> staticBounds = op.getStaticBounds();
  OperandRange dynamicBounds = op.getDynamicBounds();
  int64_t bounds[3] = {0, 0, 1};
  unsigned dynamic = 0;
  for (unsigned i = 0; i < 3 && i < staticBounds.size(); ++i)
    bounds[i] = ShapedType::isDynamic(staticBounds[i])
                    ? getInt(dynamicBounds[dynamic++])
                    : staticBounds[i];
  int64_t lb = bounds[0], ub = bounds[1], step = bounds[2];
  if (step <= 0)
    return op.emitError("tensorir interpreter: loop step is ") << step;
  Value iv = op.getInductionVar();
  Block *body = op.getBodyBlock();
  for (int64_t i = lb; i < ub; i += step) {
    scalars[iv].i = i;
    if (failed(runOps(*body)))
      return failure();
  }
  return success();
}

LogicalResult Interpreter::runBlock(BlockOp op) {
  Value predicate = op.getPredicate();
  if (predicate && getInt(predicate) == 0)
    return success();
  // Read the attributes directly: the OpFoldResult accessors create
  // attributes, which is slow in the innermost loop.
  ArrayRef<int64_t> staticExtents = op.getStaticExtents();
  ArrayAttr iterTypes = op.getIterTypes();
  OperandRange bindings = op.getBindings();
  OperandRange dynamicExtents = op.getDynamicExtents();
  Block *body = op.getBodyBlock();
  bool allReduceAtZero = true;
  unsigned dynamic = 0;
  for (unsigned i = 0, e = staticExtents.size(); i < e; ++i) {
    int64_t value = getInt(bindings[i]);
    int64_t extent = staticExtents[i];
    if (ShapedType::isDynamic(extent))
      extent = getInt(dynamicExtents[dynamic++]);
    if (!predicate && (value < 0 || value >= extent))
      return op.emitError("tensorir interpreter: block \"")
             << op.getName() << "\": iteration variable "
             << op.getIterVarDisplayName(i) << " is bound to " << value
             << ", outside its domain [0, " << extent << ")";
    if (value != 0 &&
        cast<IterVarTypeAttr>(iterTypes[i]).getValue() == IterVarType::reduce)
      allReduceAtZero = false;
    scalars[body->getArgument(i)].i = value;
  }
  size_t scope = allocated.size();
  for (Operation &inner : *body) {
    if (isa<YieldOp>(inner))
      break;
    if (auto init = dyn_cast<InitOp>(inner)) {
      if (allReduceAtZero && failed(runOps(init.getBody().front())))
        return failure();
      continue;
    }
    if (failed(runOp(&inner)))
      return failure();
  }
  allocated.resize(scope);
  return success();
}

LogicalResult Interpreter::runAllocBuffer(AllocBufferOp op) {
  auto type = cast<MemRefType>(op.getType());
  if (!Buffer::getElementByteSize(type.getElementType()))
    return op.emitError("tensorir interpreter: unsupported element type ")
           << type.getElementType();
  SmallVector<int64_t> shape;
  unsigned dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size))
      size = getInt(op.getDynamicSizes()[dynamic++]);
    if (size < 0)
      return op.emitError("tensorir interpreter: negative buffer size ")
             << size;
    shape.push_back(size);
  }
  allocated.push_back(std::make_unique<Buffer>(type.getElementType(), shape));
  buffers[op.getResult()] = allocated.back().get();
  return success();
}

std::string Interpreter::getBufferName(Value memref) {
  if (auto arg = dyn_cast<BlockArgument>(memref))
    if (auto func = dyn_cast<PrimFuncOp>(arg.getOwner()->getParentOp())) {
      if (auto name = func.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), TensorIRDialect::getArgNameAttrName()))
        return name.str();
      return "argument #" + std::to_string(arg.getArgNumber());
    }
  if (auto alloc = memref.getDefiningOp<AllocBufferOp>())
    if (std::optional<StringRef> name = alloc.getName())
      return name->str();
  return "<buffer>";
}

FailureOr<int64_t> Interpreter::getFlatIndex(Operation *op, Value memref,
                                             ValueRange indices,
                                             Buffer *&buffer, bool isStore) {
  buffer = buffers.lookup(memref);
  if (!buffer)
    return op->emitError("tensorir interpreter: the buffer is not a "
                         "prim_func argument or tensorir.alloc_buffer");
  ArrayRef<int64_t> shape = buffer->getShape();
  int64_t flat = 0;
  bool inBounds = true;
  for (auto [index, size] : llvm::zip(indices, shape)) {
    int64_t i = getInt(index);
    if (i < 0 || i >= size)
      inBounds = false;
    flat = flat * size + i;
  }
  if (!inBounds) {
    SmallVector<int64_t> values;
    for (Value index : indices)
      values.push_back(getInt(index));
    return op->emitError("tensorir interpreter: out-of-bounds ")
           << (isStore ? "store to" : "load from") << " buffer '"
           << getBufferName(memref) << "' at index " << formatIndices(values)
           << " (shape " << formatIndices(shape) << ")";
  }
  return flat;
}

LogicalResult Interpreter::runLoad(memref::LoadOp op) {
  Buffer *buffer;
  FailureOr<int64_t> flat = getFlatIndex(op, op.getMemRef(), op.getIndices(),
                                         buffer, /*isStore=*/false);
  if (failed(flat))
    return failure();
  Type type = op.getType();
  Value result = op.getResult();
  if (type.isF32()) { // the common case first
    float x;
    std::memcpy(&x, buffer->getData().data() + *flat * 4, 4);
    setFloat(result, x);
    return success();
  }
  unsigned bytes = *Buffer::getElementByteSize(type);
  const char *p = buffer->getData().data() + *flat * bytes;
  if (type.isF32()) {
    float x;
    std::memcpy(&x, p, 4);
    setFloat(result, x);
  } else if (type.isF64()) {
    double x;
    std::memcpy(&x, p, 8);
    setFloat(result, x);
  } else if (type.isF16() || type.isBF16()) {
    uint16_t bits;
    std::memcpy(&bits, p, 2);
    APFloat f(type.isF16() ? APFloat::IEEEhalf() : APFloat::BFloat(),
              APInt(16, bits));
    setFloat(result, f.convertToFloat());
  } else if (type.isInteger(1)) {
    setBool(result, *p != 0);
  } else {
    uint64_t raw = 0;
    std::memcpy(&raw, p, bytes); // little-endian host
    setInt(result, static_cast<int64_t>(raw));
  }
  return success();
}

LogicalResult Interpreter::runStore(memref::StoreOp op) {
  Buffer *buffer;
  FailureOr<int64_t> flat = getFlatIndex(op, op.getMemRef(), op.getIndices(),
                                         buffer, /*isStore=*/true);
  if (failed(flat))
    return failure();
  Value value = op.getValueToStore();
  Type type = value.getType();
  if (type.isF32()) { // the common case first
    float x = static_cast<float>(getFloat(value));
    std::memcpy(buffer->getData().data() + *flat * 4, &x, 4);
    return success();
  }
  unsigned bytes = *Buffer::getElementByteSize(type);
  char *p = buffer->getData().data() + *flat * bytes;
  if (type.isF32()) {
    float x = static_cast<float>(getFloat(value));
    std::memcpy(p, &x, 4);
  } else if (type.isF64()) {
    double x = getFloat(value);
    std::memcpy(p, &x, 8);
  } else if (type.isF16() || type.isBF16()) {
    APFloat f(static_cast<float>(getFloat(value)));
    bool losesInfo;
    f.convert(type.isF16() ? APFloat::IEEEhalf() : APFloat::BFloat(),
              APFloat::rmNearestTiesToEven, &losesInfo);
    uint16_t bits = f.bitcastToAPInt().getZExtValue();
    std::memcpy(p, &bits, 2);
  } else if (type.isInteger(1)) {
    *p = getInt(value) != 0;
  } else {
    uint64_t raw = static_cast<uint64_t>(getInt(value));
    std::memcpy(p, &raw, bytes);
  }
  return success();
}

LogicalResult Interpreter::runScfFor(scf::ForOp op) {
  int64_t lb = getInt(op.getLowerBound()), ub = getInt(op.getUpperBound()),
          step = getInt(op.getStep());
  if (step <= 0)
    return op.emitError("tensorir interpreter: loop step is ") << step;
  SmallVector<Scalar> iter;
  for (Value init : op.getInitArgs())
    iter.push_back(scalars.lookup(init));
  Block *body = op.getBody();
  for (int64_t i = lb; i < ub; i += step) {
    setInt(op.getInductionVar(), i);
    for (auto [arg, value] : llvm::zip(op.getRegionIterArgs(), iter))
      scalars[arg] = value;
    if (failed(runOps(*body)))
      return failure();
    for (auto [k, yielded] :
         llvm::enumerate(body->getTerminator()->getOperands()))
      iter[k] = scalars.lookup(yielded);
  }
  for (auto [result, value] : llvm::zip(op.getResults(), iter))
    scalars[result] = value;
  return success();
}

LogicalResult Interpreter::runScfIf(scf::IfOp op) {
  Region &region =
      getInt(op.getCondition()) != 0 ? op.getThenRegion() : op.getElseRegion();
  if (region.empty())
    return success();
  if (failed(runOps(region.front())))
    return failure();
  for (auto [result, yielded] : llvm::zip(
           op.getResults(), region.front().getTerminator()->getOperands()))
    scalars[result] = scalars.lookup(yielded);
  return success();
}

/// Evaluates an affine expression; std::nullopt on division by zero.
static std::optional<int64_t>
evalAffine(AffineExpr expr, ArrayRef<int64_t> dims, ArrayRef<int64_t> symbols) {
  switch (expr.getKind()) {
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(expr).getValue();
  case AffineExprKind::DimId:
    return dims[cast<AffineDimExpr>(expr).getPosition()];
  case AffineExprKind::SymbolId:
    return symbols[cast<AffineSymbolExpr>(expr).getPosition()];
  default:
    break;
  }
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evalAffine(binary.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evalAffine(binary.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return *lhs + *rhs;
  case AffineExprKind::Mul:
    return *lhs * *rhs;
  case AffineExprKind::FloorDiv:
    if (*rhs == 0)
      return std::nullopt;
    return floorDiv(*lhs, *rhs);
  case AffineExprKind::CeilDiv:
    if (*rhs == 0)
      return std::nullopt;
    return ceilDiv(*lhs, *rhs);
  case AffineExprKind::Mod: {
    if (*rhs == 0)
      return std::nullopt;
    int64_t m = *lhs % *rhs;
    return (m != 0 && ((m < 0) != (*rhs < 0))) ? m + *rhs : m;
  }
  default:
    return std::nullopt;
  }
}

/// kind: 0 = apply (one result), 1 = min, 2 = max.
LogicalResult Interpreter::runAffine(Operation *op, AffineMap map,
                                     ValueRange operands, int kind) {
  SmallVector<int64_t> dims, symbols;
  for (auto [i, operand] : llvm::enumerate(operands))
    (i < map.getNumDims() ? dims : symbols).push_back(getInt(operand));
  std::optional<int64_t> result;
  for (AffineExpr expr : map.getResults()) {
    std::optional<int64_t> value = evalAffine(expr, dims, symbols);
    if (!value) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << expr;
      return op->emitError("tensorir interpreter: division by zero in ")
             << text;
    }
    if (!result || (kind == 1 && *value < *result) ||
        (kind == 2 && *value > *result))
      result = value;
  }
  if (!result)
    return op->emitError("tensorir interpreter: empty affine map");
  setInt(op->getResult(0), *result);
  return success();
}

LogicalResult Interpreter::runOp(Operation *op) {
  if (maxSteps > 0 && ++steps > maxSteps)
    return op->emitError("tensorir interpreter: stopped after ")
           << maxSteps << " executed operations (the step limit)";
  if (auto forOp = dyn_cast<ForOp>(op))
    return runFor(forOp);
  if (auto block = dyn_cast<BlockOp>(op))
    return runBlock(block);
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return runLoad(load);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return runStore(store);
  bool handled = false;
  if (failed(runArith(op, handled)))
    return failure();
  if (handled)
    return success();
  if (failed(runMath(op, handled)))
    return failure();
  if (handled)
    return success();
  if (auto alloc = dyn_cast<AllocBufferOp>(op))
    return runAllocBuffer(alloc);
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    Buffer *buffer = buffers.lookup(dim.getSource());
    int64_t index = getInt(dim.getIndex());
    if (!buffer || index < 0 ||
        index >= static_cast<int64_t>(buffer->getShape().size()))
      return op->emitError("tensorir interpreter: memref.dim index ")
             << index << " is out of range";
    setInt(dim.getResult(), buffer->getShape()[index]);
    return success();
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op))
    return runAffine(op, apply.getAffineMap(), apply.getMapOperands(), 0);
  if (auto min = dyn_cast<affine::AffineMinOp>(op))
    return runAffine(op, min.getAffineMap(), min.getMapOperands(), 1);
  if (auto max = dyn_cast<affine::AffineMaxOp>(op))
    return runAffine(op, max.getAffineMap(), max.getMapOperands(), 2);
  if (auto scfFor = dyn_cast<scf::ForOp>(op))
    return runScfFor(scfFor);
  if (auto scfIf = dyn_cast<scf::IfOp>(op))
    return runScfIf(scfIf);
  return op->emitError("tensorir interpreter: unsupported operation '")
         << op->getName() << "'";
}

//===----------------------------------------------------------------------===//
// arith
//===----------------------------------------------------------------------===//

static bool compareFloat(arith::CmpFPredicate predicate, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (predicate) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

static bool compareInt(arith::CmpIPredicate predicate, int64_t a, int64_t b,
                       unsigned width) {
  uint64_t ua = zeroExtend(a, width), ub = zeroExtend(b, width);
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// Converts a float to an integer of `width` bits, saturating (the result
/// of out-of-range conversions is poison in arith; this avoids C++ UB).
static int64_t floatToInt(double value, unsigned width, bool isUnsigned) {
  if (std::isnan(value))
    return 0;
  value = std::trunc(value);
  if (isUnsigned) {
    double max = width >= 64 ? 18446744073709551615.0
                             : static_cast<double>((uint64_t(1) << width) - 1);
    if (value <= 0)
      return 0;
    if (value >= max)
      return signExtend(width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1,
                        width);
    return signExtend(static_cast<uint64_t>(value), width);
  }
  double max = std::ldexp(1.0, width - 1);
  if (value >= max)
    return signExtend((uint64_t(1) << (width - 1)) - 1, width);
  if (value < -max)
    return signExtend(uint64_t(1) << (width - 1), width);
  return static_cast<int64_t>(value);
}

LogicalResult Interpreter::runArith(Operation *op, bool &handled) {
  if (!op->getDialect() || op->getDialect() != arithDialect)
    return success();
  handled = true;
  Type type = op->getNumResults() ? op->getResult(0).getType() : Type();
  auto binaryInt = [&](auto fn) {
    unsigned width = getIntWidth(type);
    setInt(op->getResult(0),
           fn(getInt(op->getOperand(0)), getInt(op->getOperand(1)), width));
    return success();
  };
  auto binaryFloat = [&](auto fn) {
    setFloat(op->getResult(0), applyFloat(type, fn, getFloat(op->getOperand(0)),
                                          getFloat(op->getOperand(1))));
    return success();
  };
  // Integer division checks: zero divisor and signed overflow are UB in
  // arith; report them.
  auto checkDiv = [&](bool isSigned) -> LogicalResult {
    int64_t b = getInt(op->getOperand(1));
    if (b == 0)
      return op->emitError("tensorir interpreter: integer division by zero");
    unsigned width = getIntWidth(type);
    if (isSigned && b == -1 &&
        getInt(op->getOperand(0)) ==
            signExtend(uint64_t(1) << (width - 1), width))
      return op->emitError("tensorir interpreter: signed division overflow");
    return success();
  };
  auto wrap = [](uint64_t v) { return static_cast<int64_t>(v); };
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp c) -> LogicalResult {
        Attribute value = c.getValue();
        if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
          setInt(c.getResult(), intAttr.getValue().getSExtValue());
          return success();
        }
        if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
          setFloat(c.getResult(), floatAttr.getValueAsDouble());
          return success();
        }
        return op->emitError(
                   "tensorir interpreter: unsupported constant value ")
               << value;
      })
      .Case([&](arith::AddIOp) {
        return binaryInt(
            [&](int64_t a, int64_t b, unsigned) { return wrap(u(a) + u(b)); });
      })
      .Case([&](arith::SubIOp) {
        return binaryInt(
            [&](int64_t a, int64_t b, unsigned) { return wrap(u(a) - u(b)); });
      })
      .Case([&](arith::MulIOp) {
        return binaryInt(
            [&](int64_t a, int64_t b, unsigned) { return wrap(u(a) * u(b)); });
      })
      .Case([&](arith::DivSIOp) -> LogicalResult {
        if (failed(checkDiv(true)))
          return failure();
        return binaryInt([](int64_t a, int64_t b, unsigned) { return a / b; });
      })
      .Case([&](arith::RemSIOp) -> LogicalResult {
        if (failed(checkDiv(true)))
          return failure();
        return binaryInt([](int64_t a, int64_t b, unsigned) { return a % b; });
      })
      .Case([&](arith::FloorDivSIOp) -> LogicalResult {
        if (failed(checkDiv(true)))
          return failure();
        return binaryInt(
            [](int64_t a, int64_t b, unsigned) { return floorDiv(a, b); });
      })
      .Case([&](arith::CeilDivSIOp) -> LogicalResult {
        if (failed(checkDiv(true)))
          return failure();
        return binaryInt(
            [](int64_t a, int64_t b, unsigned) { return ceilDiv(a, b); });
      })
      .Case([&](arith::DivUIOp) -> LogicalResult {
        if (failed(checkDiv(false)))
          return failure();
        return binaryInt([&](int64_t a, int64_t b, unsigned w) {
          return wrap(zeroExtend(a, w) / zeroExtend(b, w));
        });
      })
      .Case([&](arith::CeilDivUIOp) -> LogicalResult {
        if (failed(checkDiv(false)))
          return failure();
        return binaryInt([&](int64_t a, int64_t b, unsigned w) {
          uint64_t x = zeroExtend(a, w), y = zeroExtend(b, w);
          return wrap(x / y + (x % y != 0));
        });
      })
      .Case([&](arith::RemUIOp) -> LogicalResult {
        if (failed(checkDiv(false)))
          return failure();
        return binaryInt([&](int64_t a, int64_t b, unsigned w) {
          return wrap(zeroExtend(a, w) % zeroExtend(b, w));
        });
      })
      .Case([&](arith::AndIOp) {
        return binaryInt([](int64_t a, int64_t b, unsigned) { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return binaryInt([](int64_t a, int64_t b, unsigned) { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return binaryInt([](int64_t a, int64_t b, unsigned) { return a ^ b; });
      })
      .Case([&](arith::MaxSIOp) {
        return binaryInt(
            [](int64_t a, int64_t b, unsigned) { return std::max(a, b); });
      })
      .Case([&](arith::MinSIOp) {
        return binaryInt(
            [](int64_t a, int64_t b, unsigned) { return std::min(a, b); });
      })
      .Case([&](arith::MaxUIOp) {
        return binaryInt([](int64_t a, int64_t b, unsigned w) {
          return zeroExtend(a, w) > zeroExtend(b, w) ? a : b;
        });
      })
      .Case([&](arith::MinUIOp) {
        return binaryInt([](int64_t a, int64_t b, unsigned w) {
          return zeroExtend(a, w) < zeroExtend(b, w) ? a : b;
        });
      })
      .Case<arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp>(
          [&](Operation *) -> LogicalResult {
            unsigned width = getIntWidth(type);
            uint64_t shift = zeroExtend(getInt(op->getOperand(1)), width);
            if (shift >= width)
              return op->emitError("tensorir interpreter: shift amount ")
                     << shift << " is not below the bit width " << width;
            int64_t a = getInt(op->getOperand(0));
            int64_t r;
            if (isa<arith::ShLIOp>(op))
              r = wrap(u(a) << shift);
            else if (isa<arith::ShRSIOp>(op))
              r = a >> shift;
            else
              r = wrap(zeroExtend(a, width) >> shift);
            setInt(op->getResult(0), r);
            return success();
          })
      .Case([&](arith::AddFOp) {
        return binaryFloat([](auto a, auto b) { return a + b; });
      })
      .Case([&](arith::SubFOp) {
        return binaryFloat([](auto a, auto b) { return a - b; });
      })
      .Case([&](arith::MulFOp) {
        return binaryFloat([](auto a, auto b) { return a * b; });
      })
      .Case([&](arith::DivFOp) {
        return binaryFloat([](auto a, auto b) { return a / b; });
      })
      .Case([&](arith::RemFOp) {
        return binaryFloat([](auto a, auto b) { return std::fmod(a, b); });
      })
      .Case([&](arith::MaximumFOp) {
        return binaryFloat([](auto a, auto b) { return maximum(a, b); });
      })
      .Case([&](arith::MinimumFOp) {
        return binaryFloat([](auto a, auto b) { return minimum(a, b); });
      })
      .Case([&](arith::MaxNumFOp) {
        return binaryFloat([](auto a, auto b) { return std::fmax(a, b); });
      })
      .Case([&](arith::MinNumFOp) {
        return binaryFloat([](auto a, auto b) { return std::fmin(a, b); });
      })
      .Case([&](arith::NegFOp n) {
        setFloat(n.getResult(), -getFloat(n.getOperand()));
        return success();
      })
      .Case([&](arith::CmpIOp c) {
        setBool(c.getResult(), compareInt(c.getPredicate(), getInt(c.getLhs()),
                                          getInt(c.getRhs()),
                                          getIntWidth(c.getLhs().getType())));
        return success();
      })
      .Case([&](arith::CmpFOp c) {
        setBool(c.getResult(),
                compareFloat(c.getPredicate(), getFloat(c.getLhs()),
                             getFloat(c.getRhs())));
        return success();
      })
      .Case([&](arith::SelectOp s) -> LogicalResult {
        if (!s.getCondition().getType().isInteger(1))
          return op->emitError(
              "tensorir interpreter: vector select is not supported");
        Value chosen = getInt(s.getCondition()) != 0 ? s.getTrueValue()
                                                     : s.getFalseValue();
        if (isa<MemRefType>(chosen.getType()))
          return op->emitError(
              "tensorir interpreter: select of buffers is not supported");
        scalars[s.getResult()] = scalars.lookup(chosen);
        return success();
      })
      .Case<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(
          [&](Operation *) {
            setInt(op->getResult(0), getInt(op->getOperand(0)));
            return success();
          })
      .Case<arith::ExtUIOp, arith::IndexCastUIOp>([&](Operation *) {
        setInt(op->getResult(0),
               wrap(zeroExtend(getInt(op->getOperand(0)),
                               getIntWidth(op->getOperand(0).getType()))));
        return success();
      })
      .Case([&](arith::SIToFPOp c) {
        setFloat(c.getResult(),
                 type.isF64()
                     ? static_cast<double>(getInt(c.getIn()))
                     : roundFloat(type, static_cast<float>(getInt(c.getIn()))));
        return success();
      })
      .Case([&](arith::UIToFPOp c) {
        uint64_t x =
            zeroExtend(getInt(c.getIn()), getIntWidth(c.getIn().getType()));
        setFloat(c.getResult(), type.isF64()
                                    ? static_cast<double>(x)
                                    : roundFloat(type, static_cast<float>(x)));
        return success();
      })
      .Case([&](arith::FPToSIOp c) {
        setInt(c.getResult(),
               floatToInt(getFloat(c.getIn()), getIntWidth(type), false));
        return success();
      })
      .Case([&](arith::FPToUIOp c) {
        setInt(c.getResult(),
               floatToInt(getFloat(c.getIn()), getIntWidth(type), true));
        return success();
      })
      .Case<arith::ExtFOp, arith::TruncFOp>([&](Operation *) {
        setFloat(op->getResult(0),
                 convertToFloat(type, getFloat(op->getOperand(0))));
        return success();
      })
      .Case([&](arith::BitcastOp c) -> LogicalResult {
        Type from = c.getIn().getType();
        if (from.isF32() && type.isInteger(32)) {
          float x = static_cast<float>(getFloat(c.getIn()));
          int32_t bits;
          std::memcpy(&bits, &x, 4);
          setInt(c.getResult(), bits);
          return success();
        }
        if (from.isInteger(32) && type.isF32()) {
          int32_t bits = static_cast<int32_t>(getInt(c.getIn()));
          float x;
          std::memcpy(&x, &bits, 4);
          setFloat(c.getResult(), x);
          return success();
        }
        if (from.isF64() && type.isInteger(64)) {
          double x = getFloat(c.getIn());
          int64_t bits;
          std::memcpy(&bits, &x, 8);
          setInt(c.getResult(), bits);
          return success();
        }
        if (from.isInteger(64) && type.isF64()) {
          int64_t bits = getInt(c.getIn());
          double x;
          std::memcpy(&x, &bits, 8);
          setFloat(c.getResult(), x);
          return success();
        }
        return op->emitError("tensorir interpreter: unsupported bitcast from ")
               << from << " to " << type;
      })
      .Default([&](Operation *) {
        return op->emitError("tensorir interpreter: unsupported operation '")
               << op->getName() << "'";
      });
}

//===----------------------------------------------------------------------===//
// math
//===----------------------------------------------------------------------===//

LogicalResult Interpreter::runMath(Operation *op, bool &handled) {
  if (op->getDialect() == nullptr || op->getDialect()->getNamespace() != "math")
    return success();
  handled = true;
  Type type = op->getResult(0).getType();
  auto unary = [&](auto fn) {
    setFloat(op->getResult(0),
             applyFloat(type, fn, getFloat(op->getOperand(0))));
    return success();
  };
  auto binary = [&](auto fn) {
    setFloat(op->getResult(0), applyFloat(type, fn, getFloat(op->getOperand(0)),
                                          getFloat(op->getOperand(1))));
    return success();
  };
  // Float predicates on the operand.
  auto predicate = [&](auto fn) {
    setBool(op->getResult(0), fn(getFloat(op->getOperand(0))));
    return success();
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](math::ExpOp) {
        return unary([](auto x) { return std::exp(x); });
      })
      .Case([&](math::Exp2Op) {
        return unary([](auto x) { return std::exp2(x); });
      })
      .Case([&](math::ExpM1Op) {
        return unary([](auto x) { return std::expm1(x); });
      })
      .Case([&](math::LogOp) {
        return unary([](auto x) { return std::log(x); });
      })
      .Case([&](math::Log2Op) {
        return unary([](auto x) { return std::log2(x); });
      })
      .Case([&](math::Log10Op) {
        return unary([](auto x) { return std::log10(x); });
      })
      .Case([&](math::Log1pOp) {
        return unary([](auto x) { return std::log1p(x); });
      })
      .Case([&](math::SqrtOp) {
        return unary([](auto x) { return std::sqrt(x); });
      })
      .Case([&](math::RsqrtOp) {
        return unary([](auto x) { return decltype(x)(1) / std::sqrt(x); });
      })
      .Case([&](math::CbrtOp) {
        return unary([](auto x) { return std::cbrt(x); });
      })
      .Case([&](math::TanhOp) {
        return unary([](auto x) { return std::tanh(x); });
      })
      .Case([&](math::SinhOp) {
        return unary([](auto x) { return std::sinh(x); });
      })
      .Case([&](math::CoshOp) {
        return unary([](auto x) { return std::cosh(x); });
      })
      .Case([&](math::ErfOp) {
        return unary([](auto x) { return std::erf(x); });
      })
      .Case([&](math::ErfcOp) {
        return unary([](auto x) { return std::erfc(x); });
      })
      .Case([&](math::SinOp) {
        return unary([](auto x) { return std::sin(x); });
      })
      .Case([&](math::CosOp) {
        return unary([](auto x) { return std::cos(x); });
      })
      .Case([&](math::TanOp) {
        return unary([](auto x) { return std::tan(x); });
      })
      .Case([&](math::AsinOp) {
        return unary([](auto x) { return std::asin(x); });
      })
      .Case([&](math::AcosOp) {
        return unary([](auto x) { return std::acos(x); });
      })
      .Case([&](math::AtanOp) {
        return unary([](auto x) { return std::atan(x); });
      })
      .Case([&](math::AsinhOp) {
        return unary([](auto x) { return std::asinh(x); });
      })
      .Case([&](math::AcoshOp) {
        return unary([](auto x) { return std::acosh(x); });
      })
      .Case([&](math::AtanhOp) {
        return unary([](auto x) { return std::atanh(x); });
      })
      .Case([&](math::AbsFOp) {
        return unary([](auto x) { return std::fabs(x); });
      })
      .Case([&](math::FloorOp) {
        return unary([](auto x) { return std::floor(x); });
      })
      .Case([&](math::CeilOp) {
        return unary([](auto x) { return std::ceil(x); });
      })
      .Case([&](math::RoundOp) {
        return unary([](auto x) { return std::round(x); });
      })
      .Case([&](math::RoundEvenOp) {
        // The default rounding mode is to nearest, ties to even.
        return unary([](auto x) { return std::nearbyint(x); });
      })
      .Case([&](math::TruncOp) {
        return unary([](auto x) { return std::trunc(x); });
      })
      .Case([&](math::PowFOp) {
        return binary([](auto x, auto y) { return std::pow(x, y); });
      })
      .Case([&](math::Atan2Op) {
        return binary([](auto x, auto y) { return std::atan2(x, y); });
      })
      .Case([&](math::CopySignOp) {
        return binary([](auto x, auto y) { return std::copysign(x, y); });
      })
      .Case([&](math::FmaOp) {
        setFloat(op->getResult(0),
                 applyFloat(
                     type,
                     [](auto a, auto b, auto c) { return std::fma(a, b, c); },
                     getFloat(op->getOperand(0)), getFloat(op->getOperand(1)),
                     getFloat(op->getOperand(2))));
        return success();
      })
      .Case([&](math::IsNaNOp) {
        return predicate([](double x) { return std::isnan(x); });
      })
      .Case([&](math::IsInfOp) {
        return predicate([](double x) { return std::isinf(x); });
      })
      .Case([&](math::IsFiniteOp) {
        return predicate([](double x) { return std::isfinite(x); });
      })
      .Case([&](math::IPowIOp p) {
        // Exponentiation by squaring with wrap-around; negative exponents
        // follow math.ipowi (0 unless the base is 1 or -1).
        int64_t base = getInt(p.getLhs()), exp = getInt(p.getRhs());
        uint64_t result = 1;
        if (exp < 0) {
          result = base == 1    ? 1
                   : base == -1 ? (exp % 2 ? uint64_t(-1) : 1)
                                : 0;
        } else {
          uint64_t b = static_cast<uint64_t>(base);
          for (uint64_t e = static_cast<uint64_t>(exp); e; e >>= 1) {
            if (e & 1)
              result *= b;
            b *= b;
          }
        }
        setInt(p.getResult(), static_cast<int64_t>(result));
        return success();
      })
      .Case([&](math::AbsIOp a) {
        int64_t x = getInt(a.getOperand());
        setInt(a.getResult(),
               x < 0 ? static_cast<int64_t>(-static_cast<uint64_t>(x)) : x);
        return success();
      })
      .Default([&](Operation *) {
        return op->emitError("tensorir interpreter: unsupported operation '")
               << op->getName() << "'";
      });
}

LogicalResult mlc::tensorir::interpret(PrimFuncOp func,
                                       MutableArrayRef<Buffer> args,
                                       int64_t maxSteps) {
  return Interpreter(maxSteps).run(func, args);
}

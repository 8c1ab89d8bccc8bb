//===- WinogradConvolution.cpp - 3x3 convolutions as Winograd GEMMs -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Lavin and Gray's minimal filtering F(m x m, 3 x 3): each m x m output tile
// of a 3x3 stride-1 convolution is A^T [(G g G^T) . (B^T d B)] A for its
// (m + 2) x (m + 2) input tile d and the filter g. Over all tiles and
// channels the elementwise products become (m + 2)^2 independent GEMMs
// (tiles x in-channels times in-channels x out-channels), 2.25x (m = 2) or
// 4x (m = 4) fewer multiply-adds than the direct convolution; the filter
// transform G g G^T of a bound weight is done here, at compile time. TVM
// offers the same as its conv2d_winograd strategies, chosen by tuning.
//
//===----------------------------------------------------------------------===//

#include "KernelSchedules.h"
#include "ScheduleUtils.h"
#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Support/SymbolUsers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <cstring>
#include <vector>

namespace mlc {
#define GEN_PASS_DEF_CPUWINOGRADCONVOLUTIONPASS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

/// The transform matrices of F(m x m, 3 x 3), row-major: B^T (alpha x
/// alpha), G (alpha x 3) and A^T (m x alpha), alpha = m + 2; interpolation
/// points 0, +-1 (m = 2) and 0, +-1, +-2 (m = 4), Lavin's.
struct WinogradMatrices {
  int64_t m, alpha;
  std::vector<double> bt, g, at;
};

static std::optional<WinogradMatrices> getWinogradMatrices(int64_t m) {
  if (m == 2)
    return WinogradMatrices{2,
                            4,
                            {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1},
                            {1, 0, 0, 0.5, 0.5, 0.5, 0.5, -0.5, 0.5, 0, 0, 1},
                            {1, 1, 1, 0, 0, 1, -1, -1}};
  if (m == 4)
    return WinogradMatrices{4,
                            6,
                            {4, 0, -5, 0,  1, 0, 0, -4, -4, 1,  1, 0,
                             0, 4, -4, -1, 1, 0, 0, -2, -1, 2,  1, 0,
                             0, 2, -1, -2, 1, 0, 0, 4,  0,  -5, 0, 1},
                            {1.0 / 4, 0, 0, -1.0 / 6, -1.0 / 6, -1.0 / 6,
                             -1.0 / 6, 1.0 / 6, -1.0 / 6, 1.0 / 24, 1.0 / 12,
                             1.0 / 6, 1.0 / 24, -1.0 / 12, 1.0 / 6, 0, 0, 1},
                            {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0,
                             0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1}};
  return std::nullopt;
}

/// A channels-last 3x3 stride-1 convolution accumulating into its output:
/// out[n, h, w, k] += image[n, h + kh, w + kw, c] * weight[kh, kw, c, k].
struct WinogradConv {
  linalg::GenericOp op;
  Value image, output;
  BlockArgument weight;
  int64_t n, h, w, c, k;
};

/// The dimension of `expr`, or -1.
static int64_t dimOf(AffineExpr expr) {
  auto dim = dyn_cast<AffineDimExpr>(expr);
  return dim ? dim.getPosition() : -1;
}

/// Whether `expr` is the sum of dimensions `a` and `b`.
static bool isSumOf(AffineExpr expr, int64_t a, int64_t b) {
  auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!sum || sum.getKind() != AffineExprKind::Add)
    return false;
  int64_t l = dimOf(sum.getLHS()), r = dimOf(sum.getRHS());
  return (l == a && r == b) || (l == b && r == a);
}

/// Whether `op`'s body is out + image * weight in f32.
static bool isMulAddBody(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 3 || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value product = add.getLhs(), accumulator = add.getRhs();
  if (accumulator != body.getArgument(2))
    std::swap(product, accumulator);
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (accumulator != body.getArgument(2) || !mul)
    return false;
  return (mul.getLhs() == body.getArgument(0) &&
          mul.getRhs() == body.getArgument(1)) ||
         (mul.getLhs() == body.getArgument(1) &&
          mul.getRhs() == body.getArgument(0));
}

/// Matches `op` as a convolution F(m x m, 3 x 3) computes: f32, static
/// shapes, output rows and columns multiples of `m`, the weight a constant
/// argument of the function (kConstantArgumentAttr) read by `op` only.
static std::optional<WinogradConv> matchWinogradConv(linalg::GenericOp op,
                                                     int64_t m) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != 7 || !op.hasPureBufferSemantics() ||
      !isMulAddBody(op))
    return std::nullopt;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
        type.getRank() != 4)
      return std::nullopt;
  }
  AffineMap image = op.getIndexingMapsArray()[0];
  AffineMap weight = op.getIndexingMapsArray()[1];
  AffineMap out = op.getIndexingMapsArray()[2];
  if (!out.isProjectedPermutation() || out.getNumResults() != 4 ||
      !weight.isProjectedPermutation() || weight.getNumResults() != 4)
    return std::nullopt;
  int64_t n = dimOf(out.getResult(0)), h = dimOf(out.getResult(1)),
          w = dimOf(out.getResult(2)), k = dimOf(out.getResult(3));
  int64_t kh = dimOf(weight.getResult(0)), kw = dimOf(weight.getResult(1)),
          c = dimOf(weight.getResult(2));
  auto iterators = op.getIteratorTypesArray();
  for (int64_t d : {kh, kw, c})
    if (iterators[d] != utils::IteratorType::reduction)
      return std::nullopt;
  if (dimOf(weight.getResult(3)) != k || dimOf(image.getResult(0)) != n ||
      !isSumOf(image.getResult(1), h, kh) ||
      !isSumOf(image.getResult(2), w, kw) || dimOf(image.getResult(3)) != c)
    return std::nullopt;

  auto arg = dyn_cast<BlockArgument>(op.getDpsInputs()[1]);
  auto func = dyn_cast<func::FuncOp>(op->getParentOp());
  if (!arg || !func || arg.getOwner() != &func.getBody().front() ||
      !func.getArgAttr(arg.getArgNumber(), mlc::kConstantArgumentAttr) ||
      !arg.hasOneUse())
    return std::nullopt;
  auto imageType = cast<MemRefType>(op.getDpsInputs()[0].getType());
  auto weightType = cast<MemRefType>(arg.getType());
  auto outType = cast<MemRefType>(op.getDpsInits()[0].getType());
  ArrayRef<int64_t> o = outType.getShape();
  if (weightType.getShape()[0] != 3 || weightType.getShape()[1] != 3 ||
      !weightType.getLayout().isIdentity() || o[1] % m != 0 || o[2] % m != 0 ||
      imageType.getShape()[1] < o[1] + 2 || imageType.getShape()[2] < o[2] + 2)
    return std::nullopt;
  return WinogradConv{op,
                      op.getDpsInputs()[0],
                      op.getDpsInits()[0],
                      arg,
                      o[0],
                      o[1],
                      o[2],
                      weightType.getShape()[2],
                      o[3]};
}

/// The f32 elements of a constant global's initial value (dense, splat or
/// dense_resource: getConstantBytes); failure otherwise.
static FailureOr<std::vector<float>> readFloats(memref::GlobalOp global) {
  MemRefType type = global.getType();
  if (!global.getConstant() || !global.getInitialValue() ||
      !type.getElementType().isF32() || !type.hasStaticShape())
    return failure();
  int64_t count = type.getNumElements();
  FailureOr<std::optional<ArrayRef<char>>> bytes = mlc::cpu::getConstantBytes(
      *global.getInitialValue(), count * sizeof(float));
  if (failed(bytes))
    return failure();
  std::vector<float> values(count);
  if (*bytes)
    std::memcpy(values.data(), (*bytes)->data(), count * sizeof(float));
  else
    std::fill(values.begin(), values.end(),
              cast<DenseElementsAttr>(*global.getInitialValue())
                  .getSplatValue<float>());
  return values;
}

/// Emits sum_i coefficients[i] * values[i] (zeros skipped, +-1 as adds and
/// subtractions) plus `initial` when given.
static Value linearCombination(OpBuilder &b, Location loc,
                               ArrayRef<double> coefficients,
                               ArrayRef<Value> values, Value initial) {
  Value sum = initial;
  // Positive terms first: -a + b is b - a, without a negation.
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < coefficients.size(); ++i)
    if (coefficients[i] > 0)
      order.push_back(i);
  for (unsigned i = 0; i < coefficients.size(); ++i)
    if (coefficients[i] < 0)
      order.push_back(i);
  for (unsigned i : order) {
    double coefficient = coefficients[i];
    Value value = values[i];
    Value term = value;
    bool negate = coefficient < 0;
    if (std::abs(coefficient) != 1) {
      Value factor = arith::ConstantOp::create(
          b, loc, b.getF32FloatAttr(static_cast<float>(std::abs(coefficient))));
      term = arith::MulFOp::create(b, loc, value, factor);
    }
    if (!sum) {
      sum = negate ? arith::NegFOp::create(b, loc, term).getResult() : term;
      continue;
    }
    sum = negate ? arith::SubFOp::create(b, loc, sum, term).getResult()
                 : arith::AddFOp::create(b, loc, sum, term).getResult();
  }
  if (!sum)
    sum = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  return sum;
}

/// X^T d X for the `rows` x `cols` matrix X (row-major) and the cols x cols
/// values d (row-major): the rows x rows result, row-major, each entry added
/// to `initial`'s when given.
static SmallVector<Value> transformTile(OpBuilder &b, Location loc,
                                        ArrayRef<double> x, int64_t rows,
                                        int64_t cols, ArrayRef<Value> d,
                                        ArrayRef<Value> initial = {}) {
  // t[r][j] = sum_i x[r][i] d[i][j]; result[r][s] = sum_j t[r][j] x[s][j].
  SmallVector<Value> t;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < cols; ++j) {
      SmallVector<Value> column;
      for (int64_t i = 0; i < cols; ++i)
        column.push_back(d[i * cols + j]);
      t.push_back(
          linearCombination(b, loc, x.slice(r * cols, cols), column, nullptr));
    }
  SmallVector<Value> result;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t s = 0; s < rows; ++s)
      result.push_back(
          linearCombination(b, loc, x.slice(s * cols, cols),
                            ArrayRef<Value>(t).slice(r * cols, cols),
                            initial.empty() ? Value() : initial[r * rows + s]));
  return result;
}

/// The subview of `buffer` at `offsets`, `sizes` and `strides` without
/// its leading unit dimension if it has five: a 4-d view.
static Value tileView(OpBuilder &b, Location loc, Value buffer,
                      ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
                      ArrayRef<int64_t> strides) {
  auto source = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> shape;
  for (int64_t size : sizes.drop_front(sizes.size() - 4))
    shape.push_back(size);
  auto type = memref::SubViewOp::inferRankReducedResultType(
      shape, source, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, cast<MemRefType>(type), buffer,
                                   offsets, sizes, strides);
}

/// The fill and epilogue around the convolution's buffer (matchEpilogue)
/// when the output transform can compute the epilogue itself: the fill
/// writes zeros, and the epilogue (4 loops: n, h, w, k) reads each input at
/// dimensions or zeros, without linalg.index and without its output's value.
static std::optional<mlc::cpu::Epilogue>
matchZeroFilledEpilogue(linalg::GenericOp op) {
  std::optional<mlc::cpu::Epilogue> epilogue = mlc::cpu::matchEpilogue(op);
  if (!epilogue)
    return std::nullopt;
  Value fillValue;
  if (auto fill = dyn_cast<linalg::FillOp>(epilogue->fill.getOperation())) {
    fillValue = fill.value();
  } else if (auto generic =
                 dyn_cast<linalg::GenericOp>(epilogue->fill.getOperation())) {
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    if (yield.getNumOperands() == 1)
      fillValue = yield.getOperand(0);
  }
  if (!fillValue || !matchPattern(fillValue, m_AnyZeroFloat()))
    return std::nullopt;
  auto generic = dyn_cast<linalg::GenericOp>(epilogue->epilogue.getOperation());
  if (!generic || generic.getNumLoops() != 4 || generic.hasIndexSemantics() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)))
    return std::nullopt;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    for (AffineExpr expr : generic.getMatchingIndexingMap(input).getResults()) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (!isa<AffineDimExpr>(expr) && !(constant && constant.getValue() == 0))
        return std::nullopt;
    }
  }
  return epilogue;
}

/// The view of `buffer`, indexed by `map` over (n, h, w, k), that output
/// tile position (a, b) reads: h = th * m + a, w = tw * m + b. Nothing
/// changes when `map` uses neither.
static Value positionView(OpBuilder &b, Location loc, Value buffer,
                          AffineMap map, int64_t m, int64_t a, int64_t bCol) {
  auto type = cast<MemRefType>(buffer.getType());
  SmallVector<int64_t> offsets, sizes, strides;
  bool strided = false;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    int64_t dim = dimOf(expr), size = type.getDimSize(i);
    if (dim == 1 || dim == 2) {
      strided = true;
      offsets.push_back(dim == 1 ? a : bCol);
      sizes.push_back(size / m);
      strides.push_back(m);
      continue;
    }
    offsets.push_back(0);
    sizes.push_back(size);
    strides.push_back(1);
  }
  if (!strided)
    return buffer;
  return memref::SubViewOp::create(b, loc, buffer, offsets, sizes, strides);
}

/// Emits the output transform with `epilogue` on each of its m x m values:
/// out[n, th * m + a, tw * m + b, k] = epilogue((A^T M A)[a][b], its other
/// inputs there), where `accumulator` is the convolution's buffer that the
/// epilogue read.
static void fuseOutputTransform(OpBuilder &b, linalg::GenericOp epilogue,
                                Value accumulator,
                                const WinogradMatrices &matrices,
                                ArrayRef<Value> planes) {
  Location loc = epilogue.getLoc();
  int64_t m = matrices.m, e = matrices.alpha * matrices.alpha;
  MLIRContext *ctx = b.getContext();
  auto identity = AffineMap::getMultiDimIdentityMap(4, ctx);
  SmallVector<Value> inputs(planes);
  SmallVector<AffineMap> maps(e, identity);
  // operandIndex[position][epilogue input] = the new op's input number.
  SmallVector<SmallVector<int64_t>> operandIndex(m * m);
  int64_t accumulatorInput = -1;
  for (OpOperand *input : epilogue.getDpsInputOperands()) {
    if (input->get() == accumulator) {
      accumulatorInput = input->getOperandNumber();
      for (auto &indices : operandIndex)
        indices.push_back(-1);
      continue;
    }
    AffineMap map = epilogue.getMatchingIndexingMap(input);
    Value shared;
    for (int64_t p = 0; p < m * m; ++p) {
      Value view = positionView(b, loc, input->get(), map, m, p / m, p % m);
      if (view == input->get() && shared) {
        operandIndex[p].push_back(operandIndex[0].back());
        continue;
      }
      shared = view;
      operandIndex[p].push_back(inputs.size());
      inputs.push_back(view);
      maps.push_back(map);
    }
  }
  Value output = epilogue.getDpsInits()[0];
  AffineMap outputMap =
      epilogue.getMatchingIndexingMap(epilogue.getDpsInitOperand(0));
  SmallVector<Value> outputs;
  for (int64_t p = 0; p < m * m; ++p) {
    outputs.push_back(positionView(b, loc, output, outputMap, m, p / m, p % m));
    maps.push_back(outputMap);
  }
  Block &body = epilogue.getRegion().front();
  linalg::GenericOp::create(
      b, loc, ValueRange(inputs), ValueRange(outputs), maps,
      epilogue.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> tilePlanes(args.take_front(e));
        SmallVector<Value> values =
            transformTile(nb, nloc, matrices.at, m, matrices.alpha, tilePlanes);
        SmallVector<Value> results;
        for (int64_t p = 0; p < m * m; ++p) {
          IRMapping mapping;
          for (auto [i, index] : llvm::enumerate(operandIndex[p]))
            mapping.map(body.getArgument(i),
                        static_cast<int64_t>(i) == accumulatorInput
                            ? values[p]
                            : args[index]);
          for (Operation &inner : body.without_terminator())
            nb.clone(inner, mapping);
          results.push_back(
              mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));
        }
        linalg::YieldOp::create(nb, nloc, results);
      });
}

struct CPUWinogradConvolutionPass
    : public mlc::impl::CPUWinogradConvolutionPassBase<
          CPUWinogradConvolutionPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    std::optional<mlc::SymbolUsers> usersOf =
        mlc::collectSymbolUsers(module.getBodyRegion());
    if (!usersOf)
      return;
    if (outputTile != 0 && !getWinogradMatrices(outputTile)) {
      module.emitError() << "mlc-cpu-winograd-convolution: output-tile = "
                         << static_cast<int64_t>(outputTile)
                         << " (expected 0, 2 or 4)";
      return signalPassFailure();
    }
    llvm::SmallPtrSet<Operation *, 8> replaced;
    std::string knob = (mlc::kScheduleKnobPrefix + "winograd_tile").str();
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      int64_t m = outputTile;
      if (Attribute attr = func->getAttr(knob)) {
        auto value = dyn_cast<IntegerAttr>(attr);
        if (!value ||
            (value.getInt() != 0 && !getWinogradMatrices(value.getInt()))) {
          func.emitError() << "mlc-cpu-winograd-convolution: " << knob << " = "
                           << attr << " (expected 0, 2 or 4)";
          return signalPassFailure();
        }
        m = value.getInt();
      }
      if (m == 0 || func.isExternal())
        continue;
      // Each convolution takes the largest tile of at most m that divides
      // its output rows and columns.
      SmallVector<std::pair<WinogradConv, int64_t>> convs;
      func.walk([&](linalg::GenericOp op) {
        for (int64_t tile : {4, 2}) {
          std::optional<WinogradConv> conv;
          if (tile <= m && (conv = matchWinogradConv(op, tile))) {
            convs.push_back({*conv, tile});
            return;
          }
        }
      });
      for (auto &[conv, tile] : convs) {
        WinogradMatrices matrices = *getWinogradMatrices(tile);
        SmallVector<Operation *> calls =
            llvm::to_vector(usersOf->lookup(func.getSymNameAttr()));
        if (failed(transformWeights(func, conv, matrices, calls, symbols,
                                    replaced)))
          continue;
        rewrite(conv, matrices);
      }
    }
    mlc::eraseUnusedSymbols(symbols, module.getBodyRegion(),
                            llvm::to_vector(replaced));
  }

  /// Passes every call of `func` the transformed filter (alpha^2 x c x k,
  /// U[xi * alpha + nu] = G g G^T) of its constant, made once per global,
  /// and retypes the argument. Fails, changing nothing, when a caller passes
  /// no constant global with readable f32 elements.
  LogicalResult transformWeights(func::FuncOp func, const WinogradConv &conv,
                                 const WinogradMatrices &matrices,
                                 ArrayRef<Operation *> calls,
                                 SymbolTable &symbols,
                                 llvm::SmallPtrSet<Operation *, 8> &replaced) {
    unsigned index = conv.weight.getArgNumber();
    int64_t alpha = matrices.alpha, c = conv.c, k = conv.k;
    auto type = MemRefType::get({alpha * alpha, c, k},
                                Float32Type::get(func.getContext()));
    SmallVector<std::pair<func::CallOp, memref::GlobalOp>> sites;
    for (Operation *user : calls) {
      auto call = dyn_cast<func::CallOp>(user);
      if (!call || call.getNumOperands() <= index)
        return failure();
      auto get = call.getOperand(index).getDefiningOp<memref::GetGlobalOp>();
      auto global =
          get ? symbols.lookup<memref::GlobalOp>(get.getName()) : nullptr;
      if (!global || !global.getConstant() || !global.getInitialValue())
        return failure();
      sites.push_back({call, global});
    }
    llvm::DenseMap<Operation *, memref::GlobalOp> transformed;
    for (auto [call, global] : sites) {
      if (transformed.count(global))
        continue;
      FailureOr<std::vector<float>> g = readFloats(global);
      if (failed(g))
        return failure();
      AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
          type.getNumElements() * sizeof(float), /*align=*/64);
      auto *u = reinterpret_cast<float *>(blob.getMutableData().data());
      // U[xi, nu, ci, ki] = sum_{i, j} G[xi][i] g[i, j, ci, ki] G[nu][j].
      std::vector<double> row(3 * c * k);
      for (int64_t xi = 0; xi < alpha; ++xi) {
        std::fill(row.begin(), row.end(), 0.0);
        for (int64_t i = 0; i < 3; ++i)
          for (int64_t rest = 0; rest < 3 * c * k; ++rest)
            row[rest] += matrices.g[xi * 3 + i] * (*g)[i * 3 * c * k + rest];
        for (int64_t nu = 0; nu < alpha; ++nu)
          for (int64_t ck = 0; ck < c * k; ++ck) {
            double sum = 0;
            for (int64_t j = 0; j < 3; ++j)
              sum += matrices.g[nu * 3 + j] * row[j * c * k + ck];
            u[(xi * alpha + nu) * c * k + ck] = static_cast<float>(sum);
          }
      }
      std::string name =
          (global.getSymName() + "_winograd" + Twine(matrices.m)).str();
      OpBuilder builder(global);
      auto result = memref::GlobalOp::create(
          builder, global.getLoc(), name, builder.getStringAttr("private"),
          type,
          DenseResourceElementsAttr::get(
              RankedTensorType::get(type.getShape(), type.getElementType()),
              name, std::move(blob)),
          /*constant=*/true, builder.getI64IntegerAttr(64));
      symbols.insert(result);
      transformed[global] = result;
    }
    for (auto [call, global] : sites) {
      memref::GlobalOp result = transformed[global];
      auto get = call.getOperand(index).getDefiningOp<memref::GetGlobalOp>();
      OpBuilder builder(call);
      Value value = memref::GetGlobalOp::create(builder, get.getLoc(), type,
                                                result.getSymName());
      call->setOperand(index, value);
      replaced.insert(global);
      if (get->use_empty())
        get->erase();
    }
    BlockArgument weight = conv.weight;
    weight.setType(type);
    SmallVector<Type> inputs(func.getArgumentTypes());
    inputs[index] = type;
    func.setFunctionType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
    return success();
  }

  /// Replaces the convolution by the input transform, the alpha^2 batched
  /// GEMMs and the output transform (accumulating, as the convolution did).
  void rewrite(const WinogradConv &conv, const WinogradMatrices &matrices) {
    linalg::GenericOp op = conv.op;
    Location loc = op.getLoc();
    OpBuilder b(op);
    // Before the new ops come between the fill and the convolution.
    std::optional<mlc::cpu::Epilogue> epilogue = matchZeroFilledEpilogue(op);
    int64_t m = matrices.m, alpha = matrices.alpha, e = alpha * alpha;
    int64_t th = conv.h / m, tw = conv.w / m;
    Type f32 = b.getF32Type();
    MLIRContext *ctx = b.getContext();
    auto alignment = b.getI64IntegerAttr(64);
    auto vType = MemRefType::get({e, conv.n, th, tw, conv.c}, f32);
    auto mType = MemRefType::get({e, conv.n, th, tw, conv.k}, f32);
    Value v = memref::AllocOp::create(b, loc, vType, alignment);
    Value product = memref::AllocOp::create(b, loc, mType, alignment);
    auto identity = AffineMap::getMultiDimIdentityMap(4, ctx);
    SmallVector<utils::IteratorType> parallel4(4,
                                               utils::IteratorType::parallel);

    // V[xi * alpha + nu] = B^T d B over the input tiles: d[i][j] is the
    // image at [n, th * m + i, tw * m + j, c].
    SmallVector<Value> tiles, vPlanes;
    for (int64_t i = 0; i < alpha; ++i)
      for (int64_t j = 0; j < alpha; ++j)
        tiles.push_back(tileView(b, loc, conv.image, {0, i, j, 0},
                                 {conv.n, th, tw, conv.c}, {1, m, m, 1}));
    for (int64_t p = 0; p < e; ++p)
      vPlanes.push_back(tileView(b, loc, v, {p, 0, 0, 0, 0},
                                 {1, conv.n, th, tw, conv.c}, {1, 1, 1, 1, 1}));
    SmallVector<AffineMap> inputMaps(2 * e, identity);
    linalg::GenericOp::create(
        b, loc, ValueRange(tiles), ValueRange(vPlanes), inputMaps, parallel4,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          SmallVector<Value> d(args.take_front(e));
          SmallVector<Value> result =
              transformTile(nb, nloc, matrices.bt, alpha, alpha, d);
          linalg::YieldOp::create(nb, nloc, result);
        });

    // M[p] = V[p] x U[p]: alpha^2 GEMMs of (tiles x c) by (c x k).
    SmallVector<ReassociationIndices> collapse = {{0}, {1, 2, 3}, {4}};
    Value vMatrix = memref::CollapseShapeOp::create(b, loc, v, collapse);
    Value mMatrix = memref::CollapseShapeOp::create(b, loc, product, collapse);
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    linalg::FillOp::create(b, loc, zero, mMatrix);
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    SmallVector<AffineMap> gemmMaps = {AffineMap::get(4, 0, {d0, d1, d3}, ctx),
                                       AffineMap::get(4, 0, {d0, d3, d2}, ctx),
                                       AffineMap::get(4, 0, {d0, d1, d2}, ctx)};
    SmallVector<utils::IteratorType> gemmIterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::parallel, utils::IteratorType::reduction};
    linalg::GenericOp::create(
        b, loc, ValueRange{vMatrix, conv.weight}, ValueRange{mMatrix}, gemmMaps,
        gemmIterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value mul = arith::MulFOp::create(nb, nloc, args[0], args[1]);
          Value add = arith::AddFOp::create(nb, nloc, args[2], mul);
          linalg::YieldOp::create(nb, nloc, add);
        });

    SmallVector<Value> mPlanes;
    for (int64_t p = 0; p < e; ++p)
      mPlanes.push_back(tileView(b, loc, product, {p, 0, 0, 0, 0},
                                 {1, conv.n, th, tw, conv.k}, {1, 1, 1, 1, 1}));
    if (epilogue) {
      auto epilogueOp = cast<linalg::GenericOp>(epilogue->epilogue);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(epilogueOp);
      fuseOutputTransform(b, epilogueOp, op.getDpsInits()[0], matrices,
                          mPlanes);
      b.setInsertionPointAfter(epilogueOp);
      memref::DeallocOp::create(b, loc, v);
      memref::DeallocOp::create(b, loc, product);
      Operation *accumulator = op.getDpsInits()[0].getDefiningOp();
      epilogueOp.erase();
      epilogue->fill.getOperation()->erase();
      op.erase();
      for (Operation *user : llvm::to_vector(accumulator->getUsers()))
        user->erase(); // its deallocs
      accumulator->erase();
      return;
    }

    // out[n, th * m + a, tw * m + b, k] += (A^T M A)[a][b].
    SmallVector<Value> outTiles;
    for (int64_t p = 0; p < m * m; ++p)
      outTiles.push_back(
          positionView(b, loc, conv.output, identity, m, p / m, p % m));
    SmallVector<AffineMap> outputMaps(e + m * m, identity);
    linalg::GenericOp::create(
        b, loc, ValueRange(mPlanes), ValueRange(outTiles), outputMaps,
        parallel4, [&](OpBuilder &nb, Location nloc, ValueRange args) {
          SmallVector<Value> planes(args.take_front(e));
          SmallVector<Value> initial(args.drop_front(e));
          SmallVector<Value> result =
              transformTile(nb, nloc, matrices.at, m, alpha, planes, initial);
          linalg::YieldOp::create(nb, nloc, result);
        });
    memref::DeallocOp::create(b, loc, v);
    memref::DeallocOp::create(b, loc, product);
    op.erase();
  }
};

} // namespace

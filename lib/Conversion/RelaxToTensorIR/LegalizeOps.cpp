//===- LegalizeOps.cpp - relax-legalize-ops ---------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Replaces high-level relax ops by relax.call_tir of generated tensorir
// kernels (TVM's LegalizeOps). The kernels themselves come from the
// per-family tables in Legalize*.cpp.
//
//===----------------------------------------------------------------------===//

#include "mlc/Conversion/RelaxToTensorIR/LegalizeOps.h"
#include "mlc/Conversion/RelaxToTensorIR/Passes.h"

#include "Legalizations.h"
#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace mlc {
#define GEN_PASS_DEF_RELAXLEGALIZEOPS
#include "mlc/Conversion/RelaxToTensorIR/Passes.h.inc"
} // namespace mlc

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

SmallVector<Value>
mlc::legalize::getBroadcastIndices(OpBuilder &b, Location loc, Value input,
                                   ValueRange outputIndices,
                                   ArrayRef<int64_t> outputShape) {
  auto type = cast<MemRefType>(input.getType());
  int64_t rank = type.getRank();
  int64_t offset = static_cast<int64_t>(outputIndices.size()) - rank;
  SmallVector<Value> indices;
  Value zero;
  for (int64_t j = 0; j < rank; ++j) {
    // An output dimension of size 1 too: its index is 0 as well, and
    // reading at it keeps the load at the block's iteration variables (a
    // batch-1 convolution's elementwise epilogue then inlines into the
    // convolution's write-back).
    bool unitOutput = !outputShape.empty() && outputShape[offset + j] == 1;
    if (type.getDimSize(j) == 1 && !unitOutput) {
      if (!zero)
        zero = arith::ConstantIndexOp::create(b, loc, 0);
      indices.push_back(zero);
      continue;
    }
    indices.push_back(outputIndices[offset + j]);
  }
  return indices;
}

Value mlc::legalize::load(OpBuilder &b, Location loc, Value buffer,
                          ValueRange indices) {
  return memref::LoadOp::create(b, loc, buffer, indices);
}

Type mlc::legalize::getElementType(Value buffer) {
  return cast<MemRefType>(buffer.getType()).getElementType();
}

//===----------------------------------------------------------------------===//
// Kernel building
//===----------------------------------------------------------------------===//

/// The op library, built once (the builders capture nothing).
static const LegalizationTable &getLegalizationTable() {
  static const LegalizationTable table = [] {
    LegalizationTable table;
    populateElementwiseLegalizations(table);
    populateManipulationLegalizations(table);
    populateReductionLegalizations(table);
    populateNNLegalizations(table);
    populateNormalizationLegalizations(table);
    populateImageLegalizations(table);
    populateAttentionLegalizations(table);
    return table;
  }();
  return table;
}

/// The buffer type of a (possibly symbolic) tensor: same shape and element
/// type, identity layout; the `#relax.shape` encoding is dropped because
/// kernels read sizes from their buffers.
static MemRefType getBufferType(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// The kernel's base name: the op name without `relax.` and `nn.`.
static std::string getKernelBaseName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("relax.");
  name.consume_front("nn.");
  std::string result = name.str();
  std::replace(result.begin(), result.end(), '.', '_');
  return result;
}

/// The kernel's symbol: its base name, with a suffix for names of C math
/// functions.
static std::string getKernelSymbolName(StringRef baseName) {
  // Kernels become symbols of the compiled module. One named like a C math
  // function would capture the calls LLVM emits for that function (f64
  // exp/log/tanh/erf lower to libm calls), so those get a suffix.
  static constexpr llvm::StringLiteral kLibmNames[] = {
      "abs",   "acos",  "acosh", "asin",     "asinh", "atan",  "atanh",
      "ceil",  "cos",   "cosh",  "erf",      "exp",   "floor", "fmod",
      "isinf", "isnan", "log",   "isfinite", "pow",   "round", "sin",
      "sinh",  "sqrt",  "tan",   "tanh",     "trunc", "rsqrt", "sign"};
  if (llvm::is_contained(kLibmNames, baseName))
    return (baseName + "_kernel").str();
  return baseName.str();
}

bool mlc::hasKernelFor(StringRef opName) {
  return getLegalizationTable().lookup(opName) != nullptr;
}

FailureOr<tensorir::PrimFuncOp> mlc::buildKernelFor(Operation *op,
                                                    OpBuilder &builder) {
  const KernelBuilderFn *buildKernel =
      getLegalizationTable().lookup(op->getName().getStringRef());
  if (!buildKernel)
    return op->emitOpError("has no legalization to a tensorir kernel; leave "
                           "it to an external library with skip-ops=")
           << op->getName();
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  std::string baseName = getKernelBaseName(op);
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes())) {
    if (!isa<RankedTensorType>(type))
      return op->emitOpError("operand #")
             << i << " has type " << type
             << "; legalization needs ranked tensors";
    argTypes.push_back(getBufferType(type));
    argNames.push_back(i < 26 ? std::string(1, 'A' + i)
                              : "A" + std::to_string(i));
  }
  for (auto [i, type] : llvm::enumerate(op->getResultTypes())) {
    if (!isa<RankedTensorType>(type))
      return op->emitOpError("result #")
             << i << " has type " << type
             << "; legalization needs ranked tensors";
    argTypes.push_back(getBufferType(type));
    argNames.push_back(op->getNumResults() == 1
                           ? "T_" + baseName
                           : "T_" + baseName + "_" + std::to_string(i));
  }

  tensorir::PrimFuncBuilder kernel(
      builder, op->getLoc(), getKernelSymbolName(baseName), argTypes, argNames);
  tensorir::PrimFuncOp primFunc = kernel.getFunction();
  primFunc.setPrivate();
  ValueRange args = primFunc.getArguments();
  if (failed((*buildKernel)(op, kernel, args.take_front(op->getNumOperands()),
                            args.drop_front(op->getNumOperands())))) {
    primFunc.erase();
    return failure();
  }
  kernel.finish();
  // A kernel the builder could not make valid (e.g. a loop over a zero-size
  // dimension: TensorIR extents are positive) is an error at the relax op,
  // with the verifier's reason, instead of a verifier failure on a kernel
  // the user never wrote.
  std::string reason;
  LogicalResult valid = success();
  {
    ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
      if (reason.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
        reason = diag.str();
      return success();
    });
    valid = mlir::verify(primFunc);
  }
  if (failed(valid)) {
    primFunc.erase();
    InFlightDiagnostic diag =
        op->emitOpError("cannot be legalized: its kernel is invalid (")
        << reason << ")";
    for (auto [what, types] :
         {std::make_pair("operand", TypeRange(op->getOperandTypes())),
          std::make_pair("result", TypeRange(op->getResultTypes()))})
      for (auto [i, type] : llvm::enumerate(types))
        if (auto shaped = dyn_cast<RankedTensorType>(type);
            shaped && llvm::is_contained(shaped.getShape(), 0))
          diag.attachNote() << what << " #" << i << " has type " << type
                            << ", with a zero-size dimension; TensorIR loops "
                               "have positive extents";
    return failure();
  }
  return primFunc;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Ops that stay in a graph function after legalization (TVM's host-side
/// operators).
static bool isHostOp(Operation *op) {
  return isa<relax::DataflowOp, relax::OutputOp, relax::CallTIROp,
             relax::CallDPSPackedOp, relax::MatchCastOp, relax::ConstantOp>(op);
}

std::string mlc::getKernelKey(Operation *op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << ' ' << op->getAttrDictionary() << ' ';
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << " -> ";
  llvm::interleaveComma(op->getResultTypes(), os);
  return key;
}

namespace {
struct RelaxLegalizeOpsPass
    : public mlc::impl::RelaxLegalizeOpsBase<RelaxLegalizeOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringSet<> skip;
    for (const std::string &name : skipOps)
      skip.insert(name);

    auto *relaxDialect = getContext().getLoadedDialect<relax::RelaxDialect>();
    SmallVector<Operation *> worklist;
    for (auto func : module.getOps<func::FuncOp>())
      func.walk([&](Operation *op) {
        if (op->getDialect() == relaxDialect && !isHostOp(op) &&
            !skip.contains(op->getName().getStringRef()))
          worklist.push_back(op);
      });

    SymbolTable symbols(module);
    llvm::StringMap<FlatSymbolRefAttr> kernels;
    bool failed = false;
    for (Operation *op : worklist) {
      FlatSymbolRefAttr &callee = kernels[getKernelKey(op)];
      if (!callee) {
        // Built before the op's function; inserting renames the kernel when
        // the op's name is already taken.
        OpBuilder builder(op->getParentOfType<func::FuncOp>());
        FailureOr<tensorir::PrimFuncOp> kernel = buildKernelFor(op, builder);
        if (mlir::failed(kernel)) {
          failed = true;
          continue;
        }
        callee = FlatSymbolRefAttr::get(symbols.insert(*kernel));
      }
      OpBuilder builder(op);
      auto call = relax::CallTIROp::create(
          builder, op->getLoc(), op->getResultTypes(), callee,
          op->getOperands(), /*tir_vars=*/relax::ShapeAttr());
      op->replaceAllUsesWith(call.getResults());
      op->erase();
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace

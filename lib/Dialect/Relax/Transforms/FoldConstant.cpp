//===- FoldConstant.cpp - relax-fold-constant -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Folds operations with constant operands: through their fold hooks, and by
// interpreting the tensorir kernel of the op (its legalization, or the
// callee of a relax.call_tir).
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"

#include "mlc/Conversion/RelaxToTensorIR/LegalizeOps.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/Utils/Interpreter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "relax-fold-constant"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXFOLDCONSTANT
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc;
using namespace mlc::relax;

/// Results with more elements than this become dense_resource blobs.
static constexpr int64_t kResourceThreshold = 1024;

/// Ops that are not computations of their own (TVM's host-side operators);
/// relax.call_tir is handled separately.
static bool isHostOp(Operation *op) {
  return isa<DataflowOp, OutputOp, CallTIROp, CallDPSPackedOp, MatchCastOp,
             ConstantOp>(op);
}

/// A key that is equal for ops that get the same kernel.
static std::string getKernelKey(Operation *op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << ' ' << op->getAttrDictionary() << ' ';
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << " -> ";
  llvm::interleaveComma(op->getResultTypes(), os);
  return key;
}

namespace {

struct RelaxFoldConstantPass
    : mlc::relax::impl::RelaxFoldConstantBase<RelaxFoldConstantPass> {
  using RelaxFoldConstantBase::RelaxFoldConstantBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Kernels of relax ops are built in a module of their own.
    OwningOpRef<ModuleOp> scratchModule =
        ModuleOp::create(UnknownLoc::get(context));
    scratch = *scratchModule;
    kernels.clear();
    // No patterns: the greedy driver folds, materializes constants, merges
    // equal constants and removes dead ones.
    FrozenRewritePatternSet patterns{RewritePatternSet(context)};
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Each evaluation round replaces ops by constants in program order,
      // so chains fold in one round; the folders may expose more.
      failedOps.clear();
      bool changed = true;
      while (changed) {
        if (failed(applyPatternsGreedily(func.getBody(), patterns, config))) {
          func.emitError("relax-fold-constant did not converge");
          kernels.clear();
          return signalPassFailure();
        }
        changed = evaluateConstantOps(func);
      }
    }
    kernels.clear();
    failedOps.clear();
    scratch = nullptr;
  }

  /// Replaces every evaluable op with constant operands in `func`; returns
  /// whether anything changed.
  bool evaluateConstantOps(func::FuncOp func) {
    auto *relaxDialect = getContext().getLoadedDialect<RelaxDialect>();
    SmallVector<Operation *> worklist;
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op->getDialect() == relaxDialect &&
          (isa<CallTIROp>(op) ||
           (!isHostOp(op) && hasKernelFor(op->getName().getStringRef()))))
        worklist.push_back(op);
    });
    bool changed = false;
    for (Operation *op : worklist)
      if (!failedOps.contains(op))
        changed |= succeeded(tryEvaluate(op));
    return changed;
  }

  /// The operands' constant values and the results' types, if `op` is to be
  /// evaluated.
  LogicalResult getConstantOperands(Operation *op,
                                    SmallVectorImpl<ElementsAttr> &values) {
    for (Value operand : op->getOperands()) {
      auto constant = operand.getDefiningOp<ConstantOp>();
      if (!constant)
        return failure();
      values.push_back(constant.getValue());
    }
    int64_t elements = 0;
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() || tensor.getEncoding() ||
          !tensorir::Buffer::getElementByteSize(tensor.getElementType()))
        return failure();
      elements += tensor.getNumElements();
    }
    if (elements > maxElements) {
      LLVM_DEBUG(llvm::dbgs() << "not folding " << op->getName() << ": "
                              << elements << " result elements\n");
      return failure();
    }
    return success();
  }

  /// The kernel computing `op`, built once per kind of op in the scratch
  /// module; null if the op library cannot build it (its diagnostics are
  /// dropped: relax-legalize-ops reports them).
  tensorir::PrimFuncOp getKernel(Operation *op) {
    std::string key = getKernelKey(op);
    auto it = kernels.find(key);
    if (it != kernels.end())
      return it->second;
    ScopedDiagnosticHandler silence(&getContext(),
                                    [](Diagnostic &) { return success(); });
    OpBuilder builder = OpBuilder::atBlockEnd(scratch.getBody());
    FailureOr<tensorir::PrimFuncOp> kernel = buildKernelFor(op, builder);
    tensorir::PrimFuncOp result = succeeded(kernel) ? *kernel : nullptr;
    if (result)
      SymbolTable(scratch).insert(result); // unique names
    kernels[key] = result;
    return result;
  }

  LogicalResult tryEvaluate(Operation *op) {
    SmallVector<ElementsAttr> values;
    if (failed(getConstantOperands(op, values)))
      return failure();
    tensorir::PrimFuncOp kernel;
    if (auto call = dyn_cast<CallTIROp>(op)) {
      if (call.getTirVars())
        return failure();
      kernel = SymbolTable::lookupNearestSymbolFrom<tensorir::PrimFuncOp>(
          call, call.getCalleeAttr());
    } else {
      kernel = getKernel(op);
    }
    if (!kernel)
      return failure();

    SmallVector<tensorir::Buffer> buffers;
    for (ElementsAttr value : values) {
      FailureOr<tensorir::Buffer> buffer = tensorir::Buffer::fromAttr(value);
      if (failed(buffer))
        return failure();
      buffers.push_back(std::move(*buffer));
    }
    for (Type type : op->getResultTypes()) {
      auto tensor = cast<RankedTensorType>(type);
      buffers.emplace_back(tensor.getElementType(), tensor.getShape());
    }

    // Run the kernel; its errors become notes of one warning at the op.
    SmallVector<std::pair<Location, std::string>> errors;
    LogicalResult result = success();
    {
      ScopedDiagnosticHandler collect(&getContext(), [&](Diagnostic &diag) {
        errors.emplace_back(diag.getLocation(), diag.str());
        return success();
      });
      result = tensorir::interpret(kernel, buffers, maxSteps);
    }
    if (failed(result)) {
      InFlightDiagnostic diag =
          op->emitWarning("relax-fold-constant: cannot evaluate the kernel @")
          << kernel.getSymName() << " of these constant operands; left "
          << "unfolded";
      for (auto &[loc, message] : errors)
        diag.attachNote(loc) << message;
      failedOps.insert(op); // warn once
      return failure();
    }

    OpBuilder builder(op);
    SmallVector<Value> replacements;
    ArrayRef<tensorir::Buffer> outputs =
        ArrayRef(buffers).drop_front(op->getNumOperands());
    for (auto [type, output] : llvm::zip(op->getResultTypes(), outputs)) {
      auto tensor = cast<RankedTensorType>(type);
      ElementsAttr value = output.toAttr(
          tensor, tensor.getNumElements() > kResourceThreshold ? "folded" : "");
      replacements.push_back(ConstantOp::create(builder, op->getLoc(), value));
    }
    op->replaceAllUsesWith(replacements);
    op->erase();
    return success();
  }

  /// The scratch module of the current run (owned by runOnOperation).
  ModuleOp scratch;
  llvm::StringMap<tensorir::PrimFuncOp> kernels;
  /// Ops of the current function whose kernel failed to run.
  llvm::DenseSet<Operation *> failedOps;
};

} // namespace

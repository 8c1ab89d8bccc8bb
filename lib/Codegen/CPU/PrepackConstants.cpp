//===- PrepackConstants.cpp - constants stored as the kernels read them ---===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Reorders at compile time the constant globals that kernels read as packed
// slivers (mlc.packed_slivers, set by the default schedule), so that the
// packing leaves the inference (TVM's AlterOpLayout on bound weights).
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Codegen/CPU/Passes.h"
#include "mlc/Support/SymbolUsers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <cstring>

namespace mlc {
#define GEN_PASS_DEF_CPUPREPACKCONSTANTSPASS
#include "mlc/Codegen/CPU/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

struct CPUPrepackConstantsPass
    : public mlc::impl::CPUPrepackConstantsPassBase<CPUPrepackConstantsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // (original global, sliver width) -> the packed global.
    llvm::DenseMap<std::pair<Operation *, int64_t>, memref::GlobalOp> packed;
    llvm::SmallPtrSet<Operation *, 8> replaced;
    // Every symbol's users from one walk (mlc/Support/SymbolUsers.h).
    // Rewriting a call's operands keeps the call.
    std::optional<mlc::SymbolUsers> usersOf =
        mlc::collectSymbolUsers(module.getBodyRegion());
    if (!usersOf) {
      module.emitError() << "mlc-cpu-prepack-constants: cannot find the "
                            "uses of the module's symbols";
      return signalPassFailure();
    }
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        auto width =
            func.getArgAttrOfType<IntegerAttr>(i, mlc::kPackedSliversAttr);
        if (!width)
          continue;
        for (Operation *user : usersOf->lookup(func.getSymNameAttr())) {
          auto call = dyn_cast<func::CallOp>(user);
          if (!call || call.getNumOperands() <= i) {
            user->emitError()
                << "mlc-cpu-prepack-constants: @" << func.getSymName()
                << " reads argument #" << i
                << " as packed slivers, but this use of it is not a call";
            return signalPassFailure();
          }
          FailureOr<memref::GlobalOp> global =
              packedGlobal(call.getOperand(i), width.getInt(), symbols, packed);
          if (failed(global)) {
            call.emitError()
                << "mlc-cpu-prepack-constants: @" << func.getSymName()
                << " reads argument #" << i << " as slivers of "
                << width.getInt()
                << " columns, but this call passes it no constant global "
                   "with its elements (memref.get_global of a constant)";
            return signalPassFailure();
          }
          auto get = call.getOperand(i).getDefiningOp<memref::GetGlobalOp>();
          if (*global == symbols.lookup(get.getName()))
            continue;
          replaced.insert(symbols.lookup(get.getName()));
          OpBuilder builder(call);
          Value value = memref::GetGlobalOp::create(
              builder, get.getLoc(), get.getType(), global->getSymName());
          call->setOperand(i, value);
          if (get->use_empty())
            get->erase();
        }
      }
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        func.removeArgAttr(i, mlc::kPackedSliversAttr);
        func.removeArgAttr(i, mlc::kConstantArgumentAttr);
      }
    }
    // The originals that nothing reads any more.
    mlc::eraseUnusedSymbols(symbols, module.getBodyRegion(),
                            llvm::to_vector(replaced));
  }

  /// The global that holds `value`'s constant (a memref.get_global result)
  /// as slivers of `width` columns: made once per global and width (the
  /// global itself for a splat).
  FailureOr<memref::GlobalOp>
  packedGlobal(Value value, int64_t width, SymbolTable &symbols,
               llvm::DenseMap<std::pair<Operation *, int64_t>, memref::GlobalOp>
                   &packed) {
    auto get = value.getDefiningOp<memref::GetGlobalOp>();
    if (!get)
      return failure();
    auto global = symbols.lookup<memref::GlobalOp>(get.getName());
    if (!global || !global.getConstant() || !global.getInitialValue())
      return failure();
    auto found = packed.find({global, width});
    if (found != packed.end())
      return found->second;
    MemRefType type = global.getType();
    Type element = type.getElementType();
    if (!type.hasStaticShape() || type.getRank() < 2 ||
        !element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
      return failure();
    int64_t bytes = element.getIntOrFloatBitWidth() / 8;
    int64_t n = type.getShape().back();
    int64_t k = type.getNumElements() / n;
    if (width <= 0 || n % width != 0)
      return failure();
    FailureOr<std::optional<ArrayRef<char>>> raw = mlc::cpu::getConstantBytes(
        *global.getInitialValue(), type.getNumElements() * bytes);
    if (failed(raw))
      return failure();
    if (!*raw) {
      packed[{global, width}] = global;
      return global;
    }
    // slivers[j][r][c] = constant[r][j * width + c]
    AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
        type.getNumElements() * bytes, /*align=*/64);
    char *out = blob.getMutableData().data();
    const char *in = (*raw)->data();
    int64_t row = width * bytes;
    for (int64_t j = 0; j < n / width; ++j)
      for (int64_t r = 0; r < k; ++r)
        std::memcpy(out + (j * k + r) * row, in + (r * n + j * width) * bytes,
                    row);
    std::string name = (global.getSymName() + "_slivers" + Twine(width)).str();
    auto tensorType = RankedTensorType::get(type.getShape(), element);
    OpBuilder builder(global);
    auto result = memref::GlobalOp::create(
        builder, global.getLoc(), name, builder.getStringAttr("private"), type,
        DenseResourceElementsAttr::get(tensorType, name, std::move(blob)),
        /*constant=*/true, global.getAlignmentAttr());
    symbols.insert(result);
    packed[{global, width}] = result;
    return result;
  }
};

} // namespace

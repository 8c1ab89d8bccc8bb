//===- FuseTIR.cpp - relax-fuse-tir -----------------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// TVM's FuseTIR: each primitive function made by relax-fuse-ops (a sequence
// of relax.call_tir) becomes one tensorir.prim_func holding the callees'
// bodies in order, with the intermediate tensors as internal buffers, and
// its calls become one relax.call_tir each.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Relax/Transforms/Passes.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"
#include "mlc/Dialect/TensorIR/IR/TensorIRUtils.h"
#include "mlc/Support/SymbolUsers.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlc::relax {
#define GEN_PASS_DEF_RELAXFUSETIR
#include "mlc/Dialect/Relax/Transforms/Passes.h.inc"
} // namespace mlc::relax

using namespace mlir;
using namespace mlc::relax;
namespace tir = mlc::tensorir;

namespace {

static MemRefType bufferType(Type tensorType) {
  auto tensor = cast<RankedTensorType>(tensorType);
  return MemRefType::get(tensor.getShape(), tensor.getElementType());
}

/// Makes the names of the blocks under `root` unique among `used`.
static void uniquifyBlockNames(Operation *root, llvm::StringSet<> &used) {
  root->walk([&](tir::BlockOp block) {
    std::string name = block.getName().str();
    if (used.contains(name)) {
      unsigned k = 1;
      while (used.contains(name + "_" + std::to_string(k)))
        ++k;
      name += "_" + std::to_string(k);
      block.setName(name);
    }
    used.insert(name);
  });
}

//===----------------------------------------------------------------------===//
// Inlining of intermediates
//===----------------------------------------------------------------------===//

/// The producer of an inlinable intermediate: a block of spatial iteration
/// variables, directly in a perfect nest of loops that holds nothing else,
/// whose body stores exactly buffer[iter vars] once, from pure scalar code
/// and loads of other buffers.
struct Producer {
  tir::BlockOp block;
  memref::StoreOp store;
  Operation *nestRoot;
};

static std::optional<Producer> matchProducer(Value buffer, Operation *scope) {
  SmallVector<memref::StoreOp> stores;
  bool otherUse = false;
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (store.getMemRef() == buffer)
        stores.push_back(store);
      else
        otherUse = true;
    } else if (auto load = dyn_cast<memref::LoadOp>(user)) {
      (void)load;
    } else if (!isa<tir::BlockOp>(user)) {
      // Region operands of blocks are fine (recomputed); anything else
      // (copies, casts, calls) keeps the buffer.
      otherUse = true;
    }
  }
  if (otherUse || stores.size() != 1)
    return std::nullopt;
  memref::StoreOp store = stores.front();
  auto block = store->getParentOfType<tir::BlockOp>();
  if (!block || store->getParentOp() != block || block.getPredicate() ||
      block.hasReduceIterVars() || block.getInitOp())
    return std::nullopt;
  // Stores exactly the iteration point, covering the whole buffer.
  MemRefType type = store.getMemRefType();
  if (!type.hasStaticShape() ||
      store.getIndices().size() != block.getNumIterVars())
    return std::nullopt;
  for (auto [i, idx] : llvm::enumerate(store.getIndices())) {
    if (idx != block.getIterVar(i))
      return std::nullopt;
    std::optional<int64_t> extent = block.getConstantExtent(i);
    if (!extent || *extent != type.getDimSize(i))
      return std::nullopt;
  }
  // The body: pure ops and loads of other buffers, then the store.
  for (Operation &op : block.getBodyBlock()->without_terminator()) {
    if (&op == store.getOperation())
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      if (load.getMemRef() == buffer)
        return std::nullopt;
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return std::nullopt;
  }
  // The loops around the block hold only it (and the bindings' math).
  Operation *nestRoot = block;
  while (auto loop = dyn_cast<tir::ForOp>(nestRoot->getParentOp())) {
    for (Operation &op : loop.getBodyBlock()->without_terminator())
      if (&op != nestRoot &&
          (op.getNumRegions() != 0 || !isMemoryEffectFree(&op)))
        return std::nullopt;
    nestRoot = loop;
  }
  if (nestRoot->getParentOp() != scope)
    return std::nullopt;
  return Producer{block, store, nestRoot};
}

/// Replaces each load of `buffer` by the producer's computation at the
/// load's indices, then erases the producer and the buffer.
static void inlineProducer(Value buffer, Producer producer,
                           llvm::SetVector<tir::BlockOp> &readers) {
  SmallVector<memref::LoadOp> loads;
  for (Operation *user : buffer.getUsers())
    if (auto load = dyn_cast<memref::LoadOp>(user))
      loads.push_back(load);
  llvm::SetVector<tir::BlockOp> touched;
  for (memref::LoadOp load : loads) {
    OpBuilder builder(load);
    IRMapping mapping;
    for (auto [i, idx] : llvm::enumerate(load.getIndices()))
      mapping.map(producer.block.getIterVar(i), idx);
    for (Operation &op : producer.block.getBodyBlock()->without_terminator()) {
      if (&op == producer.store.getOperation())
        break;
      builder.clone(op, mapping);
    }
    load.replaceAllUsesWith(
        mapping.lookupOrDefault(producer.store.getValueToStore()));
    if (auto reader = load->getParentOfType<tir::BlockOp>())
      touched.insert(reader);
    load.erase();
  }
  Operation *alloc = buffer.getDefiningOp();
  producer.nestRoot->erase();
  // Regions naming the buffer are recomputed below.
  for (tir::BlockOp reader : touched) {
    readers.insert(reader);
    reader.removeReadsAttr();
    reader.removeWritesAttr();
    reader.getReadBuffersMutable().clear();
    reader.getWriteBuffersMutable().clear();
  }
  if (alloc && alloc->use_empty())
    alloc->erase();
}

static LogicalResult inlineIntermediates(tir::PrimFuncOp func,
                                         ArrayRef<Value> intermediates) {
  llvm::SetVector<tir::BlockOp> readers;
  for (Value buffer : intermediates) {
    std::optional<Producer> producer = matchProducer(buffer, func);
    if (producer)
      inlineProducer(buffer, *producer, readers);
  }
  // Fill in the regions dropped above (outer blocks after inner ones).
  WalkResult result = func.walk([&](tir::BlockOp block) {
    if (!readers.contains(block))
      return WalkResult::advance();
    FailureOr<tir::AccessRegions> regions = tir::inferAccessRegions(block);
    if (failed(regions))
      return WalkResult::interrupt();
    block.setReadRegions(regions->readBuffers, regions->reads);
    block.setWriteRegions(regions->writeBuffers, regions->writes);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

/// Builds the prim_func for primitive function `func` (not inserted).
static FailureOr<tir::PrimFuncOp>
fuseFunction(func::FuncOp func, SymbolTable &symbols,
             llvm::SetVector<Operation *> &callees) {
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<CallTIROp> calls;
  bool noAlias = true;
  for (Operation &op : body.without_terminator()) {
    auto call = dyn_cast<CallTIROp>(op);
    if (!call)
      return op.emitOpError("cannot be fused into a prim_func by "
                            "relax-fuse-tir: primitive function @")
             << func.getSymName() << " may only hold relax.call_tir";
    if (call.getTirVars())
      return call.emitOpError("with tir_vars is not supported by "
                              "relax-fuse-tir");
    auto callee = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
    if (!callee)
      return call.emitOpError("callee @")
             << call.getCallee()
             << " is not a tensorir.prim_func; relax-fuse-tir cannot fuse it";
    noAlias &= callee->hasAttr(tir::TensorIRDialect::getNoAliasAttrName());
    calls.push_back(call);
    callees.insert(callee);
  }

  // Parameters: the arguments, then one output buffer per returned value.
  SmallVector<Type> paramTypes;
  for (Type type : func.getArgumentTypes())
    paramTypes.push_back(bufferType(type));
  DenseMap<Value, unsigned> outputIndex;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto result = dyn_cast<OpResult>(value);
    if (!result || !isa<CallTIROp>(result.getOwner()))
      return ret.emitOpError("returns value #")
             << i << ", which is not the result of a relax.call_tir; "
             << "relax-fuse-tir cannot fuse @" << func.getSymName();
    if (!outputIndex.try_emplace(value, paramTypes.size()).second)
      return ret.emitOpError("returns value #")
             << i << " twice; relax-fuse-tir cannot fuse @"
             << func.getSymName();
    paramTypes.push_back(bufferType(value.getType()));
  }

  OpBuilder builder(func.getContext());
  SmallVector<NamedAttribute> attrs;
  if (noAlias)
    attrs.push_back(builder.getNamedAttr(
        tir::TensorIRDialect::getNoAliasAttrName(), builder.getUnitAttr()));
  auto prim = tir::PrimFuncOp::create(builder, func.getLoc(), func.getSymName(),
                                      paramTypes, attrs);
  prim.setVisibility(func.getVisibility());
  Block *entry = &prim.getBody().front();
  builder.setInsertionPoint(entry->getTerminator());

  DenseMap<Value, Value> buffers;
  for (auto [arg, param] :
       llvm::zip(body.getArguments(), entry->getArguments()))
    buffers[arg] = param;
  SmallVector<Value> intermediates;
  llvm::StringSet<> blockNames;
  for (CallTIROp call : calls) {
    for (Value result : call.getResults()) {
      if (auto it = outputIndex.find(result); it != outputIndex.end()) {
        buffers[result] = entry->getArgument(it->second);
        continue;
      }
      MemRefType type = bufferType(result.getType());
      if (!type.hasStaticShape()) {
        prim.erase();
        return call.emitOpError("result ")
               << result.getType()
               << " has a dynamic shape; relax-fuse-tir needs static "
                  "intermediates";
      }
      Value buffer = tir::AllocBufferOp::create(builder, call.getLoc(), type);
      buffers[result] = buffer;
      intermediates.push_back(buffer);
    }
    auto callee = symbols.lookup<tir::PrimFuncOp>(call.getCallee());
    Block &calleeBody = callee.getBody().front();
    IRMapping mapping;
    SmallVector<Value> actuals;
    for (Value arg : call.getArgs())
      actuals.push_back(buffers.lookup(arg));
    for (Value result : call.getResults())
      actuals.push_back(buffers.lookup(result));
    for (auto [param, actual] : llvm::zip(calleeBody.getArguments(), actuals)) {
      // The callee may be more generic (memref<?x4xf32>).
      if (param.getType() != actual.getType())
        actual = memref::CastOp::create(builder, call.getLoc(), param.getType(),
                                        actual);
      mapping.map(param, actual);
    }
    for (Operation &op : calleeBody.without_terminator()) {
      Operation *clone = builder.clone(op, mapping);
      uniquifyBlockNames(clone, blockNames);
    }
  }
  if (failed(inlineIntermediates(prim, intermediates))) {
    prim.erase();
    return failure();
  }
  return prim;
}

struct FuseTIRPass : public mlc::relax::impl::RelaxFuseTIRBase<FuseTIRPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> primitives;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr("relax.primitive") && !func.isExternal())
        primitives.push_back(func);

    // Every symbol's users from one walk (mlc/Support/SymbolUsers.h). A
    // primitive function holds only call_tir ops, so fusing one does not
    // change the uses of another.
    std::optional<mlc::SymbolUsers> usersOf =
        mlc::collectSymbolUsers(module.getBodyRegion());
    if (!usersOf) {
      module.emitOpError("has symbol uses relax-fuse-tir cannot see");
      return signalPassFailure();
    }

    llvm::SetVector<Operation *> callees;
    for (func::FuncOp func : primitives) {
      FailureOr<tir::PrimFuncOp> prim = fuseFunction(func, symbols, callees);
      if (failed(prim))
        return signalPassFailure();
      // Calls of the function become calls of the prim_func.
      for (Operation *user : usersOf->lookup(func.getSymNameAttr())) {
        auto call = dyn_cast<func::CallOp>(user);
        if (!call) {
          user->emitOpError("refers to primitive function @")
              << func.getSymName()
              << " other than by func.call; relax-fuse-tir cannot replace it";
          return signalPassFailure();
        }
        OpBuilder builder(call);
        auto callTIR = CallTIROp::create(
            builder, call.getLoc(), call.getResultTypes(),
            FlatSymbolRefAttr::get(func.getSymNameAttr()), call.getOperands(),
            /*tir_vars=*/nullptr);
        call.replaceAllUsesWith(callTIR.getResults());
        call.erase();
      }
      Block::iterator where = std::next(func->getIterator());
      symbols.erase(func);
      symbols.insert(*prim, where);
    }
    // As TVM, the fused prim_funcs that nothing calls any more go.
    mlc::eraseUnusedSymbols(symbols, module.getBodyRegion(),
                            callees.getArrayRef());
  }
};

} // namespace

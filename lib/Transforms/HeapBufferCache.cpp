//===- HeapBufferCache.cpp - reuse of large freed heap buffers ------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Defines the generic allocation functions that finalize-memref-to-llvm
// calls with use-generic-functions (`_mlir_memref_to_llvm_alloc` and
// `_mlir_memref_to_llvm_free`) inside the module: malloc and free, but a
// freed block of at least `min-bytes` goes into one of `slots` slots, which
// later allocations of up to its size (and at least half of it) take back.
// The slots are shared by all threads and changed by atomic exchanges only.
// The functions are written here as LLVM dialect text and parsed.
//
//===----------------------------------------------------------------------===//

#include "mlc/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlc {
#define GEN_PASS_DEF_HEAPBUFFERCACHEPASS
#include "mlc/Transforms/Passes.h.inc"
} // namespace mlc

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAllocName = "_mlir_memref_to_llvm_alloc";
constexpr llvm::StringLiteral kFreeName = "_mlir_memref_to_llvm_free";

/// The cache, its functions and the declarations they call. {0}: the number
/// of slots, {1}: the smallest size cached.
constexpr llvm::StringLiteral kCacheTemplate = R"mlir(
module {{
  llvm.mlir.global internal @__mlc_heap_cache() {{alignment = 64 : i64} : !llvm.array<{0} x ptr> {{
    %0 = llvm.mlir.zero : !llvm.array<{0} x ptr>
    llvm.return %0 : !llvm.array<{0} x ptr>
  }
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @malloc_usable_size(!llvm.ptr) -> i64
  // A cached block of `size` to twice `size` bytes, else a new one.
  llvm.func internal @_mlir_memref_to_llvm_alloc(%size: i64) -> !llvm.ptr {{
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %slots = llvm.mlir.constant({0} : i64) : i64
    %min = llvm.mlir.constant({1} : i64) : i64
    %null = llvm.mlir.zero : !llvm.ptr
    %cache = llvm.mlir.addressof @__mlc_heap_cache : !llvm.ptr
    %small = llvm.icmp "ult" %size, %min : i64
    llvm.cond_br %small, ^fresh, ^search(%c0 : i64)
  ^search(%i: i64):
    %done = llvm.icmp "eq" %i, %slots : i64
    llvm.cond_br %done, ^fresh, ^probe
  ^probe:
    %slot = llvm.getelementptr %cache[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<{0} x ptr>
    %block = llvm.atomicrmw xchg %slot, %null acq_rel : !llvm.ptr, !llvm.ptr
    %empty = llvm.icmp "eq" %block, %null : !llvm.ptr
    llvm.cond_br %empty, ^next, ^check
  ^check:
    %usable = llvm.call @malloc_usable_size(%block) : (!llvm.ptr) -> i64
    %large = llvm.icmp "uge" %usable, %size : i64
    %twice = llvm.shl %size, %c1 : i64
    %close = llvm.icmp "ule" %usable, %twice : i64
    %fits = llvm.and %large, %close : i1
    llvm.cond_br %fits, ^hit, ^putBack
  ^putBack:
    %swap = llvm.cmpxchg %slot, %null, %block acq_rel monotonic : !llvm.ptr, !llvm.ptr
    %stored = llvm.extractvalue %swap[1] : !llvm.struct<(ptr, i1)>
    llvm.cond_br %stored, ^next, ^release
  ^release:
    llvm.call @free(%block) : (!llvm.ptr) -> ()
    llvm.br ^next
  ^next:
    %i1 = llvm.add %i, %c1 : i64
    llvm.br ^search(%i1 : i64)
  ^hit:
    llvm.return %block : !llvm.ptr
  ^fresh:
    %new = llvm.call @malloc(%size) : (i64) -> !llvm.ptr
    llvm.return %new : !llvm.ptr
  }
  // Into an empty slot if it is large enough and there is one, else free.
  llvm.func internal @_mlir_memref_to_llvm_free(%block: !llvm.ptr) {{
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %slots = llvm.mlir.constant({0} : i64) : i64
    %min = llvm.mlir.constant({1} : i64) : i64
    %null = llvm.mlir.zero : !llvm.ptr
    %cache = llvm.mlir.addressof @__mlc_heap_cache : !llvm.ptr
    %isNull = llvm.icmp "eq" %block, %null : !llvm.ptr
    llvm.cond_br %isNull, ^done, ^size
  ^size:
    %usable = llvm.call @malloc_usable_size(%block) : (!llvm.ptr) -> i64
    %small = llvm.icmp "ult" %usable, %min : i64
    llvm.cond_br %small, ^release, ^search(%c0 : i64)
  ^search(%i: i64):
    %full = llvm.icmp "eq" %i, %slots : i64
    llvm.cond_br %full, ^release, ^probe
  ^probe:
    %slot = llvm.getelementptr %cache[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<{0} x ptr>
    %swap = llvm.cmpxchg %slot, %null, %block acq_rel monotonic : !llvm.ptr, !llvm.ptr
    %stored = llvm.extractvalue %swap[1] : !llvm.struct<(ptr, i1)>
    %i1 = llvm.add %i, %c1 : i64
    llvm.cond_br %stored, ^done, ^search(%i1 : i64)
  ^release:
    llvm.call @free(%block) : (!llvm.ptr) -> ()
    llvm.br ^done
  ^done:
    llvm.return
  }
  // When the module is unloaded: the cached blocks go back to the heap.
  llvm.func internal @__mlc_heap_cache_release() {{
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %slots = llvm.mlir.constant({0} : i64) : i64
    %null = llvm.mlir.zero : !llvm.ptr
    %cache = llvm.mlir.addressof @__mlc_heap_cache : !llvm.ptr
    llvm.br ^loop(%c0 : i64)
  ^loop(%i: i64):
    %done = llvm.icmp "eq" %i, %slots : i64
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %slot = llvm.getelementptr %cache[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<{0} x ptr>
    %block = llvm.atomicrmw xchg %slot, %null acq_rel : !llvm.ptr, !llvm.ptr
    llvm.call @free(%block) : (!llvm.ptr) -> ()
    %i1 = llvm.add %i, %c1 : i64
    llvm.br ^loop(%i1 : i64)
  ^exit:
    llvm.return
  }
}
)mlir";

struct HeapBufferCachePass
    : public mlc::impl::HeapBufferCachePassBase<HeapBufferCachePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    auto alloc = symbols.lookup<LLVM::LLVMFuncOp>(kAllocName);
    auto dealloc = symbols.lookup<LLVM::LLVMFuncOp>(kFreeName);
    // Nothing to define: no generic allocation, or functions of the
    // embedder's own.
    if ((!alloc || !alloc.isExternal()) && (!dealloc || !dealloc.isExternal()))
      return;
    if ((alloc && !alloc.isExternal()) || (dealloc && !dealloc.isExternal())) {
      module.emitError() << "mlc-heap-buffer-cache: only one of " << kAllocName
                         << " and " << kFreeName << " is defined";
      return signalPassFailure();
    }
    if (slots <= 0 || minBytes < 0) {
      module.emitError() << "mlc-heap-buffer-cache: slots must be positive "
                            "and min-bytes non-negative, got slots = "
                         << static_cast<int64_t>(slots)
                         << ", min-bytes = " << static_cast<int64_t>(minBytes);
      return signalPassFailure();
    }
    std::string text =
        llvm::formatv(kCacheTemplate.data(), static_cast<int64_t>(slots),
                      static_cast<int64_t>(minBytes));
    OwningOpRef<ModuleOp> cache =
        parseSourceString<ModuleOp>(text, ParserConfig(&getContext()));
    if (!cache) {
      module.emitError() << "mlc-heap-buffer-cache: internal template does "
                            "not parse";
      return signalPassFailure();
    }
    if (alloc)
      alloc.erase();
    if (dealloc)
      dealloc.erase();
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (Operation &op : llvm::make_early_inc_range(*cache->getBody())) {
      auto name =
          op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
      if (name && module.lookupSymbol(name)) {
        // The module's own declarations of malloc and friends stay.
        auto function = dyn_cast<LLVM::LLVMFuncOp>(op);
        if (function && function.isExternal())
          continue;
        module.emitError() << "mlc-heap-buffer-cache: the module already "
                              "defines '"
                           << name.getValue() << "'";
        return signalPassFailure();
      }
      builder.insert(op.clone());
    }
    // Released when the module is unloaded, unless it has destructors of its
    // own (which the release would have to join).
    if (module.getOps<LLVM::GlobalDtorsOp>().empty()) {
      if (auto release = module.lookupSymbol<LLVM::LLVMFuncOp>(
              "__mlc_heap_cache_release")) {
        builder.setInsertionPointToEnd(module.getBody());
        LLVM::GlobalDtorsOp::create(
            builder, module.getLoc(),
            builder.getArrayAttr(FlatSymbolRefAttr::get(release)),
            builder.getI32ArrayAttr({65535}),
            builder.getArrayAttr(LLVM::ZeroAttr::get(&getContext())));
      }
    }
  }
};

} // namespace

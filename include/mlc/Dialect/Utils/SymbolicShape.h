//===- SymbolicShape.h - symbolic dimension expressions ---------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Symbolic dimensions for shape functions: a dimension is an `AffineExpr`
// over symbols (s0, s1, ...) that stand for named sizes (`n`, `batch`), with
// integer constants, +, *, floordiv, ceildiv and mod. A null AffineExpr is an
// unknown dimension without a name. `SymbolScope` maps names to symbols for
// one computation: shapes from different places (two operands, each with its
// own name table) are imported into one scope, combined there, and exported
// with a canonical name table (sorted, only the names used).
//
// AffineExpr is reused rather than a new tree type because MLIR already
// uniques it per context (equality is pointer equality) and simplifies it on
// construction (`n + n` is `n * 2`, `(n * 4) floordiv 2` is `n * 2`), which
// is exactly what "provably equal" needs for the shapes Relax sees. Imports
// and exports also put each expression in a normal form (sums flattened,
// like terms combined, terms and factors sorted), because AffineExpr alone
// keeps `m + n * 2` and `n * 2 + m` apart.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_SYMBOLICSHAPE_H
#define MLC_DIALECT_UTILS_SYMBOLICSHAPE_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlc {

/// One symbolic dimension; null means unknown (`?`).
using SymDim = mlir::AffineExpr;
/// A symbolic shape: one `SymDim` per dimension.
using SymShape = llvm::SmallVector<SymDim, 4>;

/// Names <-> symbol positions for one shape computation.
class SymbolScope {
public:
  explicit SymbolScope(mlir::MLIRContext *ctx) : ctx(ctx) {}

  mlir::MLIRContext *getContext() const { return ctx; }

  /// The symbol expression for `name`, adding it to the scope if new.
  SymDim getSymbol(mlir::StringAttr name);
  SymDim getSymbol(llvm::StringRef name);
  /// A constant dimension.
  SymDim getConstant(int64_t value) const;

  /// Imports dims written over the symbol table `names` (symbol i is
  /// `names[i]`) into this scope.
  SymShape import(llvm::ArrayRef<mlir::StringAttr> names,
                  llvm::ArrayRef<SymDim> dims);
  /// Imports a static/dynamic shape (kDynamic becomes unknown).
  SymShape importStatic(llvm::ArrayRef<int64_t> shape) const;

  /// Rewrites `dims` (over this scope) into a canonical name table: the names
  /// used, sorted, renumbered s0, s1, ... in that order.
  void exportCanonical(llvm::ArrayRef<SymDim> dims,
                       llvm::SmallVectorImpl<mlir::StringAttr> &names,
                       llvm::SmallVectorImpl<SymDim> &outDims) const;

  /// Human-readable form of one dimension: `n * 4 + 1`, `784`, `?`.
  std::string print(SymDim dim) const;
  /// Comma-separated form of a shape: `n, 784`.
  std::string print(llvm::ArrayRef<SymDim> dims) const;

  /// The names of the scope, indexed by symbol position.
  llvm::ArrayRef<mlir::StringAttr> getNames() const { return names; }

private:
  mlir::MLIRContext *ctx;
  llvm::SmallVector<mlir::StringAttr> names;
  llvm::DenseMap<mlir::StringAttr, unsigned> positions;
};

/// Prints `dim` using `names` for its symbols.
void printSymDim(llvm::raw_ostream &os, SymDim dim,
                 llvm::ArrayRef<mlir::StringAttr> names);

/// Parses one dimension (`?`, an integer, a name, or an expression of them
/// with + - * floordiv ceildiv mod and parentheses) into `scope`.
mlir::ParseResult parseSymDim(mlir::AsmParser &parser, SymbolScope &scope,
                              SymDim &dim);

/// The static size of `dim` if it is a constant.
std::optional<int64_t> getConstantSize(SymDim dim);

/// The static view of `dims`: constants as sizes, everything else kDynamic.
llvm::SmallVector<int64_t> getStaticShape(llvm::ArrayRef<SymDim> dims);

/// NumPy broadcasting of two symbolic shapes, layered on the shared static
/// rule (`mlc::broadcastShapes` in ShapeFunctions.h, Relay's BroadcastRel),
/// which decides every dimension where neither side is symbolic. Where one
/// side is: equal expressions give that expression, a constant 1 or an
/// unknown `?` gives the other side, anything else (`n` vs `m`, `n` vs 784)
/// is a conflict, because it cannot be proven equal -- stricter than TVM,
/// which falls back to an unknown shape. On error, `emitError` gets
/// "dimension D: A vs B" (D indexes the result, A and B printed with the
/// names of `scope`).
mlir::FailureOr<SymShape> broadcastSymbolicShapes(
    llvm::ArrayRef<SymDim> lhs, llvm::ArrayRef<SymDim> rhs,
    const SymbolScope &scope,
    llvm::function_ref<void(const llvm::Twine &)> emitError);

} // namespace mlc

#endif // MLC_DIALECT_UTILS_SYMBOLICSHAPE_H

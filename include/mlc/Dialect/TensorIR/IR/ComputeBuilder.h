//===- ComputeBuilder.h - te.compute-style prim_func builder ----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Builds `tensorir.prim_func`s the way TVM's `te.compute` +
// `te.create_prim_func` do: every stage is a loop nest over the output's
// index space with one `tensorir.block` whose spatial iteration variables are
// the output indices (plus reduce variables for reductions). This is the
// building kit of the operator library that `relax-legalize-ops` uses (mlc's
// TOPI), and of any other pass that needs to create kernels.
//
// A stage's scalar computation is a callback that receives the block's
// iteration variables and returns the value to store; it may load from any
// buffer of the function (with indices computed from the iteration variables
// only, as blocks require) and use arith/math ops. The read/write regions of
// each block are inferred as `tensorir-infer-access-regions` would.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_TENSORIR_IR_COMPUTEBUILDER_H
#define MLC_DIALECT_TENSORIR_IR_COMPUTEBUILDER_H

#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlc::tensorir {

/// Builds the body of one prim_func. Create it on an insertion point where
/// the function should go (usually the module body), add the stages, then
/// call `finish()`.
class PrimFuncBuilder {
public:
  /// Scalar value of one output element, given the block's iteration
  /// variables (spatial ones first, in output dimension order).
  using ElementFn = llvm::function_ref<mlir::Value(
      mlir::OpBuilder &, mlir::Location, mlir::ValueRange iterVars)>;
  /// A value without indices (reduction identities).
  using ScalarFn =
      llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location)>;
  /// Combines an accumulator with a new value (reductions).
  using CombineFn = llvm::function_ref<mlir::Value(
      mlir::OpBuilder &, mlir::Location, mlir::Value acc, mlir::Value value)>;
  /// Multi-output versions (TVM's tuple comm_reducers such as argmax's
  /// (index, value) pair): one value per output buffer.
  using MultiElementFn = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::OpBuilder &, mlir::Location, mlir::ValueRange iterVars)>;
  using MultiScalarFn = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::OpBuilder &, mlir::Location)>;
  using MultiCombineFn = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::OpBuilder &, mlir::Location, mlir::ValueRange accs,
      mlir::ValueRange values)>;

  /// Creates `tensorir.prim_func @name(args...)` with `tensorir.noalias` and
  /// the given argument names (`tensorir.name`; may be empty).
  PrimFuncBuilder(mlir::OpBuilder &builder, mlir::Location loc,
                  llvm::StringRef name, mlir::TypeRange argTypes,
                  llvm::ArrayRef<std::string> argNames = {});

  PrimFuncOp getFunction() { return func; }
  mlir::Value getArgument(unsigned i) { return func.getArgument(i); }
  mlir::Location getLoc() { return loc; }
  /// The builder, positioned at the end of the function body (before
  /// `tensorir.return`), for code outside of blocks (e.g. `memref.dim`).
  mlir::OpBuilder &getBuilder() { return builder; }

  /// The sizes of `buffer`'s dimensions: constants, or `memref.dim` values
  /// computed at the start of the function (buffer must be an argument or a
  /// function-level buffer).
  llvm::SmallVector<mlir::OpFoldResult> getSizes(mlir::Value buffer);

  /// `%name = tensorir.alloc_buffer` at function level (T.alloc_buffer).
  mlir::Value allocBuffer(mlir::MemRefType type, llvm::StringRef name,
                          mlir::ValueRange dynamicSizes = {});

  /// out[i...] = fn(i...) for every index of `out` (a spatial stage).
  void compute(llvm::StringRef blockName, mlir::Value out, ElementFn fn);

  /// out[i...] = combine(... combine(init, fn(i..., r0...)) ..., fn(i...,
  /// rN...)) over the reduce extents (TVM's te.sum / te.max / comm_reducer):
  /// the block has spatial variables for `out`'s dimensions followed by
  /// reduce variables, and a `tensorir.init` storing `init()`. `fn` gets the
  /// spatial and then the reduce iteration variables.
  void reduce(llvm::StringRef blockName, mlir::Value out,
              llvm::ArrayRef<mlir::OpFoldResult> reduceExtents, ScalarFn init,
              ElementFn fn, CombineFn combine);

  /// A reduction with several outputs of one shape in one block (TVM's
  /// tuple reducers, e.g. argmax's `A_red_temp` with an index and a value
  /// buffer): the init stores `init()[j]` into `outs[j]`; each step loads
  /// every accumulator and stores `combine(accs, fn(i..., r...))[j]` into
  /// `outs[j]`. `reduceExtents` must not be empty (tensorir.init needs a
  /// reduce variable).
  void reduceMulti(llvm::StringRef blockName, mlir::ValueRange outs,
                   llvm::ArrayRef<mlir::OpFoldResult> reduceExtents,
                   MultiScalarFn init, MultiElementFn fn,
                   MultiCombineFn combine);

  /// Stores of one element at positions computed from data (TVM's scatter
  /// loops): `fn` gets the iteration variables and does its own loads and
  /// stores.
  using UpdateFn = llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                                           mlir::ValueRange iterVars)>;
  /// A stage of data-dependent updates over `extents`: its iteration
  /// variables are all `reduce`, so the updates run in order (a later one to
  /// the same position wins) and never in parallel.
  void update(llvm::StringRef blockName,
              llvm::ArrayRef<mlir::OpFoldResult> extents, UpdateFn fn);

  /// Ends the function; returns it.
  PrimFuncOp finish();

private:
  /// Emits the loop nest and block of one stage.
  void buildStage(llvm::StringRef blockName, mlir::ValueRange outs,
                  llvm::ArrayRef<mlir::OpFoldResult> reduceExtents,
                  MultiScalarFn init, MultiElementFn fn,
                  MultiCombineFn combine);

  mlir::OpBuilder &builder;
  mlir::OpBuilder::InsertionGuard guard;
  mlir::Location loc;
  PrimFuncOp func;
  /// Where `memref.dim`s for dynamic sizes go: after the last one so far.
  mlir::OpBuilder::InsertPoint dimInsertPoint;
};

//===----------------------------------------------------------------------===//
// Scalar helpers: one entry point per operation for float and integer
// element types (TVM's tir operators on PrimExprs).
//===----------------------------------------------------------------------===//

/// The constant `value` of the scalar type `type` (float or integer, i1
/// included).
mlir::Value createScalarConstant(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Type type, double value);
/// The smallest / largest value of `type` (-inf / +inf for floats), the
/// identities of max and min reductions.
mlir::Value createLowestValue(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Type type);
mlir::Value createHighestValue(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Type type);

/// Arithmetic on two scalars of the same float or integer type (integers are
/// signed, as in TVM's int32/int64; `i1` acts as bool).
mlir::Value createAdd(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value createSub(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value createMul(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// Float division; integer division truncates (TVM's `truncdiv`, which is
/// what `relax.divide` on integers computes).
mlir::Value createDiv(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
/// Maximum / minimum; for floats NaN-propagating (`arith.maximumf`).
mlir::Value createMax(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);
mlir::Value createMin(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                      mlir::Value y);

/// The scalar comparison predicates of TVM's comparison ops.
enum class CompareKind { lt, gt, le, ge, eq, ne };
/// An `i1` comparing two scalars of one type (ordered for floats, except
/// `ne`, which is unordered like C's `!=`).
mlir::Value createCompare(mlir::OpBuilder &b, mlir::Location loc,
                          CompareKind kind, mlir::Value x, mlir::Value y);

/// Converts a scalar to another scalar type, with C/TVM semantics: float to
/// int truncates toward zero, int to float rounds, int widening is signed
/// (`i1` is unsigned: true → 1), narrowing truncates, and any to `i1` is
/// `!= 0`.
mlir::Value createCast(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type to);

} // namespace mlc::tensorir

#endif // MLC_DIALECT_TENSORIR_IR_COMPUTEBUILDER_H

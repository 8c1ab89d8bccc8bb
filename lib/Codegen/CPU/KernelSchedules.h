//===- KernelSchedules.h - kernel classes of the CPU schedule ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The kernel classes of the default CPU schedule (mlc-default-schedule), one
// file each: Contraction.cpp, Convolution.cpp, Pooling.cpp, Reduction.cpp and
// Elementwise.cpp. Each has its matcher where it needs one, its tiling (a
// method of KernelScheduler) and the rewrites of its register tile that the
// pass applies before vectorization (flattenConvTile, flattenWindowTile) or
// after it (splitReductionAcrossLanes). DefaultSchedule.cpp picks the class
// of each op and runs the steps.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H
#define MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlc::cpu {

/// The dimensions of a convolution-like op: out[.., m, .., n] +=
/// lhs[.., a*m + .., ..] * rhs[.., b*n + ..] where every other dimension
/// (batch, output rows, channels, kernel window) is walked one by one, so
/// that the register tile is a matmul of m rows by n (contiguous) columns.
struct ConvDims {
  unsigned m, n;
  /// Input operand numbers of the m (lhs, e.g. weights) and the n (rhs,
  /// e.g. image) operand.
  unsigned lhs, rhs;
};

/// Matches convolution-like ops (not contractions): two inputs whose
/// results are sums of dimensions, an output indexed by exactly the parallel
/// dimensions, its innermost dimension n in one input's innermost result
/// only, and a row dimension m in the other input only.
std::optional<ConvDims> matchConv(mlir::linalg::LinalgOp op);

/// Rewrites a convolution's register tile (every dimension but m and n of
/// extent one, static) into a matmul-shaped generic over (m, n, k) with k of
/// extent one, on rank-reduced (and for strides, strided) views of its
/// operands: its maps become projected permutations that the vectorizer
/// takes as a contraction.
mlir::linalg::LinalgOp flattenConvTile(mlir::RewriterBase &rewriter,
                                       mlir::linalg::LinalgOp op,
                                       const ConvDims &dims);

/// Rewrites a pointwise convolution (a 1x1 window at stride 1: its other
/// reduction dimensions of extent one) into a contraction whose n dimension
/// is the output's rows and columns as one, weights first (the lhs): the
/// vectors span whole rows, not a 7-pixel one. The fill and epilogue of a
/// fused kernel (matchEpilogue) and its temporary buffer collapse alike.
/// Fails, and changes nothing, on other ops.
mlir::LogicalResult collapsePointwiseConv(mlir::RewriterBase &rewriter,
                                          mlir::linalg::LinalgOp op);

/// The dimensions of a pooling-like reduction: out[.., n] = combine(out,
/// f(image[.., s * n + ..], scalars..)) over reduction dimensions that index
/// the image through sums (a window: `y * 2 + ky`), with n in the image's
/// innermost index only. The other inputs read are independent of n (one
/// value per step of the register tile, e.g. an NCHW depthwise
/// convolution's weight) or indexed by n alone in their innermost index (a
/// vector per step: an NHWC depthwise convolution's weights); unread ones
/// must be shape-only, indexed by reduction dimensions only, like the
/// window operand that convert-tensorir-to-linalg adds.
struct WindowDims {
  unsigned n;
  /// Input operand numbers of the image, of the inputs read along n and of
  /// the inputs independent of n.
  unsigned image;
  llvm::SmallVector<unsigned> vectors;
  llvm::SmallVector<unsigned> scalars;
};

std::optional<WindowDims> matchWindowReduction(mlir::linalg::LinalgOp op);

/// Rewrites a pooling register tile (every dimension but n of extent one,
/// static) into a one-dimensional elementwise generic over n on rank-reduced
/// (for strides, strided) views of the image, the inputs read along n and
/// the output, and 0-d views of the inputs independent of n; the shape-only
/// operands go away.
mlir::linalg::LinalgOp flattenWindowTile(mlir::RewriterBase &rewriter,
                                         mlir::linalg::LinalgOp op,
                                         const WindowDims &dims);

/// Splits the reduction of a register loop across vector lanes: a
/// loop-carried accumulator that each step reduces a vector into
/// (`acc = multi_reduction(v, acc)`, a horizontal reduction per step)
/// becomes a vector of partial results combined lane by lane (`lanes =
/// lanes + v`), reduced once after the loop. Like TVM's rfactor, this
/// reassociates the reduction.
void splitReductionAcrossLanes(mlir::RewriterBase &rewriter,
                               mlir::scf::ForOp loop);

/// A temporary buffer that a contraction or convolution accumulates into,
/// with the ops around it in a fused kernel: `fill` zeroes the buffer
/// before, `epilogue` (bias, activation, residual) reads it once after,
/// elementwise, and writes the kernel's output.
struct Epilogue {
  mlir::linalg::LinalgOp fill, epilogue;
};

/// Matches the fill and the epilogue of `op`'s output buffer: a buffer
/// allocated in the kernel, used by nothing else, where nothing between the
/// three ops touches memory and the epilogue's output is none of the
/// buffers that `op` or the epilogue read.
std::optional<Epilogue> matchEpilogue(mlir::linalg::LinalgOp op);

/// A register tile that tiling made of an op with an epilogue.
struct RegisterTile {
  /// Null when tiling could not make a register tile of every part.
  mlir::linalg::LinalgOp op;
  /// The outermost loop of the reduction around `op` inside its parallel
  /// loops; null when there is none.
  mlir::Operation *reductionNest = nullptr;
  /// A cache tile loop of the reduction outside the parallel loops (a
  /// contraction's k cache tile): the fill then runs in its first
  /// iteration and the epilogue in its last.
  mlir::scf::ForOp splitReduction;
  /// The tile is a convolution's, which flattenConvTile flattens: the
  /// fill and epilogue tiles are flattened alike (kFlattenMarker).
  bool flatten = false;
};

/// Runs the fill right before the reduction of each register tile and the
/// epilogue right after it, on the tile's elements, and erases the two ops.
/// Fails (and keeps them) when a tile cannot take them.
mlir::LogicalResult fuseEpilogue(mlir::RewriterBase &rewriter,
                                 Epilogue epilogue,
                                 llvm::ArrayRef<RegisterTile> tiles);

/// A contraction's K x N rhs panel packed as N / width slivers of K x width
/// elements, each contiguous (GotoBLAS's packed B): the register tile of a
/// column then streams its sliver instead of reading one row of the panel
/// (a different page at N = 1024) per k step. While the contraction is
/// tiled down to register columns, it reads `placeholder`, a K x N buffer
/// that nothing writes; readSlivers then moves each register column to its
/// sliver and erases the placeholder. If that fails, `materialize` (a copy
/// of the slivers into the placeholder) is scheduled and kept, so the
/// contraction reads a correct panel either way.
struct InterleavedPanel {
  mlir::Value placeholder;
  mlir::Value slivers;
  mlir::linalg::CopyOp materialize;
  int64_t width;
};

/// packTile's copy of a tile of a constant argument (one that every caller
/// passes a constant global: kConstantArgumentAttr) into the slivers of an
/// InterleavedPanel, or into an unpadded buffer one sliver wide (a
/// convolution task's weight columns), left unscheduled:
/// usePrepackedPanels makes the buffer a view of the argument stored in
/// sliver order instead where it can, and schedules the copy where it
/// cannot.
struct ConstantPanelCopy {
  mlir::linalg::CopyOp copy;
  /// The buffer the copy writes: n / width x k x width, or k.. x width.
  mlir::Value slivers;
  /// The tile of the argument (a view of it) the copy reads: rows (every
  /// dimension but the last) by n columns.
  mlir::Value tile;
  int64_t width;
  bool inParallelTask;
};

/// Tiles one op by its kernel class, with the tile sizes of the pass's
/// options (DefaultSchedulePass in mlc/Codegen/CPU/Passes.td); each class's
/// methods are in its file. The tiled ops and loops are left marked for the
/// pass's later steps (ScheduleUtils.h).
struct KernelScheduler {
  int64_t mRegister, nRegister, mParallel, kTile, nCacheTile, vectorWidth,
      convMRegister;
  /// When set, contractions and convolutions add their register tiles here
  /// (a null op when tiling stopped early), for fuseEpilogue.
  llvm::SmallVectorImpl<RegisterTile> *registerTiles = nullptr;
  /// When set, packTile leaves its copies of constant arguments' tiles
  /// into sliver panels unscheduled and adds them here.
  llvm::SmallVectorImpl<ConstantPanelCopy> *constantPanelCopies = nullptr;

  /// Tiling stopped early: the op is left partly tiled, with no register
  /// tile an epilogue could follow (a null entry in registerTiles).
  void giveUp() {
    if (registerTiles)
      registerTiles->push_back({});
  }

  /// Contractions: parallel m (or n) tiles, k and n cache tiles, an
  /// m-register x n-register tile over k steps of one. `parallelTasks`
  /// overrides whether the op is large enough for parallel tasks (the whole
  /// tiles split off a larger op keep its decision).
  void scheduleContraction(mlir::RewriterBase &rewriter,
                           mlir::linalg::LinalgOp op,
                           const mlir::linalg::ContractionDimensions &dims,
                           std::optional<bool> parallelTasks = std::nullopt);
  /// A contraction tile's register tiles: `columns` wide, `rows` high,
  /// over k steps of one (its part of scheduleContraction).
  void scheduleRegisterTiles(mlir::RewriterBase &rewriter,
                             mlir::linalg::LinalgOp op,
                             const mlir::linalg::ContractionDimensions &dims,
                             int64_t rows, int64_t columns,
                             std::optional<InterleavedPanel> &panel,
                             mlir::Operation *kCacheLoop);
  /// Convolutions: parallel m tiles and output rows, an m x n register tile
  /// over the reduction dimensions one by one.
  void scheduleConv(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                    const ConvDims &dims);
  /// The tiling that reductions and pooling windows share: about 16
  /// parallel tasks over the outermost parallel dimension of a large op;
  /// every parallel dimension one by one but `n`, tiled by `columns`; the
  /// reduction dimensions one by one around the register tile, with the
  /// accumulators in registers, `lanes` by the vector width with its
  /// reduction split across vector lanes. -1: no such dimension. Returns
  /// the register tile (a null op when tiling stopped early).
  RegisterTile tileReductionRegisters(mlir::RewriterBase &rewriter,
                                      mlir::linalg::LinalgOp op, int64_t n,
                                      int64_t columns, int64_t lanes);
  /// Pooling windows: parallel outer dimensions, a vector of output columns
  /// carried in registers across the window, each step an elementwise op on
  /// (strided) views.
  void schedulePooling(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                       const WindowDims &dims);
  /// Packs an operand tile of a contraction (see the definition); with
  /// `sliverWidth`, an rhs panel as column slivers (InterleavedPanel);
  /// without `padRows`, rows stay contiguous (a panel read row after row).
  std::optional<InterleavedPanel> packTile(mlir::RewriterBase &rewriter,
                                           mlir::linalg::LinalgOp op,
                                           unsigned dim, bool contiguousDim,
                                           int64_t sliverWidth = 0,
                                           bool padRows = true);
  /// Gives the channels-last image operand `image` of a convolution one
  /// more cache line per pixel when the register tile's pixels (every
  /// `pixelStride`-th) are a multiple of 1 KiB apart (a copy, which `op`
  /// then reads through a subview).
  void padImagePixels(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp op,
                      unsigned image, int64_t pixelStride);
  /// No reduction: parallel outermost dimension (unless `inParallelTask`),
  /// vectorized innermost.
  void scheduleElementwise(mlir::RewriterBase &rewriter,
                           mlir::linalg::LinalgOp op,
                           bool inParallelTask = false);
  /// Other reductions (sum, max, mean, the stages of softmax and norms):
  /// parallel outermost dimension, vectorized along the contiguous
  /// dimension, be it the output's or the reduced one.
  void scheduleReduction(mlir::RewriterBase &rewriter,
                         mlir::linalg::LinalgOp op);
};

/// Whether `tile` is a view (unit-stride subviews, possibly of the
/// argument's leading dimensions collapsed into one) of a function argument
/// marked kConstantArgumentAttr.
bool isConstantArgumentTile(mlir::Value tile);

/// Makes the buffers of `copies` views of their constant arguments where
/// every reader of an argument is such a copy of a tile aligned to one
/// sliver width: the argument is then read as n / width slivers of its
/// rows x width (reinterpreted in place, marked kPackedSliversAttr, which
/// mlc-cpu-prepack-constants then stores the constant in), and the copies
/// go away. The other copies are scheduled as elementwise ops.
void usePrepackedPanels(mlir::RewriterBase &rewriter,
                        mlir::FunctionOpInterface func,
                        llvm::ArrayRef<ConstantPanelCopy> copies,
                        KernelScheduler &scheduler);

} // namespace mlc::cpu

#endif // MLC_LIB_CODEGEN_CPU_KERNELSCHEDULES_H

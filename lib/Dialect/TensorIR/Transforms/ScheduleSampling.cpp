//===- ScheduleSampling.cpp - TVM's sampling instructions -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The sampling instructions of a stochastic schedule (TVM's
// sample_perfect_tile, sample_categorical and sample_compute_location): the
// draws themselves and the checks of a given decision, shared by
// mlc::tensorir::Schedule and the `transform.tensorir.sample_*` ops. Draws
// take `rng() % n` rather than a standard distribution, whose results
// differ between standard libraries: a seed gives the same decision
// everywhere.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"
#include "mlc/Dialect/TensorIR/Transforms/Schedule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace mlc::tensorir {

static uint64_t drawBelow(uint64_t bound, RandomEngine &rng) {
  return bound <= 1 ? 0 : rng() % bound;
}

SmallVector<int64_t> drawPerfectTile(int64_t extent, unsigned n,
                                     int64_t maxInnermostFactor,
                                     RandomEngine &rng) {
  SmallVector<int64_t> factors(n, 1);
  if (n == 0 || extent <= 0)
    return factors;
  if (n == 1) {
    // The only tiling; the caller's check reports a limit below it.
    factors.front() = extent;
    return factors;
  }
  // The divisors within the limit, in O(sqrt(extent)) steps.
  SmallVector<int64_t> divisors;
  auto within = [&](int64_t d) {
    return maxInnermostFactor <= 0 || d <= maxInnermostFactor;
  };
  for (int64_t d = 1; d <= extent / d; ++d) {
    if (extent % d != 0)
      continue;
    if (within(d))
      divisors.push_back(d);
    if (d != extent / d && within(extent / d))
      divisors.push_back(extent / d);
  }
  llvm::sort(divisors);
  factors.back() = divisors[drawBelow(divisors.size(), rng)];
  int64_t rest = extent / factors.back();
  for (int64_t p = 2; p * p <= rest; ++p) {
    while (rest % p == 0) {
      factors[drawBelow(n - 1, rng)] *= p;
      rest /= p;
    }
  }
  if (rest > 1)
    factors[drawBelow(n - 1, rng)] *= rest;
  return factors;
}

std::string checkPerfectTile(int64_t extent, ArrayRef<int64_t> decision,
                             int64_t maxInnermostFactor) {
  std::string message;
  llvm::raw_string_ostream os(message);
  auto printDecision = [&] {
    os << "[";
    llvm::interleaveComma(decision, os);
    os << "]";
  };
  if (decision.empty())
    return "expected at least one factor";
  int64_t product = 1;
  for (int64_t factor : decision) {
    if (factor <= 0) {
      os << "factor " << factor << " of ";
      printDecision();
      os << " is not positive";
      return message;
    }
    if (llvm::MulOverflow(product, factor, product) || product > extent)
      break;
  }
  if (product != extent) {
    os << "the product of ";
    printDecision();
    os << " is not the extent " << extent;
    return message;
  }
  if (maxInnermostFactor > 0 && decision.back() > maxInnermostFactor) {
    os << "the innermost factor " << decision.back()
       << " exceeds max_innermost_factor " << maxInnermostFactor;
    return message;
  }
  return message;
}

int64_t drawCategorical(ArrayRef<double> probs, RandomEngine &rng) {
  double total = 0;
  for (double p : probs)
    total += p;
  // 53 random bits: a double in [0, 1).
  double point = double(rng() >> 11) * 0x1.0p-53 * total;
  for (auto [i, p] : llvm::enumerate(probs)) {
    if (point < p)
      return i;
    point -= p;
  }
  // Rounding: the last candidate of positive weight.
  for (int64_t i = probs.size() - 1; i >= 0; --i)
    if (probs[i] > 0)
      return i;
  return 0;
}

std::string checkCategorical(size_t numCandidates, ArrayRef<double> probs,
                             std::optional<int64_t> decision) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (numCandidates == 0)
    return "expected at least one candidate";
  if (probs.size() != numCandidates) {
    os << probs.size() << " probabilities for " << numCandidates
       << " candidates";
    return message;
  }
  double total = 0;
  for (double p : probs) {
    if (!(p >= 0) || p == INFINITY) {
      os << "probability " << llvm::format("%g", p)
         << " is not a finite non-negative number";
      return message;
    }
    total += p;
  }
  if (total <= 0)
    return "the probabilities are all zero";
  if (decision && (*decision < 0 || *decision >= int64_t(numCandidates)))
    os << "decision " << *decision << " is not an index of the "
       << numCandidates << " candidates";
  return message;
}

FailureOr<SmallVector<int64_t>>
Schedule::samplePerfectTileImpl(ForOp loop, unsigned n,
                                int64_t maxInnermostFactor,
                                std::optional<ArrayRef<int64_t>> decision) {
  FailureOr<int64_t> extent =
      schedutil::getConstantExtent(loop, "sample_perfect_tile");
  if (failed(extent))
    return failure();
  SmallVector<int64_t> factors =
      decision ? SmallVector<int64_t>(*decision)
               : drawPerfectTile(*extent, n, maxInnermostFactor, rng);
  if (factors.size() != n)
    return loop.emitError("cannot sample a perfect tile of ")
           << schedutil::describe(loop) << ": the decision has "
           << factors.size() << " factors, expected " << n;
  std::string error = checkPerfectTile(*extent, factors, maxInnermostFactor);
  if (!error.empty())
    return loop.emitError("cannot sample a perfect tile of ")
           << schedutil::describe(loop) << ": " << error;
  return factors;
}

SmallVector<ForOp> Schedule::collectComputeLocations(BlockOp block) {
  SmallVector<ForOp> loops;
  func.walk<WalkOrder::PreOrder>([&](ForOp loop) {
    if (!loop->isProperAncestor(block))
      loops.push_back(loop);
  });
  SmallVector<ForOp> legal;
  MLIRContext *context = func.getContext();
  // compute_at's own checks decide; their errors are not the caller's.
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  for (ForOp loop : loops) {
    IRMapping mapping;
    Operation *copy = func->clone(mapping);
    IRRewriter scratchRewriter(context);
    Schedule scratch(cast<PrimFuncOp>(copy), scratchRewriter);
    if (succeeded(scratch.computeAtImpl(
            cast<BlockOp>(mapping.lookup(block.getOperation())),
            cast<ForOp>(mapping.lookup(loop.getOperation())))))
      legal.push_back(loop);
    copy->erase();
  }
  return legal;
}

FailureOr<std::pair<int64_t, ForOp>>
Schedule::sampleComputeLocationImpl(BlockOp block,
                                    std::optional<int64_t> decision) {
  SmallVector<ForOp> locations = collectComputeLocations(block);
  int64_t index =
      decision ? *decision : int64_t(drawBelow(locations.size() + 1, rng)) - 1;
  if (index < -1 || index >= int64_t(locations.size()))
    return block.emitError("cannot sample a compute location of block '")
           << block.getName() << "': decision " << index
           << " is not -1 (where it is) or the index of one of its "
           << locations.size() << " compute_at locations";
  return std::make_pair(index, index < 0 ? ForOp() : locations[index]);
}

} // namespace mlc::tensorir

//===- ElementCount.h - Saturating element counts ---------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_ELEMENTCOUNT_H
#define MLC_SUPPORT_ELEMENTCOUNT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace mlc {

/// The product of `extents` (an element count), saturating: a static shape
/// may hold more elements than int64_t counts.
inline uint64_t countElements(llvm::ArrayRef<int64_t> extents) {
  uint64_t count = 1;
  for (int64_t extent : extents)
    count = llvm::SaturatingMultiply(count, static_cast<uint64_t>(extent));
  return count;
}

} // namespace mlc

#endif // MLC_SUPPORT_ELEMENTCOUNT_H

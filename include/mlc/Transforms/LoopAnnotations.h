//===- LoopAnnotations.h - LLVM loop metadata on scf.for --------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_TRANSFORMS_LOOPANNOTATIONS_H
#define MLC_TRANSFORMS_LOOPANNOTATIONS_H

#include "llvm/ADT/StringRef.h"

namespace mlc {

/// The discardable attribute (an LLVM::LoopAnnotationAttr) of `scf.for` that
/// convert-scf-to-cf moves to the loop's back edge and
/// mlc-forward-loop-annotations turns into `!llvm.loop` metadata.
inline constexpr llvm::StringLiteral kLoopAnnotationAttrName =
    "llvm.loop_annotation";

} // namespace mlc

#endif // MLC_TRANSFORMS_LOOPANNOTATIONS_H

//===- PassRegistration.cpp - relay pass registration -----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

// Keeps the library non-empty while the dialect has no passes of its own; each
// pass lives in its own file next to this one.
#include "mlc/Dialect/Relay/Transforms/Passes.h"

//===- PassRegistration.cpp - tensorir pass registration --------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

// registerTensorIRPasses() is generated inline in Passes.h; each pass lives in
// its own file next to this one.
#include "mlc/Dialect/TensorIR/Transforms/Passes.h"

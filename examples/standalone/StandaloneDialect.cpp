//===- StandaloneDialect.cpp - the standalone dialect ---------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "StandaloneDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace standalone;

#include "StandaloneOpsDialect.cpp.inc"

void StandaloneDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "StandaloneOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "StandaloneOps.cpp.inc"

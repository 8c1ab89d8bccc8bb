//===- PassFailureDiagnostics.h - no silent pass failures -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// A pass that fails must say why, at a location: a tool that exits non-zero
// without a message leaves its user nowhere. Every mlc pass emits an error
// before signalPassFailure(), and the fuzzers check that; this instrumentation
// is the safety net for the cases they have not reached (and for upstream
// passes in mlc's pipelines): when a pass fails and no error has been
// emitted since the pass manager started, it emits one naming the pass at
// the operation it ran on.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_PASSFAILUREDIAGNOSTICS_H
#define MLC_SUPPORT_PASSFAILUREDIAGNOSTICS_H

namespace mlir {
class PassManager;
} // namespace mlir

namespace mlc {

/// Adds the instrumentation to `pm` (the tools' pass managers: mlc-opt,
/// mlc-run, mlc-compile).
void addPassFailureDiagnostics(mlir::PassManager &pm);

} // namespace mlc

#endif // MLC_SUPPORT_PASSFAILUREDIAGNOSTICS_H

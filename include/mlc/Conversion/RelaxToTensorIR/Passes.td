//===- Passes.td - relax-to-tensorir (LegalizeOps) ----------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAXTOTENSORIR_PASSES_TD
#define MLC_CONVERSION_RELAXTOTENSORIR_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelaxLegalizeOps : Pass<"relax-legalize-ops", "::mlir::ModuleOp"> {
  let summary = "lower high-level relax ops to tensorir kernels called with "
                "relax.call_tir (LegalizeOps)";
  let description = [{
    TVM's `relax.transform.LegalizeOps`: every high-level relax op in a
    graph function (`relax.add`, `relax.matmul`, `relax.nn.conv2d`, ...) is
    replaced by a destination-passing `relax.call_tir` of a
    `tensorir.prim_func` that computes it. The kernels come from mlc's
    operator library (TVM's TOPI), built stage by stage like `te.compute`:
    one loop nest and one `tensorir.block` per stage, spatial iteration
    variables over the output, reduce variables for reductions (with a
    `tensorir.init`), and inferred read/write regions, ready for the
    schedule primitives.

    ```mlir
    %0 = relax.nn.relu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    // becomes
    tensorir.prim_func @relu(%x: memref<4x8xf32>, %out: memref<4x8xf32>)
        attributes {tensorir.noalias} {
      tensorir.for %i0 = 0 to 4 {
        tensorir.for %i1 = 0 to 8 {
          tensorir.block "relu"(%v_i0 = spatial(4, %i0), %v_i1 = spatial(8, %i1))
              reads(...) writes(...) {
            ...
          }
        }
      }
    }
    %0 = relax.call_tir @relu(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```

    Kernels are named after the op (`relu`, `conv2d`, `max_pool2d`, with a
    numeric suffix when the name is taken) and are inserted before the
    function that uses them. Ops with the same name, attributes and types
    share one kernel. Symbolic shapes carry over: a `?` dimension becomes a
    `?` buffer dimension whose size the kernel reads from the buffer
    (`memref.dim`), so no `tir_vars` are needed.

    Ops named in `skip-ops` (e.g. `skip-ops=relax.nn.conv2d`, the full op
    name) are left as they are, like TVM's `customize_legalize_map` leaving
    an op to an external library. Any other relax compute op without a
    legalization is an error naming the op. Host ops (`relax.dataflow`,
    `relax.call_tir`, `relax.call_dps_packed`, `relax.match_cast`,
    `relax.constant`) are kept.
  }];
  let options = [
    ListOption<"skipOps", "skip-ops", "std::string",
               "full names of relax ops to leave unlegalized "
               "(e.g. relax.nn.conv2d)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlc::tensorir::TensorIRDialect"
  ];
}

#endif // MLC_CONVERSION_RELAXTOTENSORIR_PASSES_TD

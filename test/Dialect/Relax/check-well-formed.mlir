// RUN: mlc-opt %s -split-input-file -relax-check-well-formed -verify-diagnostics | FileCheck %s

// Names come from parameter types and match_cast; inferred ops only
// propagate them. The IR is unchanged.
// CHECK-LABEL: func.func @ok
// CHECK: relax.match_cast
func.func private @k(memref<?x?xf32>, memref<?x?xf32>)
func.func @ok(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>, %y: tensor<?xf32>)
    -> (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x?xf32, #relax.shape<[m, n]>>) {
  %y1 = relax.match_cast %y : tensor<?xf32> to tensor<?xf32, #relax.shape<[m]>>
  %r:2 = relax.dataflow -> tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x?xf32, #relax.shape<[m, n]>> {
    %a = relax.add %x, %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    %b = relax.call_tir @k(%a) : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x?xf32, #relax.shape<[m, n]>>
    relax.output %a, %b : tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x?xf32, #relax.shape<[m, n]>>
  }
  return %r#0, %r#1 : tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x?xf32, #relax.shape<[m, n]>>
}

// -----

func.func @invented(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{result #0 of type 'tensor<?xf32, #relax.shape<[k]>>' uses the symbolic dimension 'k', which is not bound here (bind it with relax.match_cast or a parameter type)}}
  %0 = relax.call_dps_packed "env.f"(%x) : (tensor<4xf32>) -> tensor<?xf32, #relax.shape<[k]>>
  %1 = relax.match_cast %0 : tensor<?xf32, #relax.shape<[k]>> to tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// Used before the match_cast that binds it.
func.func @too_early(%x: tensor<?xf32>) {
  // expected-error @+1 {{uses the symbolic dimension 'n', which is not bound here}}
  %0 = relax.call_dps_packed "env.f"(%x) : (tensor<?xf32>) -> tensor<?xf32, #relax.shape<[n]>>
  %1 = relax.match_cast %x : tensor<?xf32> to tensor<?xf32, #relax.shape<[n]>>
  return
}

// -----

// A signature whose result names no parameter binds (only possible for a
// declaration: in a body the returned value's op is reported first).
// expected-error @+1 {{result #0 of @ret has type 'tensor<?xf32, #relax.shape<[n]>>', whose symbolic dimension 'n' is bound by no parameter or relax.match_cast}}
func.func private @ret(tensor<?xf32>) -> tensor<?xf32, #relax.shape<[n]>>

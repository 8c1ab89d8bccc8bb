// Host lowering of relax functions: buffers for tensors, allocations for
// call_tir/call_dps_packed results with sizes from the symbolic shapes,
// run-time checks for match_cast and parameters, globals for constants, and
// copies for results the function does not own.
// RUN: mlc-opt %s --convert-relax-to-memref --split-input-file | FileCheck %s
// RUN: mlc-opt %s --convert-relax-to-memref --split-input-file --verify-each | FileCheck %s --check-prefix=NORELAX

// NORELAX-NOT: = relax.
// NORELAX-NOT: relax.output

// A static call_tir chain in a dataflow block: the block is inlined, the
// returned buffer is the last allocation itself.
// CHECK-LABEL: func.func private @add1(memref<4xf32>, memref<4xf32>)
func.func private @add1(memref<4xf32>, memref<4xf32>)

// CHECK-LABEL: func.func @static(
// CHECK-SAME:      %[[X:.*]]: memref<4xf32> {relax.name = "x"}) -> memref<4xf32> {
// CHECK-NEXT:    %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    call @add1(%[[X]], %[[A]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    call @add1(%[[A]], %[[B]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT:    return %[[B]] : memref<4xf32>
// CHECK-NEXT:  }
func.func @static(%x: tensor<4xf32> {relax.name = "x"}) -> tensor<4xf32> {
  %0 = relax.dataflow -> tensor<4xf32> {
    %1 = relax.call_tir @add1(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %2 = relax.call_tir @add1(%1) : (tensor<4xf32>) -> tensor<4xf32>
    relax.output %2 : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// A symbolic batch: the size n of the result comes from the parameter.
func.func private @linear0(memref<?x784xf32>, memref<128x784xf32>, memref<128xf32>, memref<?x128xf32>)

// CHECK-LABEL: func.func private @symbolic(
// CHECK-SAME:      %[[X:.*]]: memref<?x784xf32> {relax.name = "x"}, %[[W:.*]]: memref<128x784xf32> {relax.name = "w0"}, %[[B:.*]]: memref<128xf32> {relax.name = "b0"}) -> memref<?x128xf32> {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N:.*]] = memref.dim %[[X]], %[[C0]] : memref<?x784xf32>
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x128xf32>
// CHECK-NEXT:    call @linear0(%[[X]], %[[W]], %[[B]], %[[Y]])
// CHECK-NEXT:    return %[[Y]] : memref<?x128xf32>
func.func private @symbolic(%x: tensor<?x784xf32, #relax.shape<[n, 784]>> {relax.name = "x"},
                            %w0: tensor<128x784xf32> {relax.name = "w0"},
                            %b0: tensor<128xf32> {relax.name = "b0"})
    -> tensor<?x128xf32, #relax.shape<[n, 128]>> {
  %0 = relax.dataflow -> tensor<?x128xf32, #relax.shape<[n, 128]>> {
    %1 = relax.call_tir @linear0(%x, %w0, %b0)
        : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>, tensor<128xf32>)
        -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    relax.output %1 : tensor<?x128xf32, #relax.shape<[n, 128]>>
  }
  return %0 : tensor<?x128xf32, #relax.shape<[n, 128]>>
}

// -----

// tir_vars are index values after the output buffers, cast to the callee's
// integer parameter; a result size is an expression of n.
func.func private @repeat(memref<?xf32>, memref<?xf32>, index, i64)

// CHECK-LABEL: func.func @tir_vars(
// CHECK-SAME:      %[[X:.*]]: memref<?xf32>) -> memref<?xf32>
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf32>
// CHECK:         %[[N3:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[N3]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK:         %[[V:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK-NEXT:    %[[V64:.*]] = arith.index_cast %[[V]] : index to i64
// CHECK-NEXT:    call @repeat(%[[X]], %[[Y]], %[[N]], %[[V64]]) : (memref<?xf32>, memref<?xf32>, index, i64) -> ()
// CHECK-NEXT:    return %[[Y]] : memref<?xf32>
func.func @tir_vars(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 3]>> {
  %0 = relax.call_tir @repeat(%x) tir_vars [n, 3 * n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 3]>>
  return %0 : tensor<?xf32, #relax.shape<[n * 3]>>
}

// -----

// match_cast checks every dimension the target fixes (static or bound) and
// binds a new name; the cast is a memref.cast of the checked buffer.
func.func private @scale(memref<?x4xf32>, memref<?x4xf32>)

// CHECK-LABEL: func.func @match(
// CHECK-SAME:      %[[X:.*]]: memref<?x?xf32> {relax.name = "x"}, %[[Y:.*]]: memref<?xf32> {relax.name = "y"}) -> memref<?x4xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[N:.*]] = memref.dim %[[X]], %[[C0]] : memref<?x?xf32>
// CHECK:         %[[D1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x?xf32>
// CHECK-NEXT:    %[[OK1:.*]] = arith.cmpi eq, %[[D1]], %{{.*}} : index
// CHECK-NEXT:    cf.assert %[[OK1]], "@match: relax.match_cast to tensor<?x4xf32, #relax.shape<[n, 4]>>: dimension 1 must be 4"
// CHECK-NEXT:    %[[X1:.*]] = memref.cast %[[X]] : memref<?x?xf32> to memref<?x4xf32>
// CHECK:         %[[N2:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:         %[[YD:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?xf32>
// CHECK-NEXT:    %[[OK2:.*]] = arith.cmpi eq, %[[YD]], %[[N2]] : index
// CHECK-NEXT:    cf.assert %[[OK2]], "@match: relax.match_cast to tensor<?xf32, #relax.shape<[n * 2]>>: dimension 0 must be n * 2"
// CHECK:         %[[R:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT:    call @scale(%[[X1]], %[[R]])
// CHECK-NEXT:    return %[[R]]
func.func @match(%x: tensor<?x?xf32> {relax.name = "x"}, %y: tensor<?xf32> {relax.name = "y"})
    -> tensor<?x4xf32, #relax.shape<[n, 4]>> {
  %x1 = relax.match_cast %x : tensor<?x?xf32> to tensor<?x4xf32, #relax.shape<[n, 4]>>
  %y1 = relax.match_cast %y : tensor<?xf32> to tensor<?xf32, #relax.shape<[n * 2]>>
  %0 = relax.dataflow -> tensor<?x4xf32, #relax.shape<[n, 4]>> {
    %1 = relax.call_tir @scale(%x1) : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    relax.output %1 : tensor<?x4xf32, #relax.shape<[n, 4]>>
  }
  return %0 : tensor<?x4xf32, #relax.shape<[n, 4]>>
}

// -----

// A name repeated in the signature is checked at entry; a static match_cast
// target binds nothing and checks nothing more than the verifier did.
// CHECK-LABEL: func.func @repeated(
// CHECK-SAME:      %[[A:.*]]: memref<?xf32> {relax.name = "a"}, %[[B:.*]]: memref<?xf32> {relax.name = "b"}) -> memref<?xf32>
// CHECK-DAG:     %[[NA:.*]] = memref.dim %[[A]], %{{.*}} : memref<?xf32>
// CHECK-DAG:     %[[NB:.*]] = memref.dim %[[B]], %{{.*}} : memref<?xf32>
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[NB]], %[[NA]] : index
// CHECK-NEXT:    cf.assert %[[OK]], "@repeated: parameter 1 ('b'): dimension 0 must be n"
func.func @repeated(%a: tensor<?xf32, #relax.shape<[n]>> {relax.name = "a"},
                    %b: tensor<?xf32, #relax.shape<[n]>> {relax.name = "b"})
    -> tensor<?xf32, #relax.shape<[n]>> {
  return %a : tensor<?xf32, #relax.shape<[n]>>
}

// -----

// Constants are private globals, one per value; returning one (or an
// argument, or one buffer twice) copies it into a fresh buffer.
func.func private @add(memref<2xf32>, memref<2xf32>, memref<2xf32>)

// CHECK: memref.global "private" constant @__relax_constant : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @constants(
// CHECK-SAME:      %[[X:.*]]: memref<2xf32>) -> (memref<2xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
// CHECK-NEXT:    %[[C:.*]] = memref.get_global @__relax_constant : memref<2xf32>
// CHECK-NEXT:    %[[C2:.*]] = memref.get_global @__relax_constant : memref<2xf32>
// CHECK-NEXT:    %[[S:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    call @add(%[[C]], %[[C2]], %[[S]])
// CHECK-NEXT:    %[[COPY1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[COPY1]]
// CHECK-NEXT:    %[[COPY2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    memref.copy %[[X]], %[[COPY2]]
// CHECK-NEXT:    %[[COPY3:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    memref.copy %[[S]], %[[COPY3]]
// CHECK-NEXT:    return %[[S]], %[[COPY1]], %[[COPY2]], %[[COPY3]]
func.func @constants(%x: tensor<2xf32>)
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c2 = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = relax.call_tir @add(%c, %c2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s, %c, %x, %s : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// An allocation returned twice, once through a match_cast, is copied once.
func.func private @fill(memref<3xf32>)

// CHECK-LABEL: func.func @aliased(
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xf32>
// CHECK-NEXT:    call @fill(%[[A]])
// CHECK-NEXT:    %[[C:.*]] = memref.cast %[[A]] : memref<3xf32> to memref<?xf32>
// CHECK:         %[[COPY:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[COPY]]
// CHECK-NEXT:    return %[[A]], %[[COPY]] : memref<3xf32>, memref<?xf32>
func.func @aliased() -> (tensor<3xf32>, tensor<?xf32, #relax.shape<[k]>>) {
  %a = relax.call_tir @fill() : () -> tensor<3xf32>
  %c = relax.match_cast %a : tensor<3xf32> to tensor<?xf32, #relax.shape<[k]>>
  return %a, %c : tensor<3xf32>, tensor<?xf32, #relax.shape<[k]>>
}

// -----

// A returned dynamic argument is copied with its run-time sizes.
// CHECK-LABEL: func.func @identity(
// CHECK-SAME:      %[[X:.*]]: memref<?x3xf32>) -> memref<?x3xf32>
// CHECK:         %[[D:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x3xf32>
// CHECK-NEXT:    %[[COPY:.*]] = memref.alloc(%[[D]]) {alignment = 64 : i64} : memref<?x3xf32>
// CHECK-NEXT:    memref.copy %[[X]], %[[COPY]]
// CHECK-NEXT:    return %[[COPY]]
func.func @identity(%x: tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[n, 3]>> {
  return %x : tensor<?x3xf32, #relax.shape<[n, 3]>>
}

// -----

// call_dps_packed calls an external declaration with the C interface, made
// once per name.
// CHECK-LABEL: func.func private @env.linear(memref<?x784xf32>, memref<128x784xf32>, memref<128xf32>, memref<?x128xf32>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @packed(
// CHECK-SAME:      %[[X:.*]]: memref<?x784xf32>, %[[W:.*]]: memref<128x784xf32>, %[[B:.*]]: memref<128xf32>) -> memref<?x128xf32>
// CHECK:         %[[N:.*]] = memref.dim %[[X]]
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x128xf32>
// CHECK-NEXT:    call @env.linear(%[[X]], %[[W]], %[[B]], %[[Y]])
// CHECK-NEXT:    %[[Z:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x128xf32>
// CHECK-NEXT:    call @env.linear(%[[X]], %[[W]], %[[B]], %[[Z]])
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1xi32>
// CHECK-NEXT:    call @env.print(%[[Z]], %[[P]]) : (memref<?x128xf32>, memref<1xi32>) -> ()
// CHECK-NEXT:    return %[[Y]]
func.func @packed(%x: tensor<?x784xf32, #relax.shape<[n, 784]>>, %w: tensor<128x784xf32>, %b: tensor<128xf32>)
    -> tensor<?x128xf32, #relax.shape<[n, 128]>> {
  %0 = relax.dataflow -> tensor<?x128xf32, #relax.shape<[n, 128]>> {
    %1 = relax.call_dps_packed "env.linear"(%x, %w, %b)
        : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>, tensor<128xf32>)
        -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    relax.output %1 : tensor<?x128xf32, #relax.shape<[n, 128]>>
  }
  %2 = relax.call_dps_packed "env.linear"(%x, %w, %b)
      : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>, tensor<128xf32>)
      -> tensor<?x128xf32, #relax.shape<[n, 128]>>
  %3 = relax.call_dps_packed "env.print"(%2) {has_side_effects}
      : (tensor<?x128xf32, #relax.shape<[n, 128]>>) -> tensor<1xi32>
  return %0 : tensor<?x128xf32, #relax.shape<[n, 128]>>
}

// -----

// A packed function defined in the module with the right type is called.
// CHECK-LABEL: func.func @env.double(%{{.*}}: memref<3xf32>, %{{.*}}: memref<3xf32>)
// CHECK-NOT:   llvm.emit_c_interface
// CHECK-LABEL: func.func @uses_defined(
// CHECK:         call @env.double(
func.func @env.double(%a: memref<3xf32>, %b: memref<3xf32>) {
  return
}
func.func @uses_defined(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = relax.call_dps_packed "env.double"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Calls between relax functions get buffer types; the callee's result is
// the caller's own buffer (no copy). Tensor functions without relax
// (linalg, bufferized later) are left alone.
// CHECK-LABEL: func.func private @inner(%{{.*}}: memref<?xf32>) -> memref<?xf32>
func.func private @inner(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>> {
  return %x : tensor<?xf32, #relax.shape<[n]>>
}
// CHECK-LABEL: func.func @outer(
// CHECK-SAME:      %[[X:.*]]: memref<8xf32> {relax.name = "x"}) -> memref<?xf32>
// CHECK-NEXT:    %[[X1:.*]] = memref.cast %[[X]] : memref<8xf32> to memref<?xf32>
// CHECK-NEXT:    %[[R:.*]] = call @inner(%[[X1]]) : (memref<?xf32>) -> memref<?xf32>
// CHECK-NEXT:    return %[[R]] : memref<?xf32>
func.func @outer(%x: tensor<8xf32> {relax.name = "x"}) -> tensor<?xf32, #relax.shape<[n]>> {
  %x1 = relax.match_cast %x : tensor<8xf32> to tensor<?xf32, #relax.shape<[n]>>
  %r = func.call @inner(%x1) : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>>
  return %r : tensor<?xf32, #relax.shape<[n]>>
}
// CHECK-LABEL: func.func @plain_tensor(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func @plain_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// A function whose only tensor ops are calls of relax functions (the entry
// of relay-fuse-ops' output) is host code too, and so is its caller.
// CHECK-LABEL: func.func private @primitive(%{{.*}}: memref<4xf32>) -> memref<4xf32>
func.func private @primitive(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relax.call_dps_packed "env.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @only_calls(
// CHECK-SAME:      %[[X:.*]]: memref<4xf32>) -> memref<4xf32>
// CHECK:         call @primitive(%[[X]]) : (memref<4xf32>) -> memref<4xf32>
func.func @only_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @primitive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @calls_only_calls(
// CHECK-SAME:      %{{.*}}: memref<4xf32>) -> memref<4xf32>
func.func @calls_only_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @only_calls(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A static relax.reshape (what relax-rewrite-dataflow-reshape leaves of a
// kernel that only reshapes) is a view of its input's buffer: collapsed to
// one dimension, then expanded; the kernel reads the view. Returned beside
// the buffer it views, the view is copied into a buffer the caller owns.
func.func private @exp(%a: memref<6x4xf32>, %b: memref<6x4xf32>)
// CHECK-LABEL: func.func @reshape_view(
// CHECK-SAME:      %[[X:.*]]: memref<2x3x4xf32>)
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK:         %[[VIEW:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
// CHECK:         %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x4xf32>
// CHECK:         call @exp(%[[VIEW]], %[[E]])
// CHECK:         %[[FLAT2:.*]] = memref.collapse_shape %[[E]] {{\[\[}}0, 1]] : memref<6x4xf32> into memref<24xf32>
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<24xf32>
// CHECK:         memref.copy %[[FLAT2]], %[[COPY]]
// CHECK:         return %[[E]], %[[COPY]]
func.func @reshape_view(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<24xf32>) {
  %0:2 = relax.dataflow -> tensor<6x4xf32>, tensor<24xf32> {
    %1 = relax.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %2 = relax.call_tir @exp(%1) : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %3 = relax.reshape %2 {shape = array<i64: 24>} : (tensor<6x4xf32>) -> tensor<24xf32>
    relax.output %2, %3 : tensor<6x4xf32>, tensor<24xf32>
  }
  return %0#0, %0#1 : tensor<6x4xf32>, tensor<24xf32>
}

// Returned alone, the reshape of a kernel's result costs nothing: the
// kernel's buffer is allocated in the returned shape and the kernel writes
// it through the view in its own shape.
// CHECK-LABEL: func.func @reshape_returned(
// CHECK-SAME:      %[[X:.*]]: memref<2x3x4xf32>) -> memref<24xf32>
// CHECK:         %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<24xf32>
// CHECK:         %[[E:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1]] output_shape [6, 4] : memref<24xf32> into memref<6x4xf32>
// CHECK:         call @exp(%{{.*}}, %[[E]])
// CHECK-NOT:     memref.copy
// CHECK:         return %[[OUT]] : memref<24xf32>
func.func @reshape_returned(%x: tensor<2x3x4xf32>) -> tensor<24xf32> {
  %0 = relax.dataflow -> tensor<24xf32> {
    %1 = relax.reshape %x {shape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %2 = relax.call_tir @exp(%1) : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %3 = relax.reshape %2 {shape = array<i64: 24>} : (tensor<6x4xf32>) -> tensor<24xf32>
    relax.output %3 : tensor<24xf32>
  }
  return %0 : tensor<24xf32>
}

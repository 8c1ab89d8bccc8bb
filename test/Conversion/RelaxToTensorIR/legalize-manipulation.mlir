// RUN: mlc-opt %s -split-input-file -relax-legalize-ops -verify-diagnostics | FileCheck %s

// Shape manipulation kernels (topi/transform.h, topi nn.pad): one spatial
// block per output reading the input element it comes from.

// reshape: ravel the output index, unravel it into the input's dimensions.
// CHECK-LABEL: tensorir.prim_func private @reshape(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<2x3x4xf32>, %[[T:[^ ,:()]+]]: memref<4x6xf32>)
// CHECK: tensorir.block "T_reshape"(%[[I:[^ ,:()]+]] = spatial(4, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(6, %{{.*}}))
// CHECK-NEXT: %[[C6:[^ ,:()]+]] = arith.constant 6 : index
// CHECK-NEXT: %[[M:[^ ,:()]+]] = arith.muli %[[I]], %[[C6]] : index
// CHECK-NEXT: %[[F:[^ ,:()]+]] = arith.addi %[[M]], %[[J]] : index
// CHECK-NEXT: %[[C4:[^ ,:()]+]] = arith.constant 4 : index
// CHECK-NEXT: %[[D2:[^ ,:()]+]] = arith.remui %[[F]], %[[C4]] : index
// CHECK-NEXT: %[[Q:[^ ,:()]+]] = arith.divui %[[F]], %[[C4]] : index
// CHECK-NEXT: %[[C3:[^ ,:()]+]] = arith.constant 3 : index
// CHECK-NEXT: %[[D1:[^ ,:()]+]] = arith.remui %[[Q]], %[[C3]] : index
// CHECK-NEXT: %[[D0:[^ ,:()]+]] = arith.divui %[[Q]], %[[C3]] : index
// CHECK-NEXT: %[[V:[^ ,:()]+]] = memref.load %[[A]][%[[D0]], %[[D1]], %[[D2]]]
// CHECK-NEXT: memref.store %[[V]], %[[T]][%[[I]], %[[J]]]
// CHECK-LABEL: func.func @test_reshape(
// CHECK: relax.call_tir @reshape(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
func.func @test_reshape(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = relax.reshape %x {shape = array<i64: 4, -1>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Equal leading and trailing sizes (static or the same symbol) map index to
// index: only the middle dimensions are ravelled and unravelled.
// CHECK-LABEL: tensorir.prim_func private @reshape(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<?x3x4xf32>
// CHECK: tensorir.block "T_reshape"(%[[I:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(12, %{{.*}}))
// CHECK-NEXT: %[[C4:[^ ,:()]+]] = arith.constant 4 : index
// CHECK-NEXT: %[[D2:[^ ,:()]+]] = arith.remui %[[J]], %[[C4]] : index
// CHECK-NEXT: %[[D1:[^ ,:()]+]] = arith.divui %[[J]], %[[C4]] : index
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[D1]], %[[D2]]] : memref<?x3x4xf32>
// CHECK-LABEL: tensorir.prim_func private @reshape_0(
// CHECK: tensorir.block "T_reshape"(%[[I:[^ ,:()]+]] = spatial(2, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(1, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(3, %{{.*}}), %[[L:[^ ,:()]+]] = spatial(5, %{{.*}}))
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[K]], %[[L]]] : memref<2x3x5xf32>
func.func @test_reshape_common_dims(%x: tensor<?x3x4xf32, #relax.shape<[n, 3, 4]>>, %y: tensor<2x3x5xf32>) -> (tensor<?x12xf32, #relax.shape<[n, 12]>>, tensor<2x1x3x5xf32>) {
  %0 = relax.reshape %x {shape = array<i64: 0, 12>} : (tensor<?x3x4xf32, #relax.shape<[n, 3, 4]>>) -> tensor<?x12xf32, #relax.shape<[n, 12]>>
  %1 = relax.reshape %y {shape = array<i64: 2, 1, 3, 5>} : (tensor<2x3x5xf32>) -> tensor<2x1x3x5xf32>
  return %0, %1 : tensor<?x12xf32, #relax.shape<[n, 12]>>, tensor<2x1x3x5xf32>
}

// -----

// Symbolic reshape: sizes come from the buffers (memref.dim at the start);
// the batch n maps to itself.
// CHECK-LABEL: tensorir.prim_func private @reshape(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<?x3x2xf32>, %[[T:[^ ,:()]+]]: memref<?x6xf32>)
// CHECK: %[[N:[^ ,:()]+]] = memref.dim %[[A]], %{{.*}} : memref<?x3x2xf32>
// CHECK: %[[M:[^ ,:()]+]] = memref.dim %[[T]], %{{.*}} : memref<?x6xf32>
// CHECK: tensorir.block "T_reshape"(%[[I:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(6, %{{.*}}))
// CHECK-SAME: reads(%[[A]][%[[I]], 0:3, 0:2] : memref<?x3x2xf32>)
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[D2:[^ ,:()]+]] = arith.remui %[[J]], %[[C2]] : index
// CHECK-NEXT: %[[D1:[^ ,:()]+]] = arith.divui %[[J]], %[[C2]] : index
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[D1]], %[[D2]]]
func.func @test_reshape_symbolic(%x: tensor<?x3x2xf32, #relax.shape<[n, 3, 2]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>> {
  %0 = relax.reshape %x {shape = array<i64: -1, 6>} : (tensor<?x3x2xf32, #relax.shape<[n, 3, 2]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
  return %0 : tensor<?x6xf32, #relax.shape<[n, 6]>>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @permute_dims(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<?x4x8xf32>, %[[T:[^ ,:()]+]]: memref<4x?x8xf32>)
// CHECK: tensorir.block "T_transpose"(%[[I:[^ ,:()]+]] = spatial(4, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(8, %{{.*}}))
// CHECK-NEXT: %[[V:[^ ,:()]+]] = memref.load %[[A]][%[[J]], %[[I]], %[[K]]]
// CHECK-NEXT: memref.store %[[V]], %[[T]][%[[I]], %[[J]], %[[K]]]
// CHECK-LABEL: tensorir.prim_func private @permute_dims_0(
// CHECK: tensorir.block "T_transpose"(%[[I:[^ ,:()]+]] = spatial(8, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(4, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}))
// CHECK-NEXT: memref.load %{{.*}}[%[[K]], %[[J]], %[[I]]]
func.func @test_permute_dims(%x: tensor<?x4x8xf32, #relax.shape<[n, 4, 8]>>) -> (tensor<4x?x8xf32, #relax.shape<[4, n, 8]>>, tensor<8x4x?xf32, #relax.shape<[8, 4, n]>>) {
  %0 = relax.permute_dims %x {axes = array<i64: 1, 0, -1>} : (tensor<?x4x8xf32, #relax.shape<[n, 4, 8]>>) -> tensor<4x?x8xf32, #relax.shape<[4, n, 8]>>
  %1 = relax.permute_dims %x : (tensor<?x4x8xf32, #relax.shape<[n, 4, 8]>>) -> tensor<8x4x?xf32, #relax.shape<[8, 4, n]>>
  return %0, %1 : tensor<4x?x8xf32, #relax.shape<[4, n, 8]>>, tensor<8x4x?xf32, #relax.shape<[8, 4, n]>>
}

// -----

// CHECK-LABEL: tensorir.prim_func private @expand_dims(
// CHECK: tensorir.block "T_expand_dims"(%[[I:[^ ,:()]+]] = spatial(3, %{{.*}}), %{{.*}} = spatial(1, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(5, %{{.*}}), %{{.*}} = spatial(1, %{{.*}}))
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[K]]] : memref<3x5xf32>
// CHECK-LABEL: tensorir.prim_func private @squeeze(
// CHECK: tensorir.block "T_squeeze"(%[[I:[^ ,:()]+]] = spatial(3, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(5, %{{.*}}))
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: memref.load %{{.*}}[%[[I]], %[[C0]], %[[K]], %[[C0]]] : memref<3x1x5x1xf32>
func.func @test_expand_squeeze(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = relax.expand_dims %x {axis = array<i64: 1, -1>} : (tensor<3x5xf32>) -> tensor<3x1x5x1xf32>
  %1 = relax.squeeze %0 : (tensor<3x1x5x1xf32>) -> tensor<3x5xf32>
  return %1 : tensor<3x5xf32>
}

// -----

// broadcast_to: static 1s read index 0; a dynamic dimension decides at run
// time whether it broadcasts.
// CHECK-LABEL: tensorir.prim_func private @broadcast_to(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<?x1xf32>
// CHECK: %[[N:[^ ,:()]+]] = memref.dim %[[A]]
// CHECK: tensorir.block "T_broadcast_to"(%{{.*}} = spatial(2, %{{.*}}), %[[I:[^ ,:()]+]] = spatial(4, %{{.*}}), %{{.*}} = spatial(3, %{{.*}}))
// CHECK-NEXT: %[[C1:[^ ,:()]+]] = arith.constant 1 : index
// CHECK-NEXT: %[[ONE:[^ ,:()]+]] = arith.cmpi eq, %[[N]], %[[C1]] : index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.select %[[ONE]], %[[C0]], %[[I]] : index
// CHECK-NEXT: memref.load %[[A]][%[[R]], %[[C0]]]
func.func @test_broadcast_to(%x: tensor<?x1xf32, #relax.shape<[n, 1]>>) -> tensor<2x4x3xf32> {
  %0 = relax.broadcast_to %x {shape = array<i64: 2, 4, 3>} : (tensor<?x1xf32, #relax.shape<[n, 1]>>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// split: one stage per result, offset along the axis.
// CHECK-LABEL: tensorir.prim_func private @split(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<2x7xf32>, %[[T0:[^ ,:()]+]]: memref<2x2xf32>, %[[T1:[^ ,:()]+]]: memref<2x3xf32>, %[[T2:[^ ,:()]+]]: memref<2x2xf32>)
// CHECK: tensorir.block "T_split"(%[[I:[^ ,:()]+]] = spatial(2, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(2, %{{.*}}))
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[J]]]
// CHECK-NEXT: memref.store %{{.*}}, %[[T0]]
// CHECK: tensorir.block "T_split_1"(%[[I:[^ ,:()]+]] = spatial(2, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(3, %{{.*}}))
// CHECK-SAME: reads(%[[A]][%[[I]], %[[J]] + 2] : memref<2x7xf32>)
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[K:[^ ,:()]+]] = arith.addi %[[J]], %[[C2]] : index
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT: memref.store %{{.*}}, %[[T1]]
// CHECK: tensorir.block "T_split_2"
// CHECK-NEXT: %[[C5:[^ ,:()]+]] = arith.constant 5 : index
// CHECK-NEXT: arith.addi %{{.*}}, %[[C5]] : index
// CHECK: memref.store %{{.*}}, %[[T2]]
// CHECK-LABEL: func.func @test_split(
// CHECK: %{{.*}}:3 = relax.call_tir @split(%{{.*}}) : (tensor<2x7xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>)
func.func @test_split(%x: tensor<2x7xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>) {
  %0:3 = relax.split %x {indices_or_sections = array<i64: 2, 5>, axis = -1 : i64} : (tensor<2x7xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>
}

// -----

// Sections of a symbolic axis start at multiples of n / sections.
// CHECK-LABEL: tensorir.prim_func private @split(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<?x6xf32>
// CHECK: %[[N:[^ ,:()]+]] = memref.dim %[[A]]
// CHECK: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK: %[[PART:[^ ,:()]+]] = arith.divui %[[N]], %[[C2]] : index
// CHECK: tensorir.block "T_split_sections"
// CHECK: tensorir.block "T_split_sections_1"(%[[I:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(6, %{{.*}}))
// CHECK-NEXT: %[[K:[^ ,:()]+]] = arith.addi %[[I]], %[[PART]] : index
// CHECK-NEXT: memref.load %[[A]][%[[K]], %[[J]]]
func.func @test_split_symbolic(%x: tensor<?x6xf32, #relax.shape<[n, 6]>>) -> (tensor<?x6xf32>, tensor<?x6xf32>) {
  %0:2 = relax.split %x {indices_or_sections = 2 : i64} : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> (tensor<?x6xf32>, tensor<?x6xf32>)
  return %0#0, %0#1 : tensor<?x6xf32>, tensor<?x6xf32>
}

// -----

// strided_slice: in[begin + i * stride], begin canonicalized (negative from
// the end, clamped) at compile time for static sizes...
// CHECK-LABEL: tensorir.prim_func private @strided_slice(
// CHECK: tensorir.block "T_strided_slice"(%[[I:[^ ,:()]+]] = spatial(3, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(2, %{{.*}}))
// CHECK-SAME: reads(%{{.*}}[%[[I]] * -2 + 6, %[[J]] + 1] : memref<7x5xf32>)
// CHECK-NEXT: %[[CM2:[^ ,:()]+]] = arith.constant -2 : index
// CHECK-NEXT: %[[M:[^ ,:()]+]] = arith.muli %[[I]], %[[CM2]] : index
// CHECK-NEXT: %[[C6:[^ ,:()]+]] = arith.constant 6 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.addi %[[M]], %[[C6]] : index
// CHECK-NEXT: %[[C1:[^ ,:()]+]] = arith.constant 1 : index
// CHECK-NEXT: %[[S:[^ ,:()]+]] = arith.addi %[[J]], %[[C1]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[R]], %[[S]]]
func.func @test_strided_slice(%x: tensor<7x5xf32>) -> tensor<3x2xf32> {
  %0 = relax.strided_slice %x {begin = array<i64: 100, 1>, end = array<i64: 1, 3>, strides = array<i64: -2, 1>} : (tensor<7x5xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ... and at run time for symbolic ones (topi's CanonicalizeIndex).
// CHECK-LABEL: tensorir.prim_func private @strided_slice(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<4x?xf32>
// CHECK: %[[N:[^ ,:()]+]] = memref.dim %[[A]]
// CHECK: %[[CM3:[^ ,:()]+]] = arith.constant -3 : index
// CHECK: %[[B:[^ ,:()]+]] = arith.addi %[[N]], %[[CM3]] : index
// CHECK: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK: %[[LO:[^ ,:()]+]] = arith.maxsi %[[B]], %[[C0]] : index
// CHECK: %[[BEGIN:[^ ,:()]+]] = arith.minsi %[[LO]], %[[N]] : index
// CHECK: tensorir.block "T_strided_slice_with_axes"(%[[I:[^ ,:()]+]] = spatial(4, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}))
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.addi %[[J]], %[[BEGIN]] : index
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[R]]]
func.func @test_strided_slice_symbolic(%x: tensor<4x?xf32, #relax.shape<[4, n]>>) -> tensor<4x?xf32> {
  %0 = relax.strided_slice %x {begin = array<i64: -3>, end = array<i64: 100>, axes = array<i64: 1>} : (tensor<4x?xf32, #relax.shape<[4, n]>>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// concat: a select chain, last input first, with loads clamped into each
// input (arith.select evaluates both sides).
// CHECK-LABEL: tensorir.prim_func private @concat(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<2x3xf32>, %[[B:[^ ,:()]+]]: memref<2x?xf32>, %[[C:[^ ,:()]+]]: memref<2x1xf32>, %{{.*}}: memref<2x?xf32>)
// CHECK: %[[N:[^ ,:()]+]] = memref.dim %[[B]]
// CHECK: %[[LAST1:[^ ,:()]+]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[C3:[^ ,:()]+]] = arith.constant 3 : index
// CHECK: %[[E1:[^ ,:()]+]] = arith.addi %[[C3]], %[[N]] : index
// CHECK: tensorir.block "T_concat"(%[[I:[^ ,:()]+]] = spatial(2, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(%{{.*}}, %{{.*}}))
// CHECK-NEXT: %[[L2:[^ ,:()]+]] = arith.subi %[[J]], %[[E1]] : index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[K2:[^ ,:()]+]] = arith.maxsi %[[L2]], %[[C0]] : index
// CHECK-NEXT: %[[V2:[^ ,:()]+]] = memref.load %[[C]][%[[I]], %[[K2]]]
// CHECK-NEXT: %[[C3B:[^ ,:()]+]] = arith.constant 3 : index
// CHECK-NEXT: %[[L1:[^ ,:()]+]] = arith.subi %[[J]], %[[C3B]] : index
// CHECK-NEXT: %[[K1A:[^ ,:()]+]] = arith.maxsi %[[L1]], %[[C0]] : index
// CHECK-NEXT: %[[K1:[^ ,:()]+]] = arith.minsi %[[K1A]], %[[LAST1]] : index
// CHECK-NEXT: %[[V1:[^ ,:()]+]] = memref.load %[[B]][%[[I]], %[[K1]]]
// CHECK-NEXT: %[[IN1:[^ ,:()]+]] = arith.cmpi slt, %[[J]], %[[E1]] : index
// CHECK-NEXT: %[[S1:[^ ,:()]+]] = arith.select %[[IN1]], %[[V1]], %[[V2]] : f32
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[K0:[^ ,:()]+]] = arith.minsi %[[J]], %[[C2]] : index
// CHECK-NEXT: %[[V0:[^ ,:()]+]] = memref.load %[[A]][%[[I]], %[[K0]]]
// CHECK-NEXT: %[[IN0:[^ ,:()]+]] = arith.cmpi slt, %[[J]], %[[C3B]] : index
// CHECK-NEXT: %[[S0:[^ ,:()]+]] = arith.select %[[IN0]], %[[V0]], %[[S1]] : f32
// CHECK-NEXT: memref.store %[[S0]]
func.func @test_concat(%a: tensor<2x3xf32>, %b: tensor<2x?xf32, #relax.shape<[2, n]>>, %c: tensor<2x1xf32>) -> tensor<2x?xf32, #relax.shape<[2, n + 4]>> {
  %0 = relax.concat %a, %b, %c {axis = -1} : (tensor<2x3xf32>, tensor<2x?xf32, #relax.shape<[2, n]>>, tensor<2x1xf32>) -> tensor<2x?xf32, #relax.shape<[2, n + 4]>>
  return %0 : tensor<2x?xf32, #relax.shape<[2, n + 4]>>
}

// -----

// take along an axis: clip clamps the index, wrap takes it modulo the size.
// CHECK-LABEL: tensorir.prim_func private @take(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<10x4xf32>, %[[IDX:[^ ,:()]+]]: memref<2x3xi32>, %{{.*}}: memref<10x2x3xf32>)
// CHECK: tensorir.block "T_take"(%[[I:[^ ,:()]+]] = spatial(10, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(2, %{{.*}}), %[[K:[^ ,:()]+]] = spatial(3, %{{.*}}))
// CHECK-NEXT: %[[X:[^ ,:()]+]] = memref.load %[[IDX]][%[[J]], %[[K]]] : memref<2x3xi32>
// CHECK-NEXT: %[[P:[^ ,:()]+]] = arith.index_cast %[[X]] : i32 to index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:[^ ,:()]+]] = arith.maxsi %[[P]], %[[C0]] : index
// CHECK-NEXT: %[[C3:[^ ,:()]+]] = arith.constant 3 : index
// CHECK-NEXT: %[[Q:[^ ,:()]+]] = arith.minsi %[[LO]], %[[C3]] : index
// CHECK-NEXT: memref.load %[[A]][%[[I]], %[[Q]]]
// CHECK-LABEL: tensorir.prim_func private @take_0(
// CHECK: tensorir.block "T_take"
// CHECK: %[[P:[^ ,:()]+]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT: %[[C10:[^ ,:()]+]] = arith.constant 10 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.remsi %[[P]], %[[C10]] : index
// CHECK-NEXT: %[[S:[^ ,:()]+]] = arith.addi %[[R]], %[[C10]] : index
// CHECK-NEXT: %[[W:[^ ,:()]+]] = arith.remsi %[[S]], %[[C10]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[W]], %{{.*}}]
func.func @test_take(%x: tensor<10x4xf32>, %i: tensor<2x3xi32>, %j: tensor<5xi64>) -> (tensor<10x2x3xf32>, tensor<5x4xf32>) {
  %0 = relax.take %x, %i {axis = 1 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<10x2x3xf32>
  %1 = relax.take %x, %j {axis = 0 : i64, mode = "wrap"} : (tensor<10x4xf32>, tensor<5xi64>) -> tensor<5x4xf32>
  return %0, %1 : tensor<10x2x3xf32>, tensor<5x4xf32>
}

// -----

// take without axis: the flattened data, unravelled.
// CHECK-LABEL: tensorir.prim_func private @take(
// CHECK: tensorir.block "T_take"(%[[I:[^ ,:()]+]] = spatial(3, %{{.*}}))
// CHECK-NEXT: %[[X:[^ ,:()]+]] = memref.load %{{.*}}[%[[I]]] : memref<3xi32>
// CHECK-NEXT: %[[P:[^ ,:()]+]] = arith.index_cast %[[X]] : i32 to index
// CHECK-NEXT: %[[C4:[^ ,:()]+]] = arith.constant 4 : index
// CHECK-NEXT: %[[D1:[^ ,:()]+]] = arith.remui %[[P]], %[[C4]] : index
// CHECK-NEXT: %[[D0:[^ ,:()]+]] = arith.divui %[[P]], %[[C4]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[D0]], %[[D1]]] : memref<10x4xf32>
func.func @test_take_flat(%x: tensor<10x4xf32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %0 = relax.take %x, %i {mode = "fast"} : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// nn.pad constant: select between the (clamped) data element and the pad
// value, cast to the data's type; a cropped side needs no test.
// CHECK-LABEL: tensorir.prim_func private @pad(
// CHECK-SAME: %[[A:[^ ,:()]+]]: memref<3x4xf32>, %[[V:[^ ,:()]+]]: memref<f16>, %{{.*}}: memref<5x5xf32>)
// CHECK: tensorir.block "T_pad"(%[[I:[^ ,:()]+]] = spatial(5, %{{.*}}), %[[J:[^ ,:()]+]] = spatial(5, %{{.*}}))
// CHECK-NEXT: %[[PV:[^ ,:()]+]] = memref.load %[[V]][] : memref<f16>
// CHECK-NEXT: %[[FILL:[^ ,:()]+]] = arith.extf %[[PV]] : f16 to f32
// CHECK-NEXT: %[[C1:[^ ,:()]+]] = arith.constant 1 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.subi %[[I]], %[[C1]] : index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[OK0:[^ ,:()]+]] = arith.cmpi sge, %[[R]], %[[C0]] : index
// CHECK-NEXT: %[[C3:[^ ,:()]+]] = arith.constant 3 : index
// CHECK-NEXT: %[[OK1:[^ ,:()]+]] = arith.cmpi slt, %[[R]], %[[C3]] : index
// CHECK-NEXT: %[[OK:[^ ,:()]+]] = arith.andi %[[OK0]], %[[OK1]] : i1
// CHECK-NEXT: %[[RL:[^ ,:()]+]] = arith.maxsi %[[R]], %[[C0]] : index
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[RC:[^ ,:()]+]] = arith.minsi %[[RL]], %[[C2]] : index
// CHECK-NEXT: %[[S:[^ ,:()]+]] = arith.addi %[[J]], %[[C2]] : index
// CHECK-NEXT: %[[C4:[^ ,:()]+]] = arith.constant 4 : index
// CHECK-NEXT: %[[OK2:[^ ,:()]+]] = arith.cmpi slt, %[[S]], %[[C4]] : index
// CHECK-NEXT: %[[OK3:[^ ,:()]+]] = arith.andi %[[OK]], %[[OK2]] : i1
// CHECK: %[[X:[^ ,:()]+]] = memref.load %[[A]][%[[RC]], %{{.*}}]
// CHECK-NEXT: %[[Y:[^ ,:()]+]] = arith.select %[[OK3]], %[[X]], %[[FILL]] : f32
// CHECK-NEXT: memref.store %[[Y]]
func.func @test_pad(%x: tensor<3x4xf32>, %v: tensor<f16>) -> tensor<5x5xf32> {
  %0 = relax.nn.pad %x, %v {pad_width = array<i64: 1, 1, -2, 3>} : (tensor<3x4xf32>, tensor<f16>) -> tensor<5x5xf32>
  return %0 : tensor<5x5xf32>
}

// -----

// edge clamps; reflect mirrors without the border element (topi.nn.pad).
// CHECK-LABEL: tensorir.prim_func private @pad(
// CHECK: tensorir.block "T_pad"(%[[I:[^ ,:()]+]] = spatial(6, %{{.*}}))
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.subi %[[I]], %[[C2]] : index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[LO:[^ ,:()]+]] = arith.maxsi %[[R]], %[[C0]] : index
// CHECK-NEXT: %[[HI:[^ ,:()]+]] = arith.minsi %[[LO]], %[[C2]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[HI]]] : memref<3xf32>
// CHECK-LABEL: tensorir.prim_func private @pad_0(
// CHECK: tensorir.block "T_pad"(%[[I:[^ ,:()]+]] = spatial(6, %{{.*}}))
// CHECK-NEXT: %[[C2:[^ ,:()]+]] = arith.constant 2 : index
// CHECK-NEXT: %[[R:[^ ,:()]+]] = arith.subi %[[I]], %[[C2]] : index
// CHECK-NEXT: %[[C0:[^ ,:()]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[NEG:[^ ,:()]+]] = arith.subi %[[C0]], %[[R]] : index
// CHECK-NEXT: %[[BELOW:[^ ,:()]+]] = arith.cmpi slt, %[[R]], %[[C0]] : index
// CHECK-NEXT: %[[M0:[^ ,:()]+]] = arith.select %[[BELOW]], %[[NEG]], %[[R]] : index
// CHECK-NEXT: %[[C4:[^ ,:()]+]] = arith.constant 4 : index
// CHECK-NEXT: %[[MIR:[^ ,:()]+]] = arith.subi %[[C4]], %[[M0]] : index
// CHECK-NEXT: %[[C3:[^ ,:()]+]] = arith.constant 3 : index
// CHECK-NEXT: %[[ABOVE:[^ ,:()]+]] = arith.cmpi sge, %[[M0]], %[[C3]] : index
// CHECK-NEXT: %[[M1:[^ ,:()]+]] = arith.select %[[ABOVE]], %[[MIR]], %[[M0]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[M1]]] : memref<3xf32>
func.func @test_pad_modes(%x: tensor<3xf32>, %v: tensor<f32>) -> (tensor<6xf32>, tensor<6xf32>) {
  %0 = relax.nn.pad %x, %v {pad_width = array<i64: 2, 1>, pad_mode = "edge"} : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  %1 = relax.nn.pad %x, %v {pad_width = array<i64: 2, 1>, pad_mode = "reflect"} : (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>
  return %0, %1 : tensor<6xf32>, tensor<6xf32>
}

// -----

func.func @test_pad_reflect_too_wide(%x: tensor<3xf32>, %v: tensor<f32>) -> tensor<7xf32> {
  // expected-error@+1 {{'relax.nn.pad' op reflect padding of dimension 0 by [3, 1] needs widths smaller than its size 3}}
  %0 = relax.nn.pad %x, %v {pad_width = array<i64: 3, 1>, pad_mode = "reflect"} : (tensor<3xf32>, tensor<f32>) -> tensor<7xf32>
  return %0 : tensor<7xf32>
}

// -----

func.func @test_pad_edge_empty(%x: tensor<2x0xf32>, %v: tensor<f32>) -> tensor<2x2xf32> {
  // expected-error@+1 {{'relax.nn.pad' op cannot pad dimension 1 of size 0 in 'edge' mode}}
  %0 = relax.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 1>, pad_mode = "edge"} : (tensor<2x0xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @test_take_empty(%x: tensor<0x4xf32>, %i: tensor<2xi32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'relax.take' op cannot take from data of shape [0, 4] with no elements along the axis}}
  %0 = relax.take %x, %i {axis = 0 : i64} : (tensor<0x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @test_pad_index_value(%x: tensor<3xf32>, %v: tensor<index>) -> tensor<5xf32> {
  // The verifier rejects it (index is no TVM dtype) before legalization.
  // expected-error@+1 {{'relax.nn.pad' op operand #1 must be 0D tensor of a TVM dtype}}
  %0 = relax.nn.pad %x, %v {pad_width = array<i64: 1, 1>} : (tensor<3xf32>, tensor<index>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Scatters: a spatial copy of the data, then one block without iteration
// variables around sequential loops over the updates, which store at
// positions read from the indices (negative ones counted from the end), in
// order, combined with `reduction`.
// CHECK-LABEL: tensorir.prim_func private @scatter_nd(
// CHECK-SAME:      %A: memref<4x5xf32>, %B: memref<2x1xi64>, %C: memref<2x5xf32>, %T_scatter_nd: memref<4x5xf32>)
// CHECK:         tensorir.block "T_scatter_nd_copy"
// CHECK:         tensorir.block "T_scatter_nd" {
// CHECK:           scf.for %[[Q:.*]] = %{{.*}} to %{{.*}} step
// CHECK:             scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK:               %[[I:.*]] = memref.load %B[%[[Q]], %{{.*}}] : memref<2x1xi64>
// CHECK:               arith.index_cast %[[I]] : i64 to index
// CHECK:               %[[POS:.*]] = arith.select
// CHECK:               %[[U:.*]] = memref.load %C[%[[Q]], %[[J]]]
// CHECK:               %[[OLD:.*]] = memref.load %T_scatter_nd[%[[POS]], %[[J]]]
// CHECK:               %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[U]] : f32
// CHECK:               memref.store %[[NEW]], %T_scatter_nd[%[[POS]], %[[J]]]
// CHECK-LABEL: tensorir.prim_func private @scatter_elements(
// CHECK:         tensorir.block "T_scatter_elements" {
// CHECK-NOT:       arith.maximumf
// CHECK:           memref.store
func.func @scatter(%x: tensor<4x5xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5xf32>, %e: tensor<3x5xi64>, %v: tensor<3x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xf32>) {
  %0 = relax.scatter_nd %x, %i, %u {reduction = "max"} : (tensor<4x5xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x5xf32>
  %1 = relax.scatter_elements %x, %e, %v : (tensor<4x5xf32>, tensor<3x5xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<4x5xf32>
}

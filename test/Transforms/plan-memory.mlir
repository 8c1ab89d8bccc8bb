// RUN: mlc-opt %s --allow-unregistered-dialect --split-input-file --mlc-plan-memory | FileCheck %s
// RUN: mlc-opt %s --allow-unregistered-dialect --split-input-file --mlc-plan-memory=print-peak-bytes --verify-diagnostics -o /dev/null

// A chain of kernels: %a is dead when %c is first written, so %c takes its
// slot. The arena is freed where the last buffer was.
// CHECK-LABEL: func.func @reuse_dead_slot
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[ARENA]][%[[C64]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT:    %[[C0_1:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C:.*]] = memref.view %[[ARENA]][%[[C0_1]]][] : memref<128xi8> to memref<16xf32>
// CHECK-NEXT:    call @kernel(%arg0, %[[A]])
// CHECK-NEXT:    call @kernel(%[[A]], %[[B]])
// CHECK-NEXT:    call @kernel(%[[B]], %[[C]])
// CHECK-NEXT:    call @kernel(%[[C]], %arg1)
// CHECK-NEXT:    memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT:    return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
// expected-remark @below {{planned peak bytes: 128 (was 192 in 3 buffers, now 2 slots)}}
func.func @reuse_dead_slot(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  func.call @kernel(%x, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  func.call @kernel(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  func.call @kernel(%b, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %b : memref<16xf32>
  func.call @kernel(%c, %y) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// All three are live at the last copy: no slot could be shared, so an arena
// would save nothing and the buffers are left alone. Uses in nested regions
// (the loop) count at their ancestor in the block.
// CHECK-LABEL: func.func @overlap
// CHECK-NOT:     memref.view
// CHECK:         memref.alloc() : memref<16xf32>
// CHECK-NEXT:    memref.alloc() : memref<32xf32>
// CHECK-NEXT:    memref.alloc() : memref<4xf32>
func.func private @use3(memref<16xf32>, memref<32xf32>, memref<4xf32>)
// expected-remark @below {{planned peak bytes: 0 (was 0 in 0 buffers, now 0 slots)}}
func.func @overlap(%x: memref<16xf32>) {
  // expected-remark @below {{not planned: sharing its block's arena saves no memory}}
  %a = memref.alloc() : memref<16xf32>
  // expected-remark @below {{not planned: sharing its block's arena saves no memory}}
  %b = memref.alloc() : memref<32xf32>
  // expected-remark @below {{not planned: sharing its block's arena saves no memory}}
  %c = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %f, %b[%i] : memref<32xf32>
    memref.store %f, %c[%i] : memref<4xf32>
  }
  func.call @use3(%a, %b, %c) : (memref<16xf32>, memref<32xf32>, memref<4xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<32xf32>
  memref.dealloc %c : memref<4xf32>
  return
}

// -----

// Element types of different widths share one i8 arena; every offset is a
// multiple of 64 bytes. %i (i64) and %b (i8), first used after %a (f64) is
// dead, reuse its bytes side by side; a view of a buffer (subview) is a use.
// CHECK-LABEL: func.func @mixed_types
// CHECK-NEXT:    %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = memref.view %[[ARENA]][%[[C0]]][] : memref<128xi8> to memref<4x4xf64>
// CHECK-NEXT:    %[[C0_0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[I:.*]] = memref.view %[[ARENA]][%[[C0_0]]][] : memref<128xi8> to memref<3xi64>
// CHECK-NEXT:    %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[B:.*]] = memref.view %[[ARENA]][%[[C64]]][] : memref<128xi8> to memref<10xi8>
// CHECK:         memref.subview %[[A]]
// CHECK:         memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func private @fill_f64(memref<4x4xf64>)
func.func private @fill_i8(memref<10xi8>, memref<3xi64>)
// expected-remark @below {{planned peak bytes: 128 (was 162 in 3 buffers, now 2 slots)}}
func.func @mixed_types(%out: memref<2x2xf64, strided<[4, 1]>>) {
  %a = memref.alloc() : memref<4x4xf64>
  %i = memref.alloc() : memref<3xi64>
  %b = memref.alloc() : memref<10xi8>
  func.call @fill_f64(%a) : (memref<4x4xf64>) -> ()
  %sub = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1]>>
  memref.copy %sub, %out : memref<2x2xf64, strided<[4, 1]>> to memref<2x2xf64, strided<[4, 1]>>
  memref.dealloc %a : memref<4x4xf64>
  func.call @fill_i8(%b, %i) : (memref<10xi8>, memref<3xi64>) -> ()
  memref.dealloc %b : memref<10xi8>
  memref.dealloc %i : memref<3xi64>
  return
}

// -----

// A larger alignment asked by one alloc applies to the whole arena; %b
// reuses %a's bytes.
// CHECK-LABEL: func.func @alignment
// CHECK:         memref.alloc() {alignment = 128 : i64} : memref<128xi8>
func.func private @use1(memref<16xf32>)
func.func private @use2(memref<1xf32>)
// expected-remark @below {{planned peak bytes: 128 (was 68 in 2 buffers, now 1 slots)}}
func.func @alignment() {
  %a = memref.alloc() {alignment = 128 : i64} : memref<16xf32>
  %b = memref.alloc() : memref<1xf32>
  func.call @use1(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  func.call @use2(%b) : (memref<1xf32>) -> ()
  memref.dealloc %b : memref<1xf32>
  return
}

// -----

// Negative cases: none of these allocs is planned, and the one candidate
// left over gains nothing from an arena, so the function is unchanged.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     memref.view
// CHECK:         %[[DYN:.*]] = memref.alloc(%arg0) : memref<?xf32>
// CHECK:         %[[RET:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[IF:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[CAP:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         %[[ONE:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         memref.dealloc %[[DYN]]
// CHECK:         memref.dealloc %[[CAP]]
// CHECK:         memref.dealloc %[[ONE]]
// CHECK:         return %[[RET]]
func.func private @kernel(memref<8xf32>)
// expected-remark @below {{planned peak bytes: 0 (was 0 in 0 buffers, now 0 slots)}}
func.func @left_alone(%n: index, %cond: i1) -> memref<8xf32> {
  // expected-remark @below {{not planned: dynamic shape}}
  %dyn = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{not planned: escapes through 'func.return'}}
  %ret = memref.alloc() : memref<8xf32>
  // expected-remark @below {{not planned: freed in another block}}
  %if = memref.alloc() : memref<8xf32>
  // expected-remark @below {{not planned: may be captured by 'test.capture'}}
  %cap = memref.alloc() : memref<8xf32>
  // expected-remark @below {{not planned: the only candidate of its block}}
  %one = memref.alloc() : memref<8xf32>
  "test.use"(%dyn) {test.reads} : (memref<?xf32>) -> ()
  func.call @kernel(%ret) : (memref<8xf32>) -> ()
  func.call @kernel(%if) : (memref<8xf32>) -> ()
  scf.if %cond {
    memref.dealloc %if : memref<8xf32>
  }
  "test.capture"(%cap) : (memref<8xf32>) -> ()
  func.call @kernel(%one) : (memref<8xf32>) -> ()
  memref.dealloc %dyn : memref<?xf32>
  memref.dealloc %cap : memref<8xf32>
  memref.dealloc %one : memref<8xf32>
  return %ret : memref<8xf32>
}

// -----

// A buffer carried through a loop or swapped into another value may alias
// that value's result; a buffer never freed is not planned.
// CHECK-LABEL: func.func @aliased_results
// CHECK-NOT:     memref.view
func.func private @use(memref<8xf32>)
// expected-remark @below {{planned peak bytes: 0 (was 0 in 0 buffers, now 0 slots)}}
func.func @aliased_results(%cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{not planned: escapes through 'scf.for'}}
  %a = memref.alloc() : memref<8xf32>
  // expected-remark @below {{not planned: may be aliased by a result of 'arith.select'}}
  %b = memref.alloc() : memref<8xf32>
  // expected-remark @below {{not planned: not freed in its block}}
  %c = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%it = %a) -> memref<8xf32> {
    scf.yield %it : memref<8xf32>
  }
  %s = arith.select %cond, %b, %r : memref<8xf32>
  func.call @use(%s) : (memref<8xf32>) -> ()
  func.call @use(%c) : (memref<8xf32>) -> ()
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// Buffers inside a loop body get an arena of that block, allocated and freed
// per iteration as the buffers were.
// CHECK-LABEL: func.func @loop_body
// CHECK:         scf.for
// CHECK-NEXT:      %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
// CHECK:           memref.view %[[ARENA]]
// CHECK:           memref.view %[[ARENA]]
// CHECK:           memref.dealloc %[[ARENA]]
// CHECK-NEXT:    }
func.func private @kernel(memref<4xf32>, memref<4xf32>)
// expected-remark @below {{planned peak bytes: 64 (was 32 in 2 buffers, now 1 slots)}}
func.func @loop_body(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %a = memref.alloc() : memref<4xf32>
    func.call @kernel(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %a : memref<4xf32>
    %b = memref.alloc() : memref<4xf32>
    func.call @kernel(%x, %b) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %b : memref<4xf32>
  }
  return
}

// -----

// The ownership-based deallocation frees every buffer before the terminator;
// intervals end at the last use, so %b and %c still reuse %a's bytes.
// CHECK-LABEL: func.func @freed_at_end
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
// CHECK-COUNT-3: memref.view %[[ARENA]]
// CHECK:         memref.dealloc %[[ARENA]] : memref<128xi8>
// CHECK-NEXT:    return
func.func private @kernel(memref<16xf32>, memref<16xf32>)
// expected-remark @below {{planned peak bytes: 128 (was 192 in 3 buffers, now 2 slots)}}
func.func @freed_at_end(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  func.call @kernel(%x, %a) : (memref<16xf32>, memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  func.call @kernel(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  %c = memref.alloc() : memref<16xf32>
  func.call @kernel(%b, %c) : (memref<16xf32>, memref<16xf32>) -> ()
  func.call @kernel(%c, %y) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// --derive-call-directions materializes every parameter's pl.direction
// (explicit wins, else derived from the body) and records pl.arg_directions
// on every call-like op.
// RUN: pld-opt %s --derive-call-directions --verify-each | FileCheck %s
// A second run changes nothing.
// RUN: pld-opt %s --derive-call-directions --derive-call-directions | FileCheck %s

// Returned only: out. Passed to an inout operand: inout. Returned and read: inout.
// CHECK-LABEL: func.func @stage_step
// CHECK-SAME: %arg0: !pl.tensor<16x4xf32> {pl.direction = "in"}
// CHECK-SAME: %arg1: !pld.dtensor<16x4xf32> {pl.direction = "out"}
// CHECK-SAME: %arg2: i64 {pl.direction = "in"}
func.func @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %n: i64) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %stage : !pld.dtensor<16x4xf32>
}

// An explicit direction wins over the body.
// CHECK-LABEL: func.func @explicit
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "inout"}
// CHECK-SAME: %arg1: !pl.tensor<4xf32> {pl.direction = "in"}
func.func @explicit(%a: !pl.tensor<4xf32> {pl.direction = "inout"}, %b: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}

// A body-less kernel's undeclared tensor parameters are conservatively inout.
// CHECK-LABEL: func.func private @opaque_kernel
// CHECK-SAME: !pl.tensor<4xf32> {pl.direction = "inout"}
// CHECK-SAME: !pl.tensor<4xf32> {pl.direction = "in"}
// CHECK-SAME: i32 {pl.direction = "in"}
func.func private @opaque_kernel(!pl.tensor<4xf32>, !pl.tensor<4xf32> {pl.direction = "in"}, i32) attributes {pl.func_kind = "aiv"}

// Through views and calls: %x reaches an out operand through a reshape (out),
// %y an inout operand through a cast (inout), %z is only read (in), %w is
// passed to an out operand and read by a later call (inout).
// CHECK-LABEL: func.func @orch
// CHECK-SAME: %arg0: !pld.dtensor<16x4xf32> {pl.direction = "out"}
// CHECK-SAME: %arg1: !pl.tensor<4xf32> {pl.direction = "inout"}
// CHECK-SAME: %arg2: !pl.tensor<4xf32> {pl.direction = "in"}
// CHECK-SAME: %arg3: !pld.dtensor<16x4xf32> {pl.direction = "inout"}
// CHECK: call @stage_step({{.*}}) {pl.arg_directions = ["in", "out", "in"]}
// CHECK: call @opaque_kernel({{.*}}) {pl.arg_directions = ["inout", "in", "in"]}
// CHECK: call @stage_step({{.*}}) {pl.arg_directions = ["in", "out", "in"]}
// CHECK: call @explicit({{.*}}) {pl.arg_directions = ["inout", "in"]}
// CHECK: pl.submit @stage_step({{.*}}) {pl.arg_directions = ["in", "out", "in"]}
func.func @orch(%x: !pld.dtensor<16x4xf32>, %y: !pl.tensor<4xf32>, %z: !pl.tensor<4xf32>, %w: !pld.dtensor<16x4xf32>, %n: i64, %k: i32)
    attributes {pl.func_kind = "orchestration"} {
  %in = "pl.tensor.create"() : () -> !pl.tensor<16x4xf32>
  %xv = pl.tensor.reshape %x : !pld.dtensor<16x4xf32> -> !pld.dtensor<16x4xf32>
  %0 = func.call @stage_step(%in, %xv, %n) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, i64) -> !pld.dtensor<16x4xf32>
  %yc = pl.cast %y : !pl.tensor<4xf32> to !pl.tensor<?xf32>
  %yc2 = pl.cast %yc : !pl.tensor<?xf32> to !pl.tensor<4xf32>
  func.call @opaque_kernel(%yc2, %z, %k) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>, i32) -> ()
  %1 = func.call @stage_step(%in, %w, %n) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, i64) -> !pld.dtensor<16x4xf32>
  func.call @explicit(%y, %z) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  %2 = pl.submit @stage_step(%in, %w, %n) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, i64) -> !pld.dtensor<16x4xf32>
  %3 = pl.cast %1 : !pld.dtensor<16x4xf32> to !pl.tensor<16x4xf32>
  %4 = func.call @stage_step(%3, %x, %n) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, i64) -> !pld.dtensor<16x4xf32>
  return
}

// A collective writes target, signal and recv_counts and reads the rest.
// CHECK-LABEL: func.func @with_collective
// CHECK-SAME: {pl.direction = "in"}
// CHECK-SAME: {pl.direction = "inout"}
// CHECK-SAME: {pl.direction = "inout"}
// CHECK-SAME: {pl.direction = "in"}
// CHECK-SAME: {pl.direction = "inout"}
func.func @with_collective(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

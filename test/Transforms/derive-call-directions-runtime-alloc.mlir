// --derive-call-directions and the parameters a pl.submit leaves to the
// runtime (runtime_alloc_outs: the trailing parameters after its operands).
// Such a parameter must be out (the pl.submit verifier refuses any other
// explicit pl.direction), so the pass never writes another direction there:
// a body-less callee's undeclared one is derived out, and a body that derives
// in/inout for it is refused at the pl.submit, with nothing written.
// RUN: pld-opt %s --split-input-file --derive-call-directions --verify-diagnostics | FileCheck %s
// The output verifies when read back, and a second run changes nothing.
// RUN: pld-opt %s --split-input-file --derive-call-directions --verify-diagnostics | pld-opt --split-input-file --derive-call-directions | FileCheck %s

// A body-less kernel: its undeclared runtime-allocated parameter is out (the
// runtime allocates it; nothing reads it first), also where another call
// passes it explicitly. Its other undeclared tensor parameter stays inout.
// CHECK-LABEL: func.func private @opaque_kernel
// CHECK-SAME: (!pl.tensor<4xf32> {pl.direction = "in"}, !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
// CHECK-LABEL: func.func private @opaque_two
// CHECK-SAME: (!pl.tensor<4xf32> {pl.direction = "inout"}, !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
// CHECK-LABEL: func.func @opaque_left_to_runtime
// CHECK-SAME: %arg0: !pl.tensor<4xf32> {pl.direction = "in"}
// CHECK-SAME: %arg1: !pl.tensor<4xf32> {pl.direction = "inout"}
// CHECK: pl.submit @opaque_kernel(%arg0) {pl.arg_directions = ["in"], runtime_alloc_outs = array<i64: 0>}
// CHECK: pl.submit @opaque_two(%arg1) {pl.arg_directions = ["inout"], runtime_alloc_outs = array<i64: 0>}
// CHECK: call @opaque_two(%arg1, %arg2) {pl.arg_directions = ["inout", "out"]}
func.func private @opaque_kernel(!pl.tensor<4xf32> {pl.direction = "in"}, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"}
func.func private @opaque_two(!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"}
func.func @opaque_left_to_runtime(%x: !pl.tensor<4xf32>, %y: !pl.tensor<4xf32>, %z: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pl.submit @opaque_kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %1 = pl.submit @opaque_two(%y) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %2 = func.call @opaque_two(%y, %z) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A kernel whose body only writes the runtime-allocated parameter: out.
// CHECK-LABEL: func.func @writes_only
// CHECK-SAME: %arg1: !pl.tensor<4xf32> {pl.direction = "out"}
// CHECK-LABEL: func.func @written_by_body
// CHECK: pl.submit @writes_only(%arg0) {pl.arg_directions = ["in"], runtime_alloc_outs = array<i64: 0>}
func.func @writes_only(%inp: !pl.tensor<4xf32>, %o: !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %o : !pl.tensor<4xf32>
}
func.func @written_by_body(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pl.submit @writes_only(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A kernel whose body reads the runtime-allocated parameter (it passes it to
// an inout argument): writing pl.direction = "inout" there would make the
// pl.submit invalid, so the pass fails at the submit and writes nothing.
func.func @kernel(%inp: !pl.tensor<4xf32> loc("inp"), %acc: !pl.tensor<4xf32> loc("acc")) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"} {
  func.call @accumulate(%acc, %inp) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return %acc : !pl.tensor<4xf32>
}
func.func private @accumulate(!pl.tensor<4xf32> {pl.direction = "inout"}, !pl.tensor<4xf32> {pl.direction = "in"})
func.func @inout_left_to_runtime(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.submit' op runtime-allocated parameter 'acc' (#1) of @kernel must be an out parameter (the runtime allocates it uninitialized for the kernel to write), got inout}}
  %0 = pl.submit @kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

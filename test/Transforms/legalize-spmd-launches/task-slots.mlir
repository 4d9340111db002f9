// One kernel task holds at most 32 tensors and 16 scalars (simpler's
// CoreTaskArgs); a kernel's scalars are its CommContexts, one per
// !pld.dtensor parameter, which the pipeline materializes after this pass.
// --legalize-spmd-launches refuses a launch past either at the call (else
// the task fails at run time without a location), from the kernel's
// signature alone. At the limits the launch is accepted.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s

func.func private @k(%a0: !pld.dtensor<4xf32> {pl.direction = "out"}, %a1: !pld.dtensor<4xf32>, %a2: !pld.dtensor<4xf32>, %a3: !pld.dtensor<4xf32>, %a4: !pld.dtensor<4xf32>, %a5: !pld.dtensor<4xf32>, %a6: !pld.dtensor<4xf32>, %a7: !pld.dtensor<4xf32>, %a8: !pld.dtensor<4xf32>, %a9: !pld.dtensor<4xf32>, %a10: !pld.dtensor<4xf32>, %a11: !pld.dtensor<4xf32>, %a12: !pld.dtensor<4xf32>, %a13: !pld.dtensor<4xf32>, %a14: !pld.dtensor<4xf32>, %a15: !pld.dtensor<4xf32>, %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>, %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>) -> !pld.dtensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %a0 : !pld.dtensor<4xf32>
}
// CHECK-LABEL: func.func @at_the_limits
// CHECK: call @k
func.func @at_the_limits(%a0: !pld.dtensor<4xf32>, %a1: !pld.dtensor<4xf32>, %a2: !pld.dtensor<4xf32>, %a3: !pld.dtensor<4xf32>, %a4: !pld.dtensor<4xf32>, %a5: !pld.dtensor<4xf32>, %a6: !pld.dtensor<4xf32>, %a7: !pld.dtensor<4xf32>, %a8: !pld.dtensor<4xf32>, %a9: !pld.dtensor<4xf32>, %a10: !pld.dtensor<4xf32>, %a11: !pld.dtensor<4xf32>, %a12: !pld.dtensor<4xf32>, %a13: !pld.dtensor<4xf32>, %a14: !pld.dtensor<4xf32>, %a15: !pld.dtensor<4xf32>, %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>, %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = func.call @k(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31) : (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pld.dtensor<4xf32>
  return
}

// -----

func.func private @k(%a0: !pl.tensor<4xf32> {pl.direction = "out"}, %a1: !pl.tensor<4xf32>, %a2: !pl.tensor<4xf32>, %a3: !pl.tensor<4xf32>, %a4: !pl.tensor<4xf32>, %a5: !pl.tensor<4xf32>, %a6: !pl.tensor<4xf32>, %a7: !pl.tensor<4xf32>, %a8: !pl.tensor<4xf32>, %a9: !pl.tensor<4xf32>, %a10: !pl.tensor<4xf32>, %a11: !pl.tensor<4xf32>, %a12: !pl.tensor<4xf32>, %a13: !pl.tensor<4xf32>, %a14: !pl.tensor<4xf32>, %a15: !pl.tensor<4xf32>, %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>, %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>, %a32: !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %a0 : !pl.tensor<4xf32>
}
func.func @too_many_tensors(%a0: !pl.tensor<4xf32>, %a1: !pl.tensor<4xf32>, %a2: !pl.tensor<4xf32>, %a3: !pl.tensor<4xf32>, %a4: !pl.tensor<4xf32>, %a5: !pl.tensor<4xf32>, %a6: !pl.tensor<4xf32>, %a7: !pl.tensor<4xf32>, %a8: !pl.tensor<4xf32>, %a9: !pl.tensor<4xf32>, %a10: !pl.tensor<4xf32>, %a11: !pl.tensor<4xf32>, %a12: !pl.tensor<4xf32>, %a13: !pl.tensor<4xf32>, %a14: !pl.tensor<4xf32>, %a15: !pl.tensor<4xf32>, %a16: !pl.tensor<4xf32>, %a17: !pl.tensor<4xf32>, %a18: !pl.tensor<4xf32>, %a19: !pl.tensor<4xf32>, %a20: !pl.tensor<4xf32>, %a21: !pl.tensor<4xf32>, %a22: !pl.tensor<4xf32>, %a23: !pl.tensor<4xf32>, %a24: !pl.tensor<4xf32>, %a25: !pl.tensor<4xf32>, %a26: !pl.tensor<4xf32>, %a27: !pl.tensor<4xf32>, %a28: !pl.tensor<4xf32>, %a29: !pl.tensor<4xf32>, %a30: !pl.tensor<4xf32>, %a31: !pl.tensor<4xf32>, %a32: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{launch of @k must fit one task's argument slots (at most 32 tensors and 16 scalars: simpler's CoreTaskArgs), got 33 tensor parameters and 0 !pld.dtensor parameters (a CommContext scalar each)}}
  %r = func.call @k(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16, %a17, %a18, %a19, %a20, %a21, %a22, %a23, %a24, %a25, %a26, %a27, %a28, %a29, %a30, %a31, %a32) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

func.func private @k(%a0: !pld.dtensor<4xf32> {pl.direction = "out"}, %a1: !pld.dtensor<4xf32>, %a2: !pld.dtensor<4xf32>, %a3: !pld.dtensor<4xf32>, %a4: !pld.dtensor<4xf32>, %a5: !pld.dtensor<4xf32>, %a6: !pld.dtensor<4xf32>, %a7: !pld.dtensor<4xf32>, %a8: !pld.dtensor<4xf32>, %a9: !pld.dtensor<4xf32>, %a10: !pld.dtensor<4xf32>, %a11: !pld.dtensor<4xf32>, %a12: !pld.dtensor<4xf32>, %a13: !pld.dtensor<4xf32>, %a14: !pld.dtensor<4xf32>, %a15: !pld.dtensor<4xf32>, %a16: !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return %a0 : !pld.dtensor<4xf32>
}
func.func @too_many_contexts(%a0: !pld.dtensor<4xf32>, %a1: !pld.dtensor<4xf32>, %a2: !pld.dtensor<4xf32>, %a3: !pld.dtensor<4xf32>, %a4: !pld.dtensor<4xf32>, %a5: !pld.dtensor<4xf32>, %a6: !pld.dtensor<4xf32>, %a7: !pld.dtensor<4xf32>, %a8: !pld.dtensor<4xf32>, %a9: !pld.dtensor<4xf32>, %a10: !pld.dtensor<4xf32>, %a11: !pld.dtensor<4xf32>, %a12: !pld.dtensor<4xf32>, %a13: !pld.dtensor<4xf32>, %a14: !pld.dtensor<4xf32>, %a15: !pld.dtensor<4xf32>, %a16: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{launch of @k must fit one task's argument slots (at most 32 tensors and 16 scalars: simpler's CoreTaskArgs), got 17 tensor parameters and 17 !pld.dtensor parameters (a CommContext scalar each)}}
  %r = func.call @k(%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7, %a8, %a9, %a10, %a11, %a12, %a13, %a14, %a15, %a16) : (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>) -> !pld.dtensor<4xf32>
  return
}

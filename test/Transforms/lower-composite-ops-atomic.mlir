// --lower-composite-ops checks every collective before it rewrites any: input
// and target rows of different shapes (which pld.comm.put_rows' verifier would
// reject after the rewrite) are a located error, and the module is left as it
// was. The rows hold the same element count (2x2 and 4), which the op verifier
// accepts (the CHIP kernel addresses rows flat); only the InCore rail refuses. (Found by the mutation campaign: before, the pass rewrote and the
// module then failed verification.)
// RUN: not pld-opt %s --lower-composite-ops --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// CHECK: lower-composite-ops-atomic.mlir:[[# @LINE + 8]]:8: error: 'pld.tensor.all_to_all_v' op operand 'input' row shape [2x2] differs from the row shape of 'target' [4] (the InCore rail copies whole rows)
// CHECK: IR Dump After LowerCompositeOps Failed
// CHECK: func.func @bad
// CHECK-NEXT: pld.tensor.all_to_all_v
// CHECK: func.func @good
// CHECK-NEXT: pld.tensor.all_to_all_v
// CHECK-NOT: pld.comm
func.func @bad(%in: !pl.tensor<8x2x2xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "incore"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<8x2x2xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<8x4xf32>
  return
}
func.func @good(%in: !pl.tensor<8x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "incore"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pl.tensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<8x4xf32>
  return
}

// Views read and write nothing, so CSE merges equal ones and DCE drops unused
// ones; but they are not speculatable (the orchestration codegen checks a
// dynamic slice's bounds and a strided reshape at run time), so
// -loop-invariant-code-motion keeps them inside a loop that may run zero times.
// RUN: pld-opt %s --loop-invariant-code-motion --cse | FileCheck %s

func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"})
    attributes {pl.func_kind = "aiv", pl.kernel_source = "k.cpp"} {
  return
}

// CHECK-LABEL: func.func @slice_in_loop
// CHECK:         scf.for
// CHECK-NEXT:      pl.tensor.slice
// CHECK-NOT:       pl.tensor.slice
// CHECK:           call @k
// CHECK:           call @k
func.func @slice_in_loop(%y: !pl.tensor<16xf32>, %o: index, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = pl.tensor.slice %y[%o] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
    %t = pl.tensor.slice %y[%o] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
    func.call @k(%s) : (!pl.tensor<4xf32>) -> ()
    func.call @k(%t) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

// CHECK-LABEL: func.func @reshape_in_loop
// CHECK:         scf.for
// CHECK-NEXT:      pl.tensor.reshape
func.func @reshape_in_loop(%y: !pl.tensor<4x4xf32>, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %r = pl.tensor.reshape %y : !pl.tensor<4x4xf32> -> !pl.tensor<16xf32>
    %s = pl.tensor.slice %r[%i] {sizes = array<i64: 4>} : (!pl.tensor<16xf32>, index) -> !pl.tensor<4xf32>
    func.call @k(%s) : (!pl.tensor<4xf32>) -> ()
  }
  return
}

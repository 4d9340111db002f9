// pld.tensor.indexed_all_to_all_v shares the type deducer; its `index`
// operand is checked like the others.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

// A strided (non-packed) index.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %ix: !pl.tensor<16x1xi32, strides = [2, 1]>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' has strides [2, 1] that are not packed row-major}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix {core_num = 2 : i64}
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16x1xi32, strides = [2, 1]> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Neither core_num form.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %ix: !pl.tensor<16xi32>) {
  // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op needs exactly one of the 'core_num' attribute and the 'dynamic_core_num' operand}}
  %0 = pld.tensor.indexed_all_to_all_v %in, %tg, %sg, %sc, %rc, %ix
      : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// The runtime core_num is an i64.
func.func @f(%in: !pl.tensor<16x4xf32>, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>, %n: i32) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand #5 must be 64-bit signless integer, but got 'i32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc, %n)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
         !pld.dtensor<2xi32>, i32) -> !pld.dtensor<16x4xf32>
  return
}

// -----

// The payload operands are tensors.
func.func @f(%in: i32, %tg: !pld.dtensor<16x4xf32>, %sg: !pld.dtensor<2x8xi32>,
             %sc: !pld.dtensor<2xi32>, %rc: !pld.dtensor<2xi32>) {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operand #0 must be !pl.tensor or !pld.dtensor, but got 'i32'}}
  %0 = "pld.tensor.all_to_all_v"(%in, %tg, %sg, %sc, %rc) {core_num = 1 : i64}
      : (i32, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
         !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  return
}

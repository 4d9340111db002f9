// A core_num operand defined by arith.constant is compile-time: it is folded
// like the attribute and never becomes a call operand.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @constant_operand
// CHECK: call @__builtin_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,)]*}}) {pl.core_num = 4 : i64, pl.sync_start}
func.func @constant_operand(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                            %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %n = arith.constant 5 : i64
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// Arithmetic that arith's folders reduce to a constant is compile-time too:
// byte for byte the attribute's form (the arith ops stay, unused).
// CHECK-LABEL: func.func @folded_operand
// CHECK-NOT: pl.launch
// CHECK-NOT: pl.require
// CHECK: call @__builtin_all_to_all_v__fp32(%{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,]*}}, %{{[^,)]*}}) {pl.core_num = 4 : i64, pl.sync_start}
func.func @folded_operand(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                          %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %a = arith.constant 2 : i64
  %b = arith.constant 3 : i64
  %n = arith.addi %a, %b : i64
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A folded core_num gets the compile-time diagnostics.
func.func @folded_too_wide(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x2xi32>,
                           %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %a = arith.constant 2 : i64
  %n = arith.muli %a, %a : i64
  // expected-note @+2 {{the signal needs one column (lane) per launched block}}
  // expected-error @+1 {{signal stride S=2 is smaller than the admitted block count B=4}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x2xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

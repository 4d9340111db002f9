// A runtime core_num is not supported on the CHIP rail yet; the note points
// at the value and says the HOST rail accepts one.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

func.func @runtime(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                   // expected-note @+1 {{the HOST rail (--lower-host-tensor-collectives) accepts a runtime core_num}}
                   %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{a runtime core_num is not supported on this rail yet}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A value computed in the body is runtime too, even from constants.
func.func @computed(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %a = arith.constant 1 : i64
  // expected-note @+1 {{the HOST rail}}
  %n = arith.addi %a, %a : i64
  // expected-error @+1 {{a runtime core_num is not supported on this rail yet}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

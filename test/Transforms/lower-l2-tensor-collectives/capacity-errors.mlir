// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// S < B with the folded B: P=2, L=2 launches B=2 blocks but S=1.
func.func @p2_l2_s1(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x1xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+2 {{the signal needs one column (lane) per launched block}}
  // expected-error @+1 {{signal stride S=1 is smaller than the admitted block count B=2 (core_num L=2 folded for P=2 ranks)}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x1xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// B, not L, is validated: L=20 on P=8 folds to B=16 > S=10.
func.func @p8_l20_s10(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x10xi32>,
                      %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-note @+2 {{the signal needs one column (lane) per launched block}}
  // expected-error @+1 {{signal stride S=10 is smaller than the admitted block count B=16}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 20 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x10xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

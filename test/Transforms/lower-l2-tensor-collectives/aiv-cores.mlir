// lower-l2-tensor-collectives{aiv-cores=N}: a compile-time launch width B
// above the target's N AIV cores is an error at the collective (instead of
// the runtime's sync-start rejection); B <= N, and a runtime B (checked by
// the runtime), pass. The default, 0, checks nothing. The flag form, the
// pipeline element and pld-lower-collectives{aiv-cores=N} all reach it.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(lower-l2-tensor-collectives{aiv-cores=4})'
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives=aiv-cores=4
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(pld-lower-collectives{aiv-cores=4})'
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pld-lower-collectives=aiv-cores=4
// Without the option (or with 0) nothing is checked: every case lowers.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives | FileCheck %s --check-prefix=UNCHECKED
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives=aiv-cores=0 | FileCheck %s --check-prefix=UNCHECKED
// UNCHECKED-LABEL: func.func @b8
// UNCHECKED: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}

// P = 8 ranks, core_num 8: B = 8 > 4.
func.func @b8(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>,
              %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op launch width B=8 exceeds the target's 4 AIV cores (core_num L=8 folded for P=8 ranks; option aiv-cores=4)}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 8 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A core_num that folds to a constant is a compile-time B too: P = 2, L = 6, B = 6.
func.func @folded(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %l = arith.constant 6 : i64
  // expected-error @+1 {{launch width B=6 exceeds the target's 4 AIV cores}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%l)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// B = 4 fits exactly (P = 2, L = 5: B = 5 / 2 * 2 = 4).
func.func @b4(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 5 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// A runtime core_num: B is known only at run time, so it is not checked here.
func.func @runtime(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

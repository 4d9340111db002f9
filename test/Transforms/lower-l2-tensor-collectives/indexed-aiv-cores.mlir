// lower-l2-tensor-collectives{aiv-cores=N} on the indexed op: its launch width
// is L itself, so L > N is an error (L <= N passes); the default checks nothing.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives=aiv-cores=4
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives | FileCheck %s --check-prefix=UNCHECKED
// UNCHECKED: call @__builtin_indexed_all_to_all_v__fp32({{.*}}) {pl.core_num = 5 : i64, pl.sync_start}

// P = 2, L = 5 > 4 (the plain op would fold it to B = 4 and pass).
module attributes {pl.arch = "a5"} {
  func.func @l5(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op launch width L=5 exceeds the target's 4 AIV cores (option aiv-cores=4)}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 5 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// L = 4 = N passes.
module attributes {pl.arch = "a5"} {
  func.func @l4(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 4 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

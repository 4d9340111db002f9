// The whole pipeline refuses the indexed op where indexed.md does: in a HOST
// orchestrator (the first pass that meets it there is
// --lower-l2-tensor-collectives, see indexed-host-orchestrator.mlir) and in an InCore body
// (--lower-composite-ops), each located at the op; nothing passes silently.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --pld-lower-collectives

module attributes {pl.arch = "a5"} {
  func.func @host(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>)
      attributes {pl.func_kind = "orchestration", pl.level = "host"} {
    // expected-error @+1 {{indexed_all_to_all_v is not supported on the HOST rail}}
    %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return
  }
}

// -----

module attributes {pl.arch = "a5"} {
  func.func @kernel(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                    %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "incore"} {
    // expected-error @+1 {{indexed_all_to_all_v is not supported in an InCore body}}
    %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 1 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %d : !pld.dtensor<16x4xf32>
  }
}

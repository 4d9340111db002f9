// indexed.md: an indexed collective in a HOST orchestrator is an error for
// any pass that meets it, the architecture row first. The CHIP-rail pass
// meets it too (it walks every orchestration function), so running it alone
// does not let the op through to fail later; the plain op in a HOST
// orchestrator is the HOST rail's and passes through untouched.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives
// RUN: not pld-opt %s --split-input-file --lower-l2-tensor-collectives 2>/dev/null | FileCheck %s

module attributes {pl.arch = "a5"} {
  func.func @host(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>)
      attributes {pl.func_kind = "orchestration", pl.level = "host"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v is not supported on the HOST rail (its lowering is CHIP-only)}}
    %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return
  }
}

// -----

// Not an a5 module: the architecture row comes first.
func.func @host(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %i: !pl.tensor<16xi32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-error @+1 {{indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport)}}
  %d = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @host_plain
// CHECK:         pld.tensor.all_to_all_v
// CHECK-NOT:     call @__builtin
func.func @host_plain(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                      %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
        !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

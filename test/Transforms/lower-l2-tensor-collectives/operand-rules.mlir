// The per-collective rules after the launch width: the signal's shape, the
// payload element type and the kind of send_counts. One error per failing
// collective, at its location.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// P and S must be compile-time values on this rail.
func.func @dynamic_signal(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x?xi32>,
                          %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op signal shape must be static on the CHIP rail, got '!pld.dtensor<2x?xi32>'}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x?xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

func.func @unranked_signal(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<*xi32>,
                           %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{signal shape must be static on the CHIP rail}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<*xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// FP32 and INT8 only (the HOST rail's allowlist).
func.func @bf16(%in: !pld.dtensor<16x4xbf16>, %t: !pld.dtensor<16x4xbf16>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xbf16>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op the CHIP rail supports only f32 or i8, got bf16}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xbf16>, !pld.dtensor<16x4xbf16>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xbf16>
  return %0 : !pld.dtensor<16x4xbf16>
}

// -----

// Peers read send_counts remotely, so it must be a window at the call site.
func.func @local_send_counts(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                             %c: !pl.tensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op send_counts must be a DistributedTensor (a !pld.dtensor window that peers read remotely), got '!pl.tensor<2xi32>'}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pl.tensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// Only the first failing rule is reported: a dynamic signal (row 1) wins over
// a runtime core_num (row 2), an out-of-range core_num (row 3) over bf16 (row 5).
func.func @first_rule_wins(%in: !pld.dtensor<16x4xbf16>, %t: !pld.dtensor<16x4xbf16>, %s: !pld.dtensor<?x8xi32>,
                           %s2: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>, %n: i64) -> !pld.dtensor<16x4xbf16>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{signal shape must be static on the CHIP rail}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r core_num(%n)
      : !pld.dtensor<16x4xbf16>, !pld.dtensor<16x4xbf16>, !pld.dtensor<?x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xbf16>
  // expected-error @+1 {{core_num must be in [1, 2147483647], got 0}}
  %1 = pld.tensor.all_to_all_v %in, %0, %s2, %c, %r {core_num = 0 : i64}
      : !pld.dtensor<16x4xbf16>, !pld.dtensor<16x4xbf16>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xbf16>
  return %1 : !pld.dtensor<16x4xbf16>
}

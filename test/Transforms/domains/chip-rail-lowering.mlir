// CHIP rail (domains.md): correct multi-domain programs lower; what resolves
// to no window buffer is not checked (the caller's obligation).
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics | FileCheck %s --implicit-check-not=pld.tensor.all_to_all_v

// Two CHIP pipelines, each dispatched in its own domain: @chip2 ([2, 8]
// signal) over the 2-rank domain, @chip4 ([4, 8] signal) over the 4-rank one;
// every site binds distinct windows of one domain whose ranks = the NR.
// CHECK-LABEL: func.func @chip2
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK-LABEL: func.func @chip4
// CHECK: call @__builtin_all_to_all_v__fp32
func.func @chip2(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @chip4(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x8xi32>,
                 %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 4 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %a0 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %b0 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer in %d4 {bytes = 128 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  %in4 = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t4 = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s4 = pld.window %b2 : !pld.dtensor<4x8xi32>
  %c4 = pld.window %b3 : !pld.dtensor<4xi32>
  %r4 = pld.window %b4 : !pld.dtensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n2 = arith.constant 2 : index
  %n4 = arith.constant 4 : index
  scf.for %dev = %c0 to %n2 step %c1 {
    pld.host.dispatch @chip2(%in, %t, %s, %c, %r) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  scf.for %dev = %c0 to %n4 step %c1 {
    pld.host.dispatch @chip4(%in4, %t4, %s4, %c4, %r4) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>), index
  }
  return
}

// -----

// A pipeline dispatched from nowhere in the module (an entry point), and one
// whose windows the HOST body receives as parameters: nothing resolves to a
// window buffer, nothing is checked (even the obvious alias of %w twice).
// CHECK-LABEL: func.func @entry
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK-LABEL: func.func @host_params
// CHECK: pld.host.dispatch @entry
func.func @entry(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                 %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @host_params(%w: !pld.dtensor<16x4xf32>, %v: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                       %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %dev = arith.constant 0 : index
  pld.host.dispatch @entry(%w, %v, %s, %c, %r) on %dev
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  return
}

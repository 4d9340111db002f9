// HOST rail (domains.md): a HOST orchestrator with two domains of different
// sizes lowers each collective over its own domain's P devices.
// RUN: pld-opt %s --lower-host-tensor-collectives --verify-each | FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK: %[[D2:.*]] = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
// CHECK: %[[D4:.*]] = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
// CHECK: pld.window_buffer in %[[D2]] {bytes = 256 : i64}
// CHECK: pld.window_buffer in %[[D4]] {bytes = 512 : i64}
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C2]]
// CHECK: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C4]]
// CHECK: pld.host.dispatch @builtin.tensor.all_to_all_v__fp32
// CHECK-NOT: pld.tensor.all_to_all_v
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %a0 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %b0 = pld.window_buffer in %d4 {bytes = 512 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d4 {bytes = 512 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer in %d4 {bytes = 128 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d4 {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %in4 = pld.window %b0 : !pld.dtensor<32x4xf32>
  %t4 = pld.window %b1 : !pld.dtensor<32x4xf32>
  %s4 = pld.window %b2 : !pld.dtensor<4x8xi32>
  %c4 = pld.window %b3 : !pld.dtensor<4xi32>
  %r4 = pld.window %b4 : !pld.dtensor<4xi32>
  %y = pld.tensor.all_to_all_v %in4, %t4, %s4, %c4, %r4 {core_num = 4 : i64}
      : !pld.dtensor<32x4xf32>, !pld.dtensor<32x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<32x4xf32>
  return
}

// --materialize-dist-tensor-ctx (domains.md): a dispatch passes, for each
// context parameter, pld.host.device_ctx %dev in %d of the domain of the
// window bound to the matching dtensor parameter: one per (dispatch, domain),
// right before the dispatch; the implicit domain's prints without `in`.
// RUN: pld-opt %s --materialize-dist-tensor-ctx --verify-each | FileCheck %s

// CHECK-LABEL: func.func @host
// CHECK: %[[D2:.*]] = pld.comm_domain {ranks = 2 : i64}
// CHECK: %[[D4:.*]] = pld.comm_domain {ranks = 4 : i64}
// CHECK: scf.for %[[DEV:[^ ]*]] =
// CHECK-NEXT: %[[X2:.*]] = pld.host.device_ctx %[[DEV]] in %[[D2]] : index
// CHECK-NEXT: %[[X4:.*]] = pld.host.device_ctx %[[DEV]] in %[[D4]] : index
// CHECK-NEXT: %[[XI:.*]] = pld.host.device_ctx %[[DEV]] : index
// CHECK-NEXT: pld.host.dispatch @chip(%{{.*}}, %{{.*}}, %{{.*}}, %[[X2]], %[[X4]], %[[XI]]) on %[[DEV]]
// CHECK: %[[Y:.*]] = pld.host.device_ctx %{{.*}} in %[[D4]] : index
// CHECK-NEXT: pld.host.dispatch @chip(%{{.*}}, %{{.*}}, %{{.*}}, %[[Y]], %[[Y]], %[[Y]])
func.func @chip(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>, %c: !pld.dtensor<4xf32>)
    attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %x = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %y = pld.window_buffer in %d4 {bytes = 64 : i64} : !pld.window_buffer
  %y2 = pld.window_buffer in %d4 {bytes = 64 : i64} : !pld.window_buffer
  %y3 = pld.window_buffer in %d4 {bytes = 64 : i64} : !pld.window_buffer
  %z = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %wx = pld.window %x : !pld.dtensor<4xf32>
  %wy = pld.window %y : !pld.dtensor<4xf32>
  %wy2 = pld.window %y2 : !pld.dtensor<4xf32>
  %wy3 = pld.window %y3 : !pld.dtensor<4xf32>
  %wz = pld.window %z : !pld.dtensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %dev = %c0 to %c2 step %c1 {
    pld.host.dispatch @chip(%wx, %wy, %wz) on %dev : (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>), index
  }
  pld.host.dispatch @chip(%wy, %wy2, %wy3) on %c1 : (!pld.dtensor<4xf32>, !pld.dtensor<4xf32>, !pld.dtensor<4xf32>), index
  return
}

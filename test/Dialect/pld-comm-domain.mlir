// Round-trip of !pld.comm_domain, pld.comm_domain, pld.window_buffer in %d and
// pld.host.device_ctx ... in %d (custom and generic forms).
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

// CHECK-LABEL: func.func @host_orch
// CHECK: %[[D:.*]] = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
// CHECK: %[[B:.*]] = pld.window_buffer in %[[D]] {bytes = 4096 : i64} : !pld.window_buffer
// CHECK: pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
// CHECK: pld.host.device_ctx %{{.*}} in %[[D]] : index
// CHECK: pld.host.device_ctx %{{.*}} : index
func.func @host_orch(%dev: index) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %buf = pld.window_buffer in %d {bytes = 4096 : i64} : !pld.window_buffer
  %implicit = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %c0 = pld.host.device_ctx %dev in %d : index
  %c1 = pld.host.device_ctx %dev : index
  return
}

// CHECK-LABEL: func.func @generic
// CHECK: %[[D:.*]] = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
// CHECK: pld.window_buffer in %[[D]] {bytes = 4096 : i64} : !pld.window_buffer
func.func @generic() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d = "pld.comm_domain"() {ranks = 4 : i64} : () -> !pld.comm_domain
  %b = "pld.window_buffer"(%d) {bytes = 4096 : i64} : (!pld.comm_domain) -> !pld.window_buffer
  return
}

// pl.launch / pl.yield / pl.require round-trip in the custom and the generic
// form (orchestration.md pins the generic spelling).
// RUN: pld-opt %s | pld-opt | FileCheck %s
// RUN: pld-opt %s --mlir-print-op-generic | pld-opt | FileCheck %s

func.func private @k(%t: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"}

// CHECK-LABEL: func.func @custom
// CHECK:       pl.require %{{.*}} else error 5, "core_num out of range"
// CHECK-NEXT:  %[[R:.*]] = pl.launch %{{.*}} -> !pl.tensor<*xf32> {
// CHECK-NEXT:    %[[C:.*]] = pl.cast
// CHECK-NEXT:    %[[K:.*]] = func.call @k(%[[C]])
// CHECK-NEXT:    %[[U:.*]] = pl.cast %[[K]]
// CHECK-NEXT:    pl.yield %[[U]] : !pl.tensor<*xf32>
// CHECK-NEXT:  }
func.func @custom(%t: !pl.tensor<*xf32>, %b: i64, %ok: i1) attributes {pl.func_kind = "orchestration"} {
  pl.require %ok else error 5, "core_num out of range"
  %r = pl.launch %b -> !pl.tensor<*xf32> {
    %c = pl.cast %t : !pl.tensor<*xf32> to !pl.tensor<4xf32>
    %k = func.call @k(%c) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    %u = pl.cast %k : !pl.tensor<4xf32> to !pl.tensor<*xf32>
    pl.yield %u : !pl.tensor<*xf32>
  }
  return
}

// CHECK-LABEL: func.func @generic
// CHECK:       pl.require %{{.*}} else error 5, "m"
// CHECK:       pl.launch %{{.*}} {
// CHECK-NEXT:    func.call @k
// CHECK-NEXT:    pl.yield
// CHECK-NEXT:  }
func.func @generic(%t: !pl.tensor<4xf32>, %b: i64, %ok: i1) attributes {pl.func_kind = "graph"} {
  "pl.require"(%ok) {code = 5 : i64, message = "m"} : (i1) -> ()
  "pl.launch"(%b) ({
    %c = "func.call"(%t) {callee = @k} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    "pl.yield"() : () -> ()
  }) : (i64) -> ()
  return
}

// The run-time values a failing check reports, one name each.
// CHECK-LABEL: func.func @seen
// CHECK:       pl.require %{{.*}} else error 5, "S < B" seen(%{{.*}}, %{{.*}} : i64, index) {value_names = ["core_num L", "B"]}
// CHECK-LABEL: func.func @host_seen
// CHECK:       pld.host.require %{{.*}} else error 5, "S < B" seen(%{{.*}} : i64) {value_names = ["core_num L"]}
func.func @seen(%ok: i1, %l: i64, %b: index) attributes {pl.func_kind = "orchestration"} {
  pl.require %ok else error 5, "S < B" seen(%l, %b : i64, index) {value_names = ["core_num L", "B"]}
  return
}
func.func @host_seen(%ok: i1, %l: i64) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  "pld.host.require"(%ok, %l) {error_code = 5 : i64, message = "S < B", value_names = ["core_num L"]} : (i1, i64) -> ()
  return
}

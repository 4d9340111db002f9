// A function whose !pld.comm_ctx parameters are not one per !pld.dtensor
// parameter, all last, is not materialized: the pass reports it and changes
// nothing. Before the fix any comm_ctx parameter made the function count as
// materialized, so @k's contexts were read from the wrong slots and the
// kernel kept one context for two windows.
// RUN: pld-opt %s --materialize-dist-tensor-ctx --verify-diagnostics --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// The module is printed unchanged after the failure.
// CHECK: IR Dump After MaterializeDistTensorCtx Failed
// CHECK: func.func @k(%arg0: !pld.dtensor<4xf32>, %arg1: !pld.comm_ctx, %arg2: !pld.dtensor<4xf32>) attributes
// CHECK: func.func @q(%arg0: !pld.dtensor<4xf32>, %arg1: !pld.dtensor<4xf32>) attributes
// CHECK-NEXT: call @k2(%arg0) :
// CHECK: func.func @k2(%arg0: !pld.dtensor<4xf32>) attributes

// expected-error @+1 {{'func.func' op cannot materialize the CommContexts of @k: @k must have exactly one !pld.comm_ctx parameter per !pld.dtensor parameter (2), after all its other parameters, got 1 !pld.comm_ctx parameter(s)}}
func.func @k(%a: !pld.dtensor<4xf32>, %c: !pld.comm_ctx, %b: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} { return }
func.func @q(%a: !pld.dtensor<4xf32>, %b: !pld.dtensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  func.call @k2(%a) : (!pld.dtensor<4xf32>) -> ()
  return
}
func.func @k2(%a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"} { return }

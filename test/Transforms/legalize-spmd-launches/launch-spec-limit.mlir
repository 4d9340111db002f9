// A launch's pl.core_num is a launch spec's block_num, an int16_t: above
// 32767 pld-translate could not emit it, so --legalize-spmd-launches refuses
// it (the pl dialect's verifier admits any i64 >= 1).
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s

func.func @add_one(%x: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv"} {
  return %x : !pl.tensor<*xf32>
}

// CHECK-LABEL: func.func @at_the_limit
// CHECK: call @add_one(%{{.*}}) {pl.core_num = 32767 : i64, pl.sync_start}
func.func @at_the_limit(%u: !pl.tensor<*xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = func.call @add_one(%u) {pl.core_num = 32767 : i64, pl.sync_start} : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  return
}

// -----

func.func @add_one(%x: !pl.tensor<*xf32> {pl.direction = "inout"}) -> !pl.tensor<*xf32>
    attributes {pl.func_kind = "aiv"} {
  return %x : !pl.tensor<*xf32>
}

func.func @above(%u: !pl.tensor<*xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op attribute 'pl.core_num' of the launch of @add_one must be a block count in [1, 32767] (a launch spec's block_num is an int16_t), got 32768}}
  %r = func.call @add_one(%u) {pl.core_num = 32768 : i64, pl.sync_start} : (!pl.tensor<*xf32>) -> !pl.tensor<*xf32>
  return
}

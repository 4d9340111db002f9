// Round-trip of pl.submit, with and without runtime-allocated outs.
// RUN: pld-opt %s | pld-opt | FileCheck %s

func.func private @kernel(!pl.tensor<16x4xf32> {pl.direction = "in"},
                          !pl.tensor<16x4xf32> {pl.direction = "out"}) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv"}

// CHECK-LABEL: func.func @submit
// CHECK: %[[R:.*]] = pl.submit @kernel(%{{.*}}, %{{.*}}) : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
// CHECK: pl.submit @kernel(%[[R]]) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
func.func @submit(%a: !pl.tensor<16x4xf32>, %b: !pl.tensor<16x4xf32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pl.submit @kernel(%a, %b) : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  // The operands pass the leading parameters; the runtime allocates the
  // trailing one (the `out` parameter #1) for result #0.
  %1 = pl.submit @kernel(%0) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return
}

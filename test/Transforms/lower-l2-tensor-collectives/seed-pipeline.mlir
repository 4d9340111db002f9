// The seed's chip_pipeline: stage -> collective -> consume. The collective
// becomes one func.call of the synthesized fp32 kernel between the two user
// kernel calls, with exactly the five tensor operands.
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// User kernels: the body only names the parameter each result returns (the
// kernel itself is pl.kernel_source), which is what the contiguity trace follows.
func.func private @stage_step(%inp: !pl.tensor<16x4xf32> {pl.direction = "in"}, %stage: !pld.dtensor<16x4xf32> {pl.direction = "inout"}, %counts: !pld.dtensor<2xi32> {pl.direction = "inout"}) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %stage : !pld.dtensor<16x4xf32>
}
func.func private @consume_step(%data: !pld.dtensor<16x4xf32> {pl.direction = "in"}, %recv: !pld.dtensor<2xi32> {pl.direction = "in"}, %out: !pl.tensor<16x4xf32> {pl.direction = "inout"}) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/consume_step.cpp"} {
  return %out : !pl.tensor<16x4xf32>
}

// CHECK-LABEL: func.func @chip_pipeline
// CHECK-SAME: (%[[INP:.*]]: !pl.tensor<16x4xf32>, %[[OUT:.*]]: !pl.tensor<16x4xf32>, %[[STAGE:.*]]: !pld.dtensor<16x4xf32>, %[[DATA:.*]]: !pld.dtensor<16x4xf32>, %[[SIG:.*]]: !pld.dtensor<2x8xi32>, %[[CNT:.*]]: !pld.dtensor<2xi32>, %[[RECV:.*]]: !pld.dtensor<2xi32>)
// CHECK:      %[[S:.*]] = call @stage_step(%[[INP]], %[[STAGE]], %[[CNT]])
// CHECK-DAG:  %[[I:.*]] = pl.cast %[[S]] : !pld.dtensor<16x4xf32> to !pl.tensor<*xf32>
// CHECK-DAG:  %[[T:.*]] = pl.cast %[[DATA]] : !pld.dtensor<16x4xf32> to !pld.dtensor<*xf32>
// CHECK-DAG:  %[[G:.*]] = pl.cast %[[SIG]] : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
// CHECK-DAG:  %[[SC:.*]] = pl.cast %[[CNT]] : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
// CHECK-DAG:  %[[RC:.*]] = pl.cast %[[RECV]] : !pld.dtensor<2xi32> to !pld.dtensor<*xi32>
// CHECK:      %[[C:.*]] = call @__builtin_all_to_all_v__fp32(%[[I]], %[[T]], %[[G]], %[[SC]], %[[RC]])
// CHECK-NOT:  pl.core_num
// CHECK-SAME: : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
// CHECK:      %[[D:.*]] = pl.cast %[[C]] : !pld.dtensor<*xf32> to !pld.dtensor<16x4xf32>
// CHECK:      %[[R:.*]] = call @consume_step(%[[D]], %[[RECV]], %[[OUT]])
// CHECK:      return %[[R]]
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                         %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                         %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                         %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %staged = call @stage_step(%inp, %stage, %counts) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
  %d = pld.tensor.all_to_all_v %staged, %data, %signal, %counts, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r = call @consume_step(%d, %recv, %out) : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %r : !pl.tensor<16x4xf32>
}

// CHECK-LABEL: func.func private @__builtin_all_to_all_v__fp32

// Input of materialize-dist-tensor-ctx.mlir: the seed chip_pipeline.
func.func @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %counts: !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) attributes {pl.func_kind = "aiv"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}
func.func @consume_step(%data: !pld.dtensor<16x4xf32>, %recv: !pld.dtensor<2xi32>, %out: !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "aiv"} {
  return %out : !pl.tensor<16x4xf32>
}
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>, %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>, %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "orchestration"} {
  %s, %c = func.call @stage_step(%inp, %stage, %counts) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %d = pld.tensor.all_to_all_v %s, %data, %signal, %c, %recv {core_num = 2 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r = func.call @consume_step(%d, %recv, %out) : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %r : !pl.tensor<16x4xf32>
}

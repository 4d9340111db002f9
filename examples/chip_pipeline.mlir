// The seed's CHIP pipeline in pl/pld IR: P = 2 ranks, MAX_RECV = 8 rows of
// 4 f32 per peer, so the payload windows are [P * MAX_RECV, 4] = 16x4.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def chip_pipeline(self, inp, out, stage, data, signal, counts, recv):
//       stage, counts = self.stage_step(inp, stage, counts)
//       data = pld.tensor.all_to_all_v(stage, data, signal, counts, recv, core_num=1)
//       return self.consume_step(data, recv, out)
//
// `pld-opt --pld-lower-collectives examples/chip_pipeline.mlir` (or
// `cargo run --example embed`) turns the collective into one call of the
// synthesized @__builtin_all_to_all_v__fp32 kernel between the two user kernels.

// User kernels (AIV tasks). The kernels are C++ sources; the bodies only name
// the parameter each result returns, which the contiguity trace follows.
func.func private @stage_step(%inp: !pl.tensor<16x4xf32> {pl.direction = "in"},
                              %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"},
                              %counts: !pld.dtensor<2xi32> {pl.direction = "out"})
    -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}

func.func private @consume_step(%data: !pld.dtensor<16x4xf32> {pl.direction = "in"},
                                %recv: !pld.dtensor<2xi32> {pl.direction = "in"},
                                %out: !pl.tensor<16x4xf32> {pl.direction = "out"})
    -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/consume_step.cpp"} {
  return %out : !pl.tensor<16x4xf32>
}

// The CHIP orchestration body: stage -> collective -> consume. stage, data,
// signal ([P, MAX_RECV] i32 credits), counts and recv are window views.
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>,
                         %stage: !pld.dtensor<16x4xf32>, %data: !pld.dtensor<16x4xf32>,
                         %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                         %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %staged, %sent = call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %received = pld.tensor.all_to_all_v %staged, %data, %signal, %sent, %recv {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
        !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %result = call @consume_step(%received, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %result : !pl.tensor<16x4xf32>
}

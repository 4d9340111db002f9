// An A5 CHIP pipeline with the indexed collective: P = 2 ranks, MAX_RECV = 8
// rows of 4 f32 per peer; a 20-row input gathered through a local [16] index
// into the 16-row target window, the received counts into a local tensor.
// core_num 3 is the exact launch width (the plain op would fold it to 2).
module attributes {pl.arch = "a5"} {
  func.func private @stage_step(%inp: !pl.tensor<16x4xf32> {pl.direction = "in"},
                                %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"},
                                %counts: !pld.dtensor<2xi32> {pl.direction = "out"})
      -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
      attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
    return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
  }

  func.func @chip_indexed(%inp: !pl.tensor<16x4xf32>, %x: !pl.tensor<20x4xi8>, %index: !pl.tensor<16xi32>,
                          %recv: !pl.tensor<2xi32>, %stage: !pld.dtensor<16x4xf32>,
                          %data: !pld.dtensor<16x4xf32>, %data8: !pld.dtensor<16x4xi8>,
                          %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>)
      -> !pld.dtensor<16x4xi8> attributes {pl.func_kind = "orchestration"} {
    %staged, %sent = call @stage_step(%inp, %stage, %counts)
        : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
        -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
    %received = pld.tensor.indexed_all_to_all_v %staged, %data, %signal, %sent, %recv, %index {core_num = 3 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    %bytes = pld.tensor.indexed_all_to_all_v %x, %data8, %signal, %sent, %recv, %index {core_num = 1 : i64}
        : !pl.tensor<20x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xi8>
    return %bytes : !pld.dtensor<16x4xi8>
  }
}

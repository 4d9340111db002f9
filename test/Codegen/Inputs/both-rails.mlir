// Both rails in one module, for fp32 and int8 (P = 2): chip_pipeline's
// collective (core_num 2 → B = 2) and chip_i8's (core_num 1) take the CHIP
// rail; host_main dispatches chip_pipeline per device, then runs an fp32
// (runtime core_num) and an int8 (core_num 3 → B = 2) HOST-rail collective.
// User kernel sources are relative to runtime/examples (--kernel-source-dir).
func.func private @stage_step(%inp: !pl.tensor<16x4xf32> {pl.direction = "in"},
                              %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"},
                              %counts: !pld.dtensor<2xi32> {pl.direction = "out"})
    -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %stage, %counts : !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>
}
func.func private @consume_step(%data: !pld.dtensor<16x4xf32> {pl.direction = "in"},
                                %recv: !pld.dtensor<2xi32> {pl.direction = "in"},
                                %out: !pl.tensor<16x4xf32> {pl.direction = "out"}) -> !pl.tensor<16x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/consume_step.cpp"} {
  return %out : !pl.tensor<16x4xf32>
}
func.func @chip_pipeline(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>,
                         %data: !pld.dtensor<16x4xf32>, %signal: !pld.dtensor<2x8xi32>, %counts: !pld.dtensor<2xi32>,
                         %recv: !pld.dtensor<2xi32>) -> !pl.tensor<16x4xf32> attributes {pl.func_kind = "orchestration"} {
  %s, %c = func.call @stage_step(%inp, %stage, %counts)
      : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>) -> (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>)
  %d = pld.tensor.all_to_all_v %s, %data, %signal, %c, %recv {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %r = func.call @consume_step(%d, %recv, %out)
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<2xi32>, !pl.tensor<16x4xf32>) -> !pl.tensor<16x4xf32>
  return %r : !pl.tensor<16x4xf32>
}
func.func @chip_i8(%in: !pld.dtensor<8x4xi8>, %t: !pld.dtensor<8x4xi8>, %s: !pld.dtensor<2x4xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<8x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<2x4xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<8x4xi8>
  return
}
func.func @host_main(%inp: !pl.tensor<16x4xf32>, %out: !pl.tensor<16x4xf32>, %core_num: i64)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %stage = pld.window %b0 : !pld.dtensor<16x4xf32>
  %data = pld.window %b1 : !pld.dtensor<16x4xf32>
  %signal = pld.window %b2 : !pld.dtensor<2x8xi32>
  %counts = pld.window %b3 : !pld.dtensor<2xi32>
  %recv = pld.window %b4 : !pld.dtensor<2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %dev = %c0 to %c2 step %c1 {
    pld.host.dispatch @chip_pipeline(%inp, %out, %stage, %data, %signal, %counts, %recv) on %dev
        : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  %again = pld.tensor.all_to_all_v %data, %stage, %signal, %recv, %counts core_num(%core_num)
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %q0 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %q1 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %q2 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %q3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %q4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in8 = pld.window %q0 : !pld.dtensor<8x4xi8>
  %t8 = pld.window %q1 : !pld.dtensor<8x4xi8>
  %s8 = pld.window %q2 : !pld.dtensor<2x4xi32>
  %c8 = pld.window %q3 : !pld.dtensor<2xi32>
  %r8 = pld.window %q4 : !pld.dtensor<2xi32>
  %d8 = pld.tensor.all_to_all_v %in8, %t8, %s8, %c8, %r8 {core_num = 3 : i64}
      : !pld.dtensor<8x4xi8>, !pld.dtensor<8x4xi8>, !pld.dtensor<2x4xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<8x4xi8>
  return
}

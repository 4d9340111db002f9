// An MoE layer loop, the shape a user starts from: P = 4 ranks, one expert per
// rank, T = 8 tokens of H = 4 f32 per rank, a capacity of C = 3 tokens per
// (source rank, expert), so every exchange window is [P * C, H] = 12x4.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def moe_layers(self, inp, out, act_a, act_b, stage, recv, expert_out, combined,
//                  signal, send_counts, recv_counts, back_counts, ret_counts, num_layers, core_num):
//       slot_of = pl.create([T], i32); layer_id = pl.create([1], i32)
//       h = self.moe_load(inp, act_a)                    # this rank's T rows of inp
//       spare = act_b
//       for layer in range(num_layers):                  # an scf.for, not unrolled
//           layer_id[0] = layer
//           stage, send_counts, slot_of = self.moe_route(h, layer_id, stage, send_counts, slot_of)
//           recv = pld.all_to_all_v(stage, recv, signal, send_counts, recv_counts, core_num=core_num)
//           expert_out, back_counts = self.moe_expert(recv, recv_counts, expert_out, back_counts)
//           combined = pld.all_to_all_v(expert_out, combined, signal, back_counts, ret_counts,
//                                       core_num=core_num)
//           h, spare = self.moe_gather(combined, slot_of, h, spare), h   # ping-pong windows
//       return self.moe_store(h, out)                    # this rank's T rows of out
//
// Per layer, on rank r (kernels in runtime/examples/kernels/moe_*.cpp):
//   route  : token t goes to expert e = (int(sum of h[t]) + layer) mod P; in token order, the
//            k-th token for e (k < C) is staged at stage[e*C + k] and remembers its slot
//            (slot_of[t] = e*C + k), later ones are dropped (slot_of[t] = -1);
//            send_counts[e] = how many were staged for e;
//   expert : rank e computes y = 2 * x + (e + 1) on every received row and sends each source's
//            rows straight back (back_counts = recv_counts);
//   gather : h'[t] = h[t] + combined[slot_of[t]] (residual add), or h[t] for a dropped token,
//            written into the other activation window, which the loop carries as `h` next.
//
// num_layers and core_num are i64 scalar parameters (OrchArgs::scalars at run time). With a
// runtime core_num L the lowering computes the launch width B = cal_all_to_all_v_blocks(P, L)
// in the body and checks 1 <= L <= 2^31-1 and B <= S = 8 (the signal's stride) before each
// collective: a failing check stops every rank alike with error 5 (SIMPLER_ERROR_INVALID_ARGS).
//
// @moe_host is the HOST orchestrator: it allocates the windows and dispatches
// moe_layers to every device with the layer count and core_num it was given.
//
//   pld-opt --pld-lower-collectives examples/moe_layers.mlir \
//     | pld-translate --pld-to-ascend-build --output-dir build --kernel-source-dir runtime/examples
//
// scripts/run-example.sh does that, compiles the tree and runs it on the host runtime;
// tests/examples.rs runs it for P = 4 and, with the P-dependent shapes (12x4, 32x4, 4x8,
// 4xi32, %devices) rewritten, for P = 2, against an independent golden.

// ---- user AIV kernels: each body returns the parameters the kernel writes in place.
func.func private @moe_load(%inp: !pl.tensor<32x4xf32> {pl.direction = "in"},
                            %h: !pld.dtensor<8x4xf32> {pl.direction = "out"}) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_load.cpp"} {
  return %h : !pld.dtensor<8x4xf32>
}

func.func private @moe_route(%h: !pld.dtensor<8x4xf32> {pl.direction = "in"},
                             %layer_id: !pl.tensor<1xi32> {pl.direction = "in"},
                             %stage: !pld.dtensor<12x4xf32> {pl.direction = "out"},
                             %send_counts: !pld.dtensor<4xi32> {pl.direction = "out"},
                             %slot_of: !pl.tensor<8xi32> {pl.direction = "out"})
    -> (!pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>, !pl.tensor<8xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_route.cpp"} {
  return %stage, %send_counts, %slot_of : !pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>, !pl.tensor<8xi32>
}

func.func private @moe_expert(%recv: !pld.dtensor<12x4xf32> {pl.direction = "in"},
                              %recv_counts: !pld.dtensor<4xi32> {pl.direction = "in"},
                              %y: !pld.dtensor<12x4xf32> {pl.direction = "out"},
                              %back_counts: !pld.dtensor<4xi32> {pl.direction = "out"})
    -> (!pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_expert.cpp"} {
  return %y, %back_counts : !pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>
}

func.func private @moe_gather(%combined: !pld.dtensor<12x4xf32> {pl.direction = "in"},
                              %slot_of: !pl.tensor<8xi32> {pl.direction = "in"},
                              %h: !pld.dtensor<8x4xf32> {pl.direction = "in"},
                              %h_next: !pld.dtensor<8x4xf32> {pl.direction = "out"}) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_gather.cpp"} {
  return %h_next : !pld.dtensor<8x4xf32>
}

func.func private @moe_store(%h: !pld.dtensor<8x4xf32> {pl.direction = "in"},
                             %out: !pl.tensor<32x4xf32> {pl.direction = "out"}) -> !pl.tensor<32x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_store.cpp"} {
  return %out : !pl.tensor<32x4xf32>
}

// ---- the CHIP orchestration function: the layer loop.
// inp / out hold every rank's tokens ([P * T, H]); the rest are window views
// (one CommContext each after --materialize-dist-tensor-ctx).
func.func @moe_layers(%inp: !pl.tensor<32x4xf32>, %out: !pl.tensor<32x4xf32>,
                      %act_a: !pld.dtensor<8x4xf32>, %act_b: !pld.dtensor<8x4xf32>,
                      %stage: !pld.dtensor<12x4xf32>, %recv: !pld.dtensor<12x4xf32>,
                      %expert_out: !pld.dtensor<12x4xf32>, %combined: !pld.dtensor<12x4xf32>,
                      %signal: !pld.dtensor<4x8xi32>, %send_counts: !pld.dtensor<4xi32>,
                      %recv_counts: !pld.dtensor<4xi32>, %back_counts: !pld.dtensor<4xi32>,
                      %ret_counts: !pld.dtensor<4xi32>, %num_layers: i64, %core_num: i64)
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %layers = arith.index_cast %num_layers : i64 to index
  // Per-rank scratch owned by the runtime until moe_layers returns (zero-filled).
  %slot_of = pl.tensor.create : !pl.tensor<8xi32>
  %layer_id = pl.tensor.create : !pl.tensor<1xi32>
  %h0 = func.call @moe_load(%inp, %act_a) : (!pl.tensor<32x4xf32>, !pld.dtensor<8x4xf32>) -> !pld.dtensor<8x4xf32>
  %final:2 = scf.for %layer = %c0 to %layers step %c1
      iter_args(%h = %h0, %spare = %act_b) -> (!pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>) {
    // The route kernel reads the layer index from a tensor (kernel tasks take tensors only).
    %l32 = arith.index_cast %layer : index to i32
    %lid = pl.tensor.write %l32 into %layer_id[%c0] : i32 into !pl.tensor<1xi32>, index
    %staged, %sent, %slots = func.call @moe_route(%h, %lid, %stage, %send_counts, %slot_of)
        : (!pld.dtensor<8x4xf32>, !pl.tensor<1xi32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>, !pl.tensor<8xi32>)
        -> (!pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>, !pl.tensor<8xi32>)
    // dispatch: expert e receives rows [src * C, src * C + n) from every source rank.
    %tokens = pld.tensor.all_to_all_v %staged, %recv, %signal, %sent, %recv_counts core_num(%core_num)
        : !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4x8xi32>,
          !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<12x4xf32>
    %y, %back = func.call @moe_expert(%tokens, %recv_counts, %expert_out, %back_counts)
        : (!pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>)
        -> (!pld.dtensor<12x4xf32>, !pld.dtensor<4xi32>)
    // combine: every expert's results travel back to the rank that sent the tokens.
    %results = pld.tensor.all_to_all_v %y, %combined, %signal, %back, %ret_counts core_num(%core_num)
        : !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4x8xi32>,
          !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<12x4xf32>
    %h_next = func.call @moe_gather(%results, %slots, %h, %spare)
        : (!pld.dtensor<12x4xf32>, !pl.tensor<8xi32>, !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>) -> !pld.dtensor<8x4xf32>
    // The layer's output is the next layer's input; its input window becomes the spare.
    scf.yield %h_next, %h : !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>
  }
  %stored = func.call @moe_store(%final#0, %out) : (!pld.dtensor<8x4xf32>, !pl.tensor<32x4xf32>) -> !pl.tensor<32x4xf32>
  return
}

// ---- the HOST orchestrator: windows (symmetric on every device) and one dispatch per device.
func.func @moe_host(%inp: !pl.tensor<32x4xf32>, %out: !pl.tensor<32x4xf32>, %num_layers: i64, %core_num: i64)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b_act_a = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b_act_b = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b_stage = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_recv = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_expert = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_combined = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_signal = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b_send = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b_recv_counts = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b_back = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b_ret = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %act_a = pld.window %b_act_a : !pld.dtensor<8x4xf32>
  %act_b = pld.window %b_act_b : !pld.dtensor<8x4xf32>
  %stage = pld.window %b_stage : !pld.dtensor<12x4xf32>
  %recv = pld.window %b_recv : !pld.dtensor<12x4xf32>
  %expert_out = pld.window %b_expert : !pld.dtensor<12x4xf32>
  %combined = pld.window %b_combined : !pld.dtensor<12x4xf32>
  %signal = pld.window %b_signal : !pld.dtensor<4x8xi32>
  %send_counts = pld.window %b_send : !pld.dtensor<4xi32>
  %recv_counts = pld.window %b_recv_counts : !pld.dtensor<4xi32>
  %back_counts = pld.window %b_back : !pld.dtensor<4xi32>
  %ret_counts = pld.window %b_ret : !pld.dtensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %devices = arith.constant 4 : index
  scf.for %dev = %c0 to %devices step %c1 {
    pld.host.dispatch @moe_layers(%inp, %out, %act_a, %act_b, %stage, %recv, %expert_out, %combined,
                                  %signal, %send_counts, %recv_counts, %back_counts, %ret_counts,
                                  %num_layers, %core_num) on %dev
        : (!pl.tensor<32x4xf32>, !pl.tensor<32x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>,
           !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>,
           !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32>,
           !pld.dtensor<4xi32>, i64, i64), index
  }
  return
}

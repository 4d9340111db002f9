// Expert parallelism with fixed-capacity exchanges: P = 4 ranks, one expert per rank, T = 8
// tokens of H = 4 f32 per rank, a capacity of C = 3 slots per (source rank, expert), so every
// exchange buffer is [P * C, H] = 12x4 and carries all P * C slots whether filled or not (the
// dense pld.tensor.all_to_all, no counts). A routing table of K = 5 entries (token class ->
// expert) is made by rank 0 each layer and broadcast to every rank.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def ep_moe(self, inp, out, act_a, act_b, table, recv, combined, signal, num_layers):
//       stage = pl.create([P * C, H], f32); y = pl.create([P * C, H], f32)
//       slot_of = pl.create([T], i32); layer_id = pl.create([1], i32)
//       h = self.moe_load(inp, act_a)                       # this rank's T rows of inp
//       spare = act_b
//       for layer in range(num_layers):                     # an scf.for, not unrolled
//           layer_id[0] = layer
//           table = self.ep_router(layer_id, table)         # meaningful on rank 0 only
//           table = pld.broadcast(table, signal, root=0)    # rank 0's table on every rank
//           stage, slot_of = self.ep_route(h, table, stage, slot_of)
//           recv = pld.all_to_all(stage, recv, signal, core_num=2)       # dispatch
//           y = self.ep_expert(recv, y)
//           combined = pld.all_to_all(y, combined, signal, core_num=2)   # combine
//           h, spare = self.moe_gather(combined, slot_of, h, spare), h   # ping-pong windows
//           pld.barrier(signal)                             # every rank is done with the layer's exchanges
//       return self.moe_store(h, out)                       # this rank's T rows of out
//
// Per layer l, on rank r (kernels in runtime/examples/kernels/ep_*.cpp and moe_*.cpp):
//   router : rank 0 writes table[k] = (3 * k + l + 1) mod P for k < K; every other rank writes
//            -1 (no expert) into its own table, which only the broadcast can repair;
//   route  : token t goes to expert e = table[int(sum of h[t]) mod K]; in token order the k-th
//            token for e (k < C) is staged at stage[e*C + k] and slot_of[t] = e*C + k, later
//            ones are dropped (slot_of[t] = -1); unused slots are zero (they travel anyway);
//   dispatch (all_to_all): recv on rank e, rows [q*C, (q+1)*C) = stage of rank q, rows
//            [e*C, (e+1)*C);
//   expert : rank e computes y = 2 * x + (e + 1) on every one of its P * C slots;
//   combine (all_to_all): combined on rank r, rows [e*C, (e+1)*C) = y of rank e, rows
//            [r*C, (r+1)*C): the results of the tokens r staged for e, in the slots it staged them;
//   gather : h'[t] = h[t] + combined[slot_of[t]] (residual add), or h[t] for a dropped token.
// All four collectives share one signal (each leaves it all zeros, so it serves every call of
// every iteration; --auto-derive-task-dependencies orders them).
//
// @ep_host is the HOST orchestrator: it allocates the windows and dispatches ep_moe to every
// device with the layer count it was given.
//
//   pld-opt --pld-lower-collectives examples/ep_moe.mlir \
//     | pld-translate --pld-to-ascend-build --output-dir build --kernel-source-dir runtime/examples
//
// tests/examples.rs builds it, runs it for P = 4 and, with the P-dependent shapes (12x4, 32x4,
// 4x2xi32, %devices) rewritten, for P = 2, on both the CHIP entry and the HOST orchestrator,
// against an independent golden (examples/drivers/ep_driver.cpp).

// ---- user AIV kernels: each body returns the parameters the kernel writes in place.
func.func private @moe_load(%inp: !pl.tensor<32x4xf32> {pl.direction = "in"},
                            %h: !pld.dtensor<8x4xf32> {pl.direction = "out"}) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_load.cpp"} {
  return %h : !pld.dtensor<8x4xf32>
}

func.func private @ep_router(%layer_id: !pl.tensor<1xi32> {pl.direction = "in"},
                             %table: !pld.dtensor<5xi32> {pl.direction = "out"}) -> !pld.dtensor<5xi32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/ep_router.cpp"} {
  return %table : !pld.dtensor<5xi32>
}

func.func private @ep_route(%h: !pld.dtensor<8x4xf32> {pl.direction = "in"},
                            %table: !pld.dtensor<5xi32> {pl.direction = "in"},
                            %stage: !pl.tensor<12x4xf32> {pl.direction = "out"},
                            %slot_of: !pl.tensor<8xi32> {pl.direction = "out"})
    -> (!pl.tensor<12x4xf32>, !pl.tensor<8xi32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/ep_route.cpp"} {
  return %stage, %slot_of : !pl.tensor<12x4xf32>, !pl.tensor<8xi32>
}

func.func private @ep_expert(%recv: !pld.dtensor<12x4xf32> {pl.direction = "in"},
                             %y: !pl.tensor<12x4xf32> {pl.direction = "out"}) -> !pl.tensor<12x4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/ep_expert.cpp"} {
  return %y : !pl.tensor<12x4xf32>
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
// inp / out hold every rank's tokens ([P * T, H]); the rest are window views.
func.func @ep_moe(%inp: !pl.tensor<32x4xf32>, %out: !pl.tensor<32x4xf32>,
                  %act_a: !pld.dtensor<8x4xf32>, %act_b: !pld.dtensor<8x4xf32>,
                  %table: !pld.dtensor<5xi32>, %recv: !pld.dtensor<12x4xf32>,
                  %combined: !pld.dtensor<12x4xf32>, %signal: !pld.dtensor<4x2xi32>,
                  %num_layers: i64)
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %layers = arith.index_cast %num_layers : i64 to index
  // Per-rank scratch owned by the runtime until ep_moe returns (zero-filled). stage and y are
  // local: the all_to_all input may be a local tensor (each rank pushes its own rows).
  %stage = pl.tensor.create : !pl.tensor<12x4xf32>
  %y = pl.tensor.create : !pl.tensor<12x4xf32>
  %slot_of = pl.tensor.create : !pl.tensor<8xi32>
  %layer_id = pl.tensor.create : !pl.tensor<1xi32>
  %h0 = func.call @moe_load(%inp, %act_a) : (!pl.tensor<32x4xf32>, !pld.dtensor<8x4xf32>) -> !pld.dtensor<8x4xf32>
  %final:2 = scf.for %layer = %c0 to %layers step %c1
      iter_args(%h = %h0, %spare = %act_b) -> (!pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>) {
    %l32 = arith.index_cast %layer : index to i32
    %lid = pl.tensor.write %l32 into %layer_id[%c0] : i32 into !pl.tensor<1xi32>, index
    %own = func.call @ep_router(%lid, %table) : (!pl.tensor<1xi32>, !pld.dtensor<5xi32>) -> !pld.dtensor<5xi32>
    // Rank 0's routing table replaces every rank's.
    %routes = pld.tensor.broadcast %own, %signal {root = 0 : i64}
        : !pld.dtensor<5xi32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<5xi32>
    %staged, %slots = func.call @ep_route(%h, %routes, %stage, %slot_of)
        : (!pld.dtensor<8x4xf32>, !pld.dtensor<5xi32>, !pl.tensor<12x4xf32>, !pl.tensor<8xi32>)
        -> (!pl.tensor<12x4xf32>, !pl.tensor<8xi32>)
    // dispatch: expert e receives C slots from every source rank.
    %tokens = pld.tensor.all_to_all %staged, %recv, %signal {core_num = 2 : i64}
        : !pl.tensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<12x4xf32>
    %out_e = func.call @ep_expert(%tokens, %y) : (!pld.dtensor<12x4xf32>, !pl.tensor<12x4xf32>) -> !pl.tensor<12x4xf32>
    // combine: every expert's slots travel back to the rank that staged them.
    %results = pld.tensor.all_to_all %out_e, %combined, %signal {core_num = 2 : i64}
        : !pl.tensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<12x4xf32>
    %h_next = func.call @moe_gather(%results, %slots, %h, %spare)
        : (!pld.dtensor<12x4xf32>, !pl.tensor<8xi32>, !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>) -> !pld.dtensor<8x4xf32>
    // Every rank has finished this layer's exchanges before any rank's next broadcast. Like
    // every collective, the barrier is ordered against the tasks that share a window with it
    // (here the signal: after the combine, before the next broadcast), not against the
    // others: the gather and the next layer's router may run beside it.
    %synced = pld.tensor.barrier %signal : !pld.dtensor<4x2xi32> -> !pld.dtensor<4x2xi32>
    scf.yield %h_next, %h : !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>
  }
  %stored = func.call @moe_store(%final#0, %out) : (!pld.dtensor<8x4xf32>, !pl.tensor<32x4xf32>) -> !pl.tensor<32x4xf32>
  return
}

// ---- the HOST orchestrator: windows (symmetric on every device) and one dispatch per device.
func.func @ep_host(%inp: !pl.tensor<32x4xf32>, %out: !pl.tensor<32x4xf32>, %num_layers: i64)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b_act_a = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b_act_b = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b_table = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b_recv = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_combined = pld.window_buffer {bytes = 192 : i64} : !pld.window_buffer
  %b_signal = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %act_a = pld.window %b_act_a : !pld.dtensor<8x4xf32>
  %act_b = pld.window %b_act_b : !pld.dtensor<8x4xf32>
  %table = pld.window %b_table : !pld.dtensor<5xi32>
  %recv = pld.window %b_recv : !pld.dtensor<12x4xf32>
  %combined = pld.window %b_combined : !pld.dtensor<12x4xf32>
  %signal = pld.window %b_signal : !pld.dtensor<4x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %devices = arith.constant 4 : index
  scf.for %dev = %c0 to %devices step %c1 {
    pld.host.dispatch @ep_moe(%inp, %out, %act_a, %act_b, %table, %recv, %combined, %signal,
                              %num_layers) on %dev
        : (!pl.tensor<32x4xf32>, !pl.tensor<32x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>,
           !pld.dtensor<5xi32>, !pld.dtensor<12x4xf32>, !pld.dtensor<12x4xf32>, !pld.dtensor<4x2xi32>,
           i64), index
  }
  return
}

// A tensor-parallel MLP layer loop (Megatron style): P = 4 ranks, T = 4 tokens of H = 6 f32
// replicated on every rank, an intermediate width F = P * Fs with Fs = 3 columns per rank, and
// NL = 3 layers, each with its own weights W1_l [H, F] and W2_l [F, H] (stacked: w1 is
// [NL * H, F] = 18x12, w2 is [NL * F, H] = 36x6). Rank r holds the whole stacks and uses its
// shard: columns [r * Fs, (r + 1) * Fs) of W1_l and the same rows of W2_l.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def tp_layer(self, inp, w1, w2, out, act_a, act_b, signal):
//       a = pl.create([T, Fs], f32)
//       x = self.tp_load(inp, act_a)                      # every rank: the same T tokens
//       spare = act_b
//       for l in range(NL):                               # an scf.for, not unrolled
//           w1_l = w1[l * H : (l + 1) * H, :]             # pl.tensor.slice, SSA offsets
//           w2_l = w2[l * F : (l + 1) * F, :]
//           a = self.tp_column(x, w1_l, a)                # column-parallel: relu(x @ W1_l[:, shard])
//           y = self.tp_row(a, w2_l, x, spare)            # row-parallel partial (+ x on rank 0)
//           y = pld.allreduce(y, signal, reduce="sum", core_num=2)
//           x, spare = y, x                               # ping-pong windows
//       return self.tp_store(x, out)                      # this rank's T rows of out
//
// Per layer l, on rank r (kernels in runtime/examples/kernels/tp_*.cpp):
//   column : a_r = relu(x @ W1_l[:, r*Fs : (r+1)*Fs])                       [T, Fs]
//   row    : y_r = a_r @ W2_l[r*Fs : (r+1)*Fs, :], plus the residual x on rank 0 only   [T, H]
//   allreduce(sum): every rank's y = y_0 + ... + y_{P-1} = x + relu(x @ W1_l) @ W2_l,
// the full (unsharded) layer, which is the next layer's x on every rank.
//
// @tp_host is the HOST orchestrator: it allocates the windows (symmetric on every device) and
// dispatches tp_layer to each of the 4 devices.
//
//   pld-opt --pld-lower-collectives examples/tp_layer.mlir \
//     | pld-translate --pld-to-ascend-build --output-dir build --kernel-source-dir runtime/examples
//
// tests/examples.rs builds it, runs it for P = 4 and, with the P-dependent shapes (18x12, 36x6,
// 6x12, 12x6, 16x6, 4x2xi32, sizes, %ffn, %devices) rewritten, for P = 2, on both the CHIP entry
// and the HOST orchestrator, against an independent golden (examples/drivers/tp_driver.cpp).

// ---- user AIV kernels: each body returns the parameters the kernel writes in place.
func.func private @tp_load(%inp: !pl.tensor<4x6xf32> {pl.direction = "in"},
                           %x: !pld.dtensor<4x6xf32> {pl.direction = "out"}) -> !pld.dtensor<4x6xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/tp_load.cpp"} {
  return %x : !pld.dtensor<4x6xf32>
}

func.func private @tp_column(%x: !pld.dtensor<4x6xf32> {pl.direction = "in"},
                             %w1: !pl.tensor<6x12xf32> {pl.direction = "in"},
                             %a: !pl.tensor<4x3xf32> {pl.direction = "out"}) -> !pl.tensor<4x3xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/tp_column.cpp"} {
  return %a : !pl.tensor<4x3xf32>
}

func.func private @tp_row(%a: !pl.tensor<4x3xf32> {pl.direction = "in"},
                          %w2: !pl.tensor<12x6xf32> {pl.direction = "in"},
                          %x: !pld.dtensor<4x6xf32> {pl.direction = "in"},
                          %y: !pld.dtensor<4x6xf32> {pl.direction = "out"}) -> !pld.dtensor<4x6xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/tp_row.cpp"} {
  return %y : !pld.dtensor<4x6xf32>
}

// The same store as moe_layers: rank r writes rows [r * T, (r + 1) * T) of out.
func.func private @tp_store(%x: !pld.dtensor<4x6xf32> {pl.direction = "in"},
                            %out: !pl.tensor<16x6xf32> {pl.direction = "out"}) -> !pl.tensor<16x6xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/moe_store.cpp"} {
  return %out : !pl.tensor<16x6xf32>
}

// ---- the CHIP orchestration function: the layer loop.
func.func @tp_layer(%inp: !pl.tensor<4x6xf32>, %w1: !pl.tensor<18x12xf32>, %w2: !pl.tensor<36x6xf32>,
                    %out: !pl.tensor<16x6xf32>, %act_a: !pld.dtensor<4x6xf32>,
                    %act_b: !pld.dtensor<4x6xf32>, %signal: !pld.dtensor<4x2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %layers = arith.constant 3 : index
  %hidden = arith.constant 6 : index
  %ffn = arith.constant 12 : index
  // This rank's column-parallel activations, reused every layer (zero-filled, runtime-owned).
  %a0 = pl.tensor.create : !pl.tensor<4x3xf32>
  %x0 = func.call @tp_load(%inp, %act_a) : (!pl.tensor<4x6xf32>, !pld.dtensor<4x6xf32>) -> !pld.dtensor<4x6xf32>
  %final:2 = scf.for %l = %c0 to %layers step %c1
      iter_args(%x = %x0, %spare = %act_b) -> (!pld.dtensor<4x6xf32>, !pld.dtensor<4x6xf32>) {
    // Layer l's weights: rows [l * H, (l + 1) * H) of w1 and [l * F, (l + 1) * F) of w2.
    %r1 = arith.muli %l, %hidden : index
    %r2 = arith.muli %l, %ffn : index
    %w1_l = pl.tensor.slice %w1[%r1, %c0] {sizes = array<i64: 6, 12>}
        : (!pl.tensor<18x12xf32>, index, index) -> !pl.tensor<6x12xf32>
    %w2_l = pl.tensor.slice %w2[%r2, %c0] {sizes = array<i64: 12, 6>}
        : (!pl.tensor<36x6xf32>, index, index) -> !pl.tensor<12x6xf32>
    %a = func.call @tp_column(%x, %w1_l, %a0)
        : (!pld.dtensor<4x6xf32>, !pl.tensor<6x12xf32>, !pl.tensor<4x3xf32>) -> !pl.tensor<4x3xf32>
    %partial = func.call @tp_row(%a, %w2_l, %x, %spare)
        : (!pl.tensor<4x3xf32>, !pl.tensor<12x6xf32>, !pld.dtensor<4x6xf32>, !pld.dtensor<4x6xf32>)
        -> !pld.dtensor<4x6xf32>
    // Sum the P partial outputs in place: every rank ends with the full layer output.
    %y = pld.tensor.allreduce %partial, %signal {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<4x6xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<4x6xf32>
    // The layer's output is the next layer's input; its input window becomes the spare.
    scf.yield %y, %x : !pld.dtensor<4x6xf32>, !pld.dtensor<4x6xf32>
  }
  %stored = func.call @tp_store(%final#0, %out) : (!pld.dtensor<4x6xf32>, !pl.tensor<16x6xf32>) -> !pl.tensor<16x6xf32>
  return
}

// ---- the HOST orchestrator: windows (symmetric on every device) and one dispatch per device.
func.func @tp_host(%inp: !pl.tensor<4x6xf32>, %w1: !pl.tensor<18x12xf32>, %w2: !pl.tensor<36x6xf32>,
                   %out: !pl.tensor<16x6xf32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b_act_a = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer
  %b_act_b = pld.window_buffer {bytes = 96 : i64} : !pld.window_buffer
  %b_signal = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %act_a = pld.window %b_act_a : !pld.dtensor<4x6xf32>
  %act_b = pld.window %b_act_b : !pld.dtensor<4x6xf32>
  %signal = pld.window %b_signal : !pld.dtensor<4x2xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %devices = arith.constant 4 : index
  scf.for %dev = %c0 to %devices step %c1 {
    pld.host.dispatch @tp_layer(%inp, %w1, %w2, %out, %act_a, %act_b, %signal) on %dev
        : (!pl.tensor<4x6xf32>, !pl.tensor<18x12xf32>, !pl.tensor<36x6xf32>, !pl.tensor<16x6xf32>,
           !pld.dtensor<4x6xf32>, !pld.dtensor<4x6xf32>, !pld.dtensor<4x2xi32>), index
  }
  return
}

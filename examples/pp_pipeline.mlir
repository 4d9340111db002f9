// Pipeline parallelism (GPipe forward): P = 4 stages, one per rank, NM = 6 micro-batches of
// T = 2 tokens x H = 4 f32 flowing through them. Stage r computes y = relu(x @ W_r) + 1 with its
// weights W_r = rows [r*H, (r+1)*H) of w ([P*H, H]); rank 0 reads micro-batch m from inp
// ([NM*T, H], rows [m*T, (m+1)*T)), every later stage reads what the previous one sent.
//
//   @pl.function(type=pl.FunctionType.Orchestration)
//   def pp_pipeline(self, inp, w, out, recv, loss, signal):
//       send = pl.create([T, H], f32)
//       for s in range(NM + P - 1):                      # an scf.for, not unrolled
//           step = s                                      # pl.tensor.write into a [1] i32
//           self.pp_stage(step, inp, w, recv, send, out, loss)   # stage r: micro-batch s - r
//           recv = pld.permute(send, recv, signal, pairs=[[0, 1], [1, 2], [2, 3]])
//       loss = pld.reduce(loss, signal, reduce="sum", root=0)
//
// At step s, stage r works on micro-batch m = s - r when 0 <= m < NM (runtime/examples/kernels/
// pp_stage.cpp), then the permute (an open shift: stage r's output to stage r + 1) moves every
// stage's output to the next stage's recv window, where that stage picks it up at step s + 1.
// The last stage stores its outputs (the network's output for every micro-batch) in out. Every
// stage adds the column sums of its outputs to its loss window; the reduce sums the stages'
// loss rows into rank 0's (the other ranks keep their own).
//
// Meaning (what runner/tests/examples.rs checks, against runner/tests/common/goldens.rs):
//   out on rank P-1, rows [m*T, (m+1)*T) = f_{P-1}(... f_1(f_0(inp_m))), f_r(x) = relu(x @ W_r) + 1;
//   loss on rank 0 = the sum over r and m of the column sums of f_r(...f_0(inp_m)); on rank r > 0
//   its own stage's sum.
//
// @pp_host is the HOST orchestrator: it allocates the windows and dispatches pp_pipeline to each
// of the 4 devices.
//
//   pld-opt --pld-lower-collectives examples/pp_pipeline.mlir \
//     | pld-translate --pld-to-ascend-build --output-dir build --kernel-source-dir runtime/examples

// ---- the user AIV kernel: one stage at one step.
func.func private @pp_stage(%step: !pl.tensor<1xi32> {pl.direction = "in"},
                            %inp: !pl.tensor<12x4xf32> {pl.direction = "in"},
                            %w: !pl.tensor<16x4xf32> {pl.direction = "in"},
                            %recv: !pld.dtensor<2x4xf32> {pl.direction = "in"},
                            %send: !pl.tensor<2x4xf32> {pl.direction = "out"},
                            %out: !pl.tensor<12x4xf32> {pl.direction = "inout"},
                            %loss: !pld.dtensor<1x4xf32> {pl.direction = "inout"})
    -> (!pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>)
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/pp_stage.cpp"} {
  return %send, %out, %loss : !pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>
}

// ---- the CHIP orchestration function: the schedule.
func.func @pp_pipeline(%inp: !pl.tensor<12x4xf32>, %w: !pl.tensor<16x4xf32>, %out: !pl.tensor<12x4xf32>,
                       %recv: !pld.dtensor<2x4xf32>, %loss: !pld.dtensor<1x4xf32>,
                       %signal: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // NM + P - 1 steps fill and drain the pipeline.
  %steps = arith.constant 9 : index
  %send0 = pl.tensor.create : !pl.tensor<2x4xf32>
  %step_id = pl.tensor.create : !pl.tensor<1xi32>
  %final:4 = scf.for %s = %c0 to %steps step %c1
      iter_args(%r = %recv, %send = %send0, %o = %out, %l = %loss)
      -> (!pld.dtensor<2x4xf32>, !pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>) {
    %s32 = arith.index_cast %s : index to i32
    %sid = pl.tensor.write %s32 into %step_id[%c0] : i32 into !pl.tensor<1xi32>, index
    %y, %o2, %l2 = func.call @pp_stage(%sid, %inp, %w, %r, %send, %o, %l)
        : (!pl.tensor<1xi32>, !pl.tensor<12x4xf32>, !pl.tensor<16x4xf32>, !pld.dtensor<2x4xf32>,
           !pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>)
        -> (!pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>)
    // Stage r's output to stage r + 1 (the last stage sends nowhere).
    %r2 = pld.tensor.permute %y, %r, %signal {pairs = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}
        : !pl.tensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<2x4xf32>
    scf.yield %r2, %y, %o2, %l2 : !pld.dtensor<2x4xf32>, !pl.tensor<2x4xf32>, !pl.tensor<12x4xf32>, !pld.dtensor<1x4xf32>
  }
  // The stages' loss rows, summed on rank 0.
  %total = pld.tensor.reduce %final#3, %signal {reduce = "sum", root = 0 : i64}
      : !pld.dtensor<1x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x4xf32>
  return
}

// ---- the HOST orchestrator: windows (symmetric on every device) and one dispatch per device.
func.func @pp_host(%inp: !pl.tensor<12x4xf32>, %w: !pl.tensor<16x4xf32>, %out: !pl.tensor<12x4xf32>)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b_recv = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b_loss = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %b_signal = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %recv = pld.window %b_recv : !pld.dtensor<2x4xf32>
  %loss = pld.window %b_loss : !pld.dtensor<1x4xf32>
  %signal = pld.window %b_signal : !pld.dtensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %devices = arith.constant 4 : index
  scf.for %dev = %c0 to %devices step %c1 {
    pld.host.dispatch @pp_pipeline(%inp, %w, %out, %recv, %loss, %signal) on %dev
        : (!pl.tensor<12x4xf32>, !pl.tensor<16x4xf32>, !pl.tensor<12x4xf32>,
           !pld.dtensor<2x4xf32>, !pld.dtensor<1x4xf32>, !pld.dtensor<4xi32>), index
  }
  return
}

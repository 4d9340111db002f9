// Example user AIV kernel (examples/pp_pipeline.mlir): one pipeline stage at one step of the
// GPipe schedule.
//   pp_stage(step [IN] [1] i32, inp [IN] [NM*T, H], w [IN] [P*H, H], recv [IN] window [T, H],
//            send [OUT] [T, H], out [INOUT] [NM*T, H], loss [INOUT] window [1, H], ctx)
// Rank r is stage r. At step s it works on micro-batch m = s - r when 0 <= m < NM (else it idles
// and writes nothing): its input x is micro-batch m of inp on rank 0 and what the previous stage
// sent (recv) on every other rank; it computes y = relu(x @ W_r) + 1, W_r = rows [r*H, (r+1)*H)
// of w, writes y to send (the permute that follows moves it to stage r + 1), adds y's column
// sums to loss, and the last stage stores y as rows [m*T, (m+1)*T) of out. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* step = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* inp = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* w = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* recv = pld::tensor_arg(args, 3);
  const PLD_GM pld::Tensor* send = pld::tensor_arg(args, 4);
  const PLD_GM pld::Tensor* out = pld::tensor_arg(args, 5);
  const PLD_GM pld::Tensor* loss = pld::tensor_arg(args, 6);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 7);
  const int64_t r = ctx->rankId, stages = ctx->rankNum;
  const int64_t tokens = send->rows(), width = send->row_elems();
  const int64_t micro = inp->rows() / tokens;
  const int64_t m = static_cast<int64_t>(step->as<int32_t>()[0]) - r;
  if (m < 0 || m >= micro) return;
  if (w->rows() != stages * width || w->row_elems() != width || recv->rows() != tokens ||
      out->rows() != micro * tokens || loss->row_elems() != width)
    return;
  const PLD_GM float* x = r == 0 ? inp->as<float>() + m * tokens * width : recv->as<float>();
  const PLD_GM float* wr = w->as<float>() + r * width * width;
  PLD_GM float* y = send->as<float>();
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t j = 0; j < width; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < width; ++k) acc += x[t * width + k] * wr[k * width + j];
      y[t * width + j] = (acc > 0.0f ? acc : 0.0f) + 1.0f;
    }
  for (int64_t j = 0; j < width; ++j)
    for (int64_t t = 0; t < tokens; ++t) loss->as<float>()[j] += y[t * width + j];
  if (r == stages - 1)
    for (int64_t i = 0; i < tokens * width; ++i) out->as<float>()[m * tokens * width + i] = y[i];
}

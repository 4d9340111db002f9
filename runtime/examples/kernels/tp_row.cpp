// Example user AIV kernel (examples/tp_layer.mlir): the row-parallel half of the MLP.
//   tp_row(a [IN] [T, Fs], w2 [IN] [F, H] (this layer's W2, F = P * Fs), x [IN] [T, H],
//          y [OUT] [T, H], ctx x2)
// Rank r computes its partial output y = a @ W2[r * Fs : (r + 1) * Fs, :], each dot product
// summed in order j = 0..Fs-1 in f32, and rank 0 adds the residual x, so the sum of every rank's
// y is x + relu(x @ W1) @ W2. The rank comes from x's CommContext. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* a = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* w2 = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* y = pld::tensor_arg(args, 3);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 4);
  const int64_t tokens = y->rows(), hidden = y->row_elems(), shard = a->row_elems();
  const int64_t first = static_cast<int64_t>(ctx->rankId) * shard;
  if (a->rows() != tokens || x->rows() != tokens || x->row_elems() != hidden ||
      w2->row_elems() != hidden || first + shard > w2->rows())
    return;
  const bool residual = ctx->rankId == 0;
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* at = a->as<float>() + t * a->strides[0];
    const PLD_GM float* xt = x->as<float>() + t * x->strides[0];
    PLD_GM float* yt = y->as<float>() + t * y->strides[0];
    for (int64_t i = 0; i < hidden; ++i) {
      float acc = 0.0f;
      for (int64_t j = 0; j < shard; ++j) acc += at[j] * w2->as<float>()[(first + j) * w2->strides[0] + i];
      yt[i] = residual ? xt[i] + acc : acc;
    }
  }
}

// Example user AIV kernel (examples/tp_layer.mlir): the column-parallel half of the MLP.
//   tp_column(x [IN] [T, H], w1 [IN] [H, F] (this layer's W1, F = P * Fs), a [OUT] [T, Fs], ctx)
// Rank r computes a = relu(x @ W1[:, r * Fs : (r + 1) * Fs]), each dot product summed in order
// k = 0..H-1 in f32. The rank comes from x's CommContext. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* w1 = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* a = pld::tensor_arg(args, 2);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 3);
  const int64_t tokens = x->rows(), hidden = x->row_elems(), shard = a->row_elems();
  const int64_t first = static_cast<int64_t>(ctx->rankId) * shard;
  if (a->rows() != tokens || w1->rows() != hidden || first + shard > w1->row_elems()) return;
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* xt = x->as<float>() + t * x->strides[0];
    PLD_GM float* at = a->as<float>() + t * a->strides[0];
    for (int64_t j = 0; j < shard; ++j) {
      float acc = 0.0f;
      for (int64_t k = 0; k < hidden; ++k) acc += xt[k] * w1->as<float>()[k * w1->strides[0] + first + j];
      at[j] = acc > 0.0f ? acc : 0.0f;
    }
  }
}

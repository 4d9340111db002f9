// Example user AIV kernel (examples/moe_layers.mlir): the expert of this rank.
//   moe_expert(recv [IN] [P * C, H], recv_counts [IN] [P] i32, y [OUT] [P * C, H],
//              back_counts [OUT] [P] i32, ctx x4)
// Expert e (= this rank) computes y = 2 * x + (e + 1) on the recv_counts[src] rows it received
// from each source rank src (rows src * C ..), in place in the same rows of y, and sends every
// row back: back_counts[src] = recv_counts[src]. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* recv = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* recv_counts = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* y = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* back_counts = pld::tensor_arg(args, 3);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 4);
  const int64_t sources = recv_counts->numel();
  if (sources <= 0 || back_counts->numel() != sources) return;
  const int64_t capacity = recv->rows() / sources, width = recv->row_elems();
  const float bias = static_cast<float>(ctx->rankId + 1);
  for (int64_t src = 0; src < sources; ++src) {
    const int32_t n = recv_counts->as<int32_t>()[src];
    for (int64_t k = 0; k < n && k < capacity; ++k) {
      const PLD_GM float* in = recv->as<float>() + (src * capacity + k) * recv->strides[0];
      PLD_GM float* res = y->as<float>() + (src * capacity + k) * y->strides[0];
      for (int64_t j = 0; j < width; ++j) res[j] = 2.0f * in[j] + bias;
    }
    back_counts->as<int32_t>()[src] = n;
  }
}

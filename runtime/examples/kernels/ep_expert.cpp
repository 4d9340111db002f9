// Example user AIV kernel (examples/ep_moe.mlir): the expert of this rank, fixed capacity.
//   ep_expert(recv [IN] [P * C, H], y [OUT] [P * C, H], ctx)
// Expert e (= this rank) computes y = 2 * x + (e + 1) on every received slot, filled or not (an
// unused slot's result goes back too and is never read). Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* recv = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* y = pld::tensor_arg(args, 1);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 2);
  const int64_t slots = recv->rows(), width = recv->row_elems();
  if (y->rows() != slots || y->row_elems() != width) return;
  const float bias = static_cast<float>(ctx->rankId + 1);
  for (int64_t s = 0; s < slots; ++s) {
    const PLD_GM float* in = recv->as<float>() + s * recv->strides[0];
    PLD_GM float* res = y->as<float>() + s * y->strides[0];
    for (int64_t j = 0; j < width; ++j) res[j] = 2.0f * in[j] + bias;
  }
}

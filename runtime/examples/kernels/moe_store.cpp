// Example user AIV kernel (examples/moe_layers.mlir): moe_store(h [IN], out [OUT], ctx) copies
// the activation window h ([T, H]) into this rank's rows [rank * T, (rank + 1) * T) of out
// ([P * T, H]); ranks write disjoint rows of the one shared output. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* h = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* out = pld::tensor_arg(args, 1);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 2);
  const int64_t tokens = h->rows(), width = h->row_elems();
  const int64_t first = static_cast<int64_t>(ctx->rankId) * tokens;
  if (first + tokens > out->rows() || out->row_elems() != width) return;
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* src = h->as<float>() + t * h->strides[0];
    PLD_GM float* dst = out->as<float>() + (first + t) * out->strides[0];
    for (int64_t j = 0; j < width; ++j) dst[j] = src[j];
  }
}

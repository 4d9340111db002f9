// Example user AIV kernel (examples/moe_layers.mlir): the residual combine.
//   moe_gather(combined [IN] [P * C, H], slot_of [IN] [T] i32, h [IN] [T, H],
//              h_next [OUT] [T, H], ctx x3)
// h_next[t] = h[t] + combined[slot_of[t]] for a routed token (its expert's result came back to
// the slot it was staged in), h_next[t] = h[t] for a dropped one (slot_of[t] = -1). Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* combined = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* slot_of = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* h = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* h_next = pld::tensor_arg(args, 3);
  const int64_t tokens = h->rows(), width = h->row_elems();
  if (h_next->rows() != tokens || h_next->row_elems() != width || slot_of->numel() < tokens) return;
  for (int64_t t = 0; t < tokens; ++t) {
    const int64_t slot = slot_of->as<int32_t>()[t * slot_of->strides[0]];
    const PLD_GM float* x = h->as<float>() + t * h->strides[0];
    PLD_GM float* dst = h_next->as<float>() + t * h_next->strides[0];
    const bool routed = slot >= 0 && slot < combined->rows();
    const PLD_GM float* r = routed ? combined->as<float>() + slot * combined->strides[0] : nullptr;
    for (int64_t j = 0; j < width; ++j) dst[j] = routed ? x[j] + r[j] : x[j];
  }
}

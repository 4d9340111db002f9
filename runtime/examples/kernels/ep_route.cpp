// Example user AIV kernel (examples/ep_moe.mlir): fixed-capacity routing.
//   ep_route(h [IN] [T, H], table [IN] [K] i32, stage [OUT] [P * C, H], slot_of [OUT] [T] i32, ctx x2)
// Token t goes to expert e = table[int(sum of h[t]) mod K] (the sum in order, in f32). In token
// order the k-th token for e (k < C) is copied to stage row e * C + k and slot_of[t] = e * C + k;
// later tokens for e, and tokens whose table entry is not an expert, are dropped (slot_of[t] = -1).
// Every other stage row is zeroed: the dense all_to_all sends all P * C rows. P comes from h's
// CommContext, C = stage rows / P. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* h = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* table = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* stage = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* slot_of = pld::tensor_arg(args, 3);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 4);
  const int64_t experts = ctx->rankNum, tokens = h->rows(), width = h->row_elems();
  const int64_t classes = table->numel();
  if (experts < 1 || experts > 16 || classes < 1 || stage->rows() % experts != 0 ||
      stage->row_elems() != width || slot_of->numel() < tokens)
    return;
  const int64_t capacity = stage->rows() / experts;
  for (int64_t s = 0; s < stage->rows(); ++s)
    for (int64_t j = 0; j < width; ++j) stage->as<float>()[s * stage->strides[0] + j] = 0.0f;
  int64_t taken[16] = {};
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* x = h->as<float>() + t * h->strides[0];
    float sum = 0.0f;
    for (int64_t j = 0; j < width; ++j) sum += x[j];
    int64_t key = static_cast<int64_t>(sum) % classes;
    if (key < 0) key += classes;
    const int64_t e = table->as<int32_t>()[key];
    int32_t slot = -1;
    if (e >= 0 && e < experts && taken[e] < capacity) {
      slot = static_cast<int32_t>(e * capacity + taken[e]++);
      PLD_GM float* dst = stage->as<float>() + slot * stage->strides[0];
      for (int64_t j = 0; j < width; ++j) dst[j] = x[j];
    }
    slot_of->as<int32_t>()[t * slot_of->strides[0]] = slot;
  }
}

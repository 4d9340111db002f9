// Example user AIV kernel (examples/moe_layers.mlir): top-1 routing with a capacity.
//   moe_route(h [IN] [T, H], layer_id [IN] [1] i32, stage [OUT] [P * C, H],
//             send_counts [OUT] [P] i32, slot_of [OUT] [T] i32, ctx x3)
// Token t goes to expert e = (int(sum of h[t]) + layer) mod P. In token order, the first C tokens of
// each expert are staged at stage[e * C + k] (k = how many went to e before it) and
// slot_of[t] = e * C + k; a token over capacity is dropped (slot_of[t] = -1). send_counts[e] is
// the number staged for e (at most C = stage.rows / P): the all_to_all_v then delivers
// stage[e * C .. e * C + send_counts[e]) to rank e. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* h = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* layer_id = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* stage = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* send_counts = pld::tensor_arg(args, 3);
  const PLD_GM pld::Tensor* slot_of = pld::tensor_arg(args, 4);
  const int64_t experts = send_counts->numel();
  if (experts <= 0) return;
  const int64_t capacity = stage->rows() / experts;
  const int64_t tokens = h->rows(), width = h->row_elems();
  if (stage->row_elems() != width || slot_of->numel() < tokens) return;
  const int64_t layer = layer_id->as<int32_t>()[0];
  PLD_GM int32_t* counts = send_counts->as<int32_t>();
  for (int64_t e = 0; e < experts; ++e) counts[e] = 0;
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* row = h->as<float>() + t * h->strides[0];
    float sum = 0.0f;
    for (int64_t j = 0; j < width; ++j) sum += row[j];
    const int64_t key = static_cast<int64_t>(sum) + layer;
    const int64_t e = ((key % experts) + experts) % experts;
    int32_t slot = -1;
    if (counts[e] < capacity) {
      slot = static_cast<int32_t>(e * capacity + counts[e]);
      counts[e] += 1;
      PLD_GM float* dst = stage->as<float>() + slot * stage->strides[0];
      for (int64_t j = 0; j < width; ++j) dst[j] = row[j];
    }
    slot_of->as<int32_t>()[t * slot_of->strides[0]] = slot;
  }
}

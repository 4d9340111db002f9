// pld-sim's consume_step user kernel (pl.kernel_source of the module pld-sim writes):
//   consume_step(data [IN], recv [IN], out [OUT], <CommContext slots>)
// copies the received window (the collective's `target`) out of the window into the pipeline's
// result tensor. Single block; addressed flat.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* data = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* out = pld::tensor_arg(args, 2);
  const int64_t n = data->numel() < out->numel() ? data->numel() : out->numel();
  pld::copy(out->as<char>(), data->as<char>(), n * data->elem_size);
}

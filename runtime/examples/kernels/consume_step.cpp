// Example user AIV kernel: consume_step(data [IN], recv [IN], out [OUT]) copies the received
// window out. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* data = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* out = pld::tensor_arg(args, 2);
  const int64_t n = data->numel() < out->numel() ? data->numel() : out->numel();
  pld::copy(out->as<char>(), data->as<char>(), n * data->elem_size);
}

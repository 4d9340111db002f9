// Example user AIV kernel: stage_step(inp [IN], stage [INOUT], counts [INOUT]) copies inp into the
// staging window; counts (already written by the host) passes through. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* inp = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* stage = pld::tensor_arg(args, 1);
  const int64_t n = inp->numel() < stage->numel() ? inp->numel() : stage->numel();
  pld::copy(stage->as<char>(), inp->as<char>(), n * inp->elem_size);
}

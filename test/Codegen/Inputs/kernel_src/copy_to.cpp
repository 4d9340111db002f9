// A user AIV kernel for test/Codegen: copies args[0] into args[1] (f32, both
// packed, args[1].numel() elements).
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* src = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* dst = pld::tensor_arg(args, 1);
  for (int64_t i = 0; i < dst->numel(); ++i) dst->as<float>()[i] = src->as<float>()[i];
}

// A user AIV kernel for test/Codegen: copies args[0] into args[2] and adds 1 to
// every element of args[1] (f32, all packed, args[2].numel() elements).
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* src = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* acc = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* dst = pld::tensor_arg(args, 2);
  for (int64_t i = 0; i < dst->numel(); ++i) dst->as<float>()[i] = src->as<float>()[i];
  for (int64_t i = 0; i < acc->numel(); ++i) acc->as<float>()[i] += 1.0f;
}

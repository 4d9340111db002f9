// A user AIV kernel for test/Codegen (copied verbatim into kernels/aiv/scale.cpp).
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 0);
  float* p = x->as<float>();
  for (int64_t i = 0; i < x->numel(); ++i) p[i] *= 2.0f;
}

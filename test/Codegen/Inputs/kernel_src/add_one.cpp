// A user AIV kernel for test/Codegen: adds 1 to every element of args[0]
// (f32), honouring its strides, so a strided view is updated in place.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 0);
  const int64_t n = x->numel();
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rest = flat, off = 0;
    for (int d = x->rank - 1; d >= 0; --d) {
      off += (rest % x->shape[d]) * x->strides[d];
      rest /= x->shape[d];
    }
    x->as<float>()[off] += 1.0f;
  }
}

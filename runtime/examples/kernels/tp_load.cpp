// Example user AIV kernel (examples/tp_layer.mlir): tp_load(inp [IN] [T, H], x [OUT] [T, H], ctx)
// copies the tokens, which every rank holds alike (tensor parallelism replicates the activations),
// into the activation window x. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* inp = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 1);
  const int64_t tokens = x->rows(), width = x->row_elems();
  if (inp->rows() != tokens || inp->row_elems() != width) return;
  for (int64_t t = 0; t < tokens; ++t) {
    const PLD_GM float* src = inp->as<float>() + t * inp->strides[0];
    PLD_GM float* dst = x->as<float>() + t * x->strides[0];
    for (int64_t j = 0; j < width; ++j) dst[j] = src[j];
  }
}

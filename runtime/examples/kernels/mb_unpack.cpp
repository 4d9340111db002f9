// Example user AIV kernel (examples/micro_batches.mlir):
//   mb_unpack(recv [IN] [P * R, H], recv_counts [IN] [P] i32, part [OUT] [P * R, H], ctx x2)
// part[q * R + k] = 2 * recv[q * R + k] + 1 for k < recv_counts[q] (the rows peer q sent in this
// micro-batch); every other row of part is left as it is (zero in a fresh pl.tensor.create
// buffer). Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* recv = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* recv_counts = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* part = pld::tensor_arg(args, 2);
  const int64_t peers = recv_counts->numel();
  if (peers <= 0 || recv->rank != 2 || part->rank != 2 || recv->shape[1] != part->shape[1]) return;
  const int64_t per_peer = recv->rows() / peers, width = recv->shape[1];
  for (int64_t q = 0; q < peers; ++q) {
    const int64_t n = recv_counts->as<int32_t>()[q];
    for (int64_t k = 0; k < n && k < per_peer; ++k) {
      const PLD_GM float* src = recv->as<float>() + (q * per_peer + k) * recv->strides[0];
      PLD_GM float* dst = part->as<float>() + (q * per_peer + k) * part->strides[0];
      for (int64_t e = 0; e < width; ++e) dst[e * part->strides[1]] = 2.0f * src[e * recv->strides[1]] + 1.0f;
    }
  }
}

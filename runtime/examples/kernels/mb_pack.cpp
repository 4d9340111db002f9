// Example user AIV kernel (examples/micro_batches.mlir):
//   mb_pack(xs [IN] [P * R, H], stage [OUT] [P * R, H], send_counts [OUT] [P] i32, ctx x2)
// Rows [q * R, (q + 1) * R) of the micro-batch xs are for peer q. The rows whose first element,
// as an integer, is not a multiple of 3 are packed, in order, to the front of chunk q of stage
// (rows q * R ..); send_counts[q] = how many. xs may be a strided view (a slice of a bigger
// tensor): rows are addressed through its strides. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* xs = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* stage = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* send_counts = pld::tensor_arg(args, 2);
  const int64_t peers = send_counts->numel();
  if (peers <= 0 || xs->rank != 2 || stage->rank != 2 || xs->shape[1] != stage->shape[1]) return;
  const int64_t per_peer = stage->rows() / peers, width = xs->shape[1];
  for (int64_t q = 0; q < peers; ++q) {
    int32_t kept = 0;
    for (int64_t j = q * per_peer; j < (q + 1) * per_peer && j < xs->rows(); ++j) {
      const PLD_GM float* row = xs->as<float>() + j * xs->strides[0];
      if (static_cast<int64_t>(row[0]) % 3 == 0) continue;
      PLD_GM float* dst = stage->as<float>() + (q * per_peer + kept) * stage->strides[0];
      for (int64_t e = 0; e < width; ++e) dst[e * stage->strides[1]] = row[e * xs->strides[1]];
      ++kept;
    }
    send_counts->as<int32_t>()[q] = kept;
  }
}

// pld-sim's stage_step user kernel (pl.kernel_source of the module pld-sim writes):
//   stage_step(inp [IN], send [IN], stage [OUT], counts [OUT], <CommContext slots>)
// copies this rank's input payload into the staging window (the collective's `input`) and its
// send counts into the send_counts window, where peers read them. Single block; the operands are
// addressed flat (only their element counts are read).
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* inp = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* send = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* stage = pld::tensor_arg(args, 2);
  const PLD_GM pld::Tensor* counts = pld::tensor_arg(args, 3);
  const int64_t n = inp->numel() < stage->numel() ? inp->numel() : stage->numel();
  pld::copy(stage->as<char>(), inp->as<char>(), n * inp->elem_size);
  const int64_t c = send->numel() < counts->numel() ? send->numel() : counts->numel();
  pld::copy(counts->as<int32_t>(), send->as<int32_t>(), c);
}

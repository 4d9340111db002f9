// pld-sim's stage step for the collective family (pl.kernel_source of the module pld-sim writes,
// sim/src/family/module.rs):
//   family_stage(src [IN], calls [INOUT], dst [OUT], <CommContext>)
// `src` holds every rank's payload of every call, rank-major ([P][K][dst's elements]); `calls`
// is a [P] i32 counter, one per rank. Rank r copies chunk r*K + calls[r] into `dst` (the operand
// the collective reads: its input, or its target) and increments calls[r]. Single block;
// addressed flat. A counter past K copies nothing and leaves a negative mark, which pld-sim
// reports.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* src = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* calls = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* dst = pld::tensor_arg(args, 2);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 3);
  const int64_t ranks = calls->numel();
  const int64_t rank = static_cast<int64_t>(ctx->rankId);
  const int64_t per = dst->numel();
  if (rank < 0 || rank >= ranks || per <= 0) return;
  const int64_t k_max = src->numel() / per / ranks;
  PLD_GM int32_t* counter = calls->as<int32_t>() + rank;
  const int32_t k = *counter;
  if (k < 0 || k >= k_max) {
    *counter = -1;
    return;
  }
  const int64_t bytes = per * dst->elem_size;
  pld::copy(dst->as<char>(), src->as<char>() + (rank * k_max + k) * bytes, bytes);
  *counter = k + 1;
}

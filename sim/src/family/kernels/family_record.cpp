// pld-sim's record step for the collective family (pl.kernel_source of the module pld-sim writes,
// sim/src/family/module.rs):
//   family_record(target [IN], calls [IN], history [INOUT], <CommContext>)
// runs after every call's collective and copies this rank's target into its slot of `history`
// ([R][K*T, E], R = 1 on the CHIP rail, where every rank has its own, and P on the HOST rail,
// where the devices share one): slot calls[rank] - 1, the call that just ended, so the golden
// checks every call, not only the last one. Single block; addressed flat.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* tgt = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* calls = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* hist = pld::tensor_arg(args, 2);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 3);
  const int64_t ranks = calls->numel();
  const int64_t rank = static_cast<int64_t>(ctx->rankId);
  const int64_t per = tgt->numel();
  const int64_t owners = hist->shape[0];
  if (rank < 0 || rank >= ranks || per <= 0 || (owners != 1 && owners != ranks)) return;
  const int64_t k_max = hist->numel() / owners / per;
  const int64_t k = calls->as<int32_t>()[rank] - 1;
  if (k < 0 || k >= k_max) return;
  const int64_t bytes = per * tgt->elem_size;
  const int64_t slot = (owners == 1 ? 0 : rank) * k_max + k;
  pld::copy(hist->as<char>() + slot * bytes, tgt->as<char>(), bytes);
}

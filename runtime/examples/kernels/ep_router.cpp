// Example user AIV kernel (examples/ep_moe.mlir): the routing table of a layer.
//   ep_router(layer_id [IN] [1] i32, table [OUT] [K] i32, ctx)
// Rank 0 (the root of the broadcast that follows) writes table[k] = (3 * k + layer + 1) mod P:
// token class k goes to expert table[k]. Every other rank writes -1 (no expert), so a rank routes
// correctly only with the table the broadcast brought it. Single block.
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* layer_id = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* table = pld::tensor_arg(args, 1);
  const PLD_GM pld::CommContext* ctx = pld::comm_arg(args, 2);
  const int64_t layer = layer_id->as<int32_t>()[0], ranks = ctx->rankNum;
  for (int64_t k = 0; k < table->numel(); ++k)
    table->as<int32_t>()[k] = ctx->rankId == 0 ? static_cast<int32_t>((3 * k + layer + 1) % ranks) : -1;
}

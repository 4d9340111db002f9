// A user AIV kernel for test/Codegen: every block adds 1 to args[0][0] (i64)
// atomically and records the block count it saw in args[0][1].
#include "pld_runtime/kernel.h"

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 0);
  int64_t* p = x->as<int64_t>();
  __atomic_fetch_add(&p[0], 1, __ATOMIC_SEQ_CST);
  __atomic_store_n(&p[1], static_cast<int64_t>(pld::block_num()), __ATOMIC_SEQ_CST);
}

// intrinsic.h (pld's CPU runtime): a block's identity, read from the kernel's argument block.
//
// As on hw-native-sys/simpler@6ebaf77 (docs/spec/device.md, "Kernel text"): the runtime stores a
// pointer to the block's LocalContext at args[48] and to the core's GlobalContext at args[49];
// get_block_idx / get_block_num read the first. pld's runtime fills both for every block.
#ifndef PLD_DEVICE_INTRINSIC_H
#define PLD_DEVICE_INTRINSIC_H

#include <stdint.h>

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

static constexpr int32_t SPMD_LOCAL_CONTEXT_INDEX = 48;
static constexpr int32_t SPMD_GLOBAL_CONTEXT_INDEX = 49;

// Per core: the AIV lane within its cluster (0 or 1).
struct GlobalContext {
  int32_t sub_block_id;
};

// Per block of a launch.
struct LocalContext {
  int32_t block_idx;  // 0..block_num-1
  int32_t block_num;  // the launch width
};

static __aicore__ inline int32_t get_block_idx(__gm__ int64_t* args) {
  return reinterpret_cast<__gm__ LocalContext*>(
             static_cast<uint64_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_idx;
}

static __aicore__ inline int32_t get_block_num(__gm__ int64_t* args) {
  return reinterpret_cast<__gm__ LocalContext*>(
             static_cast<uint64_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_num;
}

static __aicore__ inline int32_t get_sub_block_id(__gm__ int64_t* args) {
  return reinterpret_cast<__gm__ GlobalContext*>(
             static_cast<uint64_t>(args[SPMD_GLOBAL_CONTEXT_INDEX]))->sub_block_id;
}

#endif  // PLD_DEVICE_INTRINSIC_H

// platform_comm/comm_context.h (pld's CPU runtime): one rank's view of a communication domain.
//
// Same name and byte layout as hw-native-sys/simpler@6ebaf77's `CommContext` (docs/spec/device.md,
// "Layouts"), pinned by the static_asserts. Every rank's window has the same layout (symmetric
// allocation), so a peer's copy of a local address is
// `windowsIn[peer] + (local - windowsIn[rankId])`.
#ifndef PLD_DEVICE_COMM_CONTEXT_H
#define PLD_DEVICE_COMM_CONTEXT_H

#include <cstddef>
#include <cstdint>

static constexpr uint32_t COMM_MAX_RANK_NUM = 64;

struct CommContext {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;   // this rank, 0..rankNum-1
  uint32_t rankNum;  // ranks in the domain
  uint64_t winSize;  // bytes of every rank's window
  uint64_t windowsIn[COMM_MAX_RANK_NUM];   // each rank's window base
  uint64_t windowsOut[COMM_MAX_RANK_NUM];  // unused by pld's kernels
};

static_assert(sizeof(CommContext) == 1056, "CommContext layout");
static_assert(offsetof(CommContext, rankId) == 16, "CommContext layout");
static_assert(offsetof(CommContext, rankNum) == 20, "CommContext layout");
static_assert(offsetof(CommContext, winSize) == 24, "CommContext layout");
static_assert(offsetof(CommContext, windowsIn) == 32, "CommContext layout");
static_assert(offsetof(CommContext, windowsOut) == 544, "CommContext layout");

#endif  // PLD_DEVICE_COMM_CONTEXT_H

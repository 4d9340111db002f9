// pld_runtime/comm.h: the communication context a collective kernel receives (args[n]).
#ifndef PLD_RUNTIME_COMM_H
#define PLD_RUNTIME_COMM_H

#include <cstdint>

#include <platform_comm/comm_context.h>  // runtime/include/device

#include "pld_runtime/tensor.h"

namespace pld {

constexpr int kCommMaxRanks = static_cast<int>(COMM_MAX_RANK_NUM);

// The device's CommContext (simpler's layout: rankId, rankNum, winSize, windowsIn[64], ...), one
// per rank and comm domain. Every rank's window has the same layout (symmetric allocation), so an
// address inside this rank's window maps to the same offset inside a peer's window.
using CommContext = ::CommContext;

// Address of the peer's copy of `local`, which points into this rank's window:
// peer_base + (local - local_base).
template <typename T>
inline PLD_GM T* peer_ptr(const PLD_GM CommContext* ctx, PLD_GM T* local, uint32_t peer) {
  const uint64_t off = reinterpret_cast<uint64_t>(local) - ctx->windowsIn[ctx->rankId];
  return reinterpret_cast<PLD_GM T*>(ctx->windowsIn[peer] + off);
}

}  // namespace pld

#endif  // PLD_RUNTIME_COMM_H

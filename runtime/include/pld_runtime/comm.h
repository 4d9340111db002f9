// pld_runtime/comm.h: the communication context a collective kernel receives in args[5].
#ifndef PLD_RUNTIME_COMM_H
#define PLD_RUNTIME_COMM_H

#include <cstdint>

#include "pld_runtime/tensor.h"

namespace pld {

constexpr int kCommMaxRanks = 64;

// One per rank and comm domain. Every rank's window has the same layout (symmetric allocation), so
// an address inside this rank's window maps to the same offset inside a peer's window.
struct CommContext {
  uint32_t rankId = 0;   // this rank, 0..rankNum-1
  uint32_t rankNum = 0;  // ranks in the comm domain
  uint64_t winSize = 0;  // bytes of every rank's window
  uint64_t windowsIn[kCommMaxRanks] = {};  // base address of each rank's window
};

// Address of the peer's copy of `local`, which points into this rank's window:
// peer_base + (local - local_base).
template <typename T>
inline PLD_GM T* peer_ptr(const PLD_GM CommContext* ctx, PLD_GM T* local, uint32_t peer) {
  const uint64_t off = reinterpret_cast<uint64_t>(local) - ctx->windowsIn[ctx->rankId];
  return reinterpret_cast<PLD_GM T*>(ctx->windowsIn[peer] + off);
}

}  // namespace pld

#endif  // PLD_RUNTIME_COMM_H

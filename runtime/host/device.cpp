// runtime/host/device.cpp: the device's ordering model behind pld's CPU pto-isa subset
// (runtime/include/device/pto). On the device a transfer is an asynchronous job of a pipe, done
// only at a completion point; a memcpy at the call hides every missing barrier. Here each block
// queues its transfers and runs them at the latest point the device allows (or, under
// PLD_DMA_SEED=n, at seeded random earlier points; under PLD_DMA_EARLIEST=1, the benchmarks'
// mode, at issue), and every access that the device would race is reported as a device-order
// violation naming the kernel and the line.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <pto/comm/pto_comm_inst.hpp>
#include <pto/pto-inst.hpp>

#include "internal.h"
#include "pld_runtime/task.h"

extern "C" {
// The signal primitives of runtime.cpp (atomic, and they wake the cell's parked waiters).
void pld_rt_signal_add(int32_t* cell, int32_t delta);
void pld_rt_signal_set(int32_t* cell, int32_t value);
}

namespace {

using namespace pld::host::internal;

// The unified buffer of an a2a3 AIV core: a kernel that fits here fits the device.
constexpr uint64_t kUbBytes = 192 * 1024;

// Which completion points complete an entry: a TLOAD MTE2's, a TSTORE MTE3's, a TPUT / TGET
// either's (its two stages), a vector instruction V's.
enum : unsigned { kOnMte2 = 1u, kOnMte3 = 2u, kOnV = 4u, kOnAll = 7u };

struct Region {
  const char* lo = nullptr;
  const char* hi = nullptr;
  bool overlaps(const Region& o) const { return lo && o.lo && lo < o.hi && o.lo < hi; }
};

// A transfer in flight or a vector access not yet completed, in issue order.
struct Entry {
  uint64_t seq;
  unsigned pipes;
  bool dma;            // a transfer (else a vector access, which moved its data at the call)
  bool moved;          // its data already moved (PLD_DMA_EARLIEST), its completion still pending
  pld_dma_op op;       // the transfer
  Region ub_read;      // UB it reads
  Region ub_write;     // UB it writes
  Region ub_read2;     // a vector instruction's second source
  Region gm_read;      // global memory a transfer reads (its bounding range), if any
  Region gm_write;     // global memory a transfer writes (its bounding range), if any
  const char* what;
  int line;
};

struct DeviceBlock {
  std::unique_ptr<char[]> ub{new char[kUbBytes]};
  std::vector<Entry> pending;
  uint64_t seq = 1;
  // GM writes completed since the last dsb(DSB_DDR): a TNOTIFY would publish them unordered.
  int unordered = 0;
  const char* unordered_what = nullptr;
  int unordered_line = 0;
  uint64_t flag_seq[8][8][8] = {};  // set_flag(src, dst, e) -> the sequence number it marks; 0 = unset
  bool seeded = false;
  std::mt19937_64 rng;
};
thread_local DeviceBlock* tl_dev = nullptr;

[[noreturn]] void violation(const char* what, int line, const std::string& detail) {
  BlockInfo b{-1, -1, "?"};
  current_block(&b);
  char head[512];
  std::snprintf(head, sizeof head, "device-order violation in kernel '%s' (rank %d, block %d) at line %d: %s: ",
                b.kernel, b.rank, b.block, line, what);
  fail_run(PLD_ERROR_DEVICE_ORDER, head + detail);
  throw BlockEnded{};
}

DeviceBlock& dev(const char* what, int line) {
  if (!tl_dev) {
    std::fprintf(stderr, "pld-runtime: %s (line %d) called outside a kernel block\n", what, line);
    std::abort();
  }
  if (run_aborted()) throw BlockEnded{};
  return *tl_dev;
}

unsigned pipe_mask(int pipe) {
  switch (pipe) {
    case PIPE_MTE2: return kOnMte2;
    case PIPE_MTE3: return kOnMte3;
    case PIPE_V: return kOnV;
    case PIPE_ALL: return kOnAll;
    default: return 0;
  }
}

const char* pipe_name(int pipe) {
  static const char* const names[] = {"PIPE_S", "PIPE_V", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_M", "PIPE_ALL", "PIPE_FIX"};
  return pipe >= 0 && pipe < 8 ? names[pipe] : "PIPE_?";
}

// Address of row `r` of one side of a transfer.
char* row_addr(const pld_dma_side& s, int64_t r, int64_t elem) {
  char* base = static_cast<char*>(s.base);
  if (s.is_tile) return base + r * s.tile_cols * elem;
  int64_t off = 0;
  for (int k = 3; k >= 0; --k) {
    const int64_t n = s.shape[k] > 0 ? s.shape[k] : 1;
    off += (r % n) * s.stride[k];
    r /= n;
  }
  return base + off * elem;
}

void move(const pld_dma_op& op) {
  const int64_t e = op.elem;
  const int64_t dcol = op.dst.is_tile ? e : op.dst.stride[4] * e;
  const int64_t scol = op.src.is_tile ? e : op.src.stride[4] * e;
  for (int64_t r = 0; r < op.rows; ++r) {
    char* d = row_addr(op.dst, r, e);
    const char* s = row_addr(op.src, r, e);
    if (dcol == e && scol == e) {
      std::memmove(d, s, static_cast<size_t>(op.cols * e));
      if (!op.dst.is_tile) trace_copy(d, s, static_cast<uint64_t>(op.cols * e));
    } else {
      for (int64_t c = 0; c < op.cols; ++c) {
        std::memcpy(d + c * dcol, s + c * scol, static_cast<size_t>(e));
        if (!op.dst.is_tile) trace_copy(d + c * dcol, s + c * scol, static_cast<uint64_t>(e));
      }
    }
  }
}

void complete(DeviceBlock& d, const Entry& x) {
  if (!x.dma) return;
  if (!x.moved) move(x.op);
  if (x.gm_write.lo) {  // its destination is global memory
    ++d.unordered;
    d.unordered_what = x.what;
    d.unordered_line = x.line;
  }
}

// Completes, in issue order, every entry on a pipe of `mask` issued before `limit`.
void complete_until(DeviceBlock& d, unsigned mask, uint64_t limit) {
  size_t kept = 0;
  for (size_t i = 0; i < d.pending.size(); ++i) {
    if ((d.pending[i].pipes & mask) && d.pending[i].seq < limit) {
      complete(d, d.pending[i]);
    } else {
      if (kept != i) d.pending[kept] = d.pending[i];
      ++kept;
    }
  }
  d.pending.resize(kept);
}

// PLD_DMA_SEED: before each instruction, every pipe's queue may have advanced by a random prefix.
void maybe_advance(DeviceBlock& d) {
  if (!d.seeded || d.pending.empty()) return;
  unsigned stopped = 0;
  size_t kept = 0;
  for (size_t i = 0; i < d.pending.size(); ++i) {
    const Entry& x = d.pending[i];
    if (!(x.pipes & stopped) && (d.rng() & 1u)) {
      complete(d, x);
    } else {
      stopped |= x.pipes;
      if (kept != i) d.pending[kept] = d.pending[i];
      ++kept;
    }
  }
  d.pending.resize(kept);
}

Region tile_region(const pld_dma_side& s, int64_t rows, int64_t elem) {
  Region r;
  r.lo = static_cast<const char*>(s.base);
  r.hi = r.lo + rows * s.tile_cols * elem;
  return r;
}

// The first entry on another pipe than `pipes` that touches `r` as `mode` says (a read of r
// conflicts with a pending write of it, a write with a pending read or write).
const Entry* conflict(const DeviceBlock& d, unsigned pipes, const Region& r, bool writing) {
  for (const Entry& x : d.pending) {
    if (x.pipes & pipes) continue;  // the same pipe runs in order
    if (x.ub_write.overlaps(r)) return &x;
    if (writing && (x.ub_read.overlaps(r) || x.ub_read2.overlaps(r))) return &x;
  }
  return nullptr;
}

// "TLOAD (line 12), not yet completed, still" (a conflict's other side).
std::string still(const Entry& x) {
  return std::string(x.what) + " (line " + std::to_string(x.line) + "), not yet completed, still";
}

std::string in_flight(const Entry& x) {
  return std::string(x.what) + " (line " + std::to_string(x.line) + ") has not completed";
}

// The bounding range of a GlobalTensor side: every element a transfer of rows x cols touches.
Region gm_region(const pld_dma_side& s, int64_t cols, int64_t elem) {
  int64_t last = (cols > 0 ? cols - 1 : 0) * s.stride[4];
  for (int k = 0; k < 4; ++k) last += ((s.shape[k] > 0 ? s.shape[k] : 1) - 1) * s.stride[k];
  Region r;
  r.lo = static_cast<const char*>(s.base);
  r.hi = r.lo + (last + 1) * elem;
  return r;
}

// The byte ranges one GlobalTensor side of a transfer covers, one per row, sorted (a row with a
// column stride is taken whole, gaps included).
std::vector<std::pair<const char*, const char*>> row_ranges(const pld_dma_op& op, const pld_dma_side& s) {
  const int64_t span = ((op.cols > 0 ? op.cols - 1 : 0) * s.stride[4] + 1) * op.elem;
  std::vector<std::pair<const char*, const char*>> v;
  v.reserve(static_cast<size_t>(op.rows > 0 ? op.rows : 0));
  for (int64_t r = 0; r < op.rows; ++r) {
    const char* lo = row_addr(s, r, op.elem);
    v.emplace_back(lo, lo + span);
  }
  std::sort(v.begin(), v.end());
  return v;
}

// Whether side s of transfer x and side t of transfer y share a byte: their bounding ranges
// first, then row by row (column tiles of one tensor interleave without overlapping).
bool gm_overlap(const Region& rs, const pld_dma_op& x, const pld_dma_side& s, const Region& rt,
                const pld_dma_op& y, const pld_dma_side& t) {
  if (!rs.overlaps(rt)) return false;
  const auto a = row_ranges(x, s);
  const auto b = row_ranges(y, t);
  size_t i = 0, k = 0;
  while (i < a.size() && k < b.size()) {
    if (a[i].second <= b[k].first) {
      ++i;
    } else if (b[k].second <= a[i].first) {
      ++k;
    } else {
      return true;
    }
  }
  return false;
}

// Global memory in flight: a transfer takes effect at any point before its completion point
// (docs/spec/device.md), in no set order with the block's other transfers in flight, so a transfer
// whose global memory overlaps one in flight, where either writes it, is a violation (a TLOAD of a
// TGET's landing area, a TPUT of a result whose TSTORE has not completed, a TGET over memory a
// TLOAD still reads). A transfer reads global memory at its source and writes it at its
// destination (gm_read / gm_write set).
void check_gm(const DeviceBlock& d, const Entry& x) {
  const char* const unordered = " (no pipe_barrier or wait_flag completes it first)";
  for (const Entry& p : d.pending) {
    if (!p.dma) continue;
    if (gm_overlap(x.gm_read, x.op, x.op.src, p.gm_write, p.op, p.op.dst))
      violation(x.what, x.line, "it reads global memory that " + still(p) + " writes" + unordered);
    if (gm_overlap(x.gm_write, x.op, x.op.dst, p.gm_read, p.op, p.op.src))
      violation(x.what, x.line, "it overwrites global memory that " + still(p) + " reads" + unordered);
    if (gm_overlap(x.gm_write, x.op, x.op.dst, p.gm_write, p.op, p.op.dst))
      violation(x.what, x.line, "it writes global memory that " + still(p) + " writes" + unordered);
  }
}

// Data cross ranks only through TPUT / TGET (docs/spec/device.md): a TLOAD or TSTORE touches this
// rank's memory only.
void check_own(const Entry& x, const Region& gm, const char* verb) {
  const int r = peer_window_rank(gm.lo, gm.hi);
  if (r >= 0)
    violation(x.what, x.line,
              std::string("it ") + verb + " rank " + std::to_string(r) +
                  "'s window: data cross ranks only through TPUT / TGET (TGET it here first)");
}

// PLD_DMA_EARLIEST=1: every transfer moves its data when issued (the earliest point the device
// allows), while its completion, and so every check, stays where the kernel puts it. Not the
// tests' mode (it cannot show a source changed before the completion point); the benchmarks'.
bool env_earliest() {
  static const bool earliest = [] {
    const char* e = std::getenv("PLD_DMA_EARLIEST");
    return e && *e && std::strcmp(e, "0") != 0;
  }();
  return earliest;
}

uint64_t env_seed() {
  static const uint64_t seed = [] {
    const char* e = std::getenv("PLD_DMA_SEED");
    return e && *e ? std::strtoull(e, nullptr, 10) : 0ull;
  }();
  return seed;
}

}  // namespace

namespace pld {
namespace host {
namespace internal {

void device_block_begin() {
  auto* d = new DeviceBlock();
  if (const uint64_t seed = env_seed()) {
    BlockInfo b{0, 0, ""};
    current_block(&b);
    d->seeded = true;
    d->rng.seed(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(b.rank) * 1000003u + static_cast<uint64_t>(b.block));
  }
  tl_dev = d;
}

void device_block_end() {
  DeviceBlock* d = tl_dev;
  tl_dev = nullptr;
  if (!d) return;
  // The kernel's return is a completion point for every pipe (a block that was ended early
  // drops what it had in flight: the run has failed).
  if (!run_aborted()) {
    for (const Entry& x : d->pending) complete(*d, x);
  }
  delete d;
}

}  // namespace internal
}  // namespace host
}  // namespace pld

extern "C" {

void pld_rt_dma_issue(const pld_dma_op* op) {
  DeviceBlock& d = dev(op->what, op->line);
  maybe_advance(d);
  Entry x{};
  x.seq = d.seq++;
  x.dma = true;
  x.op = *op;
  x.what = op->what;
  x.line = op->line;
  if (op->dst.is_tile) {  // TLOAD
    x.pipes = kOnMte2;
    x.gm_read = gm_region(op->src, op->cols, op->elem);
    check_own(x, x.gm_read, "reads");
    x.ub_write = tile_region(op->dst, op->rows, op->elem);
    if (const Entry* c = conflict(d, x.pipes, x.ub_write, true))
      violation(op->what, op->line, "it overwrites a tile that " + still(*c) + " uses (no set_flag/wait_flag orders them)");
  } else if (op->src.is_tile) {  // TSTORE
    x.pipes = kOnMte3;
    x.gm_write = gm_region(op->dst, op->cols, op->elem);
    check_own(x, x.gm_write, "writes");
    x.ub_read = tile_region(op->src, op->rows, op->elem);
    if (const Entry* c = conflict(d, x.pipes, x.ub_read, false))
      violation(op->what, op->line, "it reads a tile that " + still(*c) + " writes (no set_flag/wait_flag orders them)");
  } else {  // TPUT, TGET: GM to GM through a staging tile, both MTE stages
    x.pipes = kOnMte2 | kOnMte3;
    x.gm_read = gm_region(op->src, op->cols, op->elem);
    x.gm_write = gm_region(op->dst, op->cols, op->elem);
  }
  check_gm(d, x);
  if (env_earliest() && !d.seeded) {
    move(x.op);
    x.moved = true;
  }
  d.pending.push_back(x);
}

void pld_rt_vector_access(const char* what, int line, const void* const* reads, const uint64_t* read_bytes,
                          int nreads, const void* write, uint64_t write_bytes) {
  DeviceBlock& d = dev(what, line);
  maybe_advance(d);
  Entry x{};
  x.seq = d.seq++;
  x.pipes = kOnV;
  x.what = what;
  x.line = line;
  Region rs[2];
  for (int i = 0; i < nreads && i < 2; ++i) {
    rs[i].lo = static_cast<const char*>(reads[i]);
    rs[i].hi = rs[i].lo + read_bytes[i];
    if (const Entry* c = conflict(d, x.pipes, rs[i], false))
      violation(what, line, "it reads a tile that " + still(*c) + " writes (no set_flag/wait_flag orders them)");
  }
  x.ub_read = rs[0];
  x.ub_read2 = rs[1];
  x.ub_write.lo = static_cast<const char*>(write);
  x.ub_write.hi = x.ub_write.lo + write_bytes;
  if (const Entry* c = conflict(d, x.pipes, x.ub_write, true))
    violation(what, line, "it writes a tile that " + still(*c) + " uses (no set_flag/wait_flag orders them)");
  d.pending.push_back(x);
}

void pld_rt_pipe_barrier(int pipe, int line) {
  DeviceBlock& d = dev("pipe_barrier", line);
  maybe_advance(d);
  complete_until(d, pipe_mask(pipe), UINT64_MAX);
}

void pld_rt_set_flag(int src, int dst, int event) {
  DeviceBlock& d = dev("set_flag", 0);
  maybe_advance(d);
  if (src >= 0 && src < 8 && dst >= 0 && dst < 8 && event >= 0 && event < 8) d.flag_seq[src][dst][event] = d.seq;
}

void pld_rt_wait_flag(int src, int dst, int event, int line) {
  DeviceBlock& d = dev("wait_flag", line);
  maybe_advance(d);
  if (src < 0 || src >= 8 || dst < 0 || dst >= 8 || event < 0 || event >= 8 || d.flag_seq[src][dst][event] == 0)
    violation("wait_flag", line,
              std::string("no set_flag(") + pipe_name(src) + ", " + pipe_name(dst) + ", EVENT_ID" +
                  std::to_string(event) + ") precedes it: the device would wait forever");
  complete_until(d, pipe_mask(src), d.flag_seq[src][dst][event]);
  d.flag_seq[src][dst][event] = 0;
}

void pld_rt_dsb(int line) {
  DeviceBlock& d = dev("dsb", line);
  maybe_advance(d);
  d.unordered = 0;
}

void* pld_rt_ub_base(void) { return dev("TASSIGN", 0).ub.get(); }
uint64_t pld_rt_ub_bytes(void) { return kUbBytes; }

void pld_rt_device_error(const char* what, int line, const char* message) {
  (void)dev(what, line);
  violation(what, line, message);
}

void pld_rt_notify(int32_t* cell, int32_t value, int set, int line) {
  DeviceBlock& d = dev("TNOTIFY", line);
  maybe_advance(d);
  for (const Entry& x : d.pending) {
    if (x.dma)
      violation("TNOTIFY", line,
                in_flight(x) + " (no pipe_barrier(PIPE_ALL) or wait_flag completes it before the notify)");
  }
  if (d.unordered > 0)
    violation("TNOTIFY", line,
              std::string(d.unordered_what) + " (line " + std::to_string(d.unordered_line) +
                  ") wrote global memory that no dsb(DSB_DDR) ordered before the notify");
  if (set) pld_rt_signal_set(cell, value);
  else pld_rt_signal_add(cell, value);
}

void pld_rt_wait(int32_t* cell, int32_t value, int cmp, int line) {
  DeviceBlock& d = dev("TWAIT", line);
  maybe_advance(d);
  if (!wait_signal(cell, value, cmp, line)) throw BlockEnded{};
}

}  // extern "C"

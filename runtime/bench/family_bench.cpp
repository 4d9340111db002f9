// Benchmark (not a test): the collective family's rendered kernels on the host runtime, as NCCL-style
// bus bandwidth over this machine's single-thread memcpy bandwidth, plus latency in microseconds.
// Built and run by benches/sim_family.sh (which renders the kernels); see docs/sim-performance.md.
//
// Usage: family_bench [--ranks 4,8] [--sizes-kib 1,4,...,65536] [--lanes P|2P|N]
//                     [--ops allreduce,ring,reduce_scatter,allgather,all_to_all,reduce,gather,scatter,permute]
//                     [--iters N] [--small-iters N] [--warmup N]
//                     [--barrier-ranks 2,3,...,16] [--barrier-iters N] [--no-barrier] [-v]
// The last column, P x busbw / memcpy, is all ranks' bus traffic over one single-thread memcpy
// (the ranks share this machine's cores). Markdown tables go to stdout, one line per timed call
// (-v) to stderr. Exit 1 if a run fails or a result is wrong (checked after the last timed call of
// every configuration).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/task.h"

extern "C" {
void pld_b_allreduce(int64_t* args);
void pld_b_ring(int64_t* args);
void pld_b_reduce_scatter(int64_t* args);
void pld_b_allgather(int64_t* args);
void pld_b_all_to_all(int64_t* args);
void pld_b_barrier(int64_t* args);
void pld_b_reduce(int64_t* args);
void pld_b_gather(int64_t* args);
void pld_b_scatter(int64_t* args);
#define PLD_B_PERMUTE(P) void pld_b_permute_p##P(int64_t* args);
PLD_B_PERMUTE(2) PLD_B_PERMUTE(3) PLD_B_PERMUTE(4) PLD_B_PERMUTE(5) PLD_B_PERMUTE(6) PLD_B_PERMUTE(7)
PLD_B_PERMUTE(8) PLD_B_PERMUTE(9) PLD_B_PERMUTE(10) PLD_B_PERMUTE(11) PLD_B_PERMUTE(12)
PLD_B_PERMUTE(13) PLD_B_PERMUTE(14) PLD_B_PERMUTE(15) PLD_B_PERMUTE(16)
#undef PLD_B_PERMUTE
int32_t pld_rt_block_idx(void);
}

namespace {

using pld::Tensor;
using pld::host::World;
using Clock = std::chrono::steady_clock;

enum class Op { allreduce, ring, reduce_scatter, allgather, all_to_all, barrier, reduce, gather, scatter, permute };
constexpr Op kDataOps[] = {Op::allreduce, Op::ring,   Op::reduce_scatter, Op::allgather, Op::all_to_all,
                           Op::reduce,    Op::gather, Op::scatter,        Op::permute};
const char* op_name(Op o) {
  switch (o) {
    case Op::allreduce: return "allreduce";
    case Op::ring: return "ring";
    case Op::reduce_scatter: return "reduce_scatter";
    case Op::allgather: return "allgather";
    case Op::all_to_all: return "all_to_all";
    case Op::barrier: return "barrier";
    case Op::reduce: return "reduce";
    case Op::gather: return "gather";
    case Op::scatter: return "scatter";
    case Op::permute: return "permute";
  }
  return "?";
}
// NCCL's bus-bandwidth factor (bytes = the full target per rank; scatter: the root's input).
// reduce and a permute (send/recv) move `bytes` once: factor 1, as in nccl-tests.
double bus_factor(Op o, int P) {
  switch (o) {
    case Op::allreduce:
    case Op::ring: return 2.0 * (P - 1) / P;
    case Op::reduce:
    case Op::permute: return 1.0;
    default: return static_cast<double>(P - 1) / P;
  }
}
// The 2-core ceiling of busbw / memcpy (docs/sim-performance.md's argument: all ranks share this
// machine's 2 cores, whose combined memcpy speed-up c is measured beside each call, memcpy2_s):
// a call moves `traffic` x bytes in memcpys over every rank together, so it takes at least
// traffic x bytes / (c x memcpy), and busbw / memcpy <= factor x c / traffic. The vocabulary ops:
//   reduce: the root reads P targets and writes its own, traffic P + 1;
//   gather, scatter: the P chunks of `bytes`, traffic 1;  permute (ring shift): P pushes, traffic P.
// 0 for the other ops (their bound is in the docs).
double ceiling(Op o, int P, double c) {
  switch (o) {
    case Op::reduce: return bus_factor(o, P) * c / (P + 1);
    case Op::gather:
    case Op::scatter: return bus_factor(o, P) * c;
    case Op::permute: return bus_factor(o, P) * c / P;
    default: return 0;
  }
}

// ---- Timing: the wrapped entry records every block's start and end (ns since g_t0).
constexpr int kMaxP = 16, kMaxL = 64;
const Clock::time_point g_t0 = Clock::now();
int64_t g_start[kMaxP][kMaxL], g_end[kMaxP][kMaxL];
void (*g_fn)(int64_t*) = nullptr;
int g_comm_slot = 0;
int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - g_t0).count();
}
void wrapped(int64_t* args) {
  const auto* ctx = reinterpret_cast<const pld::CommContext*>(static_cast<uintptr_t>(args[g_comm_slot]));
  const int r = static_cast<int>(ctx->rankId), b = pld_rt_block_idx();
  g_start[r][b] = now_ns();
  g_fn(args);
  g_end[r][b] = now_ns();
}
// A call runs from the moment lane b can start moving data for the first lane (its barrier A needs
// block b of every rank: min over lanes of max over ranks of the start) to the last block's end.
// Excludes the thread start-up of the launch; never starts the clock after data has moved.
int64_t call_ns(int P, int L) {
  int64_t first = INT64_MAX, last = 0;
  for (int b = 0; b < L; ++b) {
    int64_t s = 0;
    for (int r = 0; r < P; ++r) {
      s = std::max(s, g_start[r][b]);
      last = std::max(last, g_end[r][b]);
    }
    first = std::min(first, s);
  }
  return last - first;
}

// ---- Payload: small integers, so every fold order gives the same f32 result exactly.
inline int pv(int r, int64_t i, int k) { return static_cast<int>((r * 5 + (i % 17) * 3 + k * 7) % 17) - 8; }

// Best of three single-thread memcpys of `bytes` (warm buffers), each repeated until it covers
// at least 1 MiB; returns seconds per memcpy of `bytes`.
double memcpy_s(std::vector<char>& a, std::vector<char>& b, size_t bytes) {
  const int reps = static_cast<int>(std::max<size_t>(1, (size_t{1} << 20) / bytes));
  double best = 1e30;
  for (int t = 0; t < 3; ++t) {
    const auto t0 = Clock::now();
    for (int k = 0; k < reps; ++k) {
      std::memcpy(b.data(), a.data(), bytes);
      asm volatile("" : : "r"(b.data()) : "memory");
    }
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count() / reps);
  }
  return best;
}

// The same copy split over two threads (two halves, best of three): seconds per memcpy of `bytes`
// when both cores copy. memcpy_s / memcpy2_s is this machine's 2-core memcpy speed-up c (<= 2).
double memcpy2_s(std::vector<char>& a, std::vector<char>& b, size_t bytes) {
  const size_t half = bytes / 2;
  const int reps = static_cast<int>(std::max<size_t>(1, (size_t{1} << 20) / bytes));
  double best = 1e30;
  for (int t = 0; t < 3; ++t) {
    const auto t0 = Clock::now();
    std::thread other([&] {
      for (int k = 0; k < reps; ++k) std::memcpy(b.data() + half, a.data() + half, bytes - half);
    });
    for (int k = 0; k < reps; ++k) {
      std::memcpy(b.data(), a.data(), half);
      asm volatile("" : : "r"(b.data()) : "memory");
    }
    other.join();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count() / reps);
  }
  return best;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Opts {
  std::vector<int> ranks{4, 8};
  std::vector<int64_t> sizes_kib{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536};
  std::string lanes = "P";
  std::vector<Op> ops{Op::allreduce, Op::ring, Op::reduce_scatter, Op::allgather, Op::all_to_all};
  int iters = 9, small_iters = 31, warmup = 2;
  std::vector<int> barrier_ranks{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  int barrier_iters = 101;
  bool barrier = true, verbose = false;
};

int lanes_for(const Opts& o, int P) {
  if (o.lanes == "P") return P;
  if (o.lanes == "2P") return 2 * P;
  return std::atoi(o.lanes.c_str());
}

struct Result {
  double memcpy_gbs, us, algbw, busbw, ratio;  // medians
  double cores;  // the 2-core memcpy speed-up c (median)
};
}  // namespace
// The vocabulary kernels are rendered with root 0 and the ring shift's pairs (sim_family.sh).
namespace {

constexpr int64_t kRowElems = 32;  // f32 row of 128 B; the kernels work on flat elements

// Runs one configuration; returns false if the run failed or the last call's result is wrong.
bool run_config(const Opts& o, Op op, int P, int64_t bytes, std::vector<char>& ma, std::vector<char>& mb,
                Result* res) {
  const bool ring = op == Op::ring, barrier = op == Op::barrier;
  const int L = ring || barrier ? 1 : lanes_for(o, P);
  const int64_t n = bytes / 4;                       // target elements per rank
  const int64_t rows = n / kRowElems;                // target rows
  const int64_t chunk = n / P;                       // one rank's share
  const bool has_input = op == Op::allgather || op == Op::all_to_all || op == Op::gather ||
                         op == Op::scatter || op == Op::permute;
  // Elements of the input and of the target per rank (scatter: `bytes` is the root's input).
  const int64_t in_n = op == Op::allgather || op == Op::gather ? chunk
                       : op == Op::all_to_all || op == Op::scatter || op == Op::permute ? n
                                                                                         : 0;
  const int64_t tgt_n = op == Op::scatter ? chunk : n;
  constexpr int kRoot = 0;
  const int sig_rows = ring ? 2 * (P - 1) + 1 : P, sig_cols = ring ? P : L;
  if (!barrier && (rows % P != 0 || rows <= 0)) {
    std::fprintf(stderr, "family_bench: %lld bytes do not split into %d ranks of 128-byte rows\n",
                 static_cast<long long>(bytes), P);
    return false;
  }
  World w(P, (barrier ? 0 : bytes) + 4096 + sig_rows * sig_cols * 4);
  const uint64_t off_t = barrier ? 0 : w.alloc(tgt_n * 4);
  const uint64_t off_s = w.alloc(sig_rows * sig_cols * 4);
  std::vector<std::vector<float>> input(has_input ? P : 0, std::vector<float>(in_n));
  const char* key = op_name(op);
  void (*fn)(int64_t*) = nullptr;
  switch (op) {
    case Op::allreduce: fn = pld_b_allreduce; g_comm_slot = 2; break;
    case Op::ring: fn = pld_b_ring; g_comm_slot = 2; break;
    case Op::reduce_scatter: fn = pld_b_reduce_scatter; g_comm_slot = 2; break;
    case Op::allgather: fn = pld_b_allgather; g_comm_slot = 3; break;
    case Op::all_to_all: fn = pld_b_all_to_all; g_comm_slot = 3; break;
    case Op::barrier: fn = pld_b_barrier; g_comm_slot = 1; break;
    case Op::reduce: fn = pld_b_reduce; g_comm_slot = 2; break;
    case Op::gather: fn = pld_b_gather; g_comm_slot = 3; break;
    case Op::scatter: fn = pld_b_scatter; g_comm_slot = 3; break;
    case Op::permute: {
      // The ring shift's kernel names the ranks: one per P (benches/sim_family.sh).
      static void (*const shift[])(int64_t*) = {
          nullptr,          nullptr,           pld_b_permute_p2,  pld_b_permute_p3,  pld_b_permute_p4,
          pld_b_permute_p5, pld_b_permute_p6,  pld_b_permute_p7,  pld_b_permute_p8,  pld_b_permute_p9,
          pld_b_permute_p10, pld_b_permute_p11, pld_b_permute_p12, pld_b_permute_p13, pld_b_permute_p14,
          pld_b_permute_p15, pld_b_permute_p16};
      fn = shift[P];
      g_comm_slot = 3;
      break;
    }
  }
  g_fn = fn;
  w.register_kernel(key, &wrapped);

  const int iters = barrier ? o.barrier_iters : bytes <= (int64_t{256} << 10) ? o.small_iters : o.iters;
  std::vector<double> us, ratio, mgbs, cores;
  int k_last = 0;
  for (int it = 0; it < o.warmup + iters; ++it) {
    const int k = it;
    const double mc = barrier ? 0 : memcpy_s(ma, mb, static_cast<size_t>(bytes));
    const double mc2 = barrier ? 0 : memcpy2_s(ma, mb, static_cast<size_t>(bytes));
    auto status = w.run([&](int r, pld::rt::Orchestration& orch) {
      float* tgt = barrier ? nullptr : static_cast<float*>(w.window(r, off_t));
      // Stage call k's operand (untimed): the target for the reducing ops, the input otherwise.
      if (has_input) {
        for (int64_t i = 0; i < in_n; ++i) input[r][i] = static_cast<float>(pv(r, i, k));
      } else if (tgt) {
        for (int64_t i = 0; i < tgt_n; ++i) tgt[i] = static_cast<float>(pv(r, i, k));
      }
      pld::rt::Task t(1, key);
      Tensor sig = ring || sig_cols > 1
                       ? Tensor::contiguous(w.window(r, off_s), 4, {sig_rows, sig_cols})
                       : Tensor::contiguous(w.window(r, off_s), 4, {sig_rows});
      if (has_input)
        t.add_tensor(Tensor::contiguous(input[r].data(), 4, {in_n / kRowElems, kRowElems}), pld::rt::Dir::In);
      if (tgt) t.add_tensor(Tensor::contiguous(tgt, 4, {tgt_n / kRowElems, kRowElems}), pld::rt::Dir::InOut);
      t.add_tensor(sig, pld::rt::Dir::InOut).add_comm_context(w.comm(r));
      if (L > 1) {
        t.launch_spec().set_block_num(L);
        t.launch_spec().set_require_sync_start(true);
      }
      return orch.submit(t);
    });
    for (int r = 0; r < P; ++r)
      if (status[r] != 0) {
        std::fprintf(stderr, "family_bench: %s P=%d %lld B: rank %d status %d (%s)\n", key, P,
                     static_cast<long long>(bytes), r, status[r], w.error_message().c_str());
        return false;
      }
    const double t = call_ns(P, L) * 1e-9;
    if (o.verbose)
      std::fprintf(stderr, "%s P=%d L=%d %lld B it %d: memcpy %.3f us, call %.3f us%s\n", key, P, L,
                   static_cast<long long>(bytes), it, mc * 1e6, t * 1e6, it < o.warmup ? " (warm-up)" : "");
    if (it < o.warmup) continue;
    us.push_back(t * 1e6);
    if (!barrier) {
      mgbs.push_back(bytes / mc * 1e-9);
      cores.push_back(mc / mc2);
      ratio.push_back(bus_factor(op, P) * bytes / t / (bytes / mc));
    }
    k_last = k;
  }

  // Every cell of every signal back to 0; the last call's result is right on every rank.
  for (int r = 0; r < P; ++r)
    for (int x = 0; x < sig_rows * sig_cols; ++x)
      if (static_cast<int32_t*>(w.window(r, off_s))[x] != 0) {
        std::fprintf(stderr, "family_bench: %s P=%d: rank %d signal cell %d not 0\n", key, P, r, x);
        return false;
      }
  if (!barrier) {
    const int k = k_last;
    int sum17[17];
    for (int m = 0; m < 17; ++m) {
      sum17[m] = 0;
      for (int q = 0; q < P; ++q) sum17[m] += pv(q, m, k);
    }
    for (int r = 0; r < P; ++r) {
      const float* tgt = static_cast<const float*>(w.window(r, off_t));
      for (int64_t i = 0; i < tgt_n; ++i) {
        int want = 0;
        switch (op) {
          case Op::reduce: want = r == kRoot ? sum17[i % 17] : pv(r, i, k); break;
          // Non-roots' targets are never written: zeros from the window's allocation.
          case Op::gather: want = r == kRoot ? pv(static_cast<int>(i / chunk), i % chunk, k) : 0; break;
          case Op::scatter: want = pv(kRoot, r * chunk + i, k); break;
          case Op::permute: want = pv((r + P - 1) % P, i, k); break;
          case Op::allreduce:
          case Op::ring: want = sum17[i % 17]; break;
          case Op::reduce_scatter: want = i / chunk == r ? sum17[i % 17] : pv(r, i, k); break;
          case Op::allgather: want = pv(static_cast<int>(i / chunk), i % chunk, k); break;
          case Op::all_to_all: want = pv(static_cast<int>(i / chunk), r * chunk + i % chunk, k); break;
          default: break;
        }
        if (tgt[i] != static_cast<float>(want)) {
          std::fprintf(stderr, "family_bench: %s P=%d %lld B: rank %d elem %lld = %g, want %d\n", key, P,
                       static_cast<long long>(bytes), r, static_cast<long long>(i), tgt[i], want);
          return false;
        }
      }
    }
  }
  res->us = median(us);
  if (!barrier) {
    res->memcpy_gbs = median(mgbs);
    res->algbw = bytes / (res->us * 1e-6) * 1e-9;
    res->busbw = res->algbw * bus_factor(op, P);
    res->ratio = median(ratio);
    res->cores = median(cores);
  }
  return true;
}

std::vector<int64_t> parse_list(const char* s) {
  std::vector<int64_t> v;
  for (const char* p = s; *p;) {
    v.push_back(std::strtoll(p, const_cast<char**>(&p), 10));
    if (*p == ',') ++p;
    else if (*p) break;
  }
  return v;
}

std::string size_str(int64_t bytes) {
  char buf[32];
  if (bytes >= (int64_t{1} << 20)) std::snprintf(buf, sizeof buf, "%lld MiB", static_cast<long long>(bytes >> 20));
  else std::snprintf(buf, sizeof buf, "%lld KiB", static_cast<long long>(bytes >> 10));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  Opts o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) { std::fprintf(stderr, "family_bench: %s needs a value\n", a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--ranks") { o.ranks.clear(); for (auto x : parse_list(next())) o.ranks.push_back(static_cast<int>(x)); }
    else if (a == "--sizes-kib") o.sizes_kib = parse_list(next());
    else if (a == "--lanes") o.lanes = next();
    else if (a == "--iters") o.iters = std::atoi(next());
    else if (a == "--small-iters") o.small_iters = std::atoi(next());
    else if (a == "--warmup") o.warmup = std::atoi(next());
    else if (a == "--barrier-iters") o.barrier_iters = std::atoi(next());
    else if (a == "--barrier-ranks") { o.barrier_ranks.clear(); for (auto x : parse_list(next())) o.barrier_ranks.push_back(static_cast<int>(x)); }
    else if (a == "--no-barrier") o.barrier = false;
    else if (a == "-v") o.verbose = true;
    else if (a == "--ops") {
      o.ops.clear();
      std::string s = next();
      size_t p = 0;
      while (p <= s.size()) {
        const size_t e = std::min(s.find(',', p), s.size());
        const std::string name = s.substr(p, e - p);
        bool found = false;
        for (Op x : kDataOps)
          if (name == op_name(x)) { o.ops.push_back(x); found = true; }
        if (!found) { std::fprintf(stderr, "family_bench: unknown op '%s'\n", name.c_str()); return 2; }
        p = e + 1;
      }
    } else {
      std::fprintf(stderr, "family_bench: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  for (int P : o.ranks)
    if (P < 2 || P > kMaxP || lanes_for(o, P) < 1 || lanes_for(o, P) > kMaxL) {
      std::fprintf(stderr, "family_bench: P = %d or its lane count is out of range\n", P);
      return 2;
    }
  const int64_t max_bytes = *std::max_element(o.sizes_kib.begin(), o.sizes_kib.end()) << 10;
  std::vector<char> ma(static_cast<size_t>(max_bytes), 1), mb(static_cast<size_t>(max_bytes), 2);
  bool ok = true;

  if (!o.ops.empty() && !o.sizes_kib.empty()) {
    std::printf("| op | P | L | bytes per rank | memcpy GB/s | time µs | algbw GB/s | busbw GB/s | busbw / memcpy | P × busbw / memcpy | c | of the 2-core ceiling |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::fflush(stdout);
    for (Op op : o.ops)
      for (int P : o.ranks)
        for (int64_t kib : o.sizes_kib) {
          Result r{};
          const int64_t bytes = kib << 10;
          if (!run_config(o, op, P, bytes, ma, mb, &r)) { ok = false; continue; }
          const double c = ceiling(op, P, r.cores);
          char of[32] = "—";
          if (c > 0) std::snprintf(of, sizeof of, "%.2f", r.ratio / c);
          std::printf("| %s | %d | %d | %s | %.2f | %.1f | %.3f | %.3f | %.3f | %.2f | %.2f | %s |\n", op_name(op),
                      P, op == Op::ring ? 1 : lanes_for(o, P), size_str(bytes).c_str(), r.memcpy_gbs, r.us,
                      r.algbw, r.busbw, r.ratio, P * r.ratio, r.cores, of);
          std::fflush(stdout);
        }
  }
  if (o.barrier) {
    std::printf("\n| barrier P | time µs (median) |\n|---|---|\n");
    for (int P : o.barrier_ranks) {
      Result r{};
      if (P < 1 || P > kMaxP || !run_config(o, Op::barrier, P, 0, ma, mb, &r)) { ok = false; continue; }
      std::printf("| %d | %.1f |\n", P, r.us);
      std::fflush(stdout);
    }
  }
  return ok ? 0 : 1;
}

// pld-sim's driver main for the collective family (docs/sim.md, "The collective family"): runs
// the generated CHIP orchestration `chip_family` on every rank, or the generated HOST
// orchestrator `host_family` through pld::host::run_host_entry, and prints what pld-sim turns into
// the result JSON (sim/src/family/run.rs). Linked with the tree's orchestrations and kernels, a
// generated table (pld_sim_kernels, pld_sim_family_chip / pld_sim_family_host) and
// runtime/host/runtime.cpp.
//
//   family_driver PARAMS OUT
//
// PARAMS (`key value...` lines): rail chip|host, op NAME, ranks P, dtype f32|f16|i8|i32,
// payload_rows N (rows of the staged operand; 0 for barrier), row_elems E, target_rows T,
// input_rows I (0: no input), signal_dims <the signal's shape>, repeat K, prod 0|1, collective SYMBOL
// (the builtin kernel), ctx_slot n (its CommContext is args[n]), delay_us <P ints> (barrier),
// prefill 0|1 (1: every rank's target starts as the payload rule with k = 501).
//
// The stage step's source is one host buffer [P][K][N*E] holding the family spec's payload of
// rank r, row i, element e, call k; `calls` is one [P] i32 counter buffer; both are shared by
// every rank (each rank's stage step reads its own chunk and bumps its own counter).
//
// CHIP: chip_family(src, calls, [input,] target, signal) (barrier: chip_family(signal)); tensors in
// that order, one CommContext per window parameter. The windows are allocated target, signal,
// input (the order of the HOST module's pld.window_buffer ops, so both rails share the offsets).
// HOST: host_family(src, calls) (barrier: host_family()); the orchestrator allocates the windows
// itself, in that order, from a fresh world: the driver recomputes the offsets and checks that the
// world's next allocation starts where its computation ends.
//
// Process mode (`ranks_as processes`, what pld-sim writes by default; `timeout_ms N` and
// `fault <rank> <kind> <at>` as for driver.cpp): the `calls` counters, the kernel counters and
// the spans live in World::shared_alloc memory; on the HOST rail every rank process runs the whole
// orchestrator and executes its own device's dispatches (pld::host::run_host_entry). After
// `status`, one `end <r> finished|failed|timeout <how>` line per rank.
//
// OUT lines: status <per rank>, error <message>, kernel <name> <blocks started>, calls <P ints>
// (each rank's counter: K after K stage steps), span <rank> <call> <enter_ns> <leave_ns> (barrier:
// the collective kernel's entry and return, after the rank's delay), then per rank `rank r`,
// `target <T*E words>` (f32/f16 as their bit patterns, i8/i32 as ints), `signal <C ints>`.
#include <sys/prctl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <new>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/host_entry.h"
#include "pld_runtime/kernel.h"

struct PldSimFamilyKernel {
  const char* name;
  void (*fn)(int64_t*);
};
using PldSimFamilyChipFn = const pld::rt::ChipEntry*;  // chip_entries.cpp
using PldSimFamilyHostFn = int (*)(pld::host::Host* host, const pld::host::HostArgs* args);
extern const PldSimFamilyKernel pld_sim_family_kernels[];
extern const int pld_sim_family_kernel_count;
extern const PldSimFamilyChipFn pld_sim_family_chip;
extern const PldSimFamilyHostFn pld_sim_family_host;

namespace {

constexpr int kMaxKernels = 16;

struct Params {
  std::string rail = "chip", op, dtype, collective;
  int ranks = 0, repeat = 1, ctx_slot = 0;
  int64_t payload_rows = 0, row_elems = 0, target_rows = 0, input_rows = 0, signal_cells = 0;
  bool prod = false;
  int prefill = 0;  // 1: every rank's target starts as the payload rule with k = 501
  std::vector<int64_t> delay_us;
  std::vector<int64_t> signal_dims;
  bool processes = false;
  int timeout_ms = 0;
  int fault_rank = -1;
  std::string fault_kind, fault_at;
};

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "pld-sim family driver: %s\n", msg.c_str());
  std::exit(2);
}

Params read_params(const char* path) {
  std::ifstream in(path);
  if (!in) die(std::string("cannot read ") + path);
  Params p;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key)) continue;
    if (key == "rail") ls >> p.rail;
    else if (key == "op") ls >> p.op;
    else if (key == "ranks") ls >> p.ranks;
    else if (key == "dtype") ls >> p.dtype;
    else if (key == "payload_rows") ls >> p.payload_rows;
    else if (key == "row_elems") ls >> p.row_elems;
    else if (key == "target_rows") ls >> p.target_rows;
    else if (key == "input_rows") ls >> p.input_rows;
    else if (key == "signal_dims") {
      int64_t v;
      while (ls >> v) p.signal_dims.push_back(v);
    }
    else if (key == "repeat") ls >> p.repeat;
    else if (key == "ctx_slot") ls >> p.ctx_slot;
    else if (key == "collective") ls >> p.collective;
    else if (key == "prefill") ls >> p.prefill;
    else if (key == "prod") {
      int v = 0;
      ls >> v;
      p.prod = v != 0;
    } else if (key == "delay_us") {
      int64_t v;
      while (ls >> v) p.delay_us.push_back(v);
    } else if (key == "ranks_as") {
      std::string m;
      ls >> m;
      p.processes = m == "processes";
    } else if (key == "timeout_ms") ls >> p.timeout_ms;
    else if (key == "fault") ls >> p.fault_rank >> p.fault_kind >> p.fault_at;
    else die("unknown parameter " + key);
    if (ls.fail() && !ls.eof()) die("bad value for " + key);
  }
  if (p.ranks < 1 || p.ranks > 16) die("ranks outside 1..16");
  if (p.dtype != "f32" && p.dtype != "f16" && p.dtype != "i8" && p.dtype != "i32") die("bad dtype");
  p.signal_cells = 1;
  for (int64_t d : p.signal_dims) p.signal_cells *= d;
  if (p.repeat < 1 || p.signal_dims.empty() || p.signal_cells < 1) die("bad shape parameters");
  if (p.rail != "chip" && p.rail != "host") die("bad rail");
  if (!p.delay_us.empty() && p.delay_us.size() != static_cast<size_t>(p.ranks)) die("delay_us is not P ints");
  return p;
}

int32_t elem_size(const std::string& dtype) {
  if (dtype == "f32" || dtype == "i32") return 4;
  if (dtype == "f16") return 2;
  return 1;
}

// f32 -> IEEE binary16, round to nearest even (the payload values are exact in f16; the
// rounding is there for completeness).
uint16_t to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (man ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000u;
    const int shift = 14 - exp;
    uint32_t h = man >> shift;
    const uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (man >> 13);
  const uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return static_cast<uint16_t>(sign | h);
}

// The family spec's payload of rank r, row i, element e, call k, stored at `dst`.
void payload(const Params& p, int64_t r, int64_t i, int64_t e, int64_t k, char* dst) {
  if (p.dtype == "f32" || p.dtype == "f16") {
    float v;
    if (p.prod) v = 1.0f + static_cast<float>((r + i + e + k) % 5 - 2) / 16.0f;
    else v = static_cast<float>((r * 131 + i * 17 + e * 7 + k * 29) % 1000 - 500) / 8.0f;
    if (p.dtype == "f32") std::memcpy(dst, &v, 4);
    else {
      const uint16_t h = to_half(v);
      std::memcpy(dst, &h, 2);
    }
  } else if (p.dtype == "i32") {
    const uint64_t u = static_cast<uint64_t>(r * 7919 + i * 104729 + e * 13 + k * 31) & 0xffffffffull;
    const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(u));
    std::memcpy(dst, &v, 4);
  } else {
    const int8_t v = static_cast<int8_t>((r * 37 + i * 11 + e * 5 + k) % 251 - 125);
    std::memcpy(dst, &v, 1);
  }
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::atomic<long>* g_blocks = nullptr;  // World::shared_alloc memory
int g_collective = -1;
int g_ctx_slot = 0;
bool g_barrier = false;
std::vector<int64_t> g_delay_us;
struct Span {
  int rank;
  int64_t enter, leave;
};
constexpr int kMaxSpans = 1 << 16;
Span* g_spans = nullptr;  // World::shared_alloc memory, g_span_count entries
std::atomic<int>* g_span_count = nullptr;

template <int I>
void tramp(int64_t* args) {
  g_blocks[I].fetch_add(1);
  if (I == g_collective && g_barrier) {
    const int rank = static_cast<int>(reinterpret_cast<const pld::CommContext*>(args[g_ctx_slot])->rankId);
    if (!g_delay_us.empty() && g_delay_us[rank] > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(g_delay_us[rank]));
    const int64_t enter = now_ns();
    pld_sim_family_kernels[I].fn(args);
    const int64_t leave = now_ns();
    const int n = g_span_count->fetch_add(1);
    if (n < kMaxSpans) g_spans[n] = Span{rank, enter, leave};
  } else {
    pld_sim_family_kernels[I].fn(args);
  }
}

template <int... I>
constexpr std::array<pld::host::KernelFn, sizeof...(I)> make_tramps(std::integer_sequence<int, I...>) {
  return {&tramp<I>...};
}
const auto kTramps = make_tramps(std::make_integer_sequence<int, kMaxKernels>{});

uint64_t align64(uint64_t x) { return (x + 63) / 64 * 64; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) die("usage: family_driver PARAMS OUT");
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // ends with pld-sim, as its rank processes end with it
  const Params p = read_params(argv[1]);
  const int P = p.ranks;
  const int32_t elem = elem_size(p.dtype);
  const bool barrier = p.op == "barrier";
  const bool host_rail = p.rail == "host";
  if (pld_sim_family_kernel_count > kMaxKernels) die("too many kernels in the tree");
  if (host_rail ? !pld_sim_family_host : !pld_sim_family_chip) die("the tree has no entry for rail " + p.rail);
  for (int i = 0; i < pld_sim_family_kernel_count; ++i)
    if (p.collective == pld_sim_family_kernels[i].name) g_collective = i;
  g_ctx_slot = p.ctx_slot;
  g_barrier = barrier;
  g_delay_us = p.delay_us;

  // Windows: target, signal, input (bytes of their packed shapes), 64-byte aligned from 0.
  const uint64_t target_bytes = static_cast<uint64_t>(p.target_rows * p.row_elems * elem);
  const uint64_t signal_bytes = static_cast<uint64_t>(p.signal_cells) * 4;
  const uint64_t input_bytes = static_cast<uint64_t>(p.input_rows * p.row_elems * elem);
  uint64_t off_target = 0, off_signal = 0, off_input = 0, end = 0;
  if (!barrier) {
    off_target = 0;
    end = target_bytes;
  }
  off_signal = align64(end);
  end = off_signal + signal_bytes;
  if (p.input_rows > 0) {
    off_input = align64(end);
    end = off_input + input_bytes;
  }
  pld::host::Config cfg;
  cfg.rank_processes = p.processes;
  cfg.run_timeout_ms = p.timeout_ms;
  if (p.fault_rank >= 0) {
    using C = pld::host::Config;
    cfg.fault_rank = p.fault_rank;
    cfg.fault_kind = p.fault_kind == "hang" ? C::FaultKind::kHang
                     : p.fault_kind == "exit" ? C::FaultKind::kExit
                                              : C::FaultKind::kCrash;
    cfg.fault_at = p.fault_at == "inside" ? C::FaultAt::kInside
                   : p.fault_at == "after" ? C::FaultAt::kAfter
                                           : C::FaultAt::kBefore;
  }
  pld::host::World w(P, align64(end) + 4096, cfg);
  g_blocks = new (w.shared_alloc(sizeof(std::atomic<long>) * kMaxKernels)) std::atomic<long>[kMaxKernels]();
  g_span_count = new (w.shared_alloc(sizeof(std::atomic<int>))) std::atomic<int>(0);
  g_spans = static_cast<Span*>(w.shared_alloc(sizeof(Span) * kMaxSpans));
  for (int i = 0; i < pld_sim_family_kernel_count; ++i)
    w.register_kernel(pld_sim_family_kernels[i].name, kTramps[i]);

  // The stage step's source and counters, shared by every rank.
  const int64_t chunk = p.payload_rows * p.row_elems;
  std::vector<char> src(static_cast<size_t>(P) * p.repeat * (chunk > 0 ? chunk : 1) * elem, 0);
  for (int64_t r = 0; r < P; ++r)
    for (int64_t k = 0; k < p.repeat; ++k)
      for (int64_t i = 0; i < p.payload_rows; ++i)
        for (int64_t e = 0; e < p.row_elems; ++e)
          payload(p, r, i, e, k, src.data() + (((r * p.repeat + k) * chunk) + i * p.row_elems + e) * elem);
  // The stage steps' counters: shared with the rank processes (driver bookkeeping, not a window).
  int32_t* calls = static_cast<int32_t*>(w.shared_alloc(sizeof(int32_t) * P));
  pld::Tensor t_src = pld::Tensor::contiguous(src.data(), elem, {P * p.repeat * p.payload_rows, p.row_elems});
  pld::Tensor t_calls = pld::Tensor::contiguous(calls, 4, {P});

  // `prefill`: every rank's target window starts as the payload rule with k = 501 (the windows
  // are zero when the World is made and an allocation does not clear them, so both rails'
  // targets start so).
  if (p.prefill && !barrier)
    for (int64_t r = 0; r < P; ++r)
      for (int64_t i = 0; i < p.target_rows; ++i)
        for (int64_t e = 0; e < p.row_elems; ++e)
          payload(p, r, i, e, 501,
                  static_cast<char*>(w.window(static_cast<int>(r), off_target)) + (i * p.row_elems + e) * elem);

  std::vector<int> status;
  std::string message;
  if (!host_rail) {
    const uint64_t o1 = barrier ? 0 : w.alloc(target_bytes);
    const uint64_t o2 = w.alloc(signal_bytes);
    const uint64_t o3 = p.input_rows > 0 ? w.alloc(input_bytes) : 0;
    if (o1 != off_target || o2 != off_signal || o3 != off_input) die("unexpected window offsets");
    struct RankArgs {
      std::vector<pld::Tensor> desc;
      std::vector<pld::Tensor*> ptr;
      std::vector<pld::CommContext*> comm;
      pld::rt::OrchArgs args;
    };
    std::vector<RankArgs> ranks(P);
    for (int r = 0; r < P; ++r) {
      RankArgs& R = ranks[r];
      int windows = 0;
      if (!barrier) {
        R.desc.push_back(t_src);
        R.desc.push_back(t_calls);
        if (p.input_rows > 0) {
          R.desc.push_back(pld::Tensor::contiguous(w.window(r, off_input), elem, {p.input_rows, p.row_elems}));
          ++windows;
        }
        R.desc.push_back(pld::Tensor::contiguous(w.window(r, off_target), elem, {p.target_rows, p.row_elems}));
        ++windows;
      }
      R.desc.push_back(
          pld::Tensor::contiguous(w.window(r, off_signal), 4, p.signal_dims.data(), p.signal_dims.size()));
      ++windows;
      for (auto& d : R.desc) R.ptr.push_back(&d);
      for (int i = 0; i < windows; ++i) R.comm.push_back(w.comm(r));
      R.args.tensors = R.ptr.data();
      R.args.num_tensors = static_cast<int>(R.ptr.size());
      R.args.comms = R.comm.data();
      R.args.num_comms = windows;
    }
    status = w.run([&](int rank, pld::rt::Orchestration& orch) {
      return orch.run_chip(*pld_sim_family_chip, ranks[rank].args);
    });
    message = w.error_message();
  } else {
    pld::rt::Tensor* tensors[2] = {&t_src, &t_calls};
    pld::host::HostArgs args;
    args.tensors = tensors;
    args.num_tensors = barrier ? 0 : 2;
    pld::host::run_host_entry(w, pld_sim_family_host, args, &status, &message);
    // The orchestrator allocated the windows in a fresh world: the next allocation starts right
    // after the last of them.
    if (!p.processes && w.alloc(0, 1) != end) die("the HOST orchestrator's windows are not where the driver expects them");
  }

  FILE* out = std::fopen(argv[2], "w");
  if (!out) die(std::string("cannot write ") + argv[2]);
  std::fprintf(out, "status");
  for (int s : status) std::fprintf(out, " %d", s);
  std::fprintf(out, "\nerror %s\n", one_line(message).c_str());
  {
    const auto ends = w.rank_ends();
    for (size_t r = 0; r < ends.size(); ++r)
      std::fprintf(out, "end %zu %s %s\n", r,
                   ends[r].kind == pld::host::RankEnd::kFinished ? "finished"
                   : ends[r].kind == pld::host::RankEnd::kFailed ? "failed"
                                                                   : "timeout",
                   ends[r].how.c_str());
  }
  for (int i = 0; i < pld_sim_family_kernel_count; ++i)
    std::fprintf(out, "kernel %s %ld\n", pld_sim_family_kernels[i].name, g_blocks[i].load());
  std::fprintf(out, "calls");
  for (int r = 0; r < P; ++r) std::fprintf(out, " %d", calls[r]);
  std::fprintf(out, "\n");
  {
    std::vector<int> seen(P, 0);
    const int nspans = std::min(g_span_count->load(), kMaxSpans);
    for (int si = 0; si < nspans; ++si) {
      const Span& s = g_spans[si];
      std::fprintf(out, "span %d %d %lld %lld\n", s.rank, seen[s.rank]++, static_cast<long long>(s.enter),
                   static_cast<long long>(s.leave));
    }
  }
  for (int r = 0; r < P; ++r) {
    std::fprintf(out, "rank %d\ntarget", r);
    const char* tgt = static_cast<const char*>(w.window(r, off_target));
    const int64_t n = barrier ? 0 : p.target_rows * p.row_elems;
    for (int64_t i = 0; i < n; ++i) {
      if (p.dtype == "f32") {
        uint32_t v;
        std::memcpy(&v, tgt + i * 4, 4);
        std::fprintf(out, " %u", v);
      } else if (p.dtype == "f16") {
        uint16_t v;
        std::memcpy(&v, tgt + i * 2, 2);
        std::fprintf(out, " %u", static_cast<unsigned>(v));
      } else if (p.dtype == "i32") {
        int32_t v;
        std::memcpy(&v, tgt + i * 4, 4);
        std::fprintf(out, " %d", v);
      } else {
        std::fprintf(out, " %d", static_cast<int>(static_cast<const int8_t*>(static_cast<const void*>(tgt))[i]));
      }
    }
    std::fprintf(out, "\nsignal");
    const int32_t* sig = static_cast<const int32_t*>(w.window(r, off_signal));
    for (int64_t i = 0; i < p.signal_cells; ++i) std::fprintf(out, " %d", sig[i]);
    std::fprintf(out, "\n");
  }
  if (std::fclose(out) != 0) die("write failed");
  return 0;
}

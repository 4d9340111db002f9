// pld-sim's driver main: runs the generated CHIP orchestration `chip_pipeline` of the module
// pld-sim writes, on P ranks of a pld::host::World, and prints what pld-sim turns into the result
// JSON. It is linked with the generated tree (orchestration + kernels/aiv/*.cpp), the generated
// kernel table (sim/src/driver/kernel_table.h) and runtime/host/runtime.cpp.
//
//   driver PARAMS OUT
//
// PARAMS is a text file of `key value...` lines written by pld-sim (sim/src/run.rs):
//   mode run|bench, ranks P, dtype f32|i8, max_recv MR, row_elems RE, stride S, repeat N,
//   aiv_capacity C, non_contiguous none|input|target|signal|send_counts|recv_counts,
//   send_counts <P*P ints, row-major [src][dst]>, iters N, warmup W, timed_kernel NAME,
//   core_num L (only for a case with runtime_core_num),
//   op all_to_all_v|indexed_all_to_all_v (default all_to_all_v), input_rows N_in and
//   index <P*P*MR ints, [src][d*MR + k]> (indexed only),
//   domain N S <N*N ints, row-major [src][dst]> (one line per communication domain; see below).
//
// The module's CHIP function is
//   chip_pipeline(inp, send, out, stage, data, signal, counts, recv[, core_num])
// with stage, data, signal, counts, recv DistributedTensors (one CommContext each, all in the one
// domain of the World). Tensor arguments are passed in that declaration order, CommContexts in the
// order of the DistributedTensor parameters. For the indexed op the function is
//   chip_pipeline(inp, send, out, idx, stage, data, signal, counts, recv[, core_num])
// with inp and stage [N_in, RE] and idx a host [P*MR] i32 tensor (this rank's index list); the
// collective's CommContext is then args[6] of its kernel. With a `core_num` line the function has one scalar
// parameter, the i64 core_num, passed as OrchArgs scalar 0 (num_scalars 1); without one the
// driver passes no scalars (num_scalars 0), as the module has none.
//
// The pipelines are the table's `pld_sim_pipelines` (kernel_table.h): the one chip_pipeline, or with
// `domain` lines one per domain, in their order. A case with communication domains (docs/sim.md,
// "Communication domains") has no `stride` or `send_counts` line; `ranks` is the world W. Each
// domain of N ranks gets its own five windows (allocated symmetrically over the world, shapes of
// the P = N pipeline), and its CommContexts from pld::host::Host::comm_domain(N) (devices 0..N-1,
// rankId = device, rankNum = N); device r runs, per repeat, the pipeline of every domain holding
// it (r < N), in domain order. OUT then lists, after the kernel lines, per domain `domain <d>`
// followed by the rank / recv_counts / target / signal / staged / out_matches lines of every world
// device (the domain's windows on it; a device outside the domain has `staged 0` and
// `out_matches 1`, it has no pipeline output).
//
// OUT (mode run) is a text file of lines:
//   status <rank statuses>
//   error <first runtime / driver message, on one line>
//   kernel <name> <kernel block instances started>
//   rank <r> / recv_counts <P ints> / target <P*MR*RE values> / signal <P*S ints> /
//   staged 0|1 / out_matches 0|1
// (`staged`: the staging window's first payload bytes are the rank's input and the send_counts
// window's first P counts its send row, i.e. a stage_step of the first exchange ran and nothing
// overwrote the staging window since; what a refused first exchange leaves.)
// In process mode (`ranks_as processes`, the default pld-sim writes) every rank line above is
// produced from what the rank process left: the windows (one shared mapping) and the per-rank
// `staged` / `out_matches` flags and kernel counters, which the rank writes into World::shared_alloc
// memory at the end of its body. The input payload is written by the rank itself inside its body
// (in its own process), so no rank process holds a peer's input. After `status` the driver prints
// one `end <r> finished|failed|timeout <how>` line per rank (how each rank ended; a failed or
// timed-out rank's status is 6). Params for this: `ranks_as processes|threads`, `timeout_ms N`
// (the bound of one World::run, process mode), `fault <rank> crash|hang|exit before|inside|after`.
// (mode bench): per timed iteration `timing <memcpy ns> <exchange ns>` (the best single-thread
// memcpy of one rank's input just before the exchange, and the exchange), `verified 0|1` (the
// last exchange delivered every chunk), status, error.
#include <sys/prctl.h>

#include <algorithm>
#include <csignal>
#include <new>
#include <array>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "kernel_table.h"
#include "pld_runtime/host.h"
#include "pld_runtime/host_entry.h"
#include "pld_runtime/kernel.h"

namespace {

constexpr int kMaxKernels = 32;

// Kernel block counters, in World::shared_alloc memory (rank processes count into it).
std::atomic<long>* g_blocks = nullptr;
int g_timed = -1;  // index of the kernel whose block spans are recorded (bench mode)
struct Span {
  int rank, block;
  int64_t start, end;  // ns
};
// One per block of the timed kernel, in shared memory: `g_span_count` entries of `g_spans`.
constexpr int kMaxSpans = 1 << 16;
Span* g_spans = nullptr;
std::atomic<int>* g_span_count = nullptr;

// Test hooks (the cross-rank addressing mutant of sim/tests/sim_procs.rs): a rank's local input as this
// process knows it (null until the rank's body, in this process, filled it), and the rank whose
// window holds an address.
const void* g_rank_input[64];
std::vector<std::pair<const char*, const char*>> g_window_ranges;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int g_ctx_slot = 5;  // the timed collective's CommContext slot: 5 (plain) or 6 (indexed)

// A trampoline per table slot: counts the block instances of each kernel (and times the timed
// one) before calling the kernel's entry.
template <int I>
void tramp(int64_t* args) {
  g_blocks[I].fetch_add(1);
  if (I == g_timed) {
    // The timed kernel is the builtin collective: args[g_ctx_slot] is its CommContext.
    const int rank = static_cast<int>(reinterpret_cast<const pld::CommContext*>(args[g_ctx_slot])->rankId);
    const int block = pld_rt_block_idx();
    const int64_t t0 = now_ns();
    pld_sim_kernels[I].fn(args);
    const int64_t t1 = now_ns();
    const int n = g_span_count->fetch_add(1);
    if (n < kMaxSpans) g_spans[n] = Span{rank, block, t0, t1};
  } else {
    pld_sim_kernels[I].fn(args);
  }
}

template <int... I>
constexpr std::array<pld::host::KernelFn, sizeof...(I)> make_tramps(std::integer_sequence<int, I...>) {
  return {&tramp<I>...};
}
const auto kTramps = make_tramps(std::make_integer_sequence<int, kMaxKernels>{});

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "pld-sim driver: %s\n", msg.c_str());
  std::exit(2);
}

struct Params {
  std::string mode = "run";
  int ranks = 0;
  std::string dtype;
  int64_t max_recv = 0, row_elems = 0, stride = 0;
  int repeat = 1;
  int aiv_capacity = 48;
  std::string non_contiguous = "none";
  std::vector<int32_t> send_counts;  // [src * P + dst]
  int iters = 5, warmup = 2;
  bool processes = false;  // ranks_as processes
  int timeout_ms = 0;
  int fault_rank = -1;
  std::string fault_kind, fault_at;
  std::string timed_kernel;
  bool has_core_num = false;  // a `core_num` line: chip_pipeline takes it as scalar 0
  int64_t core_num = 0;
  bool indexed = false;       // op indexed_all_to_all_v
  int64_t input_rows = 0;     // N_in (default P * MR)
  std::vector<int32_t> index;  // [src * P*MR + j]
  struct Domain {
    int ranks = 0;
    int64_t stride = 0;
    std::vector<int32_t> send_counts;  // [src * N + dst]
  };
  std::vector<Domain> domains;  // `domain` lines (a case with communication domains)
};

Params read_params(const char* path) {
  std::ifstream in(path);
  if (!in) die(std::string("cannot read ") + path);
  Params p;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string key;
    if (!(ls >> key)) continue;
    if (key == "mode") ls >> p.mode;
    else if (key == "ranks") ls >> p.ranks;
    else if (key == "dtype") ls >> p.dtype;
    else if (key == "max_recv") ls >> p.max_recv;
    else if (key == "row_elems") ls >> p.row_elems;
    else if (key == "stride") ls >> p.stride;
    else if (key == "repeat") ls >> p.repeat;
    else if (key == "aiv_capacity") ls >> p.aiv_capacity;
    else if (key == "non_contiguous") ls >> p.non_contiguous;
    else if (key == "iters") ls >> p.iters;
    else if (key == "warmup") ls >> p.warmup;
    else if (key == "timed_kernel") ls >> p.timed_kernel;
    else if (key == "ranks_as") {
      std::string m;
      ls >> m;
      if (m != "processes" && m != "threads") die("ranks_as must be processes or threads");
      p.processes = m == "processes";
    } else if (key == "timeout_ms") ls >> p.timeout_ms;
    else if (key == "fault") ls >> p.fault_rank >> p.fault_kind >> p.fault_at;
    else if (key == "core_num") {
      p.has_core_num = true;
      if (!(ls >> p.core_num)) die("bad value for core_num");
    }
    else if (key == "op") {
      std::string op;
      ls >> op;
      if (op == "indexed_all_to_all_v") p.indexed = true;
      else if (op != "all_to_all_v") die("unknown op " + op);
    } else if (key == "input_rows") ls >> p.input_rows;
    else if (key == "index") {
      int32_t v;
      while (ls >> v) p.index.push_back(v);
    } else if (key == "domain") {
      Params::Domain d;
      ls >> d.ranks >> d.stride;
      int32_t v;
      while (ls >> v) d.send_counts.push_back(v);
      if (d.ranks < 1 || d.ranks > p.ranks || d.stride < 1 ||
          d.send_counts.size() != static_cast<size_t>(d.ranks) * d.ranks)
        die("bad domain line");
      p.domains.push_back(std::move(d));
    } else if (key == "send_counts") {
      int32_t v;
      while (ls >> v) p.send_counts.push_back(v);
    } else die("unknown parameter " + key);
    if (ls.fail() && !ls.eof()) die("bad value for " + key);
  }
  if (p.ranks < 1 || p.ranks > 16) die("ranks outside 1..16");
  if (p.dtype != "f32" && p.dtype != "i8") die("dtype must be f32 or i8");
  if (!p.domains.empty()) {
    if (p.max_recv < 1 || p.row_elems < 1 || p.repeat < 1) die("bad shape parameters");
    if (p.indexed || p.mode != "run" || p.non_contiguous != "none" || !p.send_counts.empty())
      die("a case with domains runs the plain op, contiguous, in mode run, with per-domain counts");
    return p;
  }
  if (p.max_recv < 1 || p.row_elems < 1 || p.stride < 1 || p.repeat < 1) die("bad shape parameters");
  if (p.send_counts.size() != static_cast<size_t>(p.ranks) * p.ranks) die("send_counts is not P x P");
  if (p.input_rows == 0) p.input_rows = p.ranks * p.max_recv;
  if (p.input_rows < 1) die("bad input_rows");
  if (p.indexed && p.index.size() != static_cast<size_t>(p.ranks) * p.ranks * p.max_recv)
    die("index is not P lists of P*max_recv");
  return p;
}

// The input payload of sim.md: input[r][d*MR + k][e]; input row i of an indexed case (N_in rows)
// is the same formula with d = i / MR, k = i % MR.
void fill_payload(const Params& p, int r, void* buf) {
  const int64_t MR = p.max_recv, RE = p.row_elems;
  for (int64_t row = 0; row < p.input_rows; ++row) {
    const int64_t d = row / MR, k = row % MR;
    if (p.dtype == "f32") {
      float* dst = static_cast<float*>(buf) + row * RE;
      for (int64_t e = 0; e < RE; ++e)
        dst[e] = static_cast<float>(int64_t(r) * 1000000 + d * 10000 + k * 100 + e);
    } else {
      int8_t* dst = static_cast<int8_t*>(buf) + row * RE;
      for (int64_t e = 0; e < RE; ++e)
        dst[e] = static_cast<int8_t>((int64_t(r) * 37 + d * 11 + k * 5 + e) % 251 - 125);
    }
  }
}

// A descriptor over `data` with the given shape: packed row-major, or (strided) with the innermost
// dimension of extent > 1 and every outer one given twice the packed stride, which is not
// contiguous and stays inside a buffer of twice the packed size.
pld::Tensor make_tensor(void* data, int32_t elem, std::vector<int64_t> shape, bool strided) {
  pld::Tensor t = pld::Tensor::contiguous(data, elem, shape.data(), shape.size());
  if (strided) {
    int inner = -1;
    for (int i = t.rank - 1; i >= 0; --i)
      if (t.shape[i] > 1) { inner = i; break; }
    if (inner < 0) die("cannot make a strided view: every extent is 1");
    for (int i = 0; i <= inner; ++i) t.strides[i] *= 2;
    if (t.is_contiguous()) die("strided view is still contiguous");
  }
  return t;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

struct Rank {
  std::vector<char> inp, out;
  std::vector<int32_t> send, idx;
  pld::Tensor desc[9];
  pld::Tensor* ptr[9];
  pld::CommContext* comm[5];
  int64_t scalars[1];
  pld::rt::OrchArgs args;
};

// One device's arguments for one domain's pipeline.
struct DomainRank {
  std::vector<char> inp, out;
  std::vector<int32_t> send;
  pld::Tensor desc[8];
  pld::Tensor* ptr[8];
  pld::CommContext* comm[5];
  int64_t scalars[1];
  pld::rt::OrchArgs args;
};

// Points a rank's `args` at its first `ntensors` tensors, five copies of its
// context and, for a runtime core_num, the scalar (a plain case's Rank and a
// domain's DomainRank alike).
template <class RankArgs>
void bind_args(RankArgs& R, int ntensors, pld::CommContext* ctx, const Params& p) {
  for (int i = 0; i < ntensors; ++i) R.ptr[i] = &R.desc[i];
  for (int i = 0; i < 5; ++i) R.comm[i] = ctx;
  R.args.tensors = R.ptr;
  R.args.num_tensors = ntensors;
  R.args.comms = R.comm;
  R.args.num_comms = 5;
  if (p.has_core_num) {
    R.scalars[0] = p.core_num;
    R.args.scalars = R.scalars;
    R.args.num_scalars = 1;
  }
}

// The World's configuration from the params (mode, timeout, fault).
pld::host::Config world_config(const Params& p) {
  pld::host::Config cfg;
  cfg.aiv_capacity = p.aiv_capacity;
  cfg.rank_processes = p.processes;
  cfg.run_timeout_ms = p.timeout_ms;
  if (p.fault_rank >= 0) {
    using C = pld::host::Config;
    cfg.fault_rank = p.fault_rank;
    if (p.fault_kind == "crash") cfg.fault_kind = C::FaultKind::kCrash;
    else if (p.fault_kind == "hang") cfg.fault_kind = C::FaultKind::kHang;
    else if (p.fault_kind == "exit") cfg.fault_kind = C::FaultKind::kExit;
    else die("bad fault kind " + p.fault_kind);
    if (p.fault_at == "before") cfg.fault_at = C::FaultAt::kBefore;
    else if (p.fault_at == "inside") cfg.fault_at = C::FaultAt::kInside;
    else if (p.fault_at == "after") cfg.fault_at = C::FaultAt::kAfter;
    else die("bad fault place " + p.fault_at);
  }
  return cfg;
}

// The driver's shared bookkeeping (kernel counters, spans) and the window ranges of the hooks.
void setup_world(pld::host::World& w, uint64_t window) {
  g_blocks = new (w.shared_alloc(sizeof(std::atomic<long>) * kMaxKernels)) std::atomic<long>[kMaxKernels]();
  g_span_count = new (w.shared_alloc(sizeof(std::atomic<int>))) std::atomic<int>(0);
  g_spans = static_cast<Span*>(w.shared_alloc(sizeof(Span) * kMaxSpans));
  for (int r = 0; r < w.ranks(); ++r) {
    const char* b = static_cast<const char*>(w.window(r));
    g_window_ranges.emplace_back(b, b + window);
  }
}

// `end <r> finished|failed|timeout <how>` per rank.
void print_ends(FILE* out, const pld::host::World& w) {
  const auto ends = w.rank_ends();
  for (size_t r = 0; r < ends.size(); ++r) {
    const char* kind = ends[r].kind == pld::host::RankEnd::kFinished ? "finished"
                       : ends[r].kind == pld::host::RankEnd::kFailed ? "failed"
                                                                       : "timeout";
    std::fprintf(out, "end %zu %s %s\n", r, kind, ends[r].how.c_str());
  }
}

// A case with communication domains (see the header comment).
int run_domains(const Params& p, const char* out_path) {
  const int W = p.ranks;
  const int D = static_cast<int>(p.domains.size());
  if (pld_sim_pipeline_count != D)
    die("the simulator holds " + std::to_string(pld_sim_pipeline_count) + " pipelines for " +
        std::to_string(D) + " domains");
  if (pld_sim_kernel_count > kMaxKernels) die("too many kernels in the tree");
  const int32_t elem = p.dtype == "f32" ? 4 : 1;
  const int32_t elems[5] = {elem, elem, 4, 4, 4};
  auto shapes = [&](int d) {
    const int64_t N = p.domains[d].ranks, rows = N * p.max_recv;
    return std::array<std::vector<int64_t>, 5>{
        std::vector<int64_t>{rows, p.row_elems}, std::vector<int64_t>{rows, p.row_elems},
        std::vector<int64_t>{N, p.domains[d].stride}, std::vector<int64_t>{N}, std::vector<int64_t>{N}};
  };
  std::vector<std::array<uint64_t, 5>> bytes(D), off(D);
  uint64_t window = 4096;
  for (int d = 0; d < D; ++d) {
    const auto sh = shapes(d);
    for (int i = 0; i < 5; ++i) {
      int64_t n = elems[i];
      for (int64_t x : sh[i]) n *= x;
      bytes[d][i] = static_cast<uint64_t>(n);
      window += (bytes[d][i] + 63) / 64 * 64 + 64;
    }
  }
  pld::host::World w(W, window, world_config(p));
  setup_world(w, window);
  for (int d = 0; d < D; ++d)
    for (int i = 0; i < 5; ++i) off[d][i] = w.alloc(bytes[d][i]);
  for (int i = 0; i < pld_sim_kernel_count; ++i) w.register_kernel(pld_sim_kernels[i].name, kTramps[i]);

  // The domains, as a generated HOST orchestrator makes them (`pld.comm_domain {ranks = N}`).
  pld::host::Host host(w);
  std::vector<int> dom(D);
  for (int d = 0; d < D; ++d) {
    dom[d] = host.comm_domain(p.domains[d].ranks);
    if (dom[d] < 0) die(host.message());
  }
  std::vector<std::vector<DomainRank>> ranks(D);
  for (int d = 0; d < D; ++d) {
    const int N = p.domains[d].ranks;
    const int64_t rows = int64_t(N) * p.max_recv;
    const int64_t payload_bytes = rows * p.row_elems * elem;
    const auto sh = shapes(d);
    Params dp = p;  // the payload formula over this domain's rows
    dp.input_rows = rows;
    ranks[d].resize(N);
    for (int r = 0; r < N; ++r) {
      DomainRank& R = ranks[d][r];
      R.inp.assign(payload_bytes, 0);
      R.out.assign(payload_bytes, 0);
      const auto& sc = p.domains[d].send_counts;
      R.send.assign(sc.begin() + r * N, sc.begin() + (r + 1) * N);
      R.desc[0] = make_tensor(R.inp.data(), elem, {rows, p.row_elems}, false);
      R.desc[1] = make_tensor(R.send.data(), 4, {N}, false);
      R.desc[2] = make_tensor(R.out.data(), elem, {rows, p.row_elems}, false);
      for (int i = 0; i < 5; ++i) R.desc[3 + i] = make_tensor(w.window(r, off[d][i]), elems[i], sh[i], false);
      pld::CommContext* ctx = host.device_ctx(r, dom[d]);
      if (!ctx) die(host.message());
      bind_args(R, 8, ctx, p);
    }
  }

  // Per (domain, device): staged, out_matches, written by the device at the end of its body.
  int* flags = static_cast<int*>(w.shared_alloc(sizeof(int) * 2 * D * W));
  for (int d = 0; d < D; ++d)
    for (int r = 0; r < W; ++r) flags[2 * (d * W + r) + 1] = 1;
  auto pipelines = [&](int rank, pld::rt::Orchestration& orch) {
    for (int it = 0; it < p.repeat; ++it)
      for (int d = 0; d < D; ++d)
        if (rank < p.domains[d].ranks)
          if (int rc = orch.run_chip(*pld_sim_pipelines[d], ranks[d][rank].args)) return rc;
    return 0;
  };
  const std::vector<int> status = w.run([&](int rank, pld::rt::Orchestration& orch) {
    for (int d = 0; d < D; ++d) {
      if (rank >= p.domains[d].ranks) continue;
      Params dp = p;
      dp.input_rows = int64_t(p.domains[d].ranks) * p.max_recv;
      fill_payload(dp, rank, ranks[d][rank].inp.data());
    }
    const int rc = pipelines(rank, orch);
    for (int d = 0; d < D; ++d) {
      const int N = p.domains[d].ranks;
      if (rank >= N) continue;
      const int64_t payload_bytes = int64_t(N) * p.max_recv * p.row_elems * elem;
      const DomainRank& R = ranks[d][rank];
      flags[2 * (d * W + rank)] =
          std::memcmp(w.window(rank, off[d][0]), R.inp.data(), payload_bytes) == 0 &&
          std::memcmp(w.window(rank, off[d][3]), R.send.data(), sizeof(int32_t) * N) == 0;
      flags[2 * (d * W + rank) + 1] = std::memcmp(R.out.data(), w.window(rank, off[d][1]), payload_bytes) == 0;
    }
    return rc;
  });

  FILE* out = std::fopen(out_path, "w");
  if (!out) die(std::string("cannot write ") + out_path);
  std::fprintf(out, "status");
  for (int s : status) std::fprintf(out, " %d", s);
  std::fprintf(out, "\nerror %s\n", one_line(w.error_message()).c_str());
  print_ends(out, w);
  for (int i = 0; i < pld_sim_kernel_count; ++i)
    std::fprintf(out, "kernel %s %ld\n", pld_sim_kernels[i].name, g_blocks[i].load());
  for (int d = 0; d < D; ++d) {
    const int N = p.domains[d].ranks;
    const int64_t rows = int64_t(N) * p.max_recv;
    const int64_t payload_bytes = rows * p.row_elems * elem;
    std::fprintf(out, "domain %d\n", d);
    for (int r = 0; r < W; ++r) {
      std::fprintf(out, "rank %d\nrecv_counts", r);
      const int32_t* rc = static_cast<const int32_t*>(w.window(r, off[d][4]));
      for (int q = 0; q < N; ++q) std::fprintf(out, " %d", rc[q]);
      std::fprintf(out, "\ntarget");
      const void* tgt = w.window(r, off[d][1]);
      for (int64_t i = 0; i < rows * p.row_elems; ++i) {
        if (elem == 4) std::fprintf(out, " %.9g", static_cast<double>(static_cast<const float*>(tgt)[i]));
        else std::fprintf(out, " %d", static_cast<const int8_t*>(tgt)[i]);
      }
      std::fprintf(out, "\nsignal");
      const int32_t* sig = static_cast<const int32_t*>(w.window(r, off[d][2]));
      for (int64_t i = 0; i < int64_t(N) * p.domains[d].stride; ++i) std::fprintf(out, " %d", sig[i]);
      (void)payload_bytes;
      const bool staged = flags[2 * (d * W + r)] != 0, matches = flags[2 * (d * W + r) + 1] != 0;
      std::fprintf(out, "\nstaged %d\nout_matches %d\n", staged ? 1 : 0, matches ? 1 : 0);
    }
  }
  if (std::fclose(out) != 0) die("write failed");
  return 0;
}

}  // namespace

// The mutant's hooks (see g_rank_input).
extern "C" const void* pld_sim_peer_input(int rank) {
  return rank >= 0 && rank < 64 ? g_rank_input[rank] : nullptr;
}
extern "C" int pld_sim_window_rank(const void* p) {
  const char* c = static_cast<const char*>(p);
  for (size_t r = 0; r < g_window_ranges.size(); ++r)
    if (c >= g_window_ranges[r].first && c < g_window_ranges[r].second) return static_cast<int>(r);
  return -1;
}

int main(int argc, char** argv) {
  if (argc != 3) die("usage: driver PARAMS OUT");
  // The driver ends with whatever started it (pld-sim), and so do its rank processes (theirs).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const Params p = read_params(argv[1]);
  if (!p.domains.empty()) return run_domains(p, argv[2]);
  if (pld_sim_pipeline_count != 1) die("a case without domains runs one pipeline");
  const int P = p.ranks;
  const int32_t elem = p.dtype == "f32" ? 4 : 1;
  const int64_t rows = P * p.max_recv;
  const int64_t payload_bytes = rows * p.row_elems * elem;
  const int64_t input_bytes = p.input_rows * p.row_elems * elem;  // = payload_bytes unless indexed
  if (p.indexed) g_ctx_slot = 6;

  if (pld_sim_kernel_count > kMaxKernels) die("too many kernels in the tree");
  for (int i = 0; i < pld_sim_kernel_count; ++i) {
    if (!p.timed_kernel.empty() && p.timed_kernel == pld_sim_kernels[i].name) g_timed = i;
  }
  if (p.mode == "bench" && g_timed < 0) die("timed kernel " + p.timed_kernel + " is not in the tree");

  // The five window operands of the collective, in its operand order (the indexed op's sixth,
  // index, is a host tensor).
  const char* names[5] = {"input", "target", "signal", "send_counts", "recv_counts"};
  std::vector<int64_t> shapes[5] = {{p.input_rows, p.row_elems}, {rows, p.row_elems}, {P, p.stride}, {P}, {P}};
  const int32_t elems[5] = {elem, elem, 4, 4, 4};
  int strided = -1;
  for (int i = 0; i < 5; ++i)
    if (p.non_contiguous == names[i]) strided = i;
  const bool strided_index = p.indexed && p.non_contiguous == "index";
  if (p.non_contiguous != "none" && strided < 0 && !strided_index) die("unknown operand " + p.non_contiguous);

  uint64_t bytes[5], window = 4096;
  for (int i = 0; i < 5; ++i) {
    int64_t n = elems[i];
    for (int64_t d : shapes[i]) n *= d;
    bytes[i] = static_cast<uint64_t>(n) * (i == strided ? 2 : 1);
    window += (bytes[i] + 63) / 64 * 64 + 64;
  }
  pld::host::World w(P, window, world_config(p));
  setup_world(w, window);
  uint64_t off[5];
  for (int i = 0; i < 5; ++i) off[i] = w.alloc(bytes[i]);
  for (int i = 0; i < pld_sim_kernel_count; ++i) w.register_kernel(pld_sim_kernels[i].name, kTramps[i]);

  std::vector<Rank> ranks(P);
  for (int r = 0; r < P; ++r) {
    Rank& R = ranks[r];
    R.inp.assign(input_bytes, 0);
    R.out.assign(payload_bytes, 0);
    R.send.assign(p.send_counts.begin() + r * P, p.send_counts.begin() + (r + 1) * P);
    // Bench: filled here once (every run forks from this process). Run: each rank fills its own
    // in its body, so in process mode no rank process holds a peer's input.
    if (p.mode == "bench") fill_payload(p, r, R.inp.data());
    R.desc[0] = make_tensor(R.inp.data(), elem, {p.input_rows, p.row_elems}, false);
    R.desc[1] = make_tensor(R.send.data(), 4, {P}, false);
    R.desc[2] = make_tensor(R.out.data(), elem, {rows, p.row_elems}, false);
    int next = 3;
    if (p.indexed) {
      // This rank's gather list; twice as large when it is made strided (the view stays inside).
      R.idx.assign(rows * (strided_index ? 2 : 1), 0);
      for (int64_t j = 0; j < rows; ++j) R.idx[j] = p.index[r * rows + j];
      R.desc[next++] = make_tensor(R.idx.data(), 4, {rows}, strided_index);
    }
    for (int i = 0; i < 5; ++i)
      R.desc[next + i] = make_tensor(w.window(r, off[i]), elems[i], shapes[i], i == strided);
    bind_args(R, next + 5, w.comm(r), p);
  }

  FILE* out = std::fopen(argv[2], "w");
  if (!out) die(std::string("cannot write ") + argv[2]);

  auto body = [&](int rank, pld::rt::Orchestration& orch) {
    for (int it = 0; it < p.repeat; ++it) {
      if (int rc = orch.run_chip(*pld_sim_pipelines[0], ranks[rank].args)) return rc;
    }
    return 0;
  };
  // Per rank: staged, out_matches, written by the rank at the end of its body (see the header).
  int* flags = static_cast<int*>(w.shared_alloc(sizeof(int) * 2 * P));
  auto run_body = [&](int rank, pld::rt::Orchestration& orch) {
    Rank& R = ranks[rank];
    fill_payload(p, rank, R.inp.data());
    g_rank_input[rank] = R.inp.data();
    const int rc = body(rank, orch);
    flags[2 * rank] = std::memcmp(w.window(rank, off[0]), R.inp.data(), input_bytes) == 0 &&
                      std::memcmp(w.window(rank, off[3]), R.send.data(), sizeof(int32_t) * P) == 0;
    flags[2 * rank + 1] = std::memcmp(R.out.data(), w.window(rank, off[1]), payload_bytes) == 0;
    return rc;
  };
  auto print_status = [&](const std::vector<int>& status, const std::string& extra) {
    std::fprintf(out, "status");
    for (int s : status) std::fprintf(out, " %d", s);
    std::fprintf(out, "\nerror %s\n", one_line(w.error_message() + extra).c_str());
    print_ends(out, w);
  };

  if (p.mode == "bench") {
    // Single-thread memcpy of one rank's payload, in this process, measured (best of 3) right
    // before each timed exchange so the ratio sees the same machine load.
    std::vector<char> a(payload_bytes, 1), b(payload_bytes, 2);
    auto memcpy_ns = [&] {
      int64_t best = INT64_MAX;
      for (int i = 0; i < 3; ++i) {
        const int64_t t0 = now_ns();
        std::memcpy(b.data(), a.data(), payload_bytes);
        const int64_t t1 = now_ns();
        best = std::min(best, t1 - t0);
        a[i] = b[payload_bytes - 1 - i];  // keep the copies observable
      }
      return best;
    };
    std::vector<int> status;
    for (int it = 0; it < p.warmup + p.iters; ++it) {
      g_span_count->store(0);
      const int64_t copy_ns = memcpy_ns();
      status = w.run(body);
      if (std::any_of(status.begin(), status.end(), [](int s) { return s != 0; })) break;
      // Lane b can move data only once block b of every rank has started (its barrier A needs
      // them all), so the exchange starts at min over lanes of max over ranks of the block's
      // start, and ends when the last block ends.
      std::map<int, int64_t> lane_ready;
      int64_t end = INT64_MIN;
      const int nspans = std::min(g_span_count->load(), kMaxSpans);
      for (int si = 0; si < nspans; ++si) {
        const Span& s = g_spans[si];
        auto it = lane_ready.emplace(s.block, s.start).first;
        it->second = std::max(it->second, s.start);
        end = std::max(end, s.end);
      }
      int64_t start = INT64_MAX;
      for (const auto& kv : lane_ready) start = std::min(start, kv.second);
      if (it >= p.warmup) std::fprintf(out, "timing %" PRId64 " %" PRId64 "\n", copy_ns, end - start);
    }
    // The last exchange moved everything (every count is expected at MAX_RECV): rank d's target
    // chunk s is rank s's input chunk d (indexed: row k of it is rank s's input row
    // index_s[d*MR + k], every entry expected in range).
    bool verified = true;
    const int64_t chunk = p.max_recv * p.row_elems * elem;
    const int64_t row_bytes = p.row_elems * elem;
    for (int d = 0; d < P; ++d)
      for (int s = 0; s < P; ++s) {
        const char* got = static_cast<const char*>(w.window(d, off[1])) + s * chunk;
        if (!p.indexed) {
          verified = verified && std::memcmp(got, ranks[s].inp.data() + d * chunk, chunk) == 0;
          continue;
        }
        for (int64_t k = 0; k < p.max_recv; ++k) {
          const int64_t ix = p.index[s * rows + d * p.max_recv + k];
          verified = verified && ix >= 0 && ix < p.input_rows &&
                     std::memcmp(got + k * row_bytes, ranks[s].inp.data() + ix * row_bytes, row_bytes) == 0;
        }
      }
    std::fprintf(out, "verified %d\n", verified ? 1 : 0);
    print_status(status, "");
    std::fclose(out);
    return 0;
  }

  const std::vector<int> status = w.run(run_body);
  print_status(status, "");
  for (int i = 0; i < pld_sim_kernel_count; ++i)
    std::fprintf(out, "kernel %s %ld\n", pld_sim_kernels[i].name, g_blocks[i].load());
  for (int r = 0; r < P; ++r) {
    std::fprintf(out, "rank %d\nrecv_counts", r);
    const int32_t* rc = static_cast<const int32_t*>(w.window(r, off[4]));
    for (int q = 0; q < P; ++q) std::fprintf(out, " %d", rc[q]);
    std::fprintf(out, "\ntarget");
    const void* tgt = w.window(r, off[1]);
    const int64_t n = rows * p.row_elems;
    for (int64_t i = 0; i < n; ++i) {
      if (elem == 4) std::fprintf(out, " %.9g", static_cast<double>(static_cast<const float*>(tgt)[i]));
      else std::fprintf(out, " %d", static_cast<const int8_t*>(tgt)[i]);
    }
    std::fprintf(out, "\nsignal");
    const int32_t* sig = static_cast<const int32_t*>(w.window(r, off[2]));
    for (int64_t i = 0; i < int64_t(P) * p.stride; ++i) std::fprintf(out, " %d", sig[i]);
    const bool staged = flags[2 * r] != 0;
    std::fprintf(out, "\nstaged %d", staged ? 1 : 0);
    // consume_step's result (the pipeline's return value) must be the target window.
    const bool matches = flags[2 * r + 1] != 0;
    std::fprintf(out, "\nout_matches %d\n", matches ? 1 : 0);
  }
  if (std::fclose(out) != 0) die("write failed");
  return 0;
}

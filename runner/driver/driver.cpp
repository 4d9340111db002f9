// The engine: the one C++ main over the host runtime (runner/src/, docs/running.md). pld-run
// and pld-sim both run generated build trees through it: it runs the CHIP entries or the HOST
// entry of a tree on a World, with the inputs its caller wrote, and writes every tensor back for
// the caller to show, compare or judge. Linked with the tree's orchestration, HOST and kernel
// objects, runtime.cpp and a generated `entry.cpp` that defines the entry table below.
//
//   driver DIR
//
// DIR/params is a text file of `key value...` lines (runner/src/engine.rs writes it):
//   ranks P / processes 0|1 / timeout_ms T / window_bytes W
//   wait_timeout_ms N     a signal wait's bound (default T + 1000; -1: the runtime's default)
//   watchdog 0|1          thread mode: past T write a timeout result and exit (default 1)
//   aiv_capacity C        AIV cores per device (default 48)
//   repeat K              each rank runs its CHIP entries K times in one World::run (default 1)
//   runs N                World::run N times (default 1); `copy_bytes B` times before each the
//                         best of three single-thread memcpys of B bytes (`copy_ns` lines) and of
//                         the same copy split over two threads (`copy2_ns` lines), each over
//                         enough copies to cover 1 MiB
//   restage 0|1           before every run after the first, every tensor back to its staged
//                         content (its input file, else zeros): each run starts as the first
//   fault <rank> crash|hang|exit before|inside|after      (process mode, Config's fault)
//   trace_kernel NAME / delay_us <P ints>                 (Config::trace_kernel, entry_delay_us)
//   trace_copies 0|1      record every copy a kernel makes (Config::trace_copies): `copy` lines
//   entry <e> [domain <N>]  starts the parameters of CHIP entry e of `pld_run_chip_entries`,
//                         run on devices 0..N-1 with the CommContexts of a communication domain of
//                         N ranks (pld::host::Host::comm_domain; no `domain`: the world's). Per
//                         repeat a rank runs every entry it is in, in order. Without an `entry`
//                         line the parameters are entry 0's over the world.
//   launch <kernel> <block_num> <sync_start 0|1>
//                         a test hook instead of `entry`: starts the parameters of a raw launch,
//                         one task of the kernel registered as <kernel> (a kernel of the linked
//                         tree) that the rank body submits itself, with the given launch spec,
//                         its tensors in order (every one InOut) and then its CommContext slots:
//                         the launches pld-opt never emits (explicit widths, other operand
//                         layouts) that pld-sim's raw cases run (docs/sim.md), over the world
//                         (no domain); block_num is any int (the runtime refuses one below 1)
//   comms N               the current entry's CommContext slots
//   null_comms N          a raw launch's last N slots hold null instead (they must never be read)
//   tensor <elem_size> <ndims> <dims...> [strided] [shared]
//                                                    a host tensor parameter (`!pl.tensor`;
//                                                    `shared`: one buffer every rank of a CHIP
//                                                    entry shares, as a HOST entry's)
//   window <elem_size> <ndims> <dims...> [strided]   a `!pld.dtensor` parameter (CHIP only)
//   scalar <value>                                   an integer or index parameter
//   host_window <offset> <elem_size> <ndims> <dims...>
//                         a window the HOST orchestrator allocates itself, read back (and, with an
//                         input, filled beforehand) at that offset of every rank's window
// `strided` (tests: a non-contiguous operand) gives the buffer twice the packed bytes and every
// dimension up to the innermost one of extent > 1 twice its packed stride.
//
// Tensor i (counting the tensor, window and host_window lines of every entry) starts as
// DIR/in.<i>.r<rank>.bin (that rank) or DIR/in.<i>.bin (every rank), else zeros. The HOST entry
// gets one host tensor per `tensor` line, shared by every device; a CHIP entry's rank gets its own
// buffer per `tensor` line (in World::shared_alloc memory: the launcher reads what rank processes
// wrote), one symmetric window allocation per `window` line, and the scalars.
//
// Writes DIR/out.<i>.r<rank>.bin per tensor and rank (the packed bytes) and DIR/result: `status
// <code>`, `rank_status <r> <code>` per rank, `message <text>`, `end <r> finished|failed|timeout
// <how>` per rank, `kernel <name> <launches> <blocks>` per kernel submitted (World::kernel_stats),
// `span <run> <rank> <block> <start_ns> <end_ns>` per traced block, `copy_ns <run> <ns>`,
// `copy2_ns <run> <ns>`,
// `run_status <run> <statuses...>`, for CHIP entries `live_buffers <n>`, and `alloc_end <bytes>`.
// With trace_copies, per copy of the run: `copy <run> <rank> <block> <kernel> <dst> <src> <bytes>`,
// where <dst> and <src> are each `<tensor> <rank> <byte offset>`: the tensor the address lies in
// (as numbered above; -1 -1 0 outside every tensor) and whose buffer (a shared one's: 0);
// `copies_dropped <run> <n>` when the runtime's log overflowed (the trace is then incomplete).
//
// Test hooks for kernels linked into a tree (the cross-rank addressing mutant of
// sim/tests/sim_procs.rs): pld_sim_peer_input(r) is rank r's first tensor as this process knows it
// (set by rank r's body, so null in another rank process); pld_sim_window_rank(p) the rank whose
// window holds p.
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdint>
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

extern const pld::host::HostEntryFn pld_run_host_entry;
extern const pld::rt::ChipEntry* const pld_run_chip_entries[];
extern const int pld_run_chip_entry_count;

namespace {

// With ranks as processes each rank process runs the host entry and allocates its windows in its
// own copy of the World; the entry wrapper reports where that allocator ended through shared
// memory, so the launcher can still check the window layout its caller computed.
pld::host::World* g_world = nullptr;
uint64_t* g_alloc_end = nullptr;
int host_entry_recording_alloc_end(pld::host::Host* host, const pld::host::HostArgs* args) {
  const int rc = pld_run_host_entry(host, args);
  __atomic_store_n(g_alloc_end, g_world->alloc(0, 1), __ATOMIC_RELAXED);
  return rc;
}

// The test hooks' state (see the header).
const void* g_rank_input[64];
std::vector<std::pair<const char*, const char*>> g_window_ranges;

struct Param {
  std::string kind;  // tensor | window | host_window | scalar
  uint64_t offset = 0;  // host_window
  int32_t elem_size = 0;
  std::vector<int64_t> dims;
  bool strided = false;
  bool shared = false;  // a CHIP entry's host tensor: one buffer every rank shares
  int64_t scalar = 0;
  int64_t bytes() const {
    int64_t n = elem_size;
    for (int64_t d : dims) n *= d;
    return n;
  }
  int64_t buffer_bytes() const { return bytes() * (strided ? 2 : 1); }
};

struct Entry {
  int index = 0;
  int domain_ranks = 0;  // 0: the world
  int comms = 0;
  std::vector<Param> params;
  // A raw launch (`launch` line): the kernel submitted directly, instead of CHIP entry `index`.
  std::string kernel;
  int64_t block_num = 1;
  int sync_start = 0;
  int null_comms = 0;
};

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "pld engine: %s\n", msg.c_str());
  std::exit(2);
}

bool read_file(const std::string& path, std::vector<char>& out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  const std::string text = s.str();
  out.assign(text.begin(), text.end());
  return true;
}

// Fills `dst` (bytes long) from the rank's or the shared input file, if any.
bool fill(const std::string& dir, size_t i, int rank, char* dst, int64_t bytes) {
  std::vector<char> data;
  const std::string base = dir + "/in." + std::to_string(i);
  if (!read_file(base + ".r" + std::to_string(rank) + ".bin", data) && !read_file(base + ".bin", data))
    return true;
  if (static_cast<int64_t>(data.size()) != bytes) {
    std::fprintf(stderr, "pld engine: %s: %zu bytes, expected %lld\n", base.c_str(), data.size(),
                 static_cast<long long>(bytes));
    return false;
  }
  if (!data.empty()) std::memcpy(dst, data.data(), data.size());  // an empty vector's data() may be null
  return true;
}

bool write_file(const std::string& path, const char* data, int64_t bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = bytes == 0 || std::fwrite(data, 1, static_cast<size_t>(bytes), f) == static_cast<size_t>(bytes);
  return std::fclose(f) == 0 && ok;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

// A descriptor over `data`: packed row-major, or (strided) with every dimension up to the
// innermost one of extent > 1 given twice its packed stride (inside a buffer of twice the bytes).
pld::rt::Tensor make_tensor(char* data, const Param& p) {
  pld::rt::Tensor t = pld::rt::Tensor::contiguous(data, p.elem_size, p.dims.data(), p.dims.size());
  if (p.strided) {
    int inner = -1;
    for (int i = t.rank - 1; i >= 0; --i)
      if (t.shape[i] > 1) {
        inner = i;
        break;
      }
    if (inner < 0) die("cannot make a strided view: every extent is 1");
    for (int i = 0; i <= inner; ++i) t.strides[i] *= 2;
  }
  return t;
}

pld::host::Config::FaultKind fault_kind(const std::string& s) {
  using C = pld::host::Config;
  if (s == "crash") return C::FaultKind::kCrash;
  if (s == "hang") return C::FaultKind::kHang;
  if (s == "exit") return C::FaultKind::kExit;
  die("bad fault kind " + s);
}

pld::host::Config::FaultAt fault_at(const std::string& s) {
  using C = pld::host::Config;
  if (s == "before") return C::FaultAt::kBefore;
  if (s == "inside") return C::FaultAt::kInside;
  if (s == "after") return C::FaultAt::kAfter;
  die("bad fault place " + s);
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The best of three single-thread memcpys of a's bytes (warm buffers), ns per copy: a benchmark's
// reference, measured right before each run so both see the same machine load. Each of the three
// times enough copies to cover 1 MiB (a small copy alone is below the clock's resolution).
int copies_per_mib(size_t bytes) { return static_cast<int>(std::max<size_t>(1, (size_t{1} << 20) / bytes)); }
int64_t memcpy_ns(std::vector<char>& a, std::vector<char>& b) {
  const int reps = copies_per_mib(a.size());
  int64_t best = INT64_MAX;
  for (int i = 0; i < 3; ++i) {
    const int64_t t0 = now_ns();
    for (int k = 0; k < reps; ++k) {
      std::memcpy(b.data(), a.data(), a.size());
      asm volatile("" : : "r"(b.data()) : "memory");
    }
    best = std::min(best, (now_ns() - t0) / reps);
    a[static_cast<size_t>(i) % a.size()] = b[a.size() - 1 - static_cast<size_t>(i) % a.size()];
  }
  return best;
}

// The same copies split over two threads (each half by one), best of three: memcpy_ns over this
// is the machine's two-core memcpy speed-up, which bounds what ranks sharing two cores can reach.
int64_t memcpy2_ns(std::vector<char>& a, std::vector<char>& b) {
  const size_t half = a.size() / 2;
  const int reps = copies_per_mib(a.size());
  int64_t best = INT64_MAX;
  for (int i = 0; i < 3; ++i) {
    const int64_t t0 = now_ns();
    std::thread other([&] {
      for (int k = 0; k < reps; ++k) std::memcpy(b.data() + half, a.data() + half, a.size() - half);
    });
    for (int k = 0; k < reps; ++k) {
      std::memcpy(b.data(), a.data(), half);
      asm volatile("" : : "r"(b.data()) : "memory");
    }
    other.join();
    best = std::min(best, (now_ns() - t0) / reps);
  }
  return best;
}

// Where `p` lies: "<tensor> <rank> <byte offset>" of the first tensor buffer holding it (a
// shared buffer counts as rank 0's), else "-1 -1 0".
std::string locate(const void* p, const std::vector<const Param*>& tensors,
                   const std::vector<std::vector<char*>>& data) {
  const char* c = static_cast<const char*>(p);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const int64_t bytes = tensors[i]->kind == "host_window" ? tensors[i]->bytes() : tensors[i]->buffer_bytes();
    for (size_t r = 0; r < data[i].size(); ++r)
      if (c >= data[i][r] && c < data[i][r] + bytes)
        return std::to_string(i) + " " + std::to_string(r) + " " + std::to_string(c - data[i][r]);
  }
  return "-1 -1 0";
}

// The `copy` lines of one run (trace_copies), and `copies_dropped` when the log overflowed.
std::string copy_lines(const pld::host::World& world, int run, const std::vector<const Param*>& tensors,
                       const std::vector<std::vector<char*>>& data) {
  std::string out;
  const std::string head = "copy " + std::to_string(run) + " ";
  for (const pld::host::CopyRecord& c : world.copies())
    out += head + std::to_string(c.rank) + " " + std::to_string(c.block) + " " + (*c.kernel ? c.kernel : "-") +
           " " + locate(c.dst, tensors, data) + " " + locate(c.src, tensors, data) + " " + std::to_string(c.bytes) +
           "\n";
  if (world.copies_dropped() > 0)
    out += "copies_dropped " + std::to_string(run) + " " + std::to_string(world.copies_dropped()) + "\n";
  return out;
}

// A raw launch (the `launch` test hook): one task of `e.kernel` over `desc` (every one InOut)
// and `ctx` (its last `e.null_comms` slots null), with the launch spec the line gave.
int submit_raw(pld::rt::Orchestration& orch, const Entry& e, std::vector<pld::rt::Tensor>& desc,
               const std::vector<pld::rt::CommContext*>& ctx) {
  pld::rt::Task t(1, e.kernel.c_str());
  for (pld::rt::Tensor& d : desc) t.add_tensor(d, pld::rt::Dir::InOut);
  for (size_t i = 0; i < ctx.size(); ++i)
    t.add_comm_context(i + static_cast<size_t>(e.null_comms) >= ctx.size() ? nullptr : ctx[i]);
  t.launch_spec().set_block_num(static_cast<int>(e.block_num));
  t.launch_spec().set_require_sync_start(e.sync_start != 0);
  return orch.submit(t);
}

}  // namespace

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
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  // The engine ends with whatever started it, and so do its rank processes (theirs).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const std::string dir = argv[1];
  std::ifstream pf(dir + "/params");
  if (!pf) die("cannot read " + dir + "/params");
  int ranks = 1, processes = 1, repeat = 1, runs = 1, restage = 0, watchdog_on = 1;
  int64_t timeout_ms = 10000, wait_timeout_ms = INT64_MIN, copy_bytes = 0;
  uint64_t window_bytes = 1 << 20;
  pld::host::Config cfg;
  std::vector<Entry> entries;
  bool explicit_entries = false;
  auto current = [&]() -> Entry& {
    if (entries.empty()) entries.emplace_back();
    return entries.back();
  };
  std::string line;
  while (std::getline(pf, line)) {
    std::istringstream in(line);
    std::string key;
    if (!(in >> key)) continue;
    if (key == "ranks") in >> ranks;
    else if (key == "processes") in >> processes;
    else if (key == "timeout_ms") in >> timeout_ms;
    else if (key == "wait_timeout_ms") in >> wait_timeout_ms;
    else if (key == "watchdog") in >> watchdog_on;
    else if (key == "window_bytes") in >> window_bytes;
    else if (key == "aiv_capacity") in >> cfg.aiv_capacity;
    else if (key == "repeat") in >> repeat;
    else if (key == "runs") in >> runs;
    else if (key == "copy_bytes") in >> copy_bytes;
    else if (key == "restage") in >> restage;
    else if (key == "trace_kernel") in >> cfg.trace_kernel;
    else if (key == "trace_copies") in >> cfg.trace_copies;
    else if (key == "delay_us") {
      int64_t v;
      while (in >> v) cfg.entry_delay_us.push_back(v);
    } else if (key == "fault") {
      std::string kind, at;
      in >> cfg.fault_rank >> kind >> at;
      cfg.fault_kind = fault_kind(kind);
      cfg.fault_at = fault_at(at);
    } else if (key == "entry") {
      if (!explicit_entries) entries.clear();
      explicit_entries = true;
      Entry e;
      in >> e.index;
      std::string domain;
      if (in >> domain) {
        if (domain != "domain" || !(in >> e.domain_ranks) || e.domain_ranks < 1) die("bad entry line '" + line + "'");
      }
      entries.push_back(e);
    } else if (key == "launch") {
      if (!explicit_entries) entries.clear();
      explicit_entries = true;
      Entry e;
      if (!(in >> e.kernel >> e.block_num >> e.sync_start) || e.block_num < INT_MIN || e.block_num > INT_MAX)
        die("bad launch line '" + line + "'");
      entries.push_back(e);
    } else if (key == "comms") in >> current().comms;
    else if (key == "null_comms") in >> current().null_comms;
    else if (key == "scalar") {
      Param p;
      p.kind = key;
      in >> p.scalar;
      current().params.push_back(p);
    } else if (key == "tensor" || key == "window" || key == "host_window") {
      Param p;
      p.kind = key;
      if (key == "host_window") in >> p.offset;
      int nd = 0;
      in >> p.elem_size >> nd;
      for (int d = 0; d < nd; ++d) {
        int64_t x = 0;
        in >> x;
        p.dims.push_back(x);
      }
      std::string flag;
      while (in >> flag) {
        if (key == "host_window" || (flag != "strided" && !(flag == "shared" && key == "tensor")))
          die("bad flag '" + flag + "' in '" + line + "'");
        (flag == "strided" ? p.strided : p.shared) = true;
      }
      current().params.push_back(p);
    } else die("unknown line '" + line + "'");
    if (in.fail() && !in.eof()) die("bad value in '" + line + "'");
  }
  if (entries.empty()) entries.emplace_back();
  if (ranks < 1 || ranks > 64) die("ranks outside 1..64");
  if (repeat < 1 || runs < 1) die("repeat and runs must be at least 1");
  if (!cfg.entry_delay_us.empty() && cfg.entry_delay_us.size() != static_cast<size_t>(ranks))
    die("delay_us is not P ints");
  const bool host_entry = pld_run_host_entry != nullptr;
  if (host_entry && (entries.size() != 1 || repeat != 1)) die("a HOST entry runs once, alone");
  for (const Entry& e : entries) {
    if (!e.kernel.empty() && host_entry) die("a raw launch needs a CHIP build");
    if (e.null_comms < 0 || e.null_comms > e.comms) die("null_comms outside 0..comms");
    if (!host_entry && e.kernel.empty() && (e.index < 0 || e.index >= pld_run_chip_entry_count))
      die("no CHIP entry " + std::to_string(e.index));
    if (e.domain_ranks > ranks) die("a domain larger than the world");
  }

  // --timeout-ms bounds the whole run (below) and by default each signal wait, which gets one
  // second more, so a rank waiting for a peer that never arrives is reported by the run bound,
  // which names every waiting rank's collective, site, kernel and missing peers, and kills every
  // rank.
  cfg.wait_timeout_ms = wait_timeout_ms == INT64_MIN ? static_cast<int>(timeout_ms + 1000)
                                                      : static_cast<int>(wait_timeout_ms);
  cfg.run_timeout_ms = static_cast<int>(timeout_ms);
  // Ranks as processes (the default): windows in shared memory, each rank its own address space;
  // the host tensors live in shared_alloc() memory so the launcher reads what ranks wrote.
  cfg.rank_processes = processes != 0;
  // Strided operands need twice their packed bytes.
  uint64_t needed = 4096;
  for (const Entry& e : entries)
    for (const Param& p : e.params)
      if (p.kind == "window") needed += (static_cast<uint64_t>(p.buffer_bytes()) + 63) / 64 * 64 + 64;
  pld::host::World world(ranks, std::max(window_bytes, needed), cfg);
  for (int r = 0; r < ranks; ++r) {
    const char* b = static_cast<const char*>(world.window(r));
    g_window_ranges.emplace_back(b, b + std::max(window_bytes, needed));
  }

  // data[i][r]: tensor i's bytes on rank r (host tensors: per rank for a CHIP entry, one for a
  // HOST entry; windows: the rank's window at the allocation's offset).
  std::vector<const Param*> tensors;
  std::vector<std::vector<char*>> data;
  std::vector<std::vector<int64_t>> scalars(entries.size());
  std::vector<std::vector<size_t>> entry_tensors(entries.size());  // indices into `tensors`
  for (size_t e = 0; e < entries.size(); ++e)
    for (const Param& p : entries[e].params) {
      if (p.kind == "scalar") {
        scalars[e].push_back(p.scalar);
        continue;
      }
      const size_t i = tensors.size();
      tensors.push_back(&p);
      data.emplace_back(static_cast<size_t>(ranks));
      if (p.kind == "host_window") {
        if (p.offset + static_cast<uint64_t>(p.bytes()) > window_bytes) die("a host window past the window's bytes");
        for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = static_cast<char*>(world.window(r, p.offset));
      } else if (p.kind == "window") {
        if (host_entry) die("a HOST entry has no window parameters");
        const uint64_t off = world.alloc(static_cast<uint64_t>(p.buffer_bytes()));
        for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = static_cast<char*>(world.window(r, off));
        entry_tensors[e].push_back(i);
      } else {
        const bool one = host_entry || p.shared;
        std::vector<char*> bufs(static_cast<size_t>(one ? 1 : ranks));
        for (auto& b : bufs) b = static_cast<char*>(world.shared_alloc(static_cast<uint64_t>(p.buffer_bytes())));
        for (int r = 0; r < ranks; ++r) data[i][static_cast<size_t>(r)] = bufs[static_cast<size_t>(one ? 0 : r)];
        entry_tensors[e].push_back(i);
      }
    }
  // Every tensor's staged content: its input file, else what it holds (the World's memory starts
  // zero-filled; `zero`: a restaging clears it first). A HOST entry's host window starts as its
  // input too: the orchestrator's allocation does not clear it.
  auto stage = [&](bool zero) {
    for (size_t i = 0; i < tensors.size(); ++i) {
      const Param& p = *tensors[i];
      const int64_t bytes = p.kind == "host_window" ? p.bytes() : p.buffer_bytes();
      for (int r = 0; r < ((host_entry || p.shared) && p.kind == "tensor" ? 1 : ranks); ++r) {
        if (zero) std::memset(data[i][static_cast<size_t>(r)], 0, static_cast<size_t>(bytes));
        if (!fill(dir, i, r, data[i][static_cast<size_t>(r)], p.bytes())) return false;
      }
    }
    return true;
  };
  if (!stage(false)) return 2;

  // The communication domains of the entries that name one, made as a HOST orchestrator makes
  // them (`pld.comm_domain {ranks = N}`).
  pld::host::Host host(world);
  std::vector<int> domain(entries.size(), -1);
  for (size_t e = 0; e < entries.size(); ++e)
    if (entries[e].domain_ranks > 0) {
      domain[e] = host.comm_domain(entries[e].domain_ranks);
      if (domain[e] < 0) die(host.message());
    }

  // Thread mode cannot kill a hung rank thread: past the bound this watchdog writes the result
  // (status 6, where each rank is stuck) and ends the process; the outputs are not written.
  // (Process mode: World::run kills the rank processes itself.)
  std::mutex run_mu;
  std::condition_variable run_cv;
  bool run_done = false;
  std::thread watchdog;
  if (!cfg.rank_processes && timeout_ms > 0 && watchdog_on) {
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(run_mu);
      if (run_cv.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return run_done; })) return;
      const std::string report = world.waiting_report(static_cast<int>(timeout_ms));
      std::fprintf(stderr, "pld-runtime: error %d: %s\n", pld::host::kRankFailedStatus, report.c_str());
      if (FILE* f = std::fopen((dir + "/result").c_str(), "w")) {
        std::fprintf(f, "status %d\n", pld::host::kRankFailedStatus);
        for (int r = 0; r < ranks; ++r) std::fprintf(f, "rank_status %d %d\n", r, pld::host::kRankFailedStatus);
        std::fprintf(f, "message %s\n", one_line(report).c_str());
        std::fclose(f);
      }
      std::fflush(nullptr);
      _exit(0);
    });
  }
  struct StopWatchdog {
    std::mutex& mu;
    std::condition_variable& cv;
    bool& done;
    std::thread& t;
    ~StopWatchdog() {
      {
        std::lock_guard<std::mutex> lock(mu);
        done = true;
      }
      cv.notify_all();
      if (t.joinable()) t.join();
    }
  };

  int rc = 0;
  std::vector<int> status;
  std::string message;
  long* live = nullptr;
  std::string per_run;  // the span / copy_ns / run_status lines
  {
    StopWatchdog stop{run_mu, run_cv, run_done, watchdog};
    std::vector<char> copy_a(static_cast<size_t>(std::max<int64_t>(copy_bytes, 1)), 1),
        copy_b(copy_a.size(), 2);
    for (int run = 0; run < runs; ++run) {
      world.clear_spans();
      world.clear_copies();
      if (run > 0 && restage && !stage(true)) return 2;
      if (copy_bytes > 0) {
        per_run += "copy_ns " + std::to_string(run) + " " + std::to_string(memcpy_ns(copy_a, copy_b)) + "\n";
        per_run += "copy2_ns " + std::to_string(run) + " " + std::to_string(memcpy2_ns(copy_a, copy_b)) + "\n";
      }
      rc = 0;
      if (host_entry) {
        std::vector<pld::rt::Tensor> desc;
        for (size_t i = 0; i < tensors.size(); ++i)
          if (tensors[i]->kind != "host_window") desc.push_back(make_tensor(data[i][0], *tensors[i]));
        std::vector<pld::rt::Tensor*> ptrs;
        for (auto& d : desc) ptrs.push_back(&d);
        pld::host::HostArgs args;
        args.tensors = ptrs.data();
        args.num_tensors = static_cast<int>(ptrs.size());
        args.scalars = scalars[0].data();
        args.num_scalars = static_cast<int>(scalars[0].size());
        g_world = &world;
        if (!g_alloc_end) g_alloc_end = static_cast<uint64_t*>(world.shared_alloc(sizeof(uint64_t)));
        rc = pld::host::run_host_entry(world, &host_entry_recording_alloc_end, args, &status, &message);
      } else {
        // Per rank: the runtime-owned buffers (pl.tensor.create) still live when its entries
        // returned (in shared memory: a rank process counts its own).
        if (!live) live = static_cast<long*>(world.shared_alloc(sizeof(long) * static_cast<uint64_t>(ranks)));
        status = world.run([&](int r, pld::rt::Orchestration& orch) {
          const size_t rr = static_cast<size_t>(r);
          if (!entry_tensors[0].empty() && r < 64) g_rank_input[r] = data[entry_tensors[0][0]][rr];
          struct Bound {
            std::vector<pld::rt::Tensor> desc;
            std::vector<pld::rt::Tensor*> ptrs;
            std::vector<pld::rt::CommContext*> ctx;
            pld::rt::OrchArgs args;
          };
          std::vector<Bound> bound(entries.size());
          for (size_t e = 0; e < entries.size(); ++e) {
            if (entries[e].domain_ranks > 0 && r >= entries[e].domain_ranks) continue;
            Bound& b = bound[e];
            for (size_t i : entry_tensors[e]) b.desc.push_back(make_tensor(data[i][rr], *tensors[i]));
            for (auto& d : b.desc) b.ptrs.push_back(&d);
            pld::rt::CommContext* ctx = domain[e] >= 0 ? host.device_ctx(r, domain[e]) : world.comm(r);
            b.ctx.assign(static_cast<size_t>(entries[e].comms), ctx);
            b.args.tensors = b.ptrs.data();
            b.args.num_tensors = static_cast<int>(b.ptrs.size());
            b.args.comms = b.ctx.data();
            b.args.num_comms = entries[e].comms;
            b.args.scalars = scalars[e].data();
            b.args.num_scalars = static_cast<int>(scalars[e].size());
          }
          int entry_rc = 0;
          for (int k = 0; k < repeat && entry_rc == 0; ++k)
            for (size_t e = 0; e < entries.size() && entry_rc == 0; ++e) {
              if (entries[e].domain_ranks > 0 && r >= entries[e].domain_ranks) continue;
              entry_rc = entries[e].kernel.empty()
                             ? orch.run_chip(*pld_run_chip_entries[entries[e].index], bound[e].args)
                             : submit_raw(orch, entries[e], bound[e].desc, bound[e].ctx);
            }
          live[r] = static_cast<long>(orch.live_buffers());
          return entry_rc;
        });
        message = world.error_message();
      }
      for (int s : status)
        if (s != 0 && rc == 0) rc = s;
      for (const pld::host::BlockSpan& s : world.spans())
        per_run += "span " + std::to_string(run) + " " + std::to_string(s.rank) + " " + std::to_string(s.block) + " " +
                   std::to_string(s.start_ns) + " " + std::to_string(s.end_ns) + "\n";
      if (cfg.trace_copies) per_run += copy_lines(world, run, tensors, data);
      if (runs > 1) {
        per_run += "run_status " + std::to_string(run);
        for (int s : status) per_run += " " + std::to_string(s);
        per_run += "\n";
      }
      if (rc != 0) break;
    }
  }

  for (size_t i = 0; i < tensors.size(); ++i)
    for (int r = 0; r < ranks; ++r) {
      const std::string path = dir + "/out." + std::to_string(i) + ".r" + std::to_string(r) + ".bin";
      if (!write_file(path, data[i][static_cast<size_t>(r)], tensors[i]->bytes())) die("cannot write " + path);
    }
  FILE* f = std::fopen((dir + "/result").c_str(), "w");
  if (!f) die("cannot write " + dir + "/result");
  std::fprintf(f, "status %d\n", rc);
  for (size_t r = 0; r < status.size(); ++r) std::fprintf(f, "rank_status %zu %d\n", r, status[r]);
  if (!message.empty()) std::fprintf(f, "message %s\n", one_line(message).c_str());
  const auto ends = world.rank_ends();
  for (size_t r = 0; r < ends.size(); ++r)
    std::fprintf(f, "end %zu %s %s\n", r,
                 ends[r].kind == pld::host::RankEnd::kFinished ? "finished"
                 : ends[r].kind == pld::host::RankEnd::kFailed ? "failed"
                                                                 : "timeout",
                 one_line(ends[r].how).c_str());
  // A zero-byte allocation at alignment 1 returns where the allocator is and moves nothing.
  const uint64_t alloc_end = host_entry && world.rank_processes() && g_alloc_end ? *g_alloc_end : world.alloc(0, 1);
  std::fprintf(f, "alloc_end %llu\n", static_cast<unsigned long long>(alloc_end));
  for (const pld::host::KernelStats& k : world.kernel_stats())
    std::fprintf(f, "kernel %s %ld %ld\n", k.name.c_str(), k.launches, k.blocks);
  std::fputs(per_run.c_str(), f);
  if (live) {
    long total = 0;
    for (int r = 0; r < ranks; ++r) total += live[r];
    std::fprintf(f, "live_buffers %ld\n", total);
  }
  std::fclose(f);
  return 0;
}

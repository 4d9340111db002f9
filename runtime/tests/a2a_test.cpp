// The a2a suite: all_to_all_v on the host runtime, the rendered kernel (float and int8_t) run by
// P ranks x B blocks, checked against an independent golden. Run by runtime/tests/main.cpp
// (`runtime_tests --suite a2a [--quick] [--filter SUBSTR] [-v]`).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/task.h"

extern "C" void pld_a2a_f32(int64_t* args);  // rendered kernel.cpp.in, dtype_cpp = float
extern "C" void pld_a2a_i8(int64_t* args);   // rendered kernel.cpp.in, dtype_cpp = int8_t
// runtime/examples/chip_pipeline.cpp, its entry points renamed on the command line (run.sh).
extern "C" void chip_pipeline_entry(const ChipTaskArgs& orch_args);
extern "C" PTO2OrchestrationConfig chip_pipeline_config(const ChipTaskArgs& orch_args);
// The example's user kernels (runtime/examples/kernels, device kernel text), entries renamed.
extern "C" void pld_k_stage_step(int64_t* args);
extern "C" void pld_k_consume_step(int64_t* args);

namespace {

using pld::Tensor;
using pld::host::World;
using pld_test::Failure;
using pld_test::golden_rows;
using pld_test::Matrix;

// ------------------------------------------------------------------ independent golden
// B = L while L < P, else the largest multiple of P not above L (RFC #2521).
int fold_blocks(int p, int l) { return l < p ? l : l / p * p; }

double payload_f32(int r, int d, int k, int e) { return r * 1000000.0 + d * 10000.0 + k * 100.0 + e; }
int payload_i8(int r, int d, int k, int e) { return (r * 37 + d * 11 + k * 5 + e) % 251 - 125; }

struct Case {
  std::string name;
  int P = 2, L = 1;
  bool i8 = false;
  int max_recv = 4, row_elems = 8;
  Matrix sc;           // send_counts[src][dst]
  int S = 0;           // signal stride; 0 = B
  int repeat = 1;      // back-to-back exchanges on one signal per round
  int capacity = 48;   // AIV capacity of the runtime
  int blocks = 0;      // explicit launch width instead of fold_blocks(P, L)
  uint8_t target_bg = 0;  // byte every target starts with (0 = fresh window)
  bool chip_rail = true;  // pass args[6..7] duplicates of the CommContext
  bool counts_2d = false; // send_counts / recv_counts as [NR, 1] instead of [NR]
  int expect_status = 0;  // expected status of every rank
};

Tensor make_tensor(void* data, int esz, std::vector<int64_t> dims) {
  return Tensor::contiguous(data, esz, dims.data(), dims.size());
}

// Runs one case; throws Failure on any mismatch.
void run_case(const Case& c) {
  const int P = c.P;
  const int B = c.blocks > 0 ? c.blocks : fold_blocks(P, c.L);
  const int S = c.S > 0 ? c.S : B;
  const int esz = c.i8 ? 1 : 4;
  const int64_t MR = c.max_recv, RE = c.row_elems;
  const int64_t target_bytes = P * MR * RE * esz;

  pld::host::Config cfg;
  cfg.aiv_capacity = c.capacity;
  cfg.trace_copies = true;
  World w(P, 4096 + target_bytes * 2 + P * S * 4 + 256, cfg);
  const uint64_t off_target = w.alloc(std::max<int64_t>(target_bytes, 1));
  const uint64_t off_signal = w.alloc(P * S * 4);
  const uint64_t off_send = w.alloc(P * 4);
  const uint64_t off_recv = w.alloc(P * 4);

  // Input: ordinary (non-window) memory per rank.
  std::vector<std::vector<char>> input(P, std::vector<char>(std::max<int64_t>(target_bytes, 1)));
  for (int r = 0; r < P; ++r) {
    for (int d = 0; d < P; ++d)
      for (int k = 0; k < MR; ++k)
        for (int e = 0; e < RE; ++e) {
          const int64_t i = (d * MR + k) * RE + e;
          if (c.i8) reinterpret_cast<int8_t*>(input[r].data())[i] = static_cast<int8_t>(payload_i8(r, d, k, e));
          else reinterpret_cast<float*>(input[r].data())[i] = static_cast<float>(payload_f32(r, d, k, e));
        }
    std::memset(w.window(r, off_target), c.target_bg, target_bytes);
  }

  // Row shape: [RE] or, when RE is even and > 2, [2, RE/2] (row = product of shape[1:]).
  std::vector<int64_t> row_dims = (RE > 2 && RE % 2 == 0) ? std::vector<int64_t>{2, RE / 2}
                                                         : std::vector<int64_t>{RE};
  auto dims_with = [&](int64_t rows) {
    std::vector<int64_t> d{rows};
    d.insert(d.end(), row_dims.begin(), row_dims.end());
    return d;
  };
  const char* kname = c.i8 ? "__builtin_all_to_all_v__int8" : "__builtin_all_to_all_v__fp32";
  w.register_kernel(kname, c.i8 ? &pld_a2a_i8 : &pld_a2a_f32);

  const int rounds = c.repeat > 1 ? 2 : 1;
  for (int round = 0; round < rounds; ++round) {
    w.clear_copies();
    const long started_before = w.blocks_started();
    auto status = w.run([&](int r, pld::rt::Orchestration& orch) {
      std::vector<int64_t> cdims = c.counts_2d ? std::vector<int64_t>{P, 1} : std::vector<int64_t>{P};
      Tensor in = make_tensor(input[r].data(), esz, dims_with(P * MR));
      Tensor tgt = make_tensor(w.window(r, off_target), esz, dims_with(P * MR));
      Tensor sig = make_tensor(w.window(r, off_signal), 4, {P, S});
      Tensor snd = make_tensor(w.window(r, off_send), 4, cdims);
      Tensor rcv = make_tensor(w.window(r, off_recv), 4, cdims);
      // Each rank writes its own send_counts just before the collective, at staggered times:
      // only barrier A makes them visible to the peers that pull them.
      if (round == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(300 * (r % 3)));
        for (int d = 0; d < P; ++d) static_cast<int32_t*>(w.window(r, off_send))[d] = c.sc[r][d];
      }
      for (int rep = 0; rep < c.repeat; ++rep) {
        pld::rt::Task t(1, kname);
        t.add_tensor(in, pld::rt::Dir::In)
            .add_tensor(tgt, pld::rt::Dir::InOut)
            .add_tensor(sig, pld::rt::Dir::InOut)
            .add_tensor(snd, pld::rt::Dir::In)
            .add_tensor(rcv, pld::rt::Dir::InOut)
            .add_comm_context(w.comm(r));
        if (c.chip_rail) t.add_comm_context(w.comm(r)).add_comm_context(w.comm(r));
        if (B > 1) {
          t.launch_spec().set_block_num(B);
          t.launch_spec().set_require_sync_start(true);
        }
        if (int rc = orch.submit(t)) return rc;
      }
      return 0;
    });
    for (int r = 0; r < P; ++r)
      CHECK(status[r] == c.expect_status, "rank %d status %d, expected %d (%s)", r, status[r],
            c.expect_status, w.error_message().c_str());

    // Every signal cell is back to 0.
    for (int r = 0; r < P; ++r)
      for (int i = 0; i < P * S; ++i) {
        const int32_t v = static_cast<int32_t*>(w.window(r, off_signal))[i];
        CHECK(v == 0, "rank %d signal[%d, %d] = %d", r, i / S, i % S, v);
      }

    if (c.expect_status != 0) {  // rejected launch: no block ran, nothing written
      CHECK(w.blocks_started() == started_before, "%ld blocks started",
            w.blocks_started() - started_before);
      for (int r = 0; r < P; ++r) {
        for (int64_t i = 0; i < target_bytes; ++i)
          CHECK(static_cast<uint8_t*>(w.window(r, off_target))[i] == c.target_bg, "rank %d target byte %lld written", r, (long long)i);
        for (int s = 0; s < P; ++s)
          CHECK(static_cast<int32_t*>(w.window(r, off_recv))[s] == 0, "rank %d recv_counts written", r);
      }
      CHECK(w.error_message().find("exceeds") != std::string::npos, "message '%s'",
            w.error_message().c_str());
      return;
    }
    CHECK(w.blocks_started() - started_before == static_cast<long>(P) * B * c.repeat,
          "%ld blocks started, expected %ld", w.blocks_started() - started_before,
          static_cast<long>(P) * B * c.repeat);

    // Target and recv_counts against the golden.
    for (int dst = 0; dst < P; ++dst) {
      const char* tgt = static_cast<const char*>(w.window(dst, off_target));
      const int32_t* rcv = static_cast<const int32_t*>(w.window(dst, off_recv));
      for (int src = 0; src < P; ++src) {
        const int64_t rows = golden_rows(c.sc[src][dst], MR);
        CHECK(rcv[src] == rows, "rank %d recv_counts[%d] = %d, expected %lld", dst, src, rcv[src],
              (long long)rows);
        for (int64_t k = 0; k < MR; ++k)
          for (int64_t e = 0; e < RE; ++e) {
            const int64_t i = ((src * MR) + k) * RE + e;
            if (k < rows) {
              if (c.i8) {
                const int got = reinterpret_cast<const int8_t*>(tgt)[i];
                CHECK(got == payload_i8(src, dst, k, e), "rank %d target row %lld elem %lld = %d",
                      dst, (long long)(src * MR + k), (long long)e, got);
              } else {
                const float got = reinterpret_cast<const float*>(tgt)[i];
                CHECK(got == static_cast<float>(payload_f32(src, dst, k, e)),
                      "rank %d target row %lld elem %lld = %f", dst, (long long)(src * MR + k),
                      (long long)e, got);
              }
            } else {
              for (int byte = 0; byte < esz; ++byte)
                CHECK(static_cast<uint8_t>(tgt[i * esz + byte]) == c.target_bg,
                      "rank %d target row %lld (past count %lld) elem %lld written", dst,
                      (long long)(src * MR + k), (long long)rows, (long long)e);
            }
          }
      }
    }

    // Wire accounting from the copy trace: every copy lies inside one (src -> dst) chunk's valid
    // region, was made by the block the work split assigns, and each chunk got exactly
    // rows x row_elems elements.
    const int active = std::min(B, S);
    std::vector<std::vector<int64_t>> bytes(P, std::vector<int64_t>(P, 0));
    // recv_counts stores: entry [r][s] is stored once per exchange, by the block serving peer s
    // with lane 0 (active < P: block s % active; else block s * K).
    std::vector<std::vector<int>> stores(P, std::vector<int>(P, 0));
    for (const auto& cp : w.copies()) {
      const char* rbase = static_cast<const char*>(w.window(cp.rank, off_recv));
      if (static_cast<const char*>(cp.dst) >= rbase && static_cast<const char*>(cp.dst) < rbase + P * 4) {
        const int s = static_cast<int>((static_cast<const char*>(cp.dst) - rbase) / 4);
        const int owner = active < P ? s % active : s * (active / P);
        CHECK(cp.bytes == 4 && cp.block == owner, "rank %d block %d stored recv_counts[%d] (owner %d)",
              cp.rank, cp.block, s, owner);
        ++stores[cp.rank][s];
        continue;
      }
      int dst = -1;
      for (int r = 0; r < P; ++r) {
        const char* base = static_cast<const char*>(w.window(r, off_target));
        if (static_cast<const char*>(cp.dst) >= base && static_cast<const char*>(cp.dst) < base + target_bytes) dst = r;
      }
      CHECK(dst >= 0, "rank %d block %d copied outside every target", cp.rank, cp.block);
      const int src = cp.rank;
      const int64_t off = static_cast<const char*>(cp.dst) - static_cast<const char*>(w.window(dst, off_target));
      const int64_t rows = golden_rows(c.sc[src][dst], MR);
      const int64_t lo = src * MR * RE * esz, hi = lo + rows * RE * esz;
      CHECK(off >= lo && off + static_cast<int64_t>(cp.bytes) <= hi,
            "rank %d block %d wrote [%lld, %lld) of rank %d's target, valid [%lld, %lld)", src,
            cp.block, (long long)off, (long long)(off + cp.bytes), dst, (long long)lo, (long long)hi);
      const bool ok_block = active < P ? (cp.block < active && dst % active == cp.block)
                                       : (cp.block / (active / P) == dst);
      CHECK(ok_block, "rank %d block %d pushed to peer %d (active %d)", src, cp.block, dst, active);
      bytes[src][dst] += static_cast<int64_t>(cp.bytes);
    }
    for (int src = 0; src < P; ++src)
      for (int dst = 0; dst < P; ++dst) {
        CHECK(stores[dst][src] == c.repeat, "rank %d recv_counts[%d] stored %d times in %d exchanges",
              dst, src, stores[dst][src], c.repeat);
        const int64_t want = golden_rows(c.sc[src][dst], MR) * RE * esz * c.repeat;
        CHECK(bytes[src][dst] == want, "%d -> %d: %lld bytes crossed, expected %lld", src, dst,
              (long long)bytes[src][dst], (long long)want);
      }

    // Next round starts from fresh results (the signal is NOT reset).
    for (int r = 0; r < P; ++r) {
      std::memset(w.window(r, off_target), c.target_bg, target_bytes);
      std::memset(w.window(r, off_recv), 0, P * 4);
    }
  }
}

// ------------------------------------------------------------------ count patterns
pld_test::Rng g_rng{12345};

Matrix pattern(const std::string& kind, int P, int MR) {
  return pld_test::count_pattern(kind, P, MR, g_rng);
}

std::string case_name(const Case& c) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "P%d_L%d_%s_mr%d_re%d_S%d_rep%d", c.P, c.L, c.i8 ? "i8" : "f32",
                c.max_recv, c.row_elems, c.S, c.repeat);
  return buf;
}

// ------------------------------------------------------------------ special tests
// The work split's slice examples (valid, K, align -> slices), observed through the copy trace:
// P = 1, so the only chunk is the self chunk and K = B.
void slice_example(bool i8, int blocks, int max_recv, int row_elems, int count,
                   const std::vector<std::pair<int64_t, int64_t>>& want) {
  const int esz = i8 ? 1 : 4;
  pld::host::Config cfg;
  cfg.trace_copies = true;
  World w(1, 1 << 16, cfg);
  w.register_kernel("k", i8 ? &pld_a2a_i8 : &pld_a2a_f32);
  const uint64_t ot = w.alloc(max_recv * row_elems * esz), os = w.alloc(blocks * 4),
                 osc = w.alloc(4), orc = w.alloc(4);
  static_cast<int32_t*>(w.window(0, osc))[0] = count;
  std::vector<char> in(max_recv * row_elems * esz, 1);
  auto st = w.run([&](int, pld::rt::Orchestration& orch) {
    pld::rt::Task t(1, "k");
    t.add_tensor(make_tensor(in.data(), esz, {max_recv, row_elems}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(0, ot), esz, {max_recv, row_elems}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(0, os), 4, {1, blocks}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(0, osc), 4, {1}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(0, orc), 4, {1}), pld::rt::Dir::InOut)
        .add_comm_context(w.comm(0));
    t.launch_spec().set_block_num(blocks);
    t.launch_spec().set_require_sync_start(true);
    return orch.submit(t);
  });
  CHECK(st[0] == 0, "status %d", st[0]);
  std::vector<std::pair<int64_t, int64_t>> got(blocks, {-1, -1});
  for (const auto& cp : w.copies()) {
    if (cp.dst == w.window(0, orc)) {
      CHECK(cp.block == 0, "block %d stored recv_counts", cp.block);
      continue;
    }
    const int64_t b = (static_cast<const char*>(cp.dst) - static_cast<const char*>(w.window(0, ot))) / esz;
    CHECK(got[cp.block].first < 0, "block %d copied twice", cp.block);
    got[cp.block] = {b, b + static_cast<int64_t>(cp.bytes) / esz};
  }
  for (int b = 0; b < blocks; ++b) {
    // An empty slice [x, x) sends nothing: the trace has no copy for it.
    const auto expect = want[b].first == want[b].second ? std::make_pair<int64_t, int64_t>(-1, -1) : want[b];
    CHECK(got[b] == expect, "block %d slice [%lld, %lld), expected [%lld, %lld)", b,
          (long long)got[b].first, (long long)got[b].second, (long long)want[b].first,
          (long long)want[b].second);
  }
  CHECK(static_cast<int32_t*>(w.window(0, orc))[0] == std::min(count, max_recv), "recv_counts");
}

// A kernel that returns early (bad rankNum / MAX_RECV / row size) does so on every rank alike:
// nothing is written, no signal is touched, every block still ran.
void early_return(int P, int64_t target_rows, int64_t row_elems, int blocks) {
  World w(P, 1 << 16);
  w.register_kernel("k", &pld_a2a_f32);
  const int64_t tb = std::max<int64_t>(target_rows * row_elems * 4, 4);
  const uint64_t ot = w.alloc(tb), os = w.alloc(P * blocks * 4), osc = w.alloc(P * 4),
                 orc = w.alloc(P * 4);
  std::vector<float> in(tb, 1.0f);
  for (int r = 0; r < P; ++r)
    for (int d = 0; d < P; ++d) {
      static_cast<int32_t*>(w.window(r, osc))[d] = 1;
      static_cast<int32_t*>(w.window(r, orc))[d] = -7;
    }
  auto st = w.run([&](int r, pld::rt::Orchestration& orch) {
    pld::rt::Task t(1, "k");
    t.add_tensor(make_tensor(in.data(), 4, {target_rows, row_elems}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(r, ot), 4, {target_rows, row_elems}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, os), 4, {P, blocks}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, osc), 4, {P}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(r, orc), 4, {P}), pld::rt::Dir::InOut)
        .add_comm_context(w.comm(r));
    t.launch_spec().set_block_num(blocks);
    t.launch_spec().set_require_sync_start(blocks > 1);
    return orch.submit(t);
  });
  for (int r = 0; r < P; ++r) {
    CHECK(st[r] == 0, "rank %d status %d", r, st[r]);
    for (int d = 0; d < P; ++d)
      CHECK(static_cast<int32_t*>(w.window(r, orc))[d] == -7, "rank %d recv_counts written", r);
    for (int i = 0; i < P * blocks; ++i)
      CHECK(static_cast<int32_t*>(w.window(r, os))[i] == 0, "rank %d signal touched", r);
    for (int64_t i = 0; i < tb; ++i)
      CHECK(static_cast<char*>(w.window(r, ot))[i] == 0, "rank %d target written", r);
  }
  CHECK(w.blocks_started() == static_cast<long>(P) * blocks, "blocks started %ld", w.blocks_started());
}

// A rank that never enters the collective: its peers time out with a diagnosis instead of hanging.
void lone_rank_times_out() {
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 300;
  const int P = 3, B = 2;
  World w(P, 1 << 16, cfg);
  w.register_kernel("k", &pld_a2a_f32);
  const uint64_t ot = w.alloc(P * 4 * 4), os = w.alloc(P * B * 4), osc = w.alloc(P * 4),
                 orc = w.alloc(P * 4);
  std::vector<float> in(P * 4, 1.0f);
  const auto t0 = std::chrono::steady_clock::now();
  auto st = w.run([&](int r, pld::rt::Orchestration& orch) {
    if (r == 2) return 0;  // rank 2 skips the collective
    pld::rt::Task t(1, "k");
    t.add_tensor(make_tensor(in.data(), 4, {P, 4}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(r, ot), 4, {P, 4}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, os), 4, {P, B}), pld::rt::Dir::InOut)
        .add_tensor(make_tensor(w.window(r, osc), 4, {P}), pld::rt::Dir::In)
        .add_tensor(make_tensor(w.window(r, orc), 4, {P}), pld::rt::Dir::InOut)
        .add_comm_context(w.comm(r));
    t.launch_spec().set_block_num(B);
    t.launch_spec().set_require_sync_start(true);
    int rc = orch.submit(t);
    // A later submit is refused with the latched code (reported as -1 otherwise).
    pld::rt::Task again(1, "k");
    return orch.submit(again) == rc ? rc : -1;
  });
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(st[0] == PLD_ERROR_WAIT_TIMEOUT && st[1] == PLD_ERROR_WAIT_TIMEOUT && st[2] == 0,
        "statuses %d %d %d", st[0], st[1], st[2]);
  const std::string m = w.error_message();
  CHECK(m.find("signal cell [2, ") != std::string::npos && m.find("block ") != std::string::npos &&
            (m.find("rank 0") != std::string::npos || m.find("rank 1") != std::string::npos),
        "message '%s'", m.c_str());
  CHECK(secs < 5.0, "took %.1f s", secs);
}

// Submit-time rejections: unknown kernel, block_num < 1, latch semantics.
void submit_errors() {
  World w(1, 4096);
  int rc1 = -1;
  auto st = w.run([&](int, pld::rt::Orchestration& orch) {
    pld::rt::Task t(9, "no_such_kernel");
    rc1 = orch.submit(t);
    return 0;  // the latched code is still the rank's status
  });
  CHECK(rc1 == PLD_ERROR_UNKNOWN_KERNEL && st[0] == PLD_ERROR_UNKNOWN_KERNEL, "submit %d status %d", rc1, st[0]);
  World w2(1, 4096);
  w2.register_kernel("k", &pld_a2a_f32);
  int rc2 = -1, rc3 = -1;
  st = w2.run([&](int, pld::rt::Orchestration& orch) {
    pld::rt::Task t(1, "k");
    t.launch_spec().set_block_num(0);
    rc2 = orch.submit(t);
    rc3 = orch.latch_error(7);  // the first latched code wins
    return orch.status();
  });
  CHECK(rc2 == SIMPLER_ERROR_INVALID_ARGS && rc3 == SIMPLER_ERROR_INVALID_ARGS &&
            st[0] == SIMPLER_ERROR_INVALID_ARGS, "submit %d latch %d status %d", rc2, rc3, st[0]);
  CHECK(w2.blocks_started() == 0, "blocks started");
}

// Tensor::is_contiguous.
void contiguity() {
  char buf[64];
  Tensor t = make_tensor(buf, 4, {4, 2, 2});
  CHECK(t.is_contiguous(), "packed");
  t.strides[0] = 8;
  CHECK(!t.is_contiguous(), "padded rows");
  Tensor u = make_tensor(buf, 4, {1, 6});
  u.strides[0] = 100;  // extent-1 dimension: any stride
  CHECK(u.is_contiguous(), "extent 1");
  Tensor v = make_tensor(buf, 4, {3, 2});
  std::swap(v.strides[0], v.strides[1]);  // transposed view
  CHECK(!v.is_contiguous(), "transposed");
  CHECK(Tensor::contiguous(buf, 4, {3, 5}).strides[0] == 5, "Tensor::contiguous");
}

// The docs/runtime-api.md example orchestration (stage -> all_to_all_v with B=8, sync start ->
// consume), its kernels registered by name with the world (device kernels have no registration
// hook of their own). `bad` names an operand made
// strided on every rank: the backstop must return 5 without running the collective or consume.
void example_pipeline(int P, const std::string& bad) {
  const int MR = 3, RE = 5, B = 8, S = 8;
  const int64_t n = P * MR * RE;
  World w(P, 1 << 20);
  w.register_kernel("__builtin_all_to_all_v__fp32", &pld_a2a_f32);
  w.register_kernel("stage_step", &pld_k_stage_step);
  w.register_kernel("consume_step", &pld_k_consume_step);
  const uint64_t o_stage = w.alloc(n * 4), o_data = w.alloc(n * 4), o_sig = w.alloc(P * S * 4),
                 o_cnt = w.alloc(P * 4), o_recv = w.alloc(P * 4);
  std::vector<std::vector<float>> inp(P, std::vector<float>(n)), out(P, std::vector<float>(n, -1.0f));
  Matrix sc(P, std::vector<int32_t>(P));
  for (int r = 0; r < P; ++r) {
    for (int d = 0; d < P; ++d) {
      sc[r][d] = (r + 2 * d) % (MR + 2) - 1;  // -1 .. MR+1
      static_cast<int32_t*>(w.window(r, o_cnt))[d] = sc[r][d];
      for (int k = 0; k < MR; ++k)
        for (int e = 0; e < RE; ++e)
          inp[r][(d * MR + k) * RE + e] = static_cast<float>(payload_f32(r, d, k, e));
    }
  }
  auto st = w.run([&](int r, pld::rt::Orchestration& orch) {
    std::vector<Tensor> t{make_tensor(inp[r].data(), 4, {P * MR, RE}),
                          make_tensor(out[r].data(), 4, {P * MR, RE}),
                          make_tensor(w.window(r, o_stage), 4, {P * MR, RE}),
                          make_tensor(w.window(r, o_data), 4, {P * MR, RE}),
                          make_tensor(w.window(r, o_sig), 4, {P, S}),
                          make_tensor(w.window(r, o_cnt), 4, {P, 1}),
                          make_tensor(w.window(r, o_recv), 4, {P, 1})};
    const char* names[] = {"inp", "out", "stage", "data", "signal", "counts", "recv"};
    for (int i = 0; i < 7; ++i)
      if (bad == names[i]) t[i].strides[0] += 1;  // padded rows: not contiguous
    Tensor* tp[7];
    for (int i = 0; i < 7; ++i) tp[i] = &t[i];
    uint64_t ctx[5];
    for (auto& c : ctx) c = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(w.comm(r)));
    static const char* const kernels[] = {"stage_step", "__builtin_all_to_all_v__fp32", "consume_step"};
    const pld::rt::ChipEntry entry{"chip_pipeline", &chip_pipeline_entry, &chip_pipeline_config, kernels, 3};
    return orch.run_chip(entry, pld::rt::ChipCall(tp, 7, ctx, 5));
  });
  if (!bad.empty()) {
    for (int r = 0; r < P; ++r) CHECK(st[r] == SIMPLER_ERROR_INVALID_ARGS, "rank %d status %d", r, st[r]);
    // The backstop's fatal report ends the run: stage_step, submitted before it, still runs;
    // nothing after it does.
    CHECK(w.blocks_started() == P, "%ld blocks started; only stage_step may run", w.blocks_started());
    for (int r = 0; r < P; ++r) {
      for (int64_t i = 0; i < n; ++i) {
        CHECK(static_cast<float*>(w.window(r, o_data))[i] == 0.0f, "collective ran");
        CHECK(out[r][i] == -1.0f, "consume ran");
      }
      for (int i = 0; i < P * S; ++i) CHECK(static_cast<int32_t*>(w.window(r, o_sig))[i] == 0, "signal");
    }
    return;
  }
  for (int r = 0; r < P; ++r) CHECK(st[r] == 0, "rank %d status %d (%s)", r, st[r], w.error_message().c_str());
  CHECK(w.blocks_started() == static_cast<long>(P) * (B + 2), "%ld blocks", w.blocks_started());
  for (int dst = 0; dst < P; ++dst)
    for (int src = 0; src < P; ++src) {
      const int64_t rows = golden_rows(sc[src][dst], MR);
      CHECK(static_cast<int32_t*>(w.window(dst, o_recv))[src] == rows, "recv_counts");
      for (int k = 0; k < MR; ++k)
        for (int e = 0; e < RE; ++e) {
          const float want = k < rows ? static_cast<float>(payload_f32(src, dst, k, e)) : 0.0f;
          CHECK(out[dst][(src * MR + k) * RE + e] == want, "rank %d out row %d elem %d", dst, src * MR + k, e);
        }
    }
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < P * S; ++i) CHECK(static_cast<int32_t*>(w.window(r, o_sig))[i] == 0, "signal");
}

}  // namespace

void a2a_suite(pld_test::Suite& t) {
  const bool quick = t.options().quick;
  auto add = [&](const std::string& name, const std::function<void()>& fn) { t.add(name, fn); };

  // Launch-width fold, pinned to RFC #2521's worked examples.
  add("fold_blocks_rfc2521", [] {
    const int table[][3] = {{8, 1, 1}, {8, 7, 7}, {8, 8, 8}, {8, 10, 8}, {8, 15, 8}, {8, 16, 16},
                            {16, 7, 7}, {16, 16, 16}, {4, 2, 2}, {4, 10, 8}, {2, 5, 4}, {2, 6, 6},
                            {2, 51, 50}};
    for (auto& row : table)
      CHECK(fold_blocks(row[0], row[1]) == row[2], "P=%d L=%d", row[0], row[1]);
  });
  add("contiguity", contiguity);
  add("submit_errors", submit_errors);
  add("slice_10_3_f32", [] { slice_example(false, 3, 1, 10, 1, {{0, 8}, {8, 10}, {10, 10}}); });
  add("slice_36_2_i8", [] { slice_example(true, 2, 1, 36, 5, {{0, 32}, {32, 36}}); });
  add("slice_64_3_i8", [] { slice_example(true, 3, 2, 32, 2, {{0, 32}, {32, 64}, {64, 64}}); });
  add("slice_2_4_f32", [] { slice_example(false, 4, 1, 2, 1, {{0, 2}, {2, 2}, {2, 2}, {2, 2}}); });
  add("early_return_ranknum_17", [] { early_return(17, 17 * 2, 3, 1); });
  add("early_return_max_recv_0", [] { early_return(4, 3, 3, 4); });
  add("early_return_row_elems_0", [] { early_return(2, 4, 0, 2); });
  add("lone_rank_times_out", lone_rank_times_out);
  add("example_pipeline_P4", [] { example_pipeline(4, ""); });
  add("example_pipeline_P1", [] { example_pipeline(1, ""); });
  add("example_pipeline_P8", [] { example_pipeline(8, ""); });
  for (const char* bad : {"stage", "data", "signal", "counts", "recv"})
    add(std::string("example_pipeline_noncontiguous_") + bad, [bad] { example_pipeline(4, bad); });

  // The matrix: P x L x counts x dtype.
  const std::vector<int> Ps = quick ? std::vector<int>{2, 4, 8} : std::vector<int>{1, 2, 4, 8, 16};
  const std::vector<int> Ls = quick ? std::vector<int>{1, 4, 8} : std::vector<int>{1, 2, 4, 8, 10, 16};
  const std::vector<std::string> kinds = quick
      ? std::vector<std::string>{"zero_and_full", "random"}
      : std::vector<std::string>{"uniform", "zero_and_full", "one_and_full", "over_capacity", "negative", "random"};
  const int shapes[][2] = {{4, 8}, {3, 5}, {2, 33}, {5, 3}, {1, 13}, {4, 40}};  // max_recv, row_elems
  int idx = 0;
  for (int P : Ps)
    for (int L : Ls)
      for (const auto& kind : kinds)
        for (bool i8 : {false, true}) {
          Case c;
          c.P = P;
          c.L = L;
          c.i8 = i8;
          c.max_recv = shapes[idx % 6][0];
          c.row_elems = shapes[idx % 6][1];
          c.sc = pattern(kind, P, c.max_recv);
          c.chip_rail = idx % 2 == 0;
          c.counts_2d = idx % 3 == 0;
          ++idx;
          add("matrix_" + kind + "_" + case_name(c), [c] { run_case(c); });
        }

  // Extras: repeat on one signal, S > B, S < B, odd widths, sentinel background, capacity.
  auto extra = [&](const std::string& name, Case c, const std::string& kind) {
    c.sc = pattern(kind, c.P, c.max_recv);
    add("extra_" + name + "_" + case_name(c), [c] { run_case(c); });
  };
  auto mk = [](int P, int L, bool i8, int mr, int re) {
    Case c;
    c.P = P; c.L = L; c.i8 = i8; c.max_recv = mr; c.row_elems = re;
    return c;
  };
  const int rep = quick ? 10 : 100;
  { Case c = mk(4, 8, false, 3, 7); c.repeat = rep; extra("repeat", c, "random"); }
  { Case c = mk(8, 3, true, 2, 9); c.repeat = rep; extra("repeat", c, "one_and_full"); }
  if (!quick) { Case c = mk(16, 16, true, 2, 33); c.repeat = 100; extra("repeat", c, "random"); }
  { Case c = mk(2, 1, false, 4, 8); c.repeat = rep; c.S = 3; extra("repeat_S_gt_B", c, "negative"); }
  { Case c = mk(4, 4, false, 4, 8); c.S = 7; extra("S_gt_B", c, "random"); }
  { Case c = mk(8, 10, true, 3, 5); c.S = 12; extra("S_gt_B", c, "over_capacity"); }
  { Case c = mk(4, 8, false, 4, 3); c.S = 5; extra("S_lt_B_active5", c, "random"); }
  { Case c = mk(8, 8, true, 2, 33); c.S = 3; extra("S_lt_P_active3", c, "uniform"); }
  { Case c = mk(4, 0, false, 3, 5); c.blocks = 6; extra("raw_B6_P4", c, "random"); }
  { Case c = mk(3, 7, true, 5, 11); extra("P3_L7", c, "random"); }
  { Case c = mk(5, 12, false, 2, 64); c.blocks = 12; extra("P5_B12", c, "one_and_full"); }
  { Case c = mk(2, 48, false, 2, 300); extra("B48_at_capacity", c, "uniform"); }
  { Case c = mk(4, 8, true, 4, 8); c.target_bg = 0x5A; extra("sentinel_bg", c, "random"); }
  { Case c = mk(16, 16, false, 2, 3); c.target_bg = 0xA5; extra("sentinel_bg", c, "zero_and_full"); }
  { Case c = mk(4, 64, false, 2, 8); c.expect_status = 7; extra("over_capacity_launch", c, "uniform"); }
  { Case c = mk(4, 16, true, 2, 8); c.capacity = 8; c.expect_status = 7; extra("capacity8_launch", c, "uniform"); }
  { Case c = mk(4, 8, true, 2, 8); c.capacity = 8; extra("capacity8_exact", c, "random"); }
}

// The api suite: the host runtime's own API with the rendered all_to_all_v kernel (float) as its
// collective: submit-time rejections, Tensor::is_contiguous, a rank that never enters the
// collective, and the docs/runtime-api.md example orchestration (runtime/examples). The kernels'
// own contract (every width, layout, early return and capacity refusal) is pld-sim's: the raw
// launches of its matrix (docs/sim.md). Run by runtime/tests/main.cpp
// (`runtime_tests --suite api [--filter SUBSTR] [-v]`).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/task.h"

extern "C" void pld_a2a_f32(int64_t* args);  // rendered kernel.cpp.in, dtype_cpp = float
// runtime/examples/chip_pipeline.cpp, its entry points renamed on the command line (run.sh).
extern "C" void chip_pipeline_entry(const ChipTaskArgs& orch_args);
extern "C" PTO2OrchestrationConfig chip_pipeline_config(const ChipTaskArgs& orch_args);
// The example's user kernels (runtime/examples/kernels, device kernel text), entries renamed.
extern "C" void pld_k_stage_step(int64_t* args);
extern "C" void pld_k_consume_step(int64_t* args);

namespace {

using pld::Tensor;
using pld::host::World;
using pld_test::golden_rows;
using pld_test::Matrix;

double payload_f32(int r, int d, int k, int e) { return r * 1000000.0 + d * 10000.0 + k * 100.0 + e; }

Tensor make_tensor(void* data, int esz, std::vector<int64_t> dims) {
  return Tensor::contiguous(data, esz, dims.data(), dims.size());
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

void api_suite(pld_test::Suite& t) {
  auto add = [&](const std::string& name, const std::function<void()>& fn) { t.add(name, fn); };
  add("contiguity", contiguity);
  add("submit_errors", submit_errors);
  add("lone_rank_times_out", lone_rank_times_out);
  add("example_pipeline_P4", [] { example_pipeline(4, ""); });
  add("example_pipeline_P1", [] { example_pipeline(1, ""); });
  add("example_pipeline_P8", [] { example_pipeline(8, ""); });
  for (const char* bad : {"stage", "data", "signal", "counts", "recv"})
    add(std::string("example_pipeline_noncontiguous_") + bad, [bad] { example_pipeline(4, bad); });
}

// device_test: the device ordering model of pld's CPU pto-isa subset (runtime/host/device.cpp,
// docs/device.md). Kernels written in the device's kernel text move data between two ranks; the
// correct ones must give the right data and status 0, each one missing a barrier, a dsb or a flag
// must fail its run with status 122 and a message that names the kernel, the line and the rule.
// Without PLD_DMA_SEED transfers complete at the latest point the device allows (so a source
// changed before the completion point is what lands); with it (`runtime_tests --suite device
// --seeded`, run.sh sets PLD_DMA_SEED) at seeded random earlier points, where the correct kernels
// must still pass.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <pto/comm/pto_comm_inst.hpp>
#include <pto/pto-inst.hpp>

#include "intrinsic.h"
#include "platform_comm/comm_context.h"
#include "harness.h"
#include "pld_runtime/host.h"
#include "pld_runtime/task.h"
#include "tensor.h"

namespace {

pld_test::Suite* g_suite = nullptr;  // the running suite (its checks are counted one by one)

void check(bool ok, const std::string& what) { g_suite->check(ok, what); }

constexpr int kN = 300;  // floats per rank

using Row = pto::GlobalTensor<float, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>,
                              pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>>;
using Tile = pto::Tile<pto::TileType::Vec, float, 1, 512, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;

Row row(float* p, int64_t n) {
  return Row(p, pto::Shape<1, 1, 1, 1, pto::DYNAMIC>(n),
             pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(n, n, n, n));
}
float* data(int64_t* args, int i) {
  auto* t = reinterpret_cast<ChipTensor*>(args[i]);
  return reinterpret_cast<float*>(t->buffer.addr) + t->start_offset;
}

// What a kernel leaves out (each a rule of the device's order), or kPeerLoad: it TLOADs the peer's
// window instead of its own (data cross ranks only through TPUT / TGET).
enum class Omit { kNothing, kBarrier, kDsb, kFlag, kSetFlag, kStoreBarrier, kLoadBarrier, kPeerLoad };
Omit g_omit = Omit::kNothing;
bool g_poke_source = false;  // change the source after the TPUT, before its completion point

// args: src [kN] (the rank's own), target [kN] (window), signal [2] i32 (window), CommContext.
// Pushes src into the peer's target, publishes, credits the peer, waits for the peer's credit,
// returns the cell to 0. Then target += target on the vector unit (TLOAD, TADD, TSTORE), reads the
// result back and stores it again (global memory between MTE3 and MTE2, ordered by barriers).
void exchange(int64_t* args) {
  float* src = data(args, 0);
  float* tgt = data(args, 1);
  auto* sig = reinterpret_cast<int32_t*>(data(args, 2));
  auto* ctx = reinterpret_cast<CommContext*>(args[3]);
  const uint32_t me = ctx->rankId, peer = 1 - me;
  auto remote = [&](auto* p) {
    using P = decltype(p);
    return reinterpret_cast<P>(ctx->windowsIn[peer] + (reinterpret_cast<uint64_t>(p) - ctx->windowsIn[me]));
  };
  Tile stage(1, 512);
  TASSIGN(stage, 0);
  Row d = row(remote(tgt), kN), s = row(src, kN);
  pto::comm::TPUT(d, s, stage);
  if (g_poke_source) src[0] = 1000.0f + static_cast<float>(me);
  if (g_omit != Omit::kBarrier) pipe_barrier(PIPE_ALL);
  if (g_omit != Omit::kDsb) dsb(DSB_DDR);
  pto::comm::Signal credit(remote(sig + me));
  pto::comm::TNOTIFY(credit, 1, pto::comm::NotifyOp::AtomicAdd);
  pto::comm::Signal mine(sig + peer);
  pto::comm::TWAIT(mine, 1, pto::comm::WaitCmp::GE);
  pto::comm::TNOTIFY(mine, 0, pto::comm::NotifyOp::Set);

  Tile a(1, kN), b(1, kN);
  TASSIGN(a, 4096);
  TASSIGN(b, 8192);
  Row t = row(tgt, kN);
  Row theirs = row(remote(tgt), kN);
  TLOAD(a, g_omit == Omit::kPeerLoad ? theirs : t);
  TLOAD(b, t);
  if (g_omit != Omit::kFlag) {
    if (g_omit != Omit::kSetFlag) set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  }
  TADD(a, a, b);
  set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
  TSTORE(t, a);
  if (g_omit != Omit::kStoreBarrier) pipe_barrier(PIPE_ALL);
  TLOAD(b, t);  // reads what the TSTORE wrote
  if (g_omit != Omit::kLoadBarrier) pipe_barrier(PIPE_ALL);
  TSTORE(t, a);  // overwrites what the TLOAD read
}

struct Outcome {
  std::vector<int> status;
  std::string message;
  std::vector<std::vector<float>> target;
  std::vector<std::vector<int32_t>> signal;
};

Outcome run_exchange() {
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 5000;
  pld::host::World w(2, 1 << 16, cfg);
  w.register_kernel("exchange", &exchange);
  const uint64_t o_tgt = w.alloc(kN * 4), o_sig = w.alloc(2 * 4);
  std::vector<std::vector<float>> src(2, std::vector<float>(kN));
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < kN; ++i) src[r][i] = static_cast<float>(r * 1000 + i);
  Outcome o;
  o.status = w.run([&](int r, pld::rt::Orchestration& orch) {
    pld::rt::Task t(0, "exchange");
    t.add_tensor(pld::Tensor::contiguous(src[r].data(), 4, {kN}), pld::rt::Dir::In);
    t.add_tensor(pld::Tensor::contiguous(w.window(r, o_tgt), 4, {kN}), pld::rt::Dir::InOut);
    t.add_tensor(pld::Tensor::contiguous(w.window(r, o_sig), 4, {2}), pld::rt::Dir::InOut);
    t.add_comm_context(w.comm(r));
    return orch.submit(t);
  });
  o.message = w.error_message();
  for (int r = 0; r < 2; ++r) {
    auto* t = static_cast<float*>(w.window(r, o_tgt));
    auto* s = static_cast<int32_t*>(w.window(r, o_sig));
    o.target.emplace_back(t, t + kN);
    o.signal.emplace_back(s, s + 2);
  }
  return o;
}

bool has(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

void correct_exchange() {
  g_omit = Omit::kNothing;
  const Outcome o = run_exchange();
  check(o.status == std::vector<int>{0, 0}, "correct: status " + o.message);
  bool ok = true;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < kN; ++i) ok &= o.target[r][i] == 2.0f * static_cast<float>((1 - r) * 1000 + i);
  check(ok, "correct: target = 2 * the peer's source");
  check(o.signal[0] == std::vector<int32_t>{0, 0} && o.signal[1] == std::vector<int32_t>{0, 0},
        "correct: signal back to 0");
}

// The latest completion point: a source changed after the TPUT, before the barrier, is what lands.
void transfer_lands_at_its_completion_point() {
  g_omit = Omit::kNothing;
  g_poke_source = true;
  const Outcome o = run_exchange();
  g_poke_source = false;
  check(o.status == std::vector<int>{0, 0}, "deferred: status " + o.message);
  check(o.target[0][0] == 2.0f * 1001.0f && o.target[1][0] == 2.0f * 1000.0f,
        "deferred: the source's value at the barrier landed");
}

void violation(Omit omit, const char* name, std::vector<const char*> parts) {
  g_omit = omit;
  const Outcome o = run_exchange();
  g_omit = Omit::kNothing;
  bool failed = false;
  for (int st : o.status) failed |= st == PLD_ERROR_DEVICE_ORDER;
  check(failed, std::string(name) + ": a rank's status is 122, got " + std::to_string(o.status[0]) + ", " +
                    std::to_string(o.status[1]) + " (" + o.message + ")");
  parts.push_back("device-order violation in kernel 'exchange' (rank ");
  parts.push_back(" at line ");
  for (const char* p : parts) check(has(o.message, p), std::string(name) + ": message has '" + p + "': " + o.message);
}

// args: t [4, 64] f32. Loads the left 32 columns, stores them into the right 32, and while that
// store is in flight loads the left columns again (interleaved rows, no shared byte: no
// violation) or, with g_reload_right, the right ones (a read of memory the store still writes).
bool g_reload_right = false;
void column_tiles(int64_t* args) {
  using Cols = pto::GlobalTensor<float, pto::Shape<1, 1, 1, pto::DYNAMIC, pto::DYNAMIC>,
                                 pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>>;
  using Tile4 = pto::Tile<pto::TileType::Vec, float, 4, 32, pto::BLayout::RowMajor, pto::DYNAMIC, pto::DYNAMIC>;
  float* p = data(args, 0);
  auto cols = [](float* at) {
    return Cols(at, pto::Shape<1, 1, 1, pto::DYNAMIC, pto::DYNAMIC>(4, 32),
                pto::Stride<pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, pto::DYNAMIC, 1>(256, 256, 256, 64));
  };
  Cols left = cols(p), right = cols(p + 32);
  Tile4 a(4, 32), b(4, 32);
  TASSIGN(a, 0);
  TASSIGN(b, 4096);
  TLOAD(a, left);
  set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
  TSTORE(right, a);
  TLOAD(b, g_reload_right ? right : left);
  pipe_barrier(PIPE_ALL);
}

void column_tiles_case(bool reload_right) {
  g_reload_right = reload_right;
  pld::host::World w(1, 4096);
  w.register_kernel("column_tiles", &column_tiles);
  std::vector<float> t(4 * 64);
  for (int i = 0; i < 4 * 64; ++i) t[i] = static_cast<float>(i % 64 < 32 ? i : -1);
  const std::vector<int> status = w.run([&](int, pld::rt::Orchestration& orch) {
    pld::rt::Task task(0, "column_tiles");
    task.add_tensor(pld::Tensor::contiguous(t.data(), 4, {4, 64}), pld::rt::Dir::InOut);
    return orch.submit(task);
  });
  g_reload_right = false;
  if (!reload_right) {
    check(status == std::vector<int>{0}, "column tiles: status " + w.error_message());
    bool ok = true;
    for (int i = 0; i < 4 * 64; ++i) ok &= t[i] == static_cast<float>(i % 64 < 32 ? i : i - 32);
    check(ok, "column tiles: the right columns hold the left ones");
  } else {
    check(status == std::vector<int>{PLD_ERROR_DEVICE_ORDER}, "reload right: status 122, got " +
                                                                  std::to_string(status[0]) + " (" +
                                                                  w.error_message() + ")");
    check(has(w.error_message(), "TLOAD: it reads global memory that TSTORE (line "),
          "reload right: message names the TSTORE in flight: " + w.error_message());
  }
}

}  // namespace

void device_suite(pld_test::Suite& t) {
  g_suite = &t;
  const bool seeded = t.options().seeded;
  if (seeded && !std::getenv("PLD_DMA_SEED")) {
    t.check(false, "--seeded needs PLD_DMA_SEED");
    return;
  }
  for (int i = 0; i < (seeded ? 20 : 3); ++i) correct_exchange();
  if (!seeded) {
    transfer_lands_at_its_completion_point();
    violation(Omit::kBarrier, "no barrier", {"TNOTIFY: TPUT (line ", "has not completed"});
    violation(Omit::kDsb, "no dsb", {"TNOTIFY: TPUT (line ", "no dsb(DSB_DDR) ordered"});
    violation(Omit::kFlag, "no flag", {"TADD: it reads a tile that TLOAD (line "});
    violation(Omit::kSetFlag, "wait without set",
              {"wait_flag: no set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) precedes it"});
    violation(Omit::kStoreBarrier, "read before the store landed",
              {"TLOAD: it reads global memory that TSTORE (line ", "not yet completed, still writes"});
    violation(Omit::kLoadBarrier, "store over a load in flight",
              {"TSTORE: it overwrites global memory that TLOAD (line ", "not yet completed, still reads"});
    column_tiles_case(false);
    column_tiles_case(true);
    violation(Omit::kPeerLoad, "a peer's window loaded",
              {"TLOAD: it reads rank ", "'s window: data cross ranks only through TPUT / TGET"});
  }
}

// Driver for examples/ep_moe.mlir's generated build tree on the host runtime (tests/examples.rs).
//
//   ep_driver P NUM_LAYERS chip|host INPUT_FILE
//
// INPUT_FILE holds the P * T * H floats of `inp` (every rank's tokens, [P * T, H], row-major).
// `chip` runs the CHIP orchestration function ep_moe directly on every rank (the driver allocates
// the windows and passes NUM_LAYERS as OrchArgs scalar 0); `host` runs the generated HOST
// orchestrator ep_host (it allocates the windows and dispatches ep_moe per device with the same
// scalar).
// Prints `status <code>`, each rank's status, the error message if any, how many kernel blocks
// ran, in chip mode the signal cells' sum and `table <r> <K ints>` (rank r's routing-table window
// after the run), then `row <g> <H floats>` for every row of `out` (which starts at -1
// everywhere). The expected values are computed by the test, not here.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/host_entry.h"

extern "C" int ep_moe(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args);
extern "C" int ep_host(pld::host::Host* host, const pld::host::HostArgs* args);

namespace {

constexpr int64_t kTokens = 8, kHidden = 4, kCapacity = 3, kClasses = 5, kSignalStride = 2;

std::vector<float> read_floats(const char* path, size_t n) {
  std::vector<float> v;
  FILE* f = std::fopen(path, "r");
  if (!f) return v;
  float x;
  while (v.size() < n && std::fscanf(f, "%f", &x) == 1) v.push_back(x);
  std::fclose(f);
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s P NUM_LAYERS chip|host INPUT_FILE\n", argv[0]);
    return 2;
  }
  const int P = std::atoi(argv[1]);
  const int64_t layers = std::atoll(argv[2]);
  const std::string mode = argv[3];
  const char* input = argv[4];
  const int64_t rows = P * kTokens, slots = P * kCapacity;
  std::vector<float> inp = read_floats(input, static_cast<size_t>(rows * kHidden));
  if (static_cast<int64_t>(inp.size()) != rows * kHidden) {
    std::fprintf(stderr, "%s: expected %ld floats\n", input, static_cast<long>(rows * kHidden));
    return 2;
  }
  std::vector<float> out(static_cast<size_t>(rows * kHidden), -1.0f);
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 10000;
  pld::host::World world(P, 1 << 16, cfg);
  pld::rt::Tensor t_inp = pld::rt::Tensor::contiguous(inp.data(), 4, {rows, kHidden});
  pld::rt::Tensor t_out = pld::rt::Tensor::contiguous(out.data(), 4, {rows, kHidden});

  int rc = 0;
  std::vector<int> status;
  std::string message;
  uint64_t signal = 0, table = 0;
  const bool chip = mode == "chip";
  if (chip) {
    // The windows ep_moe takes, in parameter order after inp and out.
    const uint64_t act_a = world.alloc(kTokens * kHidden * 4), act_b = world.alloc(kTokens * kHidden * 4);
    table = world.alloc(kClasses * 4);
    const uint64_t recv = world.alloc(slots * kHidden * 4), combined = world.alloc(slots * kHidden * 4);
    signal = world.alloc(P * kSignalStride * 4);
    status = world.run([&](int r, pld::rt::Orchestration& orch) {
      std::vector<pld::rt::Tensor> t{t_inp, t_out};
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, act_a), 4, {kTokens, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, act_b), 4, {kTokens, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, table), 4, {kClasses}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, recv), 4, {slots, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, combined), 4, {slots, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, signal), 4, {P, kSignalStride}));
      std::vector<pld::rt::Tensor*> tp;
      for (auto& x : t) tp.push_back(&x);
      std::vector<pld::CommContext*> cp(6, world.comm(r));  // one per window parameter
      const int64_t scalars[] = {layers};
      pld::rt::OrchArgs args;
      args.tensors = tp.data();
      args.num_tensors = static_cast<int>(tp.size());
      args.comms = cp.data();
      args.num_comms = static_cast<int>(cp.size());
      args.scalars = scalars;
      args.num_scalars = 1;
      return ep_moe(&orch, &args);
    });
    for (int s : status) {
      if (s != 0 && rc == 0) rc = s;
    }
    message = world.error_message();
  } else if (mode == "host") {
    pld::rt::Tensor* tensors[] = {&t_inp, &t_out};
    const int64_t scalars[] = {layers};
    pld::host::HostArgs args;
    args.tensors = tensors;
    args.num_tensors = 2;
    args.scalars = scalars;
    args.num_scalars = 1;
    rc = pld::host::run_host_entry(world, &ep_host, args, &status, &message);
  } else {
    std::fprintf(stderr, "mode must be chip or host\n");
    return 2;
  }

  std::printf("status %d\n", rc);
  for (size_t r = 0; r < status.size(); ++r) std::printf("rank_status %zu %d\n", r, status[r]);
  if (!message.empty()) std::printf("message %s\n", message.c_str());
  std::printf("blocks %ld\n", world.blocks_started());
  if (chip) {
    long sum = 0;
    for (int r = 0; r < P; ++r)
      for (int64_t i = 0; i < P * kSignalStride; ++i) sum += static_cast<int32_t*>(world.window(r, signal))[i];
    std::printf("signal_sum %ld\n", sum);
    for (int r = 0; r < P; ++r) {
      std::printf("table %d", r);
      for (int64_t k = 0; k < kClasses; ++k) std::printf(" %d", static_cast<int32_t*>(world.window(r, table))[k]);
      std::printf("\n");
    }
  }
  for (int64_t g = 0; g < rows; ++g) {
    std::printf("row %ld", static_cast<long>(g));
    for (int64_t j = 0; j < kHidden; ++j) std::printf(" %.9g", static_cast<double>(out[g * kHidden + j]));
    std::printf("\n");
  }
  return 0;
}

// Driver for examples/tp_layer.mlir's generated build tree on the host runtime (tests/examples.rs).
//
//   tp_driver P chip|host INPUT_FILE
//
// INPUT_FILE holds, in order, the T * H floats of `inp` ([T, H], the tokens every rank holds), the
// NL * H * F floats of `w1` ([NL * H, F]) and the NL * F * H floats of `w2` ([NL * F, H]), F = P * Fs,
// all row-major. `chip` runs the CHIP orchestration function tp_layer directly on every rank (the
// driver allocates the windows); `host` runs the generated HOST orchestrator tp_host (it allocates
// the windows and dispatches tp_layer per device).
// Prints `status <code>`, each rank's status, the error message if any, how many kernel blocks ran,
// the signal cells' sum (chip mode), then `row <g> <H floats>` for every row of `out` ([P * T, H],
// rank r's result in rows [r * T, (r + 1) * T), -1 before the run). The expected values are
// computed by the test, not here.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host.h"
#include "pld_runtime/host_entry.h"

extern "C" int tp_layer(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args);
extern "C" int tp_host(pld::host::Host* host, const pld::host::HostArgs* args);

namespace {

constexpr int64_t kTokens = 4, kHidden = 6, kShard = 3, kLayers = 3, kSignalStride = 2;

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
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s P chip|host INPUT_FILE\n", argv[0]);
    return 2;
  }
  const int P = std::atoi(argv[1]);
  const std::string mode = argv[2];
  const int64_t ffn = P * kShard, n_inp = kTokens * kHidden, n_w = kLayers * kHidden * ffn;
  std::vector<float> all = read_floats(argv[3], static_cast<size_t>(n_inp + 2 * n_w));
  if (static_cast<int64_t>(all.size()) != n_inp + 2 * n_w) {
    std::fprintf(stderr, "%s: expected %ld floats\n", argv[3], static_cast<long>(n_inp + 2 * n_w));
    return 2;
  }
  std::vector<float> inp(all.begin(), all.begin() + n_inp);
  std::vector<float> w1(all.begin() + n_inp, all.begin() + n_inp + n_w);
  std::vector<float> w2(all.begin() + n_inp + n_w, all.end());
  const int64_t rows = P * kTokens;
  std::vector<float> out(static_cast<size_t>(rows * kHidden), -1.0f);
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 10000;
  pld::host::World world(P, 1 << 16, cfg);
  pld::rt::Tensor t_inp = pld::rt::Tensor::contiguous(inp.data(), 4, {kTokens, kHidden});
  pld::rt::Tensor t_w1 = pld::rt::Tensor::contiguous(w1.data(), 4, {kLayers * kHidden, ffn});
  pld::rt::Tensor t_w2 = pld::rt::Tensor::contiguous(w2.data(), 4, {kLayers * ffn, kHidden});
  pld::rt::Tensor t_out = pld::rt::Tensor::contiguous(out.data(), 4, {rows, kHidden});

  int rc = 0;
  std::vector<int> status;
  std::string message;
  uint64_t signal = 0;
  const bool chip = mode == "chip";
  if (chip) {
    // The windows tp_layer takes, in parameter order after inp, w1, w2 and out.
    const uint64_t act_a = world.alloc(kTokens * kHidden * 4), act_b = world.alloc(kTokens * kHidden * 4);
    signal = world.alloc(P * kSignalStride * 4);
    status = world.run([&](int r, pld::rt::Orchestration& orch) {
      std::vector<pld::rt::Tensor> t{t_inp, t_w1, t_w2, t_out};
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, act_a), 4, {kTokens, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, act_b), 4, {kTokens, kHidden}));
      t.push_back(pld::rt::Tensor::contiguous(world.window(r, signal), 4, {P, kSignalStride}));
      std::vector<pld::rt::Tensor*> tp;
      for (auto& x : t) tp.push_back(&x);
      std::vector<pld::CommContext*> cp(3, world.comm(r));  // one per window parameter
      pld::rt::OrchArgs args;
      args.tensors = tp.data();
      args.num_tensors = static_cast<int>(tp.size());
      args.comms = cp.data();
      args.num_comms = static_cast<int>(cp.size());
      return tp_layer(&orch, &args);
    });
    for (int s : status) {
      if (s != 0 && rc == 0) rc = s;
    }
    message = world.error_message();
  } else if (mode == "host") {
    pld::rt::Tensor* tensors[] = {&t_inp, &t_w1, &t_w2, &t_out};
    pld::host::HostArgs args;
    args.tensors = tensors;
    args.num_tensors = 4;
    rc = pld::host::run_host_entry(world, &tp_host, args, &status, &message);
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
  }
  for (int64_t g = 0; g < rows; ++g) {
    std::printf("row %ld", static_cast<long>(g));
    for (int64_t j = 0; j < kHidden; ++j) std::printf(" %.9g", static_cast<double>(out[g * kHidden + j]));
    std::printf("\n");
  }
  return 0;
}

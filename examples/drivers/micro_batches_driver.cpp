// Driver for examples/micro_batches.mlir's generated build tree on the host runtime
// (tests/examples.rs).
//
//   micro_batches_driver P INPUT_FILE
//
// INPUT_FILE holds P * M * mb * H floats: rank r's x ([M * mb, H], mb = P * R) after rank r-1's.
// Runs the CHIP orchestration function micro_batches on every rank (the driver allocates the
// windows; x and y are each rank's own buffers, y starting at -1 everywhere) and prints
// `status <code>`, each rank's status, the signal cells' sum and the runtime buffers still
// live, then `y <r> <row> <H floats>` for every row of every rank's y. The expected values are
// computed by the test, not here.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host.h"

extern "C" int micro_batches(pld::rt::Orchestration* orch, const pld::rt::OrchArgs* args);

namespace {

constexpr int64_t kMicro = 3, kPerPeer = 2, kHidden = 3, kSignalStride = 4;

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
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s P INPUT_FILE\n", argv[0]);
    return 2;
  }
  const int P = std::atoi(argv[1]);
  const int64_t mb = P * kPerPeer, rows = kMicro * mb, per_rank = rows * kHidden;
  std::vector<float> all = read_floats(argv[2], static_cast<size_t>(P * per_rank));
  if (static_cast<int64_t>(all.size()) != P * per_rank) {
    std::fprintf(stderr, "%s: expected %ld floats\n", argv[2], static_cast<long>(P * per_rank));
    return 2;
  }
  std::vector<std::vector<float>> x(P), y(P, std::vector<float>(static_cast<size_t>(per_rank), -1.0f));
  for (int r = 0; r < P; ++r) x[r].assign(all.begin() + r * per_rank, all.begin() + (r + 1) * per_rank);

  pld::host::Config cfg;
  cfg.wait_timeout_ms = 10000;
  pld::host::World world(P, 1 << 16, cfg);
  const uint64_t stage = world.alloc(mb * kHidden * 4), recv = world.alloc(mb * kHidden * 4);
  const uint64_t signal = world.alloc(P * kSignalStride * 4);
  const uint64_t send_counts = world.alloc(P * 4), recv_counts = world.alloc(P * 4);
  std::vector<size_t> live(P, 0);
  std::vector<int> status = world.run([&](int r, pld::rt::Orchestration& orch) {
    std::vector<pld::rt::Tensor> t{
        pld::rt::Tensor::contiguous(x[r].data(), 4, {rows, kHidden}),
        pld::rt::Tensor::contiguous(y[r].data(), 4, {rows, kHidden}),
        pld::rt::Tensor::contiguous(world.window(r, stage), 4, {mb, kHidden}),
        pld::rt::Tensor::contiguous(world.window(r, recv), 4, {mb, kHidden}),
        pld::rt::Tensor::contiguous(world.window(r, signal), 4, {P, kSignalStride}),
        pld::rt::Tensor::contiguous(world.window(r, send_counts), 4, {P}),
        pld::rt::Tensor::contiguous(world.window(r, recv_counts), 4, {P})};
    std::vector<pld::rt::Tensor*> tp;
    for (auto& v : t) tp.push_back(&v);
    std::vector<pld::CommContext*> cp(5, world.comm(r));  // one per window parameter
    pld::rt::OrchArgs args;
    args.tensors = tp.data();
    args.num_tensors = static_cast<int>(tp.size());
    args.comms = cp.data();
    args.num_comms = static_cast<int>(cp.size());
    const int rc = micro_batches(&orch, &args);
    live[r] = orch.live_buffers();
    return rc;
  });
  int rc = 0;
  for (int s : status) {
    if (s != 0 && rc == 0) rc = s;
  }
  std::printf("status %d\n", rc);
  for (int r = 0; r < P; ++r) std::printf("rank_status %d %d\n", r, status[r]);
  if (!world.error_message().empty()) std::printf("message %s\n", world.error_message().c_str());
  long sum = 0;
  size_t live_total = 0;
  for (int r = 0; r < P; ++r) {
    for (int64_t i = 0; i < P * kSignalStride; ++i) sum += static_cast<int32_t*>(world.window(r, signal))[i];
    live_total += live[r];
  }
  std::printf("signal_sum %ld\n", sum);
  std::printf("live_buffers %zu\n", live_total);
  for (int r = 0; r < P; ++r)
    for (int64_t g = 0; g < rows; ++g) {
      std::printf("y %d %ld", r, static_cast<long>(g));
      for (int64_t j = 0; j < kHidden; ++j) std::printf(" %.9g", static_cast<double>(y[r][g * kHidden + j]));
      std::printf("\n");
    }
  return 0;
}

// Runs the generated host/host_main.cpp of Inputs/both-rails.mlir on 2 host-runtime devices
// with the core_num given on the command line; prints the status and how many kernel blocks ran.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host_entry.h"

extern "C" int host_main(pld::host::Host* host, const pld::host::HostArgs* args);

int main(int argc, char** argv) {
  const int64_t core_num = argc > 1 ? std::atoll(argv[1]) : 1;
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 5000;
  pld::host::World world(2, 1 << 16, cfg);
  std::vector<float> inp(64, 1.0f), out(64, 0.0f);
  pld::rt::Tensor tin = pld::rt::Tensor::contiguous(inp.data(), 4, {16, 4});
  pld::rt::Tensor tout = pld::rt::Tensor::contiguous(out.data(), 4, {16, 4});
  pld::rt::Tensor* tensors[] = {&tin, &tout};
  int64_t scalars[] = {core_num};
  pld::host::HostArgs args;
  args.tensors = tensors;
  args.num_tensors = 2;
  args.scalars = scalars;
  args.num_scalars = 1;
  std::vector<int> devices;
  std::string message;
  int rc = pld::host::run_host_entry(world, &host_main, args, &devices, &message);
  std::printf("status %d devices %d %d blocks %ld\n", rc, devices[0], devices[1], world.blocks_started());
  if (!message.empty()) std::printf("message %s\n", message.c_str());
  return 0;
}

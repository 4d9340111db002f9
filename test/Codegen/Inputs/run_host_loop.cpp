// Runs the generated host/host_main.cpp of Inputs/host-loop.mlir on one host-runtime device with
// lb, ub and step from the command line; prints the status and the host's failure message.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host_entry.h"

extern "C" int host_main(pld::host::Host* host, const pld::host::HostArgs* args);

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  int64_t scalars[] = {std::strtoll(argv[1], nullptr, 0), std::strtoll(argv[2], nullptr, 0),
                       std::strtoll(argv[3], nullptr, 0)};
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 5000;
  pld::host::World world(1, 1 << 12, cfg);
  pld::host::HostArgs args;
  args.tensors = nullptr;
  args.num_tensors = 0;
  args.scalars = scalars;
  args.num_scalars = 3;
  std::string message;
  int rc = pld::host::run_host_entry(world, &host_main, args, nullptr, &message);
  std::printf("status %d\n", rc);
  if (!message.empty()) std::printf("message %s\n", message.c_str());
  return 0;
}

// Runs the generated host/host_main.cpp of Inputs/domains.mlir on a world of N host-runtime
// devices (argv[1]); prints the status and how many kernel blocks ran.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host_entry.h"

extern "C" int host_main(pld::host::Host* host, const pld::host::HostArgs* args);

int main(int argc, char** argv) {
  const int devices = argc > 1 ? std::atoi(argv[1]) : 4;
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 3000;
  pld::host::World world(devices, 1 << 16, cfg);
  pld::host::HostArgs args;
  std::vector<int> status;
  std::string message;
  int rc = pld::host::run_host_entry(world, &host_main, args, &status, &message);
  std::printf("status %d blocks %ld\n", rc, world.blocks_started());
  if (!message.empty()) std::printf("message %s\n", message.c_str());
  return 0;
}

// Runs a generated HOST entry `host_main` that takes only scalars on one host-runtime device, with
// the scalars from the command line (strtoll, base 0); prints the status and the host's failure
// message.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pld_runtime/host_entry.h"

extern "C" int host_main(pld::host::Host* host, const pld::host::HostArgs* args);

int main(int argc, char** argv) {
  std::vector<int64_t> scalars;
  for (int i = 1; i < argc; ++i) scalars.push_back(std::strtoll(argv[i], nullptr, 0));
  pld::host::Config cfg;
  cfg.wait_timeout_ms = 5000;
  pld::host::World world(1, 1 << 12, cfg);
  pld::host::HostArgs args;
  args.tensors = nullptr;
  args.num_tensors = 0;
  args.scalars = scalars.data();
  args.num_scalars = static_cast<int>(scalars.size());
  std::string message;
  int rc = pld::host::run_host_entry(world, &host_main, args, nullptr, &message);
  std::printf("status %d\n", rc);
  if (!message.empty()) std::printf("message %s\n", message.c_str());
  return 0;
}

// runtime_tests: the runtime's one test main. Runs the named suites (every one when no --suite is
// given) over the host runtime and prints `<suite>: <seconds> s` after each and the tally run.sh
// reads, `N passed, M failed`; exits 0 iff nothing failed.
//
//   runtime_tests [--suite NAME]... [--seeded] [--filter SUBSTR] [-v]
//
// The suites: api (submit rejections, contiguity, a lone rank, the runtime-api.md example; the
// kernels' own contract is pld-sim's raw launches), views (the orchestration side), device (the device ordering model; --seeded needs
// PLD_DMA_SEED), procs (ranks as processes; not under ThreadSanitizer).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "harness.h"

void api_suite(pld_test::Suite& t);
void views_suite(pld_test::Suite& t);
void device_suite(pld_test::Suite& t);
void procs_suite(pld_test::Suite& t);

namespace {

struct Entry {
  const char* name;
  void (*run)(pld_test::Suite&);
};

const Entry kSuites[] = {
    {"api", api_suite}, {"views", views_suite}, {"device", device_suite}, {"procs", procs_suite},
};

int usage(const char* why) {
  std::fprintf(stderr,
               "runtime_tests: %s\nusage: runtime_tests [--suite NAME]... [--seeded] "
               "[--filter SUBSTR] [-v]\nsuites:",
               why);
  for (const Entry& e : kSuites) std::fprintf(stderr, " %s", e.name);
  std::fprintf(stderr, "\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  pld_test::Options options;
  std::vector<const Entry*> selected;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seeded") {
      options.seeded = true;
    } else if (arg == "-v") {
      options.verbose = true;
    } else if ((arg == "--filter" || arg == "--suite") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--filter") {
        options.filter = value;
        continue;
      }
      const Entry* found = nullptr;
      for (const Entry& e : kSuites)
        if (value == e.name) found = &e;
      if (!found) return usage(("unknown suite '" + value + "'").c_str());
      selected.push_back(found);
    } else {
      return usage(("unknown argument '" + arg + "'").c_str());
    }
  }
  if (selected.empty())
    for (const Entry& e : kSuites) selected.push_back(&e);
  int passed = 0, failed = 0;
  for (const Entry* e : selected) {
    const auto t0 = std::chrono::steady_clock::now();
    pld_test::Suite suite(options);
    e->run(suite);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%s: %.1f s, %d passed, %d failed\n", e->name, secs, suite.passed(), suite.failed());
    passed += suite.passed();
    failed += suite.failed();
  }
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

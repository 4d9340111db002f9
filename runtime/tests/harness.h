// harness.h: the one test harness of the runtime's suites (runtime/tests/main.cpp runs them). A
// suite is a function `void <name>_suite(pld_test::Suite&)` that adds named tests (each run at
// once, a thrown Failure or exception failing it) or records single checks; main selects suites,
// passes the options and prints the tally run.sh reads (`N passed, M failed`).
#ifndef PLD_RUNTIME_TESTS_HARNESS_H
#define PLD_RUNTIME_TESTS_HARNESS_H

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace pld_test {

// What a failed CHECK throws: the condition and the formatted detail.
struct Failure {
  std::string what;
};

#define CHECK(cond, ...)                                 \
  do {                                                   \
    if (!(cond)) {                                       \
      char buf_[512];                                    \
      std::snprintf(buf_, sizeof buf_, __VA_ARGS__);     \
      throw ::pld_test::Failure{std::string(#cond) + ": " + buf_}; \
    }                                                    \
  } while (0)

// The command line's options every suite may read.
struct Options {
  bool verbose = false;  // -v: one line per passing test, with its time
  bool seeded = false;   // --seeded: device suite at seeded completion points (PLD_DMA_SEED)
  std::string filter;    // --filter SUBSTR: only the tests whose name contains it
};

// One suite's run: its tests and checks, counted.
class Suite {
 public:
  explicit Suite(const Options& options) : options_(options) {}

  const Options& options() const { return options_; }

  // Runs test `name` now (unless the filter skips it): passes if `fn` returns, fails on a
  // Failure or any other exception.
  void add(const std::string& name, const std::function<void()>& fn) {
    if (!options_.filter.empty() && name.find(options_.filter) == std::string::npos) return;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      fn();
      ++passed_;
      if (options_.verbose) {
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("ok   %s (%.1f ms)\n", name.c_str(), ms);
      }
    } catch (const Failure& f) {
      ++failed_;
      std::printf("FAIL %s: %s\n", name.c_str(), f.what.c_str());
    } catch (const std::exception& e) {
      ++failed_;
      std::printf("FAIL %s: exception %s\n", name.c_str(), e.what());
    }
    std::fflush(stdout);
  }

  // One check, counted on its own (the suites that tally checks rather than tests).
  void check(bool ok, const std::string& what) {
    if (ok) {
      ++passed_;
    } else {
      ++failed_;
      std::printf("FAIL %s\n", what.c_str());
      std::fflush(stdout);
    }
  }

  int passed() const { return passed_; }
  int failed() const { return failed_; }

 private:
  Options options_;
  int passed_ = 0, failed_ = 0;
};

// ------------------------------------------------------------------ the api suite's example
// send_counts[src][dst].
using Matrix = std::vector<std::vector<int32_t>>;

// Rows a clamped count delivers: clamp(count, 0, max_recv).
inline int64_t golden_rows(int32_t count, int64_t max_recv) {
  return count < 0 ? 0 : count > max_recv ? max_recv : count;
}

}  // namespace pld_test

#endif  // PLD_RUNTIME_TESTS_HARNESS_H

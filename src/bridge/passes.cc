// passes.cc - the pld passes: the C++ classes TableGen generates from
// dialect/include/pld/Passes.td (flag, options, statistics, dependent
// dialects), each handing the module and its option values to the pass's Rust
// body (src/passes/) through the cxx bridge and adding the counts it returns
// to its statistics. Also the pld-lower-collectives pipeline.
#include "pld/src/bridge.rs.h"
#include "pld/src/passes/bridge.rs.h"

#include "pld/Dialects.h"
#include "pld/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <vector>

namespace pld {

// Every pass's GEN_PASS_DEF line, generated from Passes.td.
#define PLD_GEN_PASS_DEFS
#include "pld/PassShells.h.inc"
#include "pld/Passes.h.inc"

/// The Rust analyses of a module (directions, alias classes, the contiguity
/// trace: src/analysis/pipeline_analyses.rs), kept by MLIR's analysis manager for as long as
/// the passes preserve them (`--mlir-timing` shows it as
/// `(A) pld::RustAnalyses` under the pass that built it).
struct RustAnalyses {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RustAnalyses)
  explicit RustAnalyses(mlir::Operation *) {}
  RustAnalyses(const RustAnalyses &) = delete;
  RustAnalyses(RustAnalyses &&other) : handle(other.handle) { other.handle = 0; }
  ~RustAnalyses() { bridge::drop_analyses(handle); }
  size_t handle = 0;
};

namespace {
using bridge::PassOptions;
using bridge::PassStatistics;

//===----------------------------------------------------------------------===//
// Statistics when MLIR's are compiled out
//===----------------------------------------------------------------------===//
//
// A release LLVM (Debian's: NDEBUG, no LLVM_FORCE_ENABLE_STATS) compiles
// mlir::Pass::Statistic to a no-op and MLIR's `--mlir-pass-statistics` report
// to its header, for every pass. The pld passes then keep their counts
// themselves and, when that flag is on, print their entries in the report's
// format right after it (when the pass manager that ran them is destroyed).
// With statistics compiled in, MLIR's report has them and this is unused.

/// Passes.td's statistics: pass, C++ member, name, description.
struct StatisticInfo {
  llvm::StringLiteral pass, member, name, description;
};
constexpr StatisticInfo kStatistics[] = {
#define PLD_PASS_STATISTIC(PASS, MEMBER, NAME, DESCRIPTION)                    \
  {#PASS, #MEMBER, NAME, DESCRIPTION},
#include "pld/PassStatistics.h.inc"
#undef PLD_PASS_STATISTIC
};

/// The value of the `llvm::cl::opt<T>` registered as `name`, if there is one
/// (MLIR's pass-manager options live in MLIR's own library).
template <typename T>
std::optional<T> commandLineValue(llvm::StringRef name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it == options.end())
    return std::nullopt;
  return static_cast<llvm::cl::opt<T> *>(it->second)->getValue();
}

/// One pass's entry, as MLIR's report prints it (`printPassEntry`).
void printStatisticsEntry(llvm::StringRef pass,
                          llvm::ArrayRef<std::pair<StatisticInfo, uint64_t>> rows) {
  bool list = commandLineValue<mlir::PassDisplayMode>(
                  "mlir-pass-statistics-display") == mlir::PassDisplayMode::List;
  if (list && rows.empty())
    return;
  std::vector<std::pair<StatisticInfo, uint64_t>> sorted(rows.begin(),
                                                        rows.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
    return a.first.name < b.first.name;
  });
  size_t nameWidth = 0, valueWidth = 0;
  for (const auto &[info, value] : sorted) {
    nameWidth = std::max(nameWidth, info.name.size());
    valueWidth = std::max(valueWidth, llvm::utostr(value).size());
  }
  unsigned indent = list ? 2 : 0;
  auto os = llvm::CreateInfoOutputFile();
  os->indent(indent) << pass << "\n";
  for (const auto &[info, value] : sorted)
    os->indent(indent + 2) << llvm::format(
        "(S) %*llu %-*s - %s\n", static_cast<int>(valueWidth),
        static_cast<unsigned long long>(value), static_cast<int>(nameWidth),
        info.name.data(), info.description.data());
  os->flush();
}

//===----------------------------------------------------------------------===//
// The pass classes
//===----------------------------------------------------------------------===//

/// Between a TableGen-generated pass base and the pass: runs the Rust body
/// and keeps the statistics.
template <typename GeneratedBase>
class RustPass : public GeneratedBase {
public:
  using GeneratedBase::GeneratedBase;
  RustPass(const RustPass &other) : GeneratedBase(other) {}

  ~RustPass() override {
#if !LLVM_ENABLE_STATS
    if (ran && commandLineValue<bool>("mlir-pass-statistics").value_or(false)) {
      std::vector<std::pair<StatisticInfo, uint64_t>> rows;
      for (const StatisticInfo &info : kStatistics)
        if (info.pass == this->getName())
          rows.push_back({info, counts.lookup(info.member)});
      printStatisticsEntry(this->getName(), rows);
    }
#endif
  }

protected:
  /// Runs the Rust body registered under this pass's flag on the module;
  /// signals failure when it failed (its errors are already emitted).
  PassStatistics runBody(const PassOptions &options = PassOptions{}) {
    llvm::StringRef argument = this->getArgument();
    PassStatistics result{};
    ran = true;
    auto &analyses = this->template getAnalysis<RustAnalyses>();
    bridge::PassOutcome outcome{};
    if (!bridge::run_pass(rust::Str(argument.data(), argument.size()),
                          wrap(this->getOperation().getOperation()), options,
                          result, analyses.handle, outcome))
      this->signalPassFailure();
    else if (outcome.unchanged || outcome.keeps_analyses)
      // Nothing changed, or only attributes no analysis reads: every
      // analysis holds, and MLIR skips re-verifying after this pass (the
      // attributes are verified with the next pass that changes the IR, or
      // by whoever parses the output).
      this->markAllAnalysesPreserved();
    return result;
  }

  /// Adds `value` to the statistic `statistic`, declared in Passes.td as the
  /// C++ member `member`.
  void count(mlir::Pass::Statistic &statistic, llvm::StringRef member,
             uint64_t value) {
    statistic += value;
    counts[member] += value;
  }

private:
  bool ran = false;
  llvm::StringMap<uint64_t> counts;
};

#define PLD_COUNT(STATISTIC, VALUE) this->count(this->STATISTIC, #STATISTIC, VALUE)

// One class per pass of Passes.td (dialect/PassShells.cmake): its options to
// the Rust body by name, the counts back into its statistics by name.
#define PLD_GEN_PASS_SHELLS
#include "pld/PassShells.h.inc"
#undef PLD_COUNT
} // namespace

//===----------------------------------------------------------------------===//
// The pipeline and registration
//===----------------------------------------------------------------------===//

// The builder of every pipeline of Passes.td (dialect/PassShells.cmake).
#define PLD_GEN_PIPELINE_DEFS
#include "pld/PassShells.h.inc"

namespace {
/// Registers the pipeline `argument` (a PassPipeline def of Passes.td: its
/// options `Options`, its passes added by `build`) in MLIR's registry, plus
/// the anchor check: its passes are module passes, and adding one to a pass
/// manager nested on another op is a fatal error in MLIR
/// (`func.func(pld-lower-collectives)` would abort).
template <typename Options>
void registerModulePipeline(const char *argument, const char *summary,
                            void (*build)(mlir::OpPassManager &,
                                          const Options &)) {
  mlir::registerPassPipeline(
      argument, summary,
      [argument, build](mlir::OpPassManager &pm, llvm::StringRef optionsStr,
                        llvm::function_ref<mlir::LogicalResult(
                            const llvm::Twine &)>
                            errorHandler) -> mlir::LogicalResult {
        // An op-agnostic pass manager ("any", e.g. a C++ driver's
        // `PassManager pm(ctx)`) takes them and checks the op when it runs.
        std::optional<llvm::StringRef> anchor = pm.getOpName();
        if (anchor && *anchor != mlir::ModuleOp::getOperationName())
          return errorHandler(
              llvm::Twine("pipeline '") + argument +
              "' runs on a 'builtin.module' (its passes are module passes), "
              "got a pass manager on '" +
              pm.getOpAnchorName() + "'");
        Options options;
        if (mlir::failed(options.parseFromString(optionsStr)))
          return mlir::failure();
        build(pm, options);
        return mlir::success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)>
             optHandler) { optHandler(Options()); });
}
} // namespace

void registerPassesAndPipelines() {
  registerPldPasses();
#define PLD_GEN_PIPELINE_REGISTRATION
#include "pld/PassShells.h.inc"
}

namespace bridge {
void register_passes() {
  // Function-local static: registered once however often this is called.
  static const bool registered = (registerPassesAndPipelines(), true);
  (void)registered;
}

rust::Vec<rust::String> pass_arguments() {
  rust::Vec<rust::String> names;
  for (const char *name : {
#define PLD_GEN_PASS_NAMES
#include "pld/PassShells.h.inc"
       })
    names.push_back(rust::String(name));
  return names;
}

PassHandle create_pass(rust::Str argument) {
  using Create = std::unique_ptr<mlir::Pass> (*)();
  Create create =
      llvm::StringSwitch<Create>(
          llvm::StringRef(argument.data(), argument.size()))
#define PLD_GEN_PASS_CREATE
#include "pld/PassShells.h.inc"
          .Default(nullptr);
  return create ? wrap(create().release()) : PassHandle{nullptr};
}
} // namespace bridge

} // namespace pld

// shim.cc - MlirOptMain, pass registration and located diagnostics.
#include "pld/src/bridge/shim.h"
#include "pld/src/bridge/argv.h"

#include "pld/Dialects.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "mlir/Transforms/Passes.h"

#include <string>
#include <vector>

namespace pld::bridge {

namespace {
void registerAll(mlir::DialectRegistry &registry) {
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::scf::SCFDialect>();
  pld::registerDialects(registry);
}

} // namespace

// Implemented by the Rust library (src/codegen/mod.rs).
extern "C" void pld_translate_set_allow_kernel_source_outside(bool allow);
extern "C" void pld_translate_set_split(bool split);
extern "C" bool pld_translate_finish(bool ok);

/// mlir-sys links every LLVM library statically, so LLVM's backends register
/// ~250 code-generation flags (--amdgpu-*, --x86-*, ...) before main runs:
/// hide them from --help (they still parse; --help-hidden lists them). The
/// driver's own flags (registered later, by MlirOptMain / mlirTranslateMain)
/// and `keep` stay visible.
void hideStaticOptions(llvm::ArrayRef<llvm::StringRef> keep) {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::StringRef name = entry.first;
    if (name.starts_with("help") || name == "version" || name == "color" ||
        llvm::is_contained(keep, name))
      continue;
    entry.second->setHiddenFlag(llvm::cl::Hidden);
  }
}

// The input file as the command line names it (mlirTranslateMain's
// positional `<input file>`, "-" for stdin), never the module's location: a
// module printed with --mlir-print-debuginfo carries the file it was first
// parsed from, and the default kernel source folder (the input's) must not
// follow it anywhere.
static std::string inputFileArgument() {
  for (llvm::cl::Option *opt : llvm::cl::SubCommand::getTopLevel().PositionalOpts)
    if (opt->HelpStr == "<input file>")
      return static_cast<llvm::cl::opt<std::string> *>(opt)->getValue();
  return "-";
}

int32_t translate_main(
    rust::Slice<const rust::String> args,
    rust::Fn<bool(OperationHandle, rust::Str, rust::Str, rust::Str)> build) {
  Argv argv(args);
  // Function-local statics: constructed (and so known to the command line)
  // before mlirTranslateMain parses it, and only in pld-translate.
  static llvm::cl::opt<std::string> outputDir(
      "output-dir",
      llvm::cl::desc("--pld-to-ascend-build: the build tree to write "
                     "(replaced as a whole; nothing is written on error)"),
      llvm::cl::value_desc("DIR"), llvm::cl::init(""));
  static llvm::cl::opt<std::string> kernelSourceDir(
      "kernel-source-dir",
      llvm::cl::desc("--pld-to-ascend-build: the folder pl.kernel_source "
                     "paths are relative to (default: the input file's)"),
      llvm::cl::value_desc("DIR"), llvm::cl::init(""));
  static llvm::cl::opt<bool> allowKernelSourceOutside(
      "allow-kernel-source-outside",
      llvm::cl::desc("--pld-to-ascend-build: let a pl.kernel_source be "
                     "absolute or resolve outside --kernel-source-dir"),
      llvm::cl::init(false));
  static mlir::TranslateFromMLIRRegistration registration(
      "pld-to-ascend-build",
      "write the Ascend build tree (orchestration C++, AIV kernels, "
      "kernel_config.py) of a module lowered by --pld-lower-collectives",
      [build](mlir::Operation *op, llvm::raw_ostream &) -> mlir::LogicalResult {
        // A driver message: at the module's location, without the op dump
        // Operation::emitError would attach (the whole module).
        if (outputDir.empty())
          return mlir::emitError(op->getLoc(),
                                 "--pld-to-ascend-build needs --output-dir=DIR");
        // The build is a tree, never one file: an -o FILE would be left empty.
        const auto &options = llvm::cl::getRegisteredOptions();
        auto o = options.find("o");
        if (o != options.end() && o->second->getNumOccurrences() > 0)
          return mlir::emitError(op->getLoc(),
                                 "--pld-to-ascend-build writes a build tree to "
                                 "--output-dir=DIR, not a file: drop -o");
        const std::string input = inputFileArgument();
        pld_translate_set_allow_kernel_source_outside(allowKernelSourceOutside);
        // With --split-input-file each chunk is one translation: the trees
        // wait for the end of the run (pld_translate_finish), so a failing
        // chunk writes nothing and no chunk's tree silently replaces another's.
        const auto &registered = llvm::cl::getRegisteredOptions();
        auto split = registered.find("split-input-file");
        pld_translate_set_split(split != registered.end() &&
                                split->second->getNumOccurrences() > 0);
        bool ok = build(wrap(op), rust::Str(outputDir.getValue()),
                        rust::Str(kernelSourceDir.getValue()),
                        rust::Str(input));
        return mlir::success(ok);
      },
      registerAll);
  hideStaticOptions({"output-dir", "kernel-source-dir",
                     "allow-kernel-source-outside"});
  int rc = mlir::asMainReturnCode(mlir::mlirTranslateMain(
      argv.argc(), argv.argv.data(),
      "pld translation driver: the Ascend build tree of a lowered pl/pld "
      "module\n"));
  // A split run's tree is written now, and only when every chunk succeeded.
  if (!pld_translate_finish(rc == EXIT_SUCCESS))
    return EXIT_FAILURE;
  return rc;
}

int32_t opt_main(rust::Slice<const rust::String> args) {
  Argv argv(args);
  mlir::DialectRegistry registry;
  registerAll(registry);
  // Upstream generic transforms (canonicalize, cse, ...) for --pass-pipeline.
  register_upstream_passes();

  hideStaticOptions({});
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argv.argc(), argv.argv.data(),
      "pld optimizer driver: the pl/pld dialects and the PyPTO collective "
      "lowering passes\n",
      registry));
}

void register_upstream_passes() {
  // mlir::registerTransformsPasses() but remove-dead-values: it deletes the
  // parameters a kernel stub's body leaves unused (the kernel's C++ reads
  // them: the program then crashes at run time), sees no caller of a CHIP
  // body only pld.host.dispatch reaches, and emits ub.poison (docs/lowering.md,
  // "Upstream passes around the pipeline").
  static const bool registered = [] {
    mlir::registerBubbleDownMemorySpaceCasts();
    mlir::registerCSE();
    mlir::registerCanonicalizer();
    mlir::registerCompositeFixedPointPass();
    mlir::registerControlFlowSink();
    mlir::registerGenerateRuntimeVerification();
    mlir::registerInliner();
    mlir::registerLocationSnapshot();
    mlir::registerLoopInvariantCodeMotion();
    mlir::registerLoopInvariantSubsetHoisting();
    mlir::registerMem2Reg();
    mlir::registerPrintIRPass();
    mlir::registerPrintOpStats();
    mlir::registerSCCP();
    mlir::registerSROA();
    mlir::registerStripDebugInfo();
    mlir::registerSymbolDCE();
    mlir::registerSymbolPrivatize();
    mlir::registerTopologicalSort();
    mlir::registerViewOpGraph();
    return true;
  }();
  (void)registered;
}

void register_dialects(DialectRegistryHandle registry) {
  pld::registerDialects(*unwrap(registry));
}


} // namespace pld::bridge

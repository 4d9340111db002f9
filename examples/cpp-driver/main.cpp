// pld-cpp-driver: a C++ MLIR driver that embeds pld through the shared
// library (libPldPlugin.so + pld-c/Registration.h, next to libMLIR.so):
// registers pld into its own DialectRegistry, parses a file, runs a pipeline
// on its module (default: pld-lower-collectives, the whole lowering) and
// prints the result.
//
//   pld-cpp-driver in.mlir ['pass,pass{option=value},...']
#include "pld-c/Registration.h"

#include "mlir/CAPI/IR.h" // wrap(): DialectRegistry * -> MlirDialectRegistry
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: pld-cpp-driver in.mlir ['pass,pass{option=value}']\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  pldRegisterDialects(wrap(&registry)); // pl, pld, func, arith, scf, cf
  pldRegisterPasses(); // every pld pass and pld-lower-collectives, by name
  mlir::MLIRContext context(registry);

  // Errors (parse, verifier, pass) are `file:line:col: error:` on stderr.
  llvm::SourceMgr sources;
  mlir::SourceMgrDiagnosticHandler diagnostics(sources, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sources, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context); // anchored on builtin.module
  if (mlir::failed(mlir::parsePassPipeline(
          argc == 3 ? argv[2] : "pld-lower-collectives", pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}

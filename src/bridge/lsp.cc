// lsp.cc - pld-lsp-server: MLIR's language server (MlirLspServerMain) over
// the registry pld-opt parses with: pl, pld, func, arith, scf, cf.
// Diagnostics (the dialects' verifiers, at the op), hover, go-to-definition,
// document symbols and op-name completion all come from MLIR's server.
#include "pld/src/bridge/argv.h"
#include "pld/src/bridge/shim.h"

#include "pld/Dialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

namespace pld::bridge {
int32_t lsp_main(rust::Slice<const rust::String> args) {
  Argv argv(args);
  mlir::DialectRegistry registry;
  pld::registerDialects(registry);
  hideStaticOptions({});
  return mlir::failed(
             mlir::MlirLspServerMain(argv.argc(), argv.argv.data(), registry))
             ? 1
             : 0;
}
} // namespace pld::bridge

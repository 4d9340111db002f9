// names.cc - the SSA names a user wrote, through MLIR's own parser state
// (mlir::AsmParserState, what mlir-lsp-server reads): an entry function's
// parameter names and the names of its pld.window results, in program order.
// pld-run shows and binds values by them; nothing else in pld reads names.
#include "pld/src/bridge.rs.h"
#include "pld/src/bridge/shim.h"

#include "pld/Dialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace pld::bridge {

namespace {
// `%name` (or `%name:2`, `%name#0`) at `range` as `name`.
rust::String nameAt(llvm::SMRange range) {
  const char *begin = range.Start.getPointer(), *end = range.End.getPointer();
  if (!begin || !end || end <= begin) return rust::String();
  llvm::StringRef text(begin, static_cast<size_t>(end - begin));
  text.consume_front("%");
  text = text.take_until([](char c) { return c == ':' || c == '#'; });
  return rust::String(text.str());
}
} // namespace

SourceNames source_names(rust::Str source, rust::Str function) {
  SourceNames out;
  out.found = false;
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::scf::SCFDialect>();
  pld::registerDialects(registry);
  mlir::MLIRContext context(registry);
  context.allowUnregisteredDialects(true);
  // The module was already parsed and verified by pld-opt: a failure here
  // means only that no names are known.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  llvm::SourceMgr sources;
  sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(source.data(), source.size()), "<source>"),
      llvm::SMLoc());
  mlir::Block top;
  mlir::AsmParserState state;
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (mlir::failed(mlir::parseAsmSourceFile(sources, &top, config, &state)))
    return out;
  const llvm::StringRef wanted(function.data(), function.size());
  mlir::func::FuncOp func;
  top.walk([&](mlir::func::FuncOp f) {
    if (!func && f.getSymName() == wanted) func = f;
  });
  if (!func || func.getBody().empty()) return out;
  out.found = true;
  if (const auto *entry = state.getBlockDef(&func.getBody().front()))
    for (const auto &arg : entry->arguments) out.args.push_back(nameAt(arg.loc));
  func.walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() != "pld.window") return;
    const auto *def = state.getOpDef(op);
    out.windows.push_back(def && !def->resultGroups.empty()
                              ? nameAt(def->resultGroups.front().definition.loc)
                              : rust::String());
  });
  return out;
}

} // namespace pld::bridge

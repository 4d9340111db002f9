// shim.h - the few C++ entry points the MLIR C API lacks (cxx bridge).
#pragma once

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "rust/cxx.h"

#include <cstdint>

namespace pld::bridge {
using PassHandle = ::MlirPass;
using OperationHandle = ::MlirOperation;
using DialectRegistryHandle = ::MlirDialectRegistry;
struct SourceNames;

/// mlir-opt's main over the pl/pld/func/arith/scf/cf registry.
int32_t opt_main(rust::Slice<const rust::String> args);
/// mlir-translate's main with the `--pld-to-ascend-build` translation (and
/// its `--output-dir` / `--kernel-source-dir` options) over the same registry.
/// `build(module, output_dir, kernel_source_dir, input_file)` is the Rust
/// codegen; it reports its own located diagnostics and returns success.
int32_t translate_main(
    rust::Slice<const rust::String> args,
    rust::Fn<bool(OperationHandle, rust::Str, rust::Str, rust::Str)> build);
/// Registers every pld pass (the classes generated from Passes.td, in
/// passes.cc) and the `pld-lower-collectives` pipeline; idempotent.
void register_passes();
/// Registers the upstream generic transforms pld-opt offers (canonicalize,
/// cse, inline, symbol-dce, ...); idempotent.
void register_upstream_passes();
/// The flag of every pass declared in Passes.td, in its order.
rust::Vec<rust::String> pass_arguments();
/// A new instance of the pld pass whose flag is `argument` (null if none).
PassHandle create_pass(rust::Str argument);
/// pld-lsp-server's main (lsp.cc): MlirLspServerMain over pld's registry.
int32_t lsp_main(rust::Slice<const rust::String> args);
/// pld-reduce's main (reduce.cc): mlirReduceMain over pld's registry, with
/// the pl/pld reduction patterns. Register the pld passes first.
int32_t reduce_main(rust::Slice<const rust::String> args);
/// Inserts pl, pld and func (with its pld inliner extension) into `registry`.
void register_dialects(DialectRegistryHandle registry);
/// The SSA names of `function`'s parameters and pld.window results in
/// `source` (src/bridge/names.cc).
SourceNames source_names(rust::Str source, rust::Str function);

} // namespace pld::bridge

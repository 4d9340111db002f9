// shim.h - the few C++ entry points the MLIR C API lacks (cxx bridge).
#pragma once

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "rust/cxx.h"

#include <cstdint>

namespace pld::bridge {
using PassHandle = ::MlirPass;
using LocationHandle = ::MlirLocation;
using OperationHandle = ::MlirOperation;

/// mlir-opt's main over the pl/pld/func/arith/scf/cf registry.
int32_t opt_main(rust::Slice<const rust::String> args);
/// mlir-translate's main with the `--pld-to-ascend-build` translation (and
/// its `--output-dir` / `--kernel-source-dir` options) over the same registry.
/// `build(module, output_dir, kernel_source_dir, input_file)` is the Rust
/// codegen; it reports its own located diagnostics and returns success.
int32_t translate_main(
    rust::Slice<const rust::String> args,
    rust::Fn<bool(OperationHandle, rust::Str, rust::Str, rust::Str)> build);
/// Registers a pass in MLIR's global registry; `create` is called once to
/// learn the flag and once per pipeline instance.
void register_pass(rust::Fn<PassHandle()> create);
/// Registers a named textual pipeline as a `--flag`.
void register_pipeline(rust::Str argument, rust::Str description,
                       rust::Str pipeline);
/// Emits an error (0), warning (1) or remark (2) at `loc`, with an attached
/// note at `note_loc` when `note` is not empty.
void emit_diagnostic(LocationHandle loc, uint8_t severity, rust::Str message,
                     LocationHandle note_loc, rust::Str note);
} // namespace pld::bridge

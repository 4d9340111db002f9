// shim.h - the few C++ entry points the MLIR C API lacks (cxx bridge).
#pragma once

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "rust/cxx.h"

#include <cstdint>

namespace pld::bridge {
using PassHandle = ::MlirPass;
using LocationHandle = ::MlirLocation;

/// mlir-opt's main over the pl/pld/func/arith/scf/cf registry.
int32_t opt_main(rust::Slice<const rust::String> args);
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

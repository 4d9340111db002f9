/*===- pld-c/Registration.h - registering pld in an MLIR program ----------===*/
/*                                                                            */
/* The C entry points of the pld shared library, target/plugin/libPldPlugin.so */
/* (scripts/build-plugin.sh): a C or C++ program that links it next to       */
/* libMLIR.so registers the pl / pld dialects and the pld passes with these,  */
/* then parses and runs pipelines with MLIR's own API (docs/embedding.md,     */
/* examples/cpp-driver/). They are implemented in Rust (src/capi.rs).         */
/*===----------------------------------------------------------------------===*/
#ifndef PLD_C_REGISTRATION_H
#define PLD_C_REGISTRATION_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inserts pl, pld and the upstream dialects pld's IR uses (func with pld's
 * inliner extension, arith, scf, cf: what pld-opt registers) into
 * `registry`. */
MLIR_CAPI_EXPORTED void pldRegisterDialects(MlirDialectRegistry registry);

/* Prints every diagnostic of `context` to stderr as pld-opt does:
 * `file:line:col: error: message`, then each attached note on its own line.
 * Without a handler MLIR prints `loc("file":7:8): error: ...` and drops the
 * notes. Returns the handler's id (mlirContextDetachDiagnosticHandler). */
MLIR_CAPI_EXPORTED MlirDiagnosticHandlerID
pldContextAttachDiagnosticPrinter(MlirContext context);

/* Registers every pld pass and the `pld-lower-collectives` pipeline in MLIR's
 * global pass registry (flags, `--pass-pipeline` elements, options).
 * Idempotent and thread-safe. */
MLIR_CAPI_EXPORTED void pldRegisterPasses(void);

/* pldRegisterPasses() plus the upstream generic transforms pld-opt offers
 * (canonicalize, cse, inline, symbol-dce, ...): everything a pld-opt
 * `--pass-pipeline` can name. Idempotent and thread-safe. */
MLIR_CAPI_EXPORTED void pldRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* PLD_C_REGISTRATION_H */

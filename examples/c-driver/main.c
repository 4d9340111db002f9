/* pld-c-driver: a C MLIR driver that embeds pld through the C API only
 * (pld-c/Registration.h + libPldPlugin.so, MLIR's C API in libMLIR-C.so,
 * over libMLIR.so): registers pld, parses a file, runs a pipeline on its
 * module (default: pld-lower-collectives) and prints the result.
 *
 *   pld-c-driver in.mlir ['pass,pass{option=value},...']
 *
 * Build it with examples/c-driver/build.sh (docs/embedding.md). */
#include <stdio.h>
#include <string.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "pld-c/Registration.h"

static void print_to_stdout(MlirStringRef text, void *unused) {
  (void)unused;
  fwrite(text.data, 1, text.length, stdout);
}

static void print_to_stderr(MlirStringRef text, void *unused) {
  (void)unused;
  fwrite(text.data, 1, text.length, stderr);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: pld-c-driver in.mlir ['pass,pass{option=value}']\n");
    return 2;
  }
  /* pl, pld and the upstream dialects pld's IR uses (func, arith, scf, cf). */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  pldRegisterDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  /* Every pld pass and pld-lower-collectives, by name. */
  pldRegisterPasses();
  /* Errors print as pld-opt prints them: file:line:col: error:, then notes. */
  pldContextAttachDiagnosticPrinter(context);

  int rc = 1;
  MlirModule module = mlirModuleCreateParseFromFile(context, mlirStringRefCreateFromCString(argv[1]));
  if (mlirModuleIsNull(module))
    goto done;
  MlirOperation op = mlirModuleGetOperation(module);
  MlirPassManager pm = mlirPassManagerCreate(context); /* anchored on builtin.module */
  const char *pipeline = argc == 3 ? argv[2] : "pld-lower-collectives";
  MlirLogicalResult parsed = mlirOpPassManagerAddPipeline(
      mlirPassManagerGetAsOpPassManager(pm), mlirStringRefCreateFromCString(pipeline),
      print_to_stderr, NULL);
  if (mlirLogicalResultIsSuccess(parsed) &&
      mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
    mlirOperationPrint(op, print_to_stdout, NULL);
    printf("\n");
    rc = 0;
  }
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
done:
  mlirContextDestroy(context);
  return rc;
}

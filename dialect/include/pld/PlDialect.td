//===- PlDialect.td - the `pl` dialect (PyPTO tensors and functions) ------===//
//
// `pl` holds the local tensor type, the tensor ops the contiguity trace
// knows, `pl.cast`, `pl.submit` and the discardable `pl.*` function/call
// attributes. `pld` (PldDialect.td) holds what is distributed.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_PLDIALECT_TD
#define PLD_PLDIALECT_TD

include "mlir/IR/OpBase.td"

def Pl_Dialect : Dialect {
  let name = "pl";
  let cppNamespace = "::pld::pl";
  let summary = "PyPTO program-level tensors, tensor ops and function kinds";
  let description = [{
    The `pl` dialect models the parts of a PyPTO program that every rail
    shares: the local tensor buffer type `!pl.tensor`, the tensor ops the
    contiguity trace knows (`pl.tensor.*`), `pl.cast` between compatible tensor
    types, `pl.submit` of a kernel task, and the discardable attributes that
    classify functions and calls.

    Functions are ordinary `func.func` ops classified by discardable attributes
    that this dialect verifies:

    * `pl.func_kind` = `"orchestration" | "graph" | "incore" | "aic" | "aiv" | "opaque"`
    * `pl.level` = `"chip" | "host"` (absent means `"chip"`); `"host"` only on
      an `"orchestration"` function (a HOST orchestrator: only an
      orchestrator runs on the host)
    * `pl.direction` = `"in" | "out" | "inout"` (argument attribute)
    * `pl.kernel_source`, `pl.builtin_template_dir`, `pl.builtin_template_vars` (strings)
    * `pl.require_contiguous_operands`, `pl.sync_start` (unit)
    * `pl.core_num` (i64 >= 1), `pl.task_id` (i64 >= 0), `pl.task_deps` (array of i64)
    * `pl.arg_directions` (array of direction strings)
    * `pl.arch` = `"a2a3" | "a5"` on a `builtin.module`: the target
      architecture (absent means `"a2a3"`). `pld.tensor.indexed_all_to_all_v`
      lowers only in an `"a5"` module (A5 URMA PER_PEER transport).

    An unknown `pl.*` attribute, or a known one with an unknown value, is a
    verifier error that names the attribute. `pl.direction` is the only `pl.*`
    argument attribute; no `pl.*` attribute is defined on function results.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // PLD_PLDIALECT_TD

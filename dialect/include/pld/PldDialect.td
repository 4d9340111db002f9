//===- PldDialect.td - the `pld` dialect (distributed tensors) ------------===//

#ifndef PLD_PLDDIALECT_TD
#define PLD_PLDDIALECT_TD

include "mlir/IR/OpBase.td"

def Pld_Dialect : Dialect {
  let name = "pld";
  let cppNamespace = "::pld::dist";
  let summary = "PyPTO managed collectives over communication windows";
  let description = [{
    The `pld` dialect models distributed state: communication windows
    (`!pld.window_buffer`, `pld.window`), local views of them that peers can
    address (`!pld.dtensor`), the `CommContext*` a kernel reaches its peers
    through (`!pld.comm_ctx`), and the managed collectives
    (`pld.tensor.all_to_all_v`, `pld.tensor.indexed_all_to_all_v`) that the
    InCore, CHIP (`--lower-l2-tensor-collectives`) and HOST rails lower.

    It defines no discardable attributes: a `pld.*` attribute on an operation,
    a function argument or a result is a verifier error that names it (the
    function and call attributes are the `pl` dialect's, `pl.func_kind` ...;
    a misspelled `pld.func_kind` would otherwise leave the function without a
    kind and its collectives silently out of the build).
  }];
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let dependentDialects = ["::pld::pl::PlDialect"];
}

#endif // PLD_PLDDIALECT_TD

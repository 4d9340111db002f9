//===- PlOps.td - `pl` types and ops --------------------------------------===//

#ifndef PLD_PLOPS_TD
#define PLD_PLOPS_TD

include "pld/PlDialect.td"
include "pld/TensorTypeBase.td"
include "pld/TensorConstraints.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Pl_TensorType : PlTensorLikeType<Pl_Dialect, "Tensor", "tensor", [{
    A plain, local tensor buffer.

    `!pl.tensor<2x16xf32>` is a row-major 2x16 buffer of `f32`;
    `!pl.tensor<?x16xi8>` has a dynamic leading dimension and
    `!pl.tensor<*xf32>` is unranked (the canonical parameter type of a
    synthesized builtin kernel).
  }]> {
  let summary = "a local tensor buffer";
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Pl_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pl_Dialect, mnemonic, traits>;

def Pl_TensorCreateOp : Pl_Op<"tensor.create"> {
  let summary = "allocates a fresh row-major tensor";
  let description = [{
    Allocates a new tensor of the result type. A root of the contiguity trace:
    a fresh allocation is packed row-major unless its type says otherwise.
    It allocates (`MemAlloc` on its result), so `cse` never merges two
    creates into one buffer; an unused one may still be erased.

    ```mlir
    %t = "pl.tensor.create"() : () -> !pl.tensor<16x4xf32>
    ```

    The result is a local `!pl.tensor`, never a `!pld.dtensor`: a fresh
    local buffer is not a window (windows are `pld.window`s of a
    `pld.window_buffer`).
  }];
  let results = (outs Res<Pl_AnyTensorLike, "", [MemAlloc]>:$result);
  let hasVerifier = 1;
  let assemblyFormat = "attr-dict `:` type($result)";
}

// Views read and write nothing (CSE and DCE apply), but they are not
// speculatable: the orchestration codegen checks at run time what the types
// cannot prove (a reshape of a strided tensor, a slice's dynamic offsets), so
// hoisting one out of a loop that runs zero times (LICM) would turn a program
// that succeeds into one that fails.
// The view ops (and pl.tensor.slice) keep the kind of their source:
// tensor -> tensor, dtensor -> dtensor, or dtensor -> tensor (the local view
// of a window); never tensor -> dtensor (a local buffer is not a window).
class Pl_UnaryTensorOp<string mnemonic, list<Trait> traits = []>
    : Pl_Op<mnemonic, !listconcat([NoMemoryEffect], traits)> {
  let hasVerifier = 1;
}

def Pl_TensorReshapeOp : Pl_UnaryTensorOp<"tensor.reshape"> {
  let summary = "reinterprets a tensor with a new shape";
  let description = [{
    Same elements, new shape: a packed descriptor of the result's whole shape
    over the source's elements. The element count of the source's valid_shape
    (the runtime descriptor's extents) must equal the result's where both are
    static, and the result type carries no narrower `valid` (the types state
    what the runtime produces). The contiguity trace follows a reshape to its
    source.
  }];
  let arguments = (ins Pl_AnyTensorLike:$source);
  let results = (outs Pl_AnyTensorLike:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
}

def Pl_TensorViewOp : Pl_UnaryTensorOp<"tensor.view"> {
  let summary = "a view of a tensor, optionally at an element offset";
  let description = [{
    A view of `source` with the result's shape, starting at `offsets` (one per
    source dimension, default all zero). With the source's rank, the view's
    box at the offsets lies inside the source's valid_shape; with another
    rank, it holds no more elements than the source's valid_shape (checked
    where static). The result is a whole descriptor of its shape: its type
    carries no narrower `valid`. Followed by the contiguity trace.
  }];
  let arguments = (ins Pl_AnyTensorLike:$source,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs Pl_AnyTensorLike:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
}

def Pl_TensorSetValidShapeOp : Pl_UnaryTensorOp<"tensor.set_validshape"> {
  let summary = "sets the valid_shape of a tensor";
  let description = [{
    Returns `source` with valid_shape `valid` (one entry per dimension, none
    above the shape). The shape itself does not change: where both are
    ranked, the result has the source's rank, static dimensions, layout and
    strides, and its type carries `valid` (the runtime narrows the
    descriptor's extents to it, so a result type without it would state rows
    the runtime does not have). Followed by the contiguity trace.

    ```mlir
    %v = pl.tensor.set_validshape %t {valid = array<i64: 3, 2>}
        : !pld.dtensor<8x2xf32> -> !pld.dtensor<8x2xf32, valid = [3, 2]>
    ```
  }];
  let arguments = (ins Pl_AnyTensorLike:$source, DenseI64ArrayAttr:$valid);
  let results = (outs Pl_AnyTensorLike:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
}

def Pl_TensorTransposeOp : Pl_UnaryTensorOp<"tensor.transpose"> {
  let summary = "permutes the dimensions of a tensor";
  let description = [{
    Permutes the dimensions of `source` by `perm`: result dimension `i` is
    source dimension `perm[i]`, for the shape and the valid_shape alike
    (checked where both are static). The result is not a packed view of its
    source, so the contiguity trace rejects it.
  }];
  let arguments = (ins Pl_AnyTensorLike:$source, DenseI64ArrayAttr:$perm);
  let results = (outs Pl_AnyTensorLike:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
}

def Pl_TensorSliceOp : Pl_Op<"tensor.slice", [NoMemoryEffect]> {
  let summary = "a rectangular slice of a tensor";
  let description = [{
    A `sizes` box of `source` at literal `offsets` (attribute, no offset
    operands) or at runtime offsets (one `index`/`i64` operand per dimension,
    no `offsets` attribute). A literal box lies inside the source's
    valid_shape; the result is a whole descriptor of `sizes` (its type carries
    no narrower `valid`). The contiguity trace follows only a slice that
    narrows the leading dimension of a statically shaped tensor at literal
    offsets.

    ```mlir
    %s = "pl.tensor.slice"(%t) {offsets = array<i64: 4, 0>, sizes = array<i64: 4, 8>}
        : (!pl.tensor<16x8xf32>) -> !pl.tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Pl_AnyTensorLike:$source,
                       Variadic<AnySignlessIntegerOrIndex>:$dynamic_offsets,
                       DenseI64ArrayAttr:$sizes,
                       OptionalAttr<DenseI64ArrayAttr>:$offsets);
  let results = (outs Pl_AnyTensorLike:$result);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $source (`[` $dynamic_offsets^ `]`)? attr-dict `:` functional-type(operands, results)
  }];
}

def Pl_TensorAssembleOp : Pl_Op<"tensor.assemble", [
    AllTypesMatch<["target", "result"]>]> {
  let summary = "writes a tile into a tensor at literal offsets";
  let description = [{
    Returns `target` with `source` written at `offsets`. The result is the
    target's storage, so the contiguity trace follows it to `target`. It has
    buffer semantics: it reads `source` and writes `target` in place
    (declared as memory effects, so no upstream pass erases, merges or moves
    it across other accesses).
  }];
  let arguments = (ins Arg<Pl_AnyTensorLike, "", [MemRead, MemWrite]>:$target,
                       Arg<Pl_AnyTensorLike, "", [MemRead]>:$source,
                       DenseI64ArrayAttr:$offsets);
  let results = (outs Pl_AnyTensorLike:$result);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $source `into` $target attr-dict `:` type($source) `into` type($target)
  }];
}

def Pl_TensorWriteOp : Pl_Op<"tensor.write", [
    AllTypesMatch<["dst", "result"]>]> {
  let summary = "writes one element";
  let description = [{
    Returns `dst` with `value` stored at `indices` (one per dimension). The
    contiguity trace does not follow it (a missed acceptance is safe). It
    writes `dst` in place (a declared memory effect).
  }];
  let arguments = (ins Arg<Pl_AnyTensorLike, "", [MemWrite]>:$dst, AnyType:$value,
                       Variadic<AnySignlessIntegerOrIndex>:$indices);
  let results = (outs Pl_AnyTensorLike:$result);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $value `into` $dst (`[` $indices^ `]`)? attr-dict `:` type($value) `into` type($dst)
      (`,` type($indices)^)?
  }];
}

def Pl_CastOp : Pl_Op<"cast", [Pure,
    DeclareOpInterfaceMethods<CastOpInterface>]> {
  let summary = "casts between compatible tensor types";
  let description = [{
    Keeps the element type and allows `!pl.tensor` -> `!pl.tensor` and
    `!pld.dtensor` -> `!pld.dtensor` between compatible shapes (static <-> `?`
    <-> unranked, same layout, valid and strides) and `!pld.dtensor` ->
    `!pl.tensor` (the local view of a window). Never `!pl.tensor` ->
    `!pld.dtensor`: a local buffer is not a window.
  }];
  let arguments = (ins Pl_AnyTensorLike:$source);
  let results = (outs Pl_AnyTensorLike:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `to` type($result)";
}

def Pl_SubmitOp : Pl_Op<"submit", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "submits a kernel task";
  let description = [{
    Submits `callee` with `operands` as one task. The operands pass the
    callee's leading parameters, each of exactly its parameter's type (as a
    `func.call`'s). The callee's remaining, trailing parameters are the Outs
    the runtime allocates, one per `runtime_alloc_outs` entry in order:
    parameter `operand count + k` is the buffer allocated for result
    `runtime_alloc_outs[k]` (a root of the contiguity trace). Each is a
    statically shaped `!pl.tensor` of that result's type, not declared `in`
    or `inout`, and a callee with a body returns it at that result index. The
    results are the callee's; every other result is the argument the callee
    returns there.

    ```mlir
    func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "in"},
                         %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
        attributes {pl.func_kind = "aiv"} {
      return %o : !pl.tensor<4xf32>
    }
    // %a is passed; the runtime allocates %o for result #0.
    %r = pl.submit @k(%b) {runtime_alloc_outs = array<i64: 0>}
        : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DenseI64ArrayAttr>:$runtime_alloc_outs);
  let results = (outs Variadic<AnyType>:$results);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)
  }];
}

def Pl_LaunchOp : Pl_Op<"launch", [SingleBlock]> {
  let summary = "launches the one kernel call of its region with a runtime block count";
  let description = [{
    Runs the one `func.call` of an AIV kernel in its region with `blocks`
    blocks, and with sync start exactly when `blocks > 1` at run time (the
    runtime twin of the call attributes `pl.core_num = B` + `pl.sync_start`).
    The region holds that call and the `pl.cast`s around it, and ends with
    `pl.yield` of the launch's results (the call's result, cast as needed).
    The call inside stays a plain `func.call` with only its tensor operands;
    `--derive-call-directions`, `--auto-derive-task-dependencies`,
    `--materialize-dist-tensor-ctx` and the orchestration codegen treat the
    launch as that one call. `--lower-l2-tensor-collectives` emits it for a
    runtime `core_num`; it is valid only in a CHIP orchestration body.

    ```mlir
    %r = pl.launch %B -> !pld.dtensor<*xf32> {
      %c = func.call @__builtin_all_to_all_v__fp32(%a, %t, %s, %n, %v)
          : (...) -> !pld.dtensor<*xf32>
      pl.yield %c : !pld.dtensor<*xf32>
    }
    ```
  }];
  let arguments = (ins I64:$blocks);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasVerifier = 1;
  let assemblyFormat = "$blocks (`->` type($results)^)? attr-dict-with-keyword $body";
}

def Pl_YieldOp : Pl_Op<"yield", [Pure, Terminator, HasParent<"LaunchOp">,
    ReturnLike]> {
  let summary = "the results of a pl.launch";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Pl_RequireOp : Pl_Op<"require"> {
  let summary = "fails a CHIP orchestration with an error code unless a condition holds";
  let description = [{
    When `condition` is false the CHIP orchestration latches `code`
    (`orch->latch_error`), submits nothing after it and returns the code;
    `message` goes to the runtime's error log. The CHIP twin of
    `pld.host.require`: `--lower-l2-tensor-collectives` emits it for the
    range and `S >= B` checks of a runtime `core_num`, with code 5
    (`SIMPLER_ERROR_INVALID_ARGS`). Valid only in a CHIP orchestration body.
    `code` is in [1, 2147483647]: the runtime's error code is a C++ `int`,
    and 0 is success. The optional `seen(...)` values, one name each in
    `value_names`, are the run-time values the check read: a failure reports
    them after the message, `<message> (seen: core_num L=0, B=0)`.

    ```mlir
    pl.require %ok else error 5, "core_num out of range or S < B"
        seen(%L, %B : i64, i64) {value_names = ["core_num L", "B"]}
    ```
  }];
  let arguments = (ins I1:$condition,
                       I64Attr:$code, // [1, 2147483647], in the verifier
                       StrAttr:$message,
                       Variadic<AnySignlessIntegerOrIndex>:$values,
                       OptionalAttr<StrArrayAttr>:$value_names);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $condition `else` `error` $code `,` $message
    (`seen` `(` $values^ `:` type($values) `)`)? attr-dict
  }];
}

#endif // PLD_PLOPS_TD

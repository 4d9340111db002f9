//===- PldOps.td - `pld` types and ops ------------------------------------===//

#ifndef PLD_PLDOPS_TD
#define PLD_PLDOPS_TD

include "pld/PldDialect.td"
include "pld/TensorTypeBase.td"
include "pld/TensorConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Pld_DTensorType : PlTensorLikeType<Pld_Dialect, "DTensor", "dtensor", [{
    A DistributedTensor: this rank's local view of a communication window,
    addressable by the peers of its communication domain.

    `!pld.dtensor<8x16xf32, layout = dn, valid = [8, 8]>` is a DN-layout view
    whose valid_shape is narrower than its shape.
  }]> {
  let summary = "a local view of a communication window";
}

def Pld_CommCtxType : TypeDef<Pld_Dialect, "CommCtx"> {
  let mnemonic = "comm_ctx";
  // Written by hand only to reject parameters (`!pld.comm_ctx<4>`).
  let hasCustomAssemblyFormat = 1;
  let summary = "a CommContext* kernel argument";
  let description = [{
    The `CommContext*` through which a kernel reaches the peers of its
    communication domain (`rankNum`, `rankId`, peer window addresses).
    Appended to kernel signatures by `--materialize-dist-tensor-ctx`.
  }];
}

def Pld_WindowBufferType : TypeDef<Pld_Dialect, "WindowBuffer"> {
  let mnemonic = "window_buffer";
  // Written by hand only to reject parameters (`!pld.window_buffer<4>`).
  let hasCustomAssemblyFormat = 1;
  let summary = "one window allocation of a HOST orchestrator";
  let description = [{
    One communication-window allocation made by a HOST orchestrator
    (`pld.window_buffer`). `pld.window` takes local views of it.
  }];
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Pld_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pld_Dialect, mnemonic, traits>;

def Pld_WindowBufferOp : Pld_Op<"window_buffer", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a communication window";
  let description = [{
    Allocates `bytes` bytes of communication window on every rank of the HOST
    orchestrator's domain. All `pld.window_buffer`s of one HOST orchestrator
    form its one communication domain.

    ```mlir
    %buf = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$bytes);
  let results = (outs Pld_WindowBufferType:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

def Pld_WindowOp : Pld_Op<"window", [Pure]> {
  let summary = "a local DistributedTensor view of a window allocation";
  let description = [{
    A `!pld.dtensor` view of `buffer` starting `offset` bytes in (default 0).
    A root of the contiguity trace.
  }];
  let arguments = (ins Pld_WindowBufferType:$buffer,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs Pld_AnyDTensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($result))";
}

def Pld_SystemNranksOp : Pld_Op<"system.nranks", [Pure]> {
  let summary = "the rank count of the current communication domain";
  let description = [{
    InCore only: it has an InCore codegen but no orchestration codegen, so it
    is rejected inside an orchestration or graph function.
  }];
  let results = (outs I64:$result);
  let hasVerifier = 1;
  let assemblyFormat = "attr-dict `:` type($result)";
}

class Pld_AllToAllVBase<string mnemonic, dag extraOperands, string doc>
    : Pld_Op<mnemonic, []> {
  let arguments = !con((ins
      Arg<Pl_AnyTensorLike, "payload to send", [MemRead]>:$input,
      Arg<Pl_AnyTensorLike, "receive window", [MemRead, MemWrite]>:$target,
      Arg<Pl_AnyTensorLike, "[NR, S] i32 barrier window", [MemRead, MemWrite]>:$signal,
      Arg<Pl_AnyTensorLike, "rows per destination", [MemRead]>:$send_counts,
      Arg<Pl_AnyTensorLike, "rows received per source", [MemRead, MemWrite]>:$recv_counts),
    extraOperands,
    (ins Optional<I64>:$dynamic_core_num,
         OptionalAttr<I64Attr>:$core_num));
  let results = (outs Pl_AnyTensorLike:$result);
  let hasVerifier = 1;
  let description = doc # [{

    Operands that the types alone prove unusable are rejected here (the
    "type deducer"): a non-`nd` layout, explicit strides other than packed
    row-major, a `valid` narrower than the shape, `input` being the same value
    as `target`, mismatched payload element types, a `signal` that is not an
    `[NR, S]` i32 `!pld.dtensor`, counts that are not `[NR]` or `[NR, 1]` i32,
    a `target` or `recv_counts` that is not a `!pld.dtensor`, target rows not
    divisible by NR (where static), a result type other than the target's, and
    anything but exactly one of the `core_num` attribute and the
    `dynamic_core_num` operand. Each message names the operand.

    The op is not `Pure`: it writes `target`, `signal` and `recv_counts`, so it
    is never erased as dead. Its result is `target` (the window-as-result
    contract).
  }];
}

def Pld_AllToAllVOp : Pld_AllToAllVBase<"tensor.all_to_all_v", (ins), [{
    Exchanges `send_counts[d]` rows of `input` (rows `d*MAX_RECV ..`) with
    every peer `d`; peer `s`'s rows land at `target[s*MAX_RECV ..]` and the
    clamped count at `recv_counts[s]`. `core_num` is the requested block limit
    L, either the `core_num` attribute or the runtime `dynamic_core_num`
    operand (an `arith.constant` operand counts as compile-time).

    ```mlir
    %data = pld.tensor.all_to_all_v %stage, %data0, %signal, %counts, %recv {core_num = 1 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
          !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    ```
  }]> {
  let assemblyFormat = [{
    $input `,` $target `,` $signal `,` $send_counts `,` $recv_counts
    (`core_num` `(` $dynamic_core_num^ `)`)? attr-dict `:`
    type($input) `,` type($target) `,` type($signal) `,` type($send_counts) `,`
    type($recv_counts) `->` type($result)
  }];
}

def Pld_IndexedAllToAllVOp : Pld_AllToAllVBase<"tensor.indexed_all_to_all_v",
    (ins Arg<Pl_AnyTensorLike, "per-row destination index", [MemRead]>:$index), [{
    The indexed A5 URMA variant: like `pld.tensor.all_to_all_v` with a sixth
    tensor operand `index`; `core_num` is the exact launch width. Its CHIP
    lowering is not specified yet, so the residual check of
    `--lower-l2-tensor-collectives` reports it in a CHIP orchestration body.
  }]> {
  let assemblyFormat = [{
    $input `,` $target `,` $signal `,` $send_counts `,` $recv_counts `,` $index
    (`core_num` `(` $dynamic_core_num^ `)`)? attr-dict `:`
    type($input) `,` type($target) `,` type($signal) `,` type($send_counts) `,`
    type($recv_counts) `,` type($index) `->` type($result)
  }];
}

#endif // PLD_PLDOPS_TD

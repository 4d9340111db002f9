//===- PldOps.td - `pld` types and ops ------------------------------------===//

#ifndef PLD_PLDOPS_TD
#define PLD_PLDOPS_TD

include "pld/PldDialect.td"
include "pld/TensorTypeBase.td"
include "pld/TensorConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

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

def Pld_CommDomainType : TypeDef<Pld_Dialect, "CommDomain"> {
  let mnemonic = "comm_domain";
  // Written by hand only to reject parameters (`!pld.comm_domain<4>`).
  let hasCustomAssemblyFormat = 1;
  let summary = "a communication domain of a HOST orchestrator";
  let description = [{
    A communication domain (`pld.comm_domain {ranks = N}`): devices 0..N-1 of
    the HOST orchestrator's dispatch loop, with one CommContext per device.
    Windows allocated in it (`pld.window_buffer in %d`) are symmetric over
    those N devices. Contract: `docs/spec/domains.md`.
  }];
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Pld_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pld_Dialect, mnemonic, traits>;

// Marks a managed collective op (the one list of them: the C API reads it,
// and the Rust variant table is checked against it).
def Pld_CollectiveOp : NativeOpTrait<"CollectiveOpTrait"> {
  let cppNamespace = "::pld";
}

// What a pass or tool asks of any collective without naming its op: the
// window its result is (the window-as-result contract).
def Pld_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::pld";
  let description = [{
    A managed collective: its result is one of its windows (the target, the
    barrier's signal), so a use of the result is a use of that window.
  }];
  let methods = [
    InterfaceMethod<"The window the op's result is: its `target`, the "
                    "barrier's `signal`.",
                    "::mlir::Value", "getWindow", (ins), [{}], [{
      return $_op.getTarget();
    }]>,
  ];
}

def Pld_CommDomainOp : Pld_Op<"comm_domain", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "creates a communication domain over devices 0..ranks-1";
  let description = [{
    A communication domain of a HOST orchestrator over `ranks` devices
    (devices 0..ranks-1 of its dispatch loop; `ranks` >= 1). Windows
    allocated in it are symmetric over those devices, and
    `pld.host.device_ctx %dev in %d` is device `%dev`'s CommContext in it
    (`rankNum = ranks`). A HOST orchestrator may hold several domains; its
    `pld.window_buffer`s without a domain operand form its implicit domain, a
    domain of its own. Only valid in a HOST orchestrator.

    ```mlir
    %d = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
    ```
  }];
  let arguments = (ins I64Attr:$ranks);
  let results = (outs Pld_CommDomainType:$domain);
  let assemblyFormat = "attr-dict `:` type($domain)";
  let hasVerifier = 1;
}

def Pld_WindowBufferOp : Pld_Op<"window_buffer", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates a communication window";
  let description = [{
    Allocates `bytes` bytes of communication window on every rank of a
    communication domain of the HOST orchestrator: the `domain` operand's
    (`pld.window_buffer in %d`, `%d` a `pld.comm_domain` of the same body),
    else the orchestrator's implicit domain, which all its buffers without a
    domain operand form (a domain of its own, distinct from every explicit
    one).

    ```mlir
    %buf = pld.window_buffer {bytes = 4096 : i64} : !pld.window_buffer
    %d = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
    %sub = pld.window_buffer in %d {bytes = 4096 : i64} : !pld.window_buffer
    ```
  }];
  let arguments = (ins Optional<Pld_CommDomainType>:$domain,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$bytes);
  let results = (outs Pld_WindowBufferType:$buffer);
  let assemblyFormat = "(`in` $domain^)? attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def Pld_WindowOp : Pld_Op<"window", [Pure]> {
  let summary = "a local DistributedTensor view of a window allocation";
  let description = [{
    A `!pld.dtensor` view of `buffer` starting `offset` bytes in (default 0).
    A root of the contiguity trace.

    The view must fit in its allocation where that is provable: when `buffer`
    is the result of a `pld.window_buffer` (its `bytes` known) and the result
    type has a static shape, `offset` + the view's size must not exceed
    `bytes`. The size is elements × element bytes for a packed type; with
    explicit strides it is the span they address (`1 + sum((dim - 1) *
    stride)` elements, a `?` stride counted as 0). A buffer that arrives as a
    block argument or from another op, or a `?` dimension, proves nothing and
    is accepted.
  }];
  let arguments = (ins Pld_WindowBufferType:$buffer,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntNonNegative]>>:$offset);
  let results = (outs Pld_AnyDTensor:$result);
  let assemblyFormat = "$buffer attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
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

class Pld_AllToAllVBase<string mnemonic, string opSummary, dag extraOperands,
                        string doc>
    : Pld_Op<mnemonic, [Pld_CollectiveOp, Pld_CollectiveOpInterface]> {
  let summary = opSummary;
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
    an operand that must be a window (below, per op) that is not a
    `!pld.dtensor`, target rows not divisible by NR (where static), a result
    type other than the target's, and anything but exactly one of the
    `core_num` attribute and the `dynamic_core_num` operand. Each message
    names the operand. How `input` must match `target` depends on the op
    (below): the plain op's `input` is, like `target`, an `[NR*MAX_RECV, ...]`
    payload, so where both are static it has the target's row count and rows
    of the target's element count (the row shape may differ: the kernel reads
    rows flat); the indexed op's `input` has any row count and the target's
    row shape.

    The op is not `Pure`: it writes `target`, `signal` and `recv_counts`, so it
    is never erased as dead. Its result is `target` (the window-as-result
    contract).
  }];
}

def Pld_AllToAllVOp : Pld_AllToAllVBase<"tensor.all_to_all_v",
    "variable-count all-to-all exchange of rows between the ranks of a "
    "communication domain (target, signal, recv_counts are windows)", (ins), [{
    Exchanges `send_counts[d]` rows of `input` (rows `d*MAX_RECV ..`) with
    every peer `d`; peer `s`'s rows land at `target[s*MAX_RECV ..]` and the
    clamped count at `recv_counts[s]`. `core_num` is the requested block limit
    L, either the `core_num` attribute or the runtime `dynamic_core_num`
    operand (an `arith.constant` operand counts as compile-time).

    `target`, `signal` and `recv_counts` must be `!pld.dtensor`s; a local
    `send_counts` passes the verifier but not the CHIP rail (peers read it).

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
    "A5 variable-count all-to-all whose sent rows are gathered through a "
    "per-destination index (target, signal, send_counts are windows)",
    (ins Arg<Pl_AnyTensorLike, "per-destination-slot gather list of input rows", [MemRead]>:$index), [{
    The indexed A5 URMA (PER_PEER) variant. `index` is a **gather list per
    destination slot**, not a scatter: rank r sends to peer d the rows
    `input[index[d*MAX_RECV + k]]` for `k < rows(d)`, `rows(d) =
    clamp(send_counts[d], 0, MAX_RECV)`, so the rows bound for a peer need not
    be contiguous or ordered in `input` (MoE token dispatch without a local
    permute). On the receiver r, from every source s (itself included):
    `target[s*MAX_RECV + k] = input_s[index_s[r*MAX_RECV + k]]` for
    `k < clamp(send_counts_s[r], 0, MAX_RECV)`; an index entry outside
    `[0, input rows)` delivers a row of zeros (no error, no out-of-bounds
    read); rows past the count are never written; `recv_counts[s]` is the
    clamped count. `MAX_RECV = target rows / NR`, as for the plain op.

    Operands (in order): `input` `[N_in, row...]` (any N_in, local or window),
    `target` `[NR*MAX_RECV, row...]` window with the input's element type and
    row shape, `signal` `[NR, S]` i32 window, `send_counts` `[NR]`/`[NR, 1]`
    i32 **window** (receivers pull their counts from it), `recv_counts`
    `[NR]`/`[NR, 1]` i32 (may be local), `index` `[NR*MAX_RECV]` /
    `[NR*MAX_RECV, 1]` i32 (may be local; its rows must equal the target's).
    `core_num` is the **exact launch width** L (no folding, B = L); the CHIP
    rail takes only a compile-time one.

    `--lower-l2-tensor-collectives` lowers it, in a module with
    `pl.arch = "a5"` only, to a call of
    `@__builtin_indexed_all_to_all_v__fp32` / `__int8` (one writer block per
    destination); the HOST rail and InCore bodies refuse it. The contract is
    `docs/spec/indexed.md`.

    ```mlir
    %data = pld.tensor.indexed_all_to_all_v %in, %data0, %signal, %counts, %recv, %index {core_num = 4 : i64}
        : !pl.tensor<20x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
          !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    ```
  }]> {
  let assemblyFormat = [{
    $input `,` $target `,` $signal `,` $send_counts `,` $recv_counts `,` $index
    (`core_num` `(` $dynamic_core_num^ `)`)? attr-dict `:`
    type($input) `,` type($target) `,` type($signal) `,` type($send_counts) `,`
    type($recv_counts) `,` type($index) `->` type($result)
  }];
}


//===----------------------------------------------------------------------===//
// The collective family (docs/spec/family.md)
//===----------------------------------------------------------------------===//

// A family collective: one target/signal window protocol, `core_num` the
// exact compile-time launch width L (default 1, no runtime operand). The
// attributes stay in the attribute dictionary, so the custom form is the
// generic one without the quotes: `pld.tensor.allreduce %t, %s {reduce =
// "sum"} : T, S -> T`. The verifier is generated from the def: `rows` (how the
// target's rows relate to NR and the input: pld::FamilyRows, family.md's
// Shapes) and `allowsI8` are its data; the operands it has and the
// attributes it declares (`reduce`, `mode`, `root`, `pairs`, `core_num`) say
// which other rows of family.md's Checks table apply, and the one type
// deducer, pld::verifyFamilyOp (dialect/lib/Collectives.cpp), reports the
// first failing type-provable row.
class Pld_FamilyOp<string mnemonic, string opSummary, dag operands,
                   dag attributes, string doc, string format,
                   string rows = "Any", bit allowsI8 = 1>
    : Pld_Op<mnemonic, [Pld_CollectiveOp, Pld_CollectiveOpInterface]> {
  let summary = opSummary;
  let arguments = !con(operands, attributes);
  let results = (outs Pl_AnyTensorLike:$result);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::pld::verifyFamilyOp(getOperation(), ::pld::FamilyRows::}] # rows # [{,
                                   /*allowsI8=*/}] # !if(allowsI8, "true", "false") # [{);
    }
  }];
  let assemblyFormat = format;
  let description = doc # [{

    Shared rules (the type deducer): `signal` is an i32 window `[NR]`
    (stride S = 1) or `[NR, S]` with S >= L (one lane per launched block);
    `target` is a window; every operand is a packed, full, `nd` view (as for
    `pld.tensor.all_to_all_v`); the result has the target's type. `core_num`
    (default 1) must be in [1, 2147483647]. The op is not `Pure`: it writes
    its windows. Every kernel leaves `signal` as it found it (zeros in, zeros
    out), so one signal serves back-to-back calls and every loop iteration.
    `--lower-l2-tensor-collectives` (CHIP) and
    `--lower-host-tensor-collectives` (HOST) lower it to the builtin kernel
    of its variant; an InCore body refuses it.
  }];
}

def Pld_AllReduceOp : Pld_FamilyOp<"tensor.allreduce",
    "element-wise reduction of a window over every rank, in place",
    (ins Arg<Pl_AnyTensorLike, "window reduced in place", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins OptionalAttr<AnyAttr>:$reduce, OptionalAttr<AnyAttr>:$mode,
         OptionalAttr<I64Attr>:$core_num), [{
    Every rank's `target` becomes the element-wise `reduce` (`"sum"`,
    `"max"`, `"min"`, `"prod"`; required) over all ranks' targets. `mode =
    "mesh"` (the default): the left fold in rank order 0..P-1, f16
    accumulating in f32 and rounding once, i32 wrapping; bitwise identical on
    every rank. `mode = "ring"`: a reduce-scatter + allgather ring over NR
    chunks, `core_num = 1`, signal `[2*(NR-1)+1, NR]` (NR its trailing
    dimension, at most 16), element count divisible by NR; every rank's result
    is bitwise identical. Ring partials travel in the element type: f16
    partials are rounded to f16 at every hop (as NCCL's ring), so a partial
    beyond the f16 range becomes +-inf where the mesh fold's f32 accumulator
    would not (60000 + 60000 - 60000 - 59968 is 32 in mesh mode and may be inf
    in ring mode): f16 data near the range limit wants mesh mode. Where no
    partial overflows, |ring - mesh| <= rtol * sum_q |x_q| element-wise (rtol
    1e-5 for f32, 1e-2 for f16). Element types f32, f16, i32.

    ```mlir
    %t = pld.tensor.allreduce %data, %signal {reduce = "sum", core_num = 2 : i64}
        : !pld.dtensor<64x128xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<64x128xf32>
    ```
  }], [{
    $target `,` $signal attr-dict `:` type($target) `,` type($signal) `->` type($result)
  }], "Any", /*allowsI8=*/0>;

def Pld_ReduceScatterOp : Pld_FamilyOp<"tensor.reduce_scatter",
    "reduces each rank's row block over every rank into that rank's target",
    (ins Arg<Pl_AnyTensorLike, "[NR*M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins OptionalAttr<AnyAttr>:$reduce, OptionalAttr<I64Attr>:$core_num), [{
    `target` is `[NR*M, row...]`. On rank r, rows `[r*M, (r+1)*M)` become the
    left fold (rank order 0..P-1) of the same rows of every rank's target;
    every other row is left unchanged (the caller's staged data is not
    scratch). `reduce` is required (`"sum"`, `"max"`, `"min"`, `"prod"`).
    Element types f32, f16, i32.

    ```mlir
    %t = pld.tensor.reduce_scatter %data, %signal {reduce = "max"}
        : !pld.dtensor<16x8xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x8xf16>
    ```
  }], [{
    $target `,` $signal attr-dict `:` type($target) `,` type($signal) `->` type($result)
  }], "MultipleOfNR", /*allowsI8=*/0>;

def Pld_AllGatherOp : Pld_FamilyOp<"tensor.allgather",
    "gathers every rank's input into every rank's target",
    (ins Arg<Pl_AnyTensorLike, "[M, row...] payload (local or window)", [MemRead]>:$input,
         Arg<Pl_AnyTensorLike, "[NR*M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins OptionalAttr<I64Attr>:$core_num), [{
    On every rank, rows `[q*M, (q+1)*M)` of `target` become rank q's `input`
    (`[M, row...]`, local or a window; the target's row shape). Element types
    f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.allgather %in, %all, %signal
        : !pl.tensor<4x32xi8>, !pld.dtensor<16x32xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x32xi8>
    ```
  }], [{
    $input `,` $target `,` $signal attr-dict `:` type($input) `,` type($target) `,`
    type($signal) `->` type($result)
  }], "GatherNR">;

def Pld_BroadcastOp : Pld_FamilyOp<"tensor.broadcast",
    "copies the root rank's target into every rank's target",
    (ins Arg<Pl_AnyTensorLike, "window, the root's is the source", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins I64Attr:$root, OptionalAttr<I64Attr>:$core_num), [{
    Every rank's `target` becomes rank `root`'s (`root` in `[0, NR)`).
    Element types f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.broadcast %table, %signal {root = 0 : i64}
        : !pld.dtensor<8x16xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x16xi32>
    ```
  }], [{
    $target `,` $signal attr-dict `:` type($target) `,` type($signal) `->` type($result)
  }]>;

def Pld_AllToAllOp : Pld_FamilyOp<"tensor.all_to_all",
    "fixed-size all-to-all exchange of row blocks",
    (ins Arg<Pl_AnyTensorLike, "[NR*M, row...] payload (local or window)", [MemRead]>:$input,
         Arg<Pl_AnyTensorLike, "[NR*M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins OptionalAttr<I64Attr>:$core_num), [{
    On rank r, rows `[q*M, (q+1)*M)` of `target` become rows `[r*M, (r+1)*M)`
    of rank q's `input`. `input` and `target` are both `[NR*M, row...]` with
    one row shape. Element types f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.all_to_all %in, %out, %signal {core_num = 4 : i64}
        : !pl.tensor<32x64xf16>, !pld.dtensor<32x64xf16>, !pld.dtensor<4x4xi32> -> !pld.dtensor<32x64xf16>
    ```
  }], [{
    $input `,` $target `,` $signal attr-dict `:` type($input) `,` type($target) `,`
    type($signal) `->` type($result)
  }], "SameAsInput">;

def Pld_ReduceOp : Pld_FamilyOp<"tensor.reduce",
    "element-wise reduction of every rank's window into the root's",
    (ins Arg<Pl_AnyTensorLike, "window reduced into the root's", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins OptionalAttr<AnyAttr>:$reduce, I64Attr:$root, OptionalAttr<I64Attr>:$core_num), [{
    On rank `root` (in `[0, NR)`, required), `target` becomes the element-wise
    `reduce` (`"sum"`, `"max"`, `"min"`, `"prod"`; required) over every rank's
    target: the left fold in rank order 0..P-1, f16 accumulating in f32 and
    rounding once, i32 wrapping (the mesh fold of `pld.tensor.allreduce`).
    Every other rank's `target` is left unchanged. Element types f32, f16,
    i32.

    ```mlir
    %t = pld.tensor.reduce %loss, %signal {reduce = "sum", root = 0 : i64}
        : !pld.dtensor<1x8xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<1x8xf32>
    ```
  }], [{
    $target `,` $signal attr-dict `:` type($target) `,` type($signal) `->` type($result)
  }], "Any", /*allowsI8=*/0>;

def Pld_GatherOp : Pld_FamilyOp<"tensor.gather",
    "gathers every rank's input into the root's target",
    (ins Arg<Pl_AnyTensorLike, "[M, row...] payload (local or window)", [MemRead]>:$input,
         Arg<Pl_AnyTensorLike, "[NR*M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins I64Attr:$root, OptionalAttr<I64Attr>:$core_num), [{
    On rank `root` (in `[0, NR)`, required), rows `[q*M, (q+1)*M)` of
    `target` become rank q's `input` (`[M, row...]`, local or a window; the
    target's row shape) for every q. Every other rank's `target` is left
    unchanged. Element types f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.gather %out, %all, %signal {root = 0 : i64}
        : !pl.tensor<4x16xf32>, !pld.dtensor<16x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x16xf32>
    ```
  }], [{
    $input `,` $target `,` $signal attr-dict `:` type($input) `,` type($target) `,`
    type($signal) `->` type($result)
  }], "GatherNR">;

def Pld_ScatterOp : Pld_FamilyOp<"tensor.scatter",
    "scatters the root's input row blocks, one to each rank's target",
    (ins Arg<Pl_AnyTensorLike, "[NR*M, row...] payload (local or window); the root's is read", [MemRead]>:$input,
         Arg<Pl_AnyTensorLike, "[M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins I64Attr:$root, OptionalAttr<I64Attr>:$core_num), [{
    On every rank r, `target` (`[M, row...]`) becomes rows `[r*M, (r+1)*M)`
    of rank `root`'s `input` (`[NR*M, row...]`, local or a window; `root` in
    `[0, NR)`, required). The other ranks' `input` is never read. Element
    types f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.scatter %batch, %mine, %signal {root = 0 : i64}
        : !pl.tensor<16x16xf32>, !pld.dtensor<4x16xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x16xf32>
    ```
  }], [{
    $input `,` $target `,` $signal attr-dict `:` type($input) `,` type($target) `,`
    type($signal) `->` type($result)
  }], "ScatterNR">;

def Pld_PermuteOp : Pld_FamilyOp<"tensor.permute",
    "point-to-point transfers along source-target pairs (XLA collective_permute)",
    (ins Arg<Pl_AnyTensorLike, "[M, row...] payload (local or window)", [MemRead]>:$input,
         Arg<Pl_AnyTensorLike, "[M, row...] window", [MemRead, MemWrite]>:$target,
         Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins AnyAttr:$pairs, OptionalAttr<I64Attr>:$core_num), [{
    For every pair `[s, d]` of `pairs` (StableHLO's `source_target_pairs`
    spelling: `dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>`, rows `[source,
    dest]`), rank d's `target` becomes rank s's `input` (`s == d` copies
    locally); a rank that is no pair's destination leaves its `target`
    unchanged (StableHLO's `collective_permute` gives such a rank zeros: a
    frontend lowering it one-to-one zero-fills the target first). Each rank
    is at most one pair's source and one pair's
    destination; `input` and `target` have the same rows. With no pairs
    (`dense<> : tensor<0x2xi64>`) the op is a no-op, which both rails erase
    (its result is the target). Element types f32, f16, i8, i32.

    ```mlir
    %t = pld.tensor.permute %act, %next, %signal {pairs = dense<[[0, 1], [1, 2], [2, 3]]> : tensor<3x2xi64>}
        : !pl.tensor<8x64xf32>, !pld.dtensor<8x64xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x64xf32>
    ```
  }], [{
    $input `,` $target `,` $signal attr-dict `:` type($input) `,` type($target) `,`
    type($signal) `->` type($result)
  }], "Permute">;

def Pld_BarrierOp : Pld_FamilyOp<"tensor.barrier",
    "no rank leaves before every rank has entered",
    (ins Arg<Pl_AnyTensorLike, "i32 signal window", [MemRead, MemWrite]>:$signal),
    (ins), [{
    No rank returns from it before every rank of the domain has entered it.
    It launches one block; its result is the signal (the window-as-result
    contract), which orders it after and before every collective sharing the
    signal.

    ```mlir
    %s = pld.tensor.barrier %signal : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
    ```
  }], [{
    $signal attr-dict `:` type($signal) `->` type($result)
  }]> {
  let extraClassDeclaration = [{
    /// The barrier's result is its signal (CollectiveOpInterface).
    ::mlir::Value getWindow() { return getSignal(); }
  }];
}


//===----------------------------------------------------------------------===//
// InCore per-peer primitives (emitted by --lower-composite-ops)
//===----------------------------------------------------------------------===//

class Pld_InCoreOp<string mnemonic, list<Trait> traits = []>
    : Pld_Op<mnemonic, traits> {
  let hasVerifier = 1;
}

def Pld_SystemRankOp : Pld_InCoreOp<"system.rank", [Pure]> {
  let summary = "this rank's index in the current communication domain";
  let description = [{
    InCore only, like `pld.system.nranks`: the kernel reads
    `CommContext::rankId`. Rejected inside an orchestration or graph function.

    ```mlir
    %me = pld.system.rank : i64
    ```
  }];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Pld_CommReadCountOp : Pld_InCoreOp<"comm.read_count"> {
  let summary = "reads one i32 count, locally or from a peer's window";
  let description = [{
    Reads `counts[index]` (the first element of row `index` for an `[NR, 1]`
    tensor). With `from rank %r`, the read is a remote GM load from rank
    `%r`'s copy of the window, so `counts` must then be a `!pld.dtensor`.
    InCore only.

    ```mlir
    %n = pld.comm.read_count %send_counts[%peer] : !pld.dtensor<2xi32>
    %m = pld.comm.read_count %send_counts[%me] from rank %peer : !pld.dtensor<2xi32>
    ```
  }];
  let arguments = (ins Arg<Pl_AnyTensorLike, "i32 counts", [MemRead]>:$counts,
                       I64:$index, Optional<I64>:$rank);
  let results = (outs I32:$count);
  let assemblyFormat = [{
    $counts `[` $index `]` (`from` `rank` $rank^)? attr-dict `:` type($counts)
  }];
}

def Pld_CommPutRowsOp : Pld_InCoreOp<"comm.put_rows"> {
  let summary = "copies rows of a local tensor into a peer's window";
  let description = [{
    Copies `rows` rows of `source`, starting at row `source_row`, into rank
    `rank`'s copy of the window `target`, starting at row `target_row`. A
    row is everything after the leading dimension; both operands must agree
    on it (where static) and on the element type. `rows == 0` is a no-op.
    InCore only.

    ```mlir
    pld.comm.put_rows %rows of %input[%src] to %target[%dst] on rank %peer
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>
    ```
  }];
  let arguments = (ins I64:$rows,
                       Arg<Pl_AnyTensorLike, "local payload", [MemRead]>:$source,
                       I64:$source_row,
                       Arg<Pl_AnyTensorLike, "peer window", [MemWrite]>:$target,
                       I64:$target_row, I64:$rank);
  let assemblyFormat = [{
    $rows `of` $source `[` $source_row `]` `to` $target `[` $target_row `]`
    `on` `rank` $rank attr-dict `:` type($source) `,` type($target)
  }];
}

def Pld_CommNotifyOp : Pld_InCoreOp<"comm.notify"> {
  let summary = "publishes a count to a peer and raises its signal";
  let description = [{
    Stores `value` (truncated to i32) into rank `rank`'s `counts[slot]`, then
    -- ordered after the store and after every earlier `pld.comm.put_rows` to
    that rank -- raises rank `rank`'s `signal[slot, 0]`. The all_to_all_v
    expansion notifies every peer, including those it sends zero rows to, so
    no receiver waits forever. InCore only.

    ```mlir
    pld.comm.notify %rows to %recv_counts[%me] signal %signal on rank %peer
        : !pld.dtensor<2xi32>, !pld.dtensor<2x8xi32>
    ```
  }];
  let arguments = (ins I64:$value,
                       Arg<Pl_AnyTensorLike, "peer counts", [MemWrite]>:$counts,
                       I64:$slot,
                       Arg<Pl_AnyTensorLike, "[NR, S] signal", [MemRead, MemWrite]>:$signal,
                       I64:$rank);
  let assemblyFormat = [{
    $value `to` $counts `[` $slot `]` `signal` $signal `on` `rank` $rank
    attr-dict `:` type($counts) `,` type($signal)
  }];
}

def Pld_CommWaitOp : Pld_InCoreOp<"comm.wait"> {
  let summary = "waits for a peer's notification";
  let description = [{
    Blocks until this rank's `signal[slot, 0]` has been raised by the peer
    `slot` (`pld.comm.notify`), then resets it. InCore only.

    ```mlir
    pld.comm.wait %signal[%peer] : !pld.dtensor<2x8xi32>
    ```
  }];
  let arguments = (ins Arg<Pl_AnyTensorLike, "[NR, S] signal", [MemRead, MemWrite]>:$signal,
                       I64:$slot);
  let assemblyFormat = "$signal `[` $slot `]` attr-dict `:` type($signal)";
}

//===----------------------------------------------------------------------===//
// HOST orchestrator ops (the HOST rail, --lower-host-tensor-collectives)
//===----------------------------------------------------------------------===//

class Pld_HostOp<string mnemonic, list<Trait> traits = []>
    : Pld_Op<mnemonic, traits> {
  let hasVerifier = 1;
}

def Pld_HostDispatchOp : Pld_HostOp<"host.dispatch", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "dispatches a chip callable to one device (an L3 -> L2 task)";
  let description = [{
    Submits the CHIP orchestration function `callee` (an `orchestration` or
    `graph` function at chip level) to device `device` as one L3 -> L2 task,
    with `args` as its arguments (the same count and types as the
    callee's parameters; window views are passed as the device's local view).
    Only valid in a HOST orchestrator. The callee's results are not
    returned to the host.

    `core_num(%B)` is the launch spec of a builtin collective callable
    (`builtin.tensor.*`): the block count B its one AIV launch uses, with
    `sync_start` when B > 1. It is computed at runtime by the HOST rail.

    ```mlir
    pld.host.dispatch @chip_pipeline(%inp, %out) on %dev
        : (!pl.tensor<16x4xf32>, !pl.tensor<16x4xf32>), index
    pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(%a, %b, %c, %d, %e)
        on %dev core_num(%blocks) : (...), index
    pld.host.dispatch @no_params() on %dev : (), index
    ```

    The argument types are a parenthesized list that may be empty (`()`),
    for a callee without parameters.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$args,
                       AnySignlessIntegerOrIndex:$device,
                       Optional<I64>:$core_num);
  let assemblyFormat = [{
    $callee `(` $args `)` `on` $device (`core_num` `(` $core_num^ `)`)?
    attr-dict `:` custom<DispatchArgTypes>(type($args)) `,` type($device)
  }];
}

def Pld_HostDeviceCtxOp : Pld_HostOp<"host.device_ctx", [Pure]> {
  let summary = "the CommContext of one device of the HOST domain";
  let description = [{
    The `CommContext*` that `comm_derive_context` builds for device `device`
    of a communication domain: `in %d` names a `pld.comm_domain` of the same
    body, else it is the HOST orchestrator's implicit domain (its
    `pld.window_buffer`s without a domain operand). `--materialize-dist-tensor-ctx`
    creates one per (`pld.host.dispatch`, domain) and passes, for each
    context parameter of the callee, the one of the domain of the window
    bound to the matching dtensor parameter. A device index >= the domain's
    `ranks` fails the host entry with error 5 at run time. Only valid in a
    HOST orchestrator.

    ```mlir
    %ctx = pld.host.device_ctx %dev : index
    %sub = pld.host.device_ctx %dev in %d : index
    ```
  }];
  let arguments = (ins AnySignlessIntegerOrIndex:$device,
                       Optional<Pld_CommDomainType>:$domain);
  let results = (outs Pld_CommCtxType:$ctx);
  let assemblyFormat = "$device (`in` $domain^)? attr-dict `:` type($device)";
}

def Pld_HostRequireOp : Pld_HostOp<"host.require"> {
  let summary = "fails the host entry with an error code unless a condition holds";
  let description = [{
    When `condition` is false, the HOST entry stops before its next dispatch
    and returns `error_code` (e.g. 5, SIMPLER_ERROR_INVALID_ARGS) with
    `message` logged. The HOST rail emits it for the runtime `core_num`
    range and `S >= B` checks. Only valid in a HOST orchestrator.
    `error_code` is in [1, 2147483647]: the host entry's status is a C++
    `int`, and 0 is success (a failed check latching 0 would return
    success). As for `pl.require`, the optional `seen(...)` values (named by
    `value_names`) follow the message in a failure's report.

    ```mlir
    pld.host.require %ok else error 5, "all_to_all_v: core_num out of range or S < B"
        seen(%L, %B : i64, i64) {value_names = ["core_num L", "B"]}
    ```
  }];
  let arguments = (ins I1:$condition,
                       I64Attr:$error_code, // [1, 2147483647], in the verifier
                       StrAttr:$message,
                       Variadic<AnySignlessIntegerOrIndex>:$values,
                       OptionalAttr<StrArrayAttr>:$value_names);
  let assemblyFormat = [{
    $condition `else` `error` $error_code `,` $message
    (`seen` `(` $values^ `:` type($values) `)`)? attr-dict
  }];
}

#endif // PLD_PLDOPS_TD

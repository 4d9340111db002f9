//===- Passes.td - the pld passes -------------------------------*- tablegen -*-===//
//
// Every pld pass, as upstream MLIR and CIRCT declare theirs: flag, summary,
// description, dependent dialects, options and statistics, and the
// pipelines. `mlir-tblgen -gen-pass-decls` makes the C++ pass bases and
// dialect/PassShells.cmake the classes over them (src/bridge/passes.cc: each
// runOnOperation hands the module and the option values to the pass's Rust
// body, src/passes/<flag in snake_case>.rs, and adds the counts it returns to
// the statistics); build.rs (dialect/pass_rust.rs) makes the Rust side (the
// body's `pub mod`, its typed options and statistics, the pass table, the
// pipelines as text); `-gen-pass-doc` makes docs/passes.md.
//
//===----------------------------------------------------------------------===//

#ifndef PLD_PASSES_TD
#define PLD_PASSES_TD

include "mlir/Pass/PassBase.td"

// Every pass may create func, arith, scf, pl and pld ops: a pipeline that
// starts from IR without them (a plain builtin.module) still has them loaded.
defvar PldDependentDialects = [
  "::mlir::func::FuncDialect",
  "::mlir::arith::ArithDialect",
  "::mlir::scf::SCFDialect",
  "::pld::pl::PlDialect",
  "::pld::dist::PldDialect",
];

//===----------------------------------------------------------------------===//
// The rails
//===----------------------------------------------------------------------===//

def LowerL2TensorCollectives : Pass<"lower-l2-tensor-collectives", "::mlir::ModuleOp"> {
  let summary = "Lower the managed collectives (all_to_all_v, its indexed "
                "variant, the allreduce / reduce_scatter / allgather / "
                "broadcast / all_to_all / barrier family) in CHIP orchestration "
                "bodies to a func.call of a synthesized AIV builtin kernel";
  let description = [{
    The CHIP rail. In every CHIP orchestration body (`pl.func_kind =
    "orchestration"` or `"graph"`, not `pl.level = "host"`), each
    `pld.tensor.all_to_all_v` becomes a `func.call` of a synthesized AIV
    builtin kernel, `@__builtin_all_to_all_v__fp32` or `__int8` (one per
    payload element type, shared by every call site, carrying the template
    attributes `pld-translate` renders), so the collective is one ordinary
    task of the caller's pipeline. Operands are `pl.cast` to the kernel's
    canonical unranked types and the result is cast back.

    The launch width `B = cal_all_to_all_v_blocks(P, L)` is folded from
    `core_num` `L` (the attribute, or an operand that folds to a constant) and
    the signal's rank count `P`; `B > 1` attaches `pl.core_num = B` and
    `pl.sync_start`. A runtime `core_num` computes `B` in `arith` ops, checks
    it with a `pl.require` and launches the call through `pl.launch %B`.

    Every collective is checked first (signal shape static, `core_num` in
    `[1, 2^31-1]`, signal stride `S >= B`, element type f32 or i8,
    `send_counts` distributed, every operand provably contiguous, no clashing
    symbol), each failure reported at its location; nothing is rewritten
    unless every check passes. With `aiv-cores=N`, a compile-time `B > N` is
    an error too (`B=<B> exceeds the target's <N> AIV cores`), instead of the
    runtime's sync-start rejection; a runtime `B` is left to the runtime.

    `pld.tensor.indexed_all_to_all_v` (the A5 URMA variant, six tensor
    operands, `index` a gather list per destination slot) lowers the same way,
    driven by the same variant table (`src/collective/`), to
    `@__builtin_indexed_all_to_all_v__fp32` / `__int8`, in a module with
    `pl.arch = "a5"` only; its `core_num` is the exact launch width `L` (no
    folding, compile-time only, `S >= L`). Its checks and messages are
    `docs/spec/indexed.md`'s (`docs/lowering.md`).

    The collective family (`docs/spec/family.md`) lowers from the same table:
    `pld.tensor.allreduce` to `@__builtin_allreduce_<reduce>__<dt>` (ring
    mode: `@__builtin_allreduce_ring_<reduce>__<dt>`),
    `pld.tensor.reduce_scatter` to `@__builtin_reduce_scatter_<reduce>__<dt>`,
    `pld.tensor.allgather` to `@__builtin_allgather__<dt>`,
    `pld.tensor.broadcast` to `@__builtin_broadcast_root<R>__<dt>`,
    `pld.tensor.all_to_all` to `@__builtin_all_to_all__<dt>` and
    `pld.tensor.barrier` to `@__builtin_barrier` (`<dt>` fp32, fp16, int8,
    int32). Their `core_num` (default 1) is the exact, compile-time launch
    width; their signal is `[NR]` or `[NR, S]` (ring: `[2*(NR-1)+1, NR]`).

    Example (P = 2 ranks, core_num 1, so B = 1):

    ```mlir
    func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>,
                    %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>,
                    %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
        attributes {pl.func_kind = "orchestration"} {
      %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
          : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>,
            !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
      return %0 : !pld.dtensor<16x4xf32>
    }
    ```

    becomes

    ```mlir
    func.func @chip(...) -> !pld.dtensor<16x4xf32> attributes {pl.func_kind = "orchestration"} {
      %0 = pl.cast %arg0 : !pld.dtensor<16x4xf32> to !pl.tensor<*xf32>
      ...
      %5 = call @__builtin_all_to_all_v__fp32(%0, %1, %2, %3, %4)
          : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>,
             !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
      %6 = pl.cast %5 : !pld.dtensor<*xf32> to !pld.dtensor<16x4xf32>
      return %6 : !pld.dtensor<16x4xf32>
    }
    func.func private @__builtin_all_to_all_v__fp32(
        %arg0: !pl.tensor<*xf32> {pl.direction = "in"}, ...) -> !pld.dtensor<*xf32>
        attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v",
                    pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv",
                    pl.require_contiguous_operands} {
      return %arg1 : !pld.dtensor<*xf32>
    }
    ```

    Design notes and every diagnostic: `docs/lowering.md`.
  }];
  let dependentDialects = PldDependentDialects;
  let options = [
    Option<"aivCores", "aiv-cores", "uint64_t", /*default=*/"0",
           "The target's AIV core count; a compile-time launch width B above "
           "it is an error (0: unknown, not checked)">,
    Option<"windowProvenance", "window-provenance", "bool", /*default=*/"true",
           "Run the per-dispatch window provenance checks (pairwise distinct, "
           "one domain, NR = ranks); false only to benchmark the pass without "
           "them (benches/bench_provenance.py)">,
    Option<"provenanceTiming", "provenance-timing", "bool", /*default=*/"false",
           "Print the provenance phase's and the pass's wall time to stderr "
           "(benches/bench_provenance.py)">,
  ];
  let statistics = [
    Statistic<"numCollectivesLowered", "collectives-lowered",
              "Collectives rewritten to a kernel call">,
    Statistic<"numKernelsSynthesized", "kernels-synthesized",
              "Builtin kernels added to the module">,
    Statistic<"numContiguitySteps", "contiguity-steps-traced",
              "Values the contiguity trace stepped through">,
  ];
}

def LowerCompositeOps : Pass<"lower-composite-ops", "::mlir::ModuleOp"> {
  let summary = "InCore rail: expand pld.tensor.all_to_all_v in InCore bodies "
                "into an explicit per-peer transfer loop (core_num must be 1)";
  let description = [{
    The InCore rail. In InCore bodies (`pl.func_kind` `incore`, `aic`, `aiv`)
    each `pld.tensor.all_to_all_v` expands into explicit per-peer transfers
    (push model; `MAX_RECV = target rows / NR`):

    ```mlir
    scf.for %peer = 0 to P {                       // send phase
      %rows = clamp(read_count(send_counts[%peer]), 0, MAX_RECV)
      scf.if %rows > 0 {
        pld.comm.put_rows %rows of input[%peer * MAX_RECV] to target[me * MAX_RECV] on rank %peer
      }
      pld.comm.notify %rows to recv_counts[me] signal signal on rank %peer
    }
    scf.for %peer = 0 to P { pld.comm.wait signal[%peer] }   // receive phase
    ```

    (schematic; the ops are `pld.system.rank`, `pld.system.nranks`,
    `pld.comm.*`, `arith` and `scf`). The op's result is its `target`.
    `core_num` must be the constant 1 and the target rows and signal `NR`
    static; collectives in orchestration bodies are left for their rails.
    `pld.tensor.indexed_all_to_all_v` has no InCore form: in an InCore body it
    is an error (`indexed_all_to_all_v is not supported in an InCore body`,
    after the `pl.arch = "a5"` check), as is every op of the collective
    family (`allreduce is not supported in an InCore body`, ...): they lower
    on the CHIP and HOST rails only.
  }];
  let dependentDialects = PldDependentDialects;
  let statistics = [
    Statistic<"numCollectivesLowered", "collectives-lowered",
              "Collectives expanded into transfer loops">,
  ];
}

def LegalizeSpmdLaunches : Pass<"legalize-spmd-launches", "::mlir::ModuleOp"> {
  let summary = "Check every kernel launch of a CHIP orchestration body: "
                "pl.core_num >= 1, pl.sync_start only with pl.core_num > 1, an "
                "AIV callee, and a caller argument for every out/inout "
                "parameter not left to the runtime (pl.submit's "
                "runtime_alloc_outs); refuse what the orchestration and HOST "
                "codegen cannot emit";
  let description = [{
    A launch is a `func.call` or `pl.submit` in a CHIP orchestration body
    whose callee is a kernel (`incore`, `aic`, `aiv`) or that carries a launch
    spec (`pl.core_num` / `pl.sync_start`). Each is checked, one error per
    launch (the first failing row): `pl.core_num` an i64 >= 1; `pl.sync_start`
    only with `pl.core_num > 1`; a launch spec or builtin kernel only on an
    AIV callee; a caller argument for every `out`/`inout` parameter, except
    that a `pl.submit` leaves its callee's trailing parameters, one per
    `runtime_alloc_outs` entry, to the runtime: each must be `out` (explicit
    or derived), and an SPMD launch (`pl.core_num`) leaves none; and no more
    argument slots than one task holds (simpler's `CoreTaskArgs`: 32 tensors
    and 16 scalars, a kernel's scalars being its CommContexts, one per
    `!pld.dtensor` parameter). The pass
    also refuses everything `pld-translate`'s orchestration codegen cannot
    emit in a CHIP orchestration body (`src/ir/orch_ops.rs`; among it an
    entry with more parameters than simpler's `ChipTaskArgs` holds: 256
    tensors and 128 scalars, the integer and CommContext parameters, a
    `!pld.dtensor` one taking a CommContext), and everything
    its HOST codegen cannot emit in a HOST orchestrator (`src/ir/host_ops.rs`:
    the integer `arith` ops of the CHIP list, `scf.for` without loop-carried
    values, windows, domains, contexts, requires and dispatches). On both rails
    it refuses a tensor the device's tensor descriptor cannot hold (simpler's
    `ChipTensor`, docs/spec/device.md: more than 5 dimensions, a static extent
    or stride of 2^32 or more, a zero stride on a dimension of extent > 1), at
    the function for a parameter and at the defining op for a value (a
    dynamic one is refused by the runtime at the launch). It changes
    nothing.

    Example (refused):

    ```mlir
    %0 = func.call @k(%x) {pl.core_num = 1 : i64, pl.sync_start} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    // error: 'func.call' op attribute 'pl.sync_start' of the launch of @k requires
    //        pl.core_num > 1 (a single-block launch needs no co-residency),
    //        got pl.core_num = 1
    ```
  }];
  let dependentDialects = PldDependentDialects;
}

def DeriveCallDirections : Pass<"derive-call-directions", "::mlir::ModuleOp"> {
  let summary = "Materialize every parameter's pl.direction (explicit, else "
                "derived from the body) and record pl.arg_directions on every "
                "call";
  let description = [{
    Every function parameter gets its `pl.direction` (`in`, `out`, `inout`):
    the explicit one, else the one derived from the body. Every call-like op
    (`func.call`, `pl.submit`, `pld.host.dispatch`) records the directions of
    its arguments as `pl.arg_directions`. All directions are computed before
    anything is written; a second run changes nothing.

    A parameter a `pl.submit` leaves to the runtime (`runtime_alloc_outs`)
    must be `out`: a body-less callee's undeclared one is derived `out`; if a
    callee's body derives `in`/`inout` for it, the pass fails at the
    `pl.submit` and writes nothing.

    Example:

    ```mlir
    %0:2 = call @stage_step(%arg0, %arg2, %arg5) : (...) -> (...)
    ```

    becomes

    ```mlir
    %0:2 = call @stage_step(%arg0, %arg2, %arg5) {pl.arg_directions = ["in", "out", "out"]} : (...) -> (...)
    ```
  }];
  let dependentDialects = PldDependentDialects;
}

def AutoDeriveTaskDependencies : Pass<"auto-derive-task-dependencies", "::mlir::ModuleOp"> {
  let summary = "Number the tasks of every orchestration body (pl.task_id) and "
                "derive their RAW/WAR/WAW dependencies from argument "
                "directions over alias classes (pl.task_deps)";
  let description = [{
    In every orchestration body, each task (`func.call`, `pl.submit`,
    `pld.host.dispatch`, a managed collective left for a later rail, and in a
    CHIP body a `pl.tensor.assemble`, which pld-translate makes a task of the
    builtin copy kernel: target inout, source in) is
    numbered in program order from 0 (`pl.task_id`) and gets its minimal
    dependency list (`pl.task_deps`, ascending). Each tensor argument is an
    access of its alias class with the argument's direction: a read depends on
    the class's last writer (RAW), a write on the last writer (WAW) and every
    reader since (WAR). `scf.if` branches are alternatives; loop bodies and
    multi-block regions are visited twice, so loop-carried edges appear. A
    predecessor that another listed predecessor already implies (through
    earlier tasks) is left out: the lists have the transitive closure of
    every writer and reader any path may leave outstanding, with only direct
    edges, in time linear in the tasks under branches, loops and `cf` joins.

    Example:

    ```mlir
    %0:2 = call @stage_step(...) {pl.arg_directions = ["in", "out", "out"], pl.task_deps = [], pl.task_id = 0 : i64}
    %6 = call @__builtin_all_to_all_v__fp32(...) {..., pl.task_deps = [0], pl.task_id = 1 : i64}
    %8 = call @consume_step(...) {..., pl.task_deps = [1], pl.task_id = 2 : i64}
    ```
  }];
  let dependentDialects = PldDependentDialects;
  let statistics = [
    Statistic<"numTasksNumbered", "tasks-numbered",
              "Tasks given a pl.task_id">,
    Statistic<"numTaskDependencies", "task-dependencies",
              "Dependency edges recorded in pl.task_deps">,
  ];
}

def LowerHostTensorCollectives : Pass<"lower-host-tensor-collectives", "::mlir::ModuleOp"> {
  let summary = "HOST rail: fan each managed collective of a HOST "
                "orchestrator out into one pld.host.dispatch per device of a "
                "synthesized builtin chip callable (all_to_all_v: with the "
                "runtime core_num / S >= B check)";
  let description = [{
    The HOST rail. In every HOST orchestrator (`pl.func_kind =
    "orchestration"`, `pl.level = "host"`), each `pld.tensor.all_to_all_v`
    fans out into P device dispatches (P = the signal's static NR) of a
    synthesized builtin chip callable whose body calls the same AIV kernel
    the CHIP rail synthesizes:

    ```mlir
    %B  = L < P ? L : L / P * P                       // L: core_num, runtime or constant
    pld.host.require (1 <= L <= INT32_MAX) && S >= B else error 5, "..."
    scf.for %dev = 0 to P {
      pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(input, target, signal, send_counts, recv_counts)
          on %dev core_num(%B) {pl.arg_directions = [...]}
    }
    ```

    (schematic). Every operand must be a window-bound `!pld.dtensor` of its
    own window allocation; nothing is rewritten unless every collective
    passes. The collective family (`pld.tensor.allreduce`, `reduce_scatter`,
    `allgather`, `broadcast`, `all_to_all`, `barrier`) fans out the same way
    to `@builtin.tensor.<kernel>` callables (`@builtin.tensor.allreduce_sum__fp32`,
    `@builtin.tensor.barrier`, ...) at its exact compile-time width `core_num`
    (no runtime check; P is the signal's NR, in ring mode its trailing
    dimension). `pld.tensor.indexed_all_to_all_v` is CHIP-only: in a HOST
    orchestrator it is an error (`indexed_all_to_all_v is not supported on the
    HOST rail`, after the `pl.arch = "a5"` check).

    With `aiv-cores=N` (as for `--lower-l2-tensor-collectives`, and forwarded
    by `pld-lower-collectives{aiv-cores=N}`), a compile-time launch width
    above N is refused at the collective in the CHIP rail's words (`launch
    width B=<B> exceeds the target's <N> AIV cores`); a runtime width
    (all_to_all_v's runtime `core_num`) is checked before the dispatches by a
    `pld.host.require` with error code 7 (the over-capacity sync-start
    launch).
  }];
  let dependentDialects = PldDependentDialects;
  let options = [
    Option<"aivCores", "aiv-cores", "uint64_t", /*default=*/"0",
           "The target's AIV core count; a compile-time launch width above it "
           "is an error, a runtime one fails with code 7 before the dispatch "
           "(0: unknown, not checked)">,
  ];
  let statistics = [
    Statistic<"numCollectivesLowered", "collectives-lowered",
              "Collectives fanned out into device dispatches">,
  ];
}

def MaterializeDistTensorCtx : Pass<"materialize-dist-tensor-ctx", "::mlir::ModuleOp"> {
  let summary = "Append one !pld.comm_ctx parameter per !pld.dtensor parameter "
                "to every function and thread the matching context at every "
                "call site";
  let description = [{
    Every function gets one `!pld.comm_ctx` parameter per `!pld.dtensor`
    parameter, appended after all existing parameters in the order of the
    dtensor parameters (`pl.direction = "in"`), and every call site
    (`func.call`, `pl.submit`, `pld.host.dispatch`) passes the matching
    context: a dispatch to device `%d` passes `pld.host.device_ctx %d`, any
    other call the caller's context of the dtensor parameter the argument
    aliases (else the caller's first). The synthesized all_to_all_v kernel
    thus has `args[5]` the context of `target` (`CommContext*`). A second run
    changes nothing.

    Example:

    ```mlir
    func.func @kernel(%x: !pl.tensor<4xf32>, %a: !pld.dtensor<4xf32>) attributes {pl.func_kind = "aiv"}
    ```

    becomes

    ```mlir
    func.func @kernel(%arg0: !pl.tensor<4xf32>, %arg1: !pld.dtensor<4xf32>,
                      %arg2: !pld.comm_ctx {pl.direction = "in"}) attributes {pl.func_kind = "aiv"}
    ```
  }];
  let dependentDialects = PldDependentDialects;
  let statistics = [
    Statistic<"numContextsAppended", "contexts-appended",
              "!pld.comm_ctx parameters appended to functions">,
    Statistic<"numContextArguments", "context-arguments-threaded",
              "Context arguments threaded into call sites">,
  ];
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

// A pass pipeline (pld's own class: upstream PassBase.td has none), for
// `dialect/PassShells.cmake` (the C++ options struct, `build<Name>Pipeline`
// and the registration) and build.rs (the Rust constant, e.g.
// `PLD_LOWER_COLLECTIVES`, the pipeline as text). Its passes run in order on
// a `builtin.module` (pld's passes are module passes); each of its options
// is forwarded to every pass of the pipeline with an option of the same flag.
class PassPipeline<string arg, list<Pass> passList> {
  // The command-line flag, e.g. `pld-lower-collectives`.
  string argument = arg;
  // A one-line description (`--help`).
  string summary = "";
  // The passes, in the order the pipeline runs them.
  list<Pass> passes = passList;
  // The pipeline's options (`Option<>` as for a pass).
  list<Option> options = [];
}

def PldLowerCollectives : PassPipeline<"pld-lower-collectives", [
    LowerCompositeOps,
    LowerL2TensorCollectives,
    LegalizeSpmdLaunches,
    DeriveCallDirections,
    AutoDeriveTaskDependencies,
    LowerHostTensorCollectives,
    MaterializeDistTensorCtx,
  ]> {
  let summary = "The managed-collective lowering pipeline, in the design's order";
  let options = [
    Option<"aivCores", "aiv-cores", "uint64_t", /*default=*/"0",
           "The target's AIV core count, forwarded to "
           "lower-l2-tensor-collectives and lower-host-tensor-collectives "
           "(0: unknown, not checked)">,
  ];
}

//===----------------------------------------------------------------------===//
// Test passes
//===----------------------------------------------------------------------===//

def PldTestFuncKinds : Pass<"pld-test-func-kinds", "::mlir::ModuleOp"> {
  let summary = "Test pass: remark each function's pl.func_kind and pl.level";
  let description = [{
    Like MLIR's `-test-*` passes: exercises registration, located diagnostics
    and pass failure. Emits a remark per function with its kind and level,
    and an error for an orchestration function without a body.

    ```mlir
    func.func private @k(...) attributes {pl.func_kind = "aiv"}
    // remark: 'func.func' op @k: pl.func_kind "aiv", pl.level "chip"
    ```
  }];
  let dependentDialects = PldDependentDialects;
}

#endif // PLD_PASSES_TD

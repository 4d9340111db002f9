// --mlir-pass-statistics reports Passes.td's statistics of every pld pass.
// (This LLVM compiles MLIR's own statistics out, so MLIR's report is its
// header only; the pld passes print their entries after it, in its format.)
// RUN: pld-opt %s --pld-lower-collectives --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// RUN: pld-opt %s --pld-lower-collectives --mlir-pass-statistics --mlir-pass-statistics-display=list -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// No flag, no report.
// RUN: pld-opt %s --pld-lower-collectives -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE
// NONE-NOT: (S)

// CHECK:      ... Pass statistics report ...
// CHECK:      LowerCompositeOps
// CHECK-NEXT:   (S) 1 collectives-lowered - Collectives expanded into transfer loops
// CHECK-NEXT: LowerL2TensorCollectives
// CHECK-NEXT:   (S)  2 collectives-lowered     - Collectives rewritten to a kernel call
// CHECK-NEXT:   (S) 10 contiguity-steps-traced - Values the contiguity trace stepped through
// CHECK-NEXT:   (S)  2 kernels-synthesized     - Builtin kernels added to the module
// CHECK-NEXT: LegalizeSpmdLaunches
// CHECK-NEXT: DeriveCallDirections
// CHECK-NEXT: AutoDeriveTaskDependencies
// CHECK-NEXT:   (S) 0 task-dependencies - Dependency edges recorded in pl.task_deps
// CHECK-NEXT:   (S) 2 tasks-numbered    - Tasks given a pl.task_id
// CHECK-NEXT: LowerHostTensorCollectives
// CHECK-NEXT:   (S) 0 collectives-lowered - Collectives fanned out into device dispatches
// CHECK-NEXT: MaterializeDistTensorCtx
// CHECK-NEXT:   (S)  6 context-arguments-threaded - Context arguments threaded into call sites
// CHECK-NEXT:   (S) 21 contexts-appended          - !pld.comm_ctx parameters appended to functions

// LIST: ... Pass statistics report ...
// LIST:        LowerCompositeOps
// LIST-NEXT:     (S) 1 collectives-lowered
// LIST-NEXT:   LowerL2TensorCollectives
// LIST-NOT:    LegalizeSpmdLaunches

// An InCore body (lowered by lower-composite-ops), and a CHIP body with an
// f32 and an i8 collective (two kernels).
func.func @incore(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>,
                %in8: !pld.dtensor<16x4xi8>, %t8: !pld.dtensor<16x4xi8>, %s8: !pld.dtensor<2x8xi32>,
                %c8: !pld.dtensor<2xi32>, %r8: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  %1 = pld.tensor.all_to_all_v %in8, %t8, %s8, %c8, %r8 {core_num = 1 : i64}
      : !pld.dtensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xi8>
  return %0 : !pld.dtensor<16x4xf32>
}

// --legalize-spmd-launches checks every kernel launch of a CHIP orchestration
// body and changes nothing.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics | FileCheck %s
// pl.core_num < 1 is already rejected by the pl attribute verifier; the pass
// re-checks it for IR built without verification.
// RUN: pld-opt %S/Inputs/legalize-spmd-launches-core-num-zero.mlir --legalize-spmd-launches --mlir-very-unsafe-disable-verifier-on-parsing --verify-diagnostics

// The CHIP rail's launch (B = 2, sync_start) and plain kernel calls are legal.
// CHECK-LABEL: func.func @chip_pipeline
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
// CHECK: call @stage_step
// CHECK: pl.submit @stage_step
func.func private @__builtin_all_to_all_v__fp32(%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
    attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands} {
  return %arg1 : !pld.dtensor<*xf32>
}
func.func @stage_step(%inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32> {pl.direction = "out"}) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %stage : !pld.dtensor<16x4xf32>
}
func.func @chip_pipeline(%a: !pl.tensor<*xf32>, %b: !pld.dtensor<*xf32>, %c: !pld.dtensor<*xi32>, %d: !pl.tensor<*xi32>, %e: !pld.dtensor<*xi32>,
                         %inp: !pl.tensor<16x4xf32>, %stage: !pld.dtensor<16x4xf32>)
    attributes {pl.func_kind = "orchestration"} {
  %0 = func.call @__builtin_all_to_all_v__fp32(%a, %b, %c, %d, %e) {pl.core_num = 2 : i64, pl.sync_start}
      : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
  %1 = func.call @stage_step(%inp, %stage) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>) -> !pld.dtensor<16x4xf32>
  %2 = pl.submit @stage_step(%inp, %stage) : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>) -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @k(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @sync_without_blocks(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op attribute 'pl.sync_start' of the launch of @k requires pl.core_num > 1 (a single-block launch needs no co-residency), got pl.core_num = 1}}
  func.call @k(%x) {pl.core_num = 1 : i64, pl.sync_start} : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

func.func @k(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aiv"} {
  return
}
func.func @sync_alone(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "graph"} {
  // expected-error @+1 {{'func.call' op attribute 'pl.sync_start' of the launch of @k requires pl.core_num > 1 (a single-block launch needs no co-residency), got no pl.core_num}}
  func.call @k(%x) {pl.sync_start} : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

func.func @cube(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "aic"} {
  return
}
func.func @not_aiv(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op callee @cube must be an AIV function (pl.func_kind "aiv") to be launched, got pl.func_kind "aic"}}
  func.call @cube(%x) {pl.core_num = 4 : i64, pl.sync_start} : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

// A launch spec on a call of a non-kernel is still a launch.
func.func @helper(%x: !pl.tensor<4xf32>) {
  return
}
func.func @spec_on_plain_call(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op callee @helper must be an AIV function (pl.func_kind "aiv") to be launched, got no pl.func_kind}}
  func.call @helper(%x) {pl.core_num = 2 : i64} : (!pl.tensor<4xf32>) -> ()
  return
}

// -----

// pl.submit passes fewer arguments than its kernel has parameters exactly when
// the trailing ones are runtime-allocated Outs (runtime_alloc_outs; the
// pl.submit verifier checks the binding). This natural form is legal. (This
// case used to be refused with "must pass an argument for every out/inout
// parameter": the pass did not know the runtime allocates those parameters.)
// CHECK-LABEL: func.func @runtime_out
// CHECK: pl.submit @k2(%{{.*}}) {runtime_alloc_outs = array<i64: 0>}
func.func private @k2(%a: !pl.tensor<4xf32> {pl.direction = "in"}, %o: !pl.tensor<4xf32> {pl.direction = "out"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "kernels/stage_step.cpp"} {
  return %o : !pl.tensor<4xf32>
}
func.func @runtime_out(%b: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = pl.submit @k2(%b) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A runtime-allocated parameter must be out, derived directions included: the
// runtime allocates it uninitialized, so an inout one would read garbage.
// Named by location, else by position.
func.func @kernel(%inp: !pl.tensor<4xf32> loc("inp"), %acc: !pl.tensor<4xf32> loc("acc")) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"} {
  func.call @accumulate(%acc, %inp) : (!pl.tensor<4xf32>, !pl.tensor<4xf32>) -> ()
  return %acc : !pl.tensor<4xf32>
}
func.func private @accumulate(!pl.tensor<4xf32> {pl.direction = "inout"}, !pl.tensor<4xf32> {pl.direction = "in"})
func.func @inout_left_to_runtime(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.submit' op runtime-allocated parameter 'acc' (#1) of @kernel must be an out parameter (the runtime allocates it uninitialized for the kernel to write), got inout}}
  %0 = pl.submit @kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A body-less kernel's parameter without pl.direction that a pl.submit leaves
// to the runtime is derived out (the runtime allocates it; nothing reads it
// first), so the launch is legal. (It used to be conservatively inout, and
// refused here.)
// CHECK-LABEL: func.func @undeclared_left_to_runtime
// CHECK: pl.submit @opaque_kernel(%{{.*}}) {runtime_alloc_outs = array<i64: 0>}
func.func private @opaque_kernel(!pl.tensor<4xf32> {pl.direction = "in"}, !pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"}
func.func @undeclared_left_to_runtime(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pl.submit @opaque_kernel(%x) {runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// An SPMD launch (pl.core_num) leaves no out/inout parameter to the runtime:
// every one must be caller-provided.
func.func @kernel(%inp: !pl.tensor<4xf32> loc("inp"), %out: !pl.tensor<4xf32> {pl.direction = "out"} loc("out")) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv"} {
  return %out : !pl.tensor<4xf32>
}
func.func @spmd_missing_output(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.submit' op launch of @kernel must pass an argument for every out/inout parameter of the kernel, got none for 'out' (#1, out)}}
  %0 = pl.submit @kernel(%x) {pl.core_num = 2 : i64, pl.sync_start, runtime_alloc_outs = array<i64: 0>} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

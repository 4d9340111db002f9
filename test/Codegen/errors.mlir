// Every error of --pld-to-ascend-build is a located diagnostic (and nothing is
// written, see atomic-output.test). One case per split.
// RUN: pld-translate %s --split-input-file --verify-diagnostics --pld-to-ascend-build --output-dir %t.out --kernel-source-dir %S/Inputs

// A user AIV kernel without pl.kernel_source, named, with the launch noted.
// expected-error @+1 {{'func.func' op AIV kernel @no_source must have a pl.kernel_source: pld-translate copies kernel sources, it does not compile InCore IR}}
func.func private @no_source(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{launched here}}
  %r = call @no_source(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A pl.kernel_source file that does not exist (relative to --kernel-source-dir).
// expected-error @+1 {{AIV kernel @missing_file: cannot read pl.kernel_source "kernel_src/nope.cpp"}}
func.func private @missing_file(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/nope.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @missing_file(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// One cause, one error: the uses of a task that cannot be emitted (its
// result feeds a cast, a loop and another task) report nothing more.
// expected-error @+1 {{AIV kernel @missing_too: cannot read pl.kernel_source "kernel_src/nope.cpp"}}
func.func private @missing_too(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/nope.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func private @ok(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>, %n: index) attributes {pl.func_kind = "orchestration"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = call @missing_too(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %v = pl.cast %r : !pl.tensor<4xf32> to !pl.tensor<?xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%t = %r) -> (!pl.tensor<4xf32>) {
    %u = func.call @ok(%t) {pl.arg_directions = ["inout"], pl.task_deps = [0], pl.task_id = 1 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
    scf.yield %u : !pl.tensor<4xf32>
  }
  %w = call @ok(%l) {pl.arg_directions = ["inout"], pl.task_deps = [1], pl.task_id = 2 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A collective that --pld-lower-collectives never saw.
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op was never lowered: run `pld-opt --pld-lower-collectives` before `pld-translate --pld-to-ascend-build`}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// An unknown builtin template package.
// expected-error @+1 {{'func.func' op AIV kernel @__builtin_x: attribute 'pl.builtin_template_dir' must name a builtin template package, got ":pypto.runtime.builtins.collectives.all_gather"}}
func.func private @__builtin_x(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_gather", pl.builtin_template_vars = "dtype_cpp=float"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @__builtin_x(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// The template's ${dtype_cpp} has no value (the variables name another one).
// expected-error @+1 {{the template uses '${dtype_cpp}', which has no value}}
func.func private @__builtin_y(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype=float"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @__builtin_y(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A variable without a value.
// expected-error @+1 {{template variable 'dtype_cpp' has an empty value}}
func.func private @__builtin_z(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp="} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @__builtin_z(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A variable the template does not use is not silently dropped.
// expected-error @+1 {{template variable 'extra' is not used by the template}}
func.func private @__builtin_w(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32>
    attributes {pl.func_kind = "aiv", pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float,extra=1"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @__builtin_w(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A HOST op the host codegen has no form for.
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = arith.cmpi eq, %c0, %c1 : index
  // expected-error @+1 {{'scf.if' op in HOST orchestrator @host is not supported by the host codegen}}
  scf.if %b {
  }
  return
}

// -----

// What the orchestration codegen cannot emit is refused by
// --legalize-spmd-launches first; pld-translate on an unlegalized module still
// reports it at the op (never dropped, never emitted wrong).
func.func @chip(%a: !pl.tensor<4xf32>, %x: index) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'arith.ceildivsi' op in CHIP orchestration function @chip is not supported by the orchestration codegen (run --legalize-spmd-launches first)}}
  %m = arith.ceildivsi %x, %x : index
  return
}

// -----

// A floating-point scalar parameter has no slot in OrchArgs.
// expected-error @+1 {{'func.func' op orchestration function @chip: parameter #1 must be a tensor, a CommContext or an integer scalar, got 'f32'}}
func.func @chip(%a: !pl.tensor<4xf32>, %n: f32) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// A task argument the orchestration cannot name at runtime (a kernel scalar).
func.func private @ks(%a: !pl.tensor<4xf32> {pl.direction = "inout"}, %n: i64) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %n = arith.constant 3 : i64
  // expected-error @+1 {{'func.call' op argument #1 of @ks must be a tensor or a CommContext (a kernel task takes no scalars), got an integer scalar}}
  %r = call @ks(%a, %n) {pl.arg_directions = ["inout", "in"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>, i64) -> !pl.tensor<4xf32>
  return
}

// -----

// Two symbols with one C symbol.
func.func @"a.b"() attributes {pl.func_kind = "orchestration"} {
  return
}
// expected-error @+1 {{@a_b and @a.b have the same C symbol 'a_b'}}
func.func @a_b() attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// A C symbol that is a keyword, the program's main or an implementation name
// would be generated C++ that does not compile.
// expected-error @+1 {{@int: its C symbol 'int' is a C++ keyword}}
func.func @int() attributes {pl.func_kind = "orchestration"} {
  return
}
// expected-error @+1 {{@main: its C symbol 'main' is the program's entry point}}
func.func @main() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  return
}
// expected-error @+1 {{@_Chip.x: its C symbol '_Chip_x' is reserved for the C++ implementation}}
func.func @"_Chip.x"() attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// A symbol with a control character cannot name a file or directory, and would
// end the `//` / `#` comments that name it in the generated C++ and Python (the
// rest of the name became code).
func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
// expected-error @+1 {{orchestration function @"chip\nimport os": its name cannot be a directory name}}
func.func @"chip\0Aimport os"(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @k(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{AIV kernel @"k\n  return 42; int z": its name cannot be a file name}}
func.func private @"k\0A  return 42; int z"(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %r = call @"k\0A  return 42; int z"(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// expected-error @+1 {{HOST orchestrator @"host\tx": its name cannot be a file name}}
func.func @"host\09x"() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  return
}

// -----

// A builtin collective kernel reads its CommContext at args[5], right after its
// five tensors: a call without it (--materialize-dist-tensor-ctx skipped, or run
// before the lowering synthesized the kernel) would read past the task's
// arguments. Refused at the call.
func.func private @__builtin_all_to_all_v__fp32(%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
    attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands} {
  return %arg1 : !pld.dtensor<*xf32>
}
func.func @chip(%in: !pl.tensor<*xf32>, %t: !pld.dtensor<*xf32>, %s: !pld.dtensor<*xi32>, %c: !pl.tensor<*xi32>, %r: !pld.dtensor<*xi32>, %ctx: !pld.comm_ctx)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op callee @__builtin_all_to_all_v__fp32 must receive a !pld.comm_ctx as args[5], after its 5 tensor arguments (its builtin template ':pypto.runtime.builtins.collectives.all_to_all_v' reads the CommContext there: run --materialize-dist-tensor-ctx after the collective lowering, as --pld-lower-collectives does), got 5 tensor and 0 !pld.comm_ctx arguments}}
  %d = call @__builtin_all_to_all_v__fp32(%in, %t, %s, %c, %r) {pl.arg_directions = ["in", "inout", "inout", "in", "inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
  return
}

// -----

// The same for the indexed builtin (args[6], after six tensors), launched.
module attributes {pl.arch = "a5"} {
  func.func private @__builtin_indexed_all_to_all_v__int8(%arg0: !pl.tensor<*xi8> {pl.direction = "in"}, %arg1: !pld.dtensor<*xi8> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pld.dtensor<*xi32> {pl.direction = "in"}, %arg4: !pl.tensor<*xi32> {pl.direction = "inout"}, %arg5: !pl.tensor<*xi32> {pl.direction = "in"}) -> !pld.dtensor<*xi8>
      attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.indexed_all_to_all_v", pl.builtin_template_vars = "dtype_cpp=int8_t", pl.func_kind = "aiv", pl.require_contiguous_operands} {
    return %arg1 : !pld.dtensor<*xi8>
  }
  func.func @chip(%in: !pl.tensor<*xi8>, %t: !pld.dtensor<*xi8>, %s: !pld.dtensor<*xi32>, %c: !pld.dtensor<*xi32>, %r: !pl.tensor<*xi32>, %x: !pl.tensor<*xi32>)
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'func.call' op callee @__builtin_indexed_all_to_all_v__int8 must receive a !pld.comm_ctx as args[6], after its 6 tensor arguments (its builtin template ':pypto.runtime.builtins.collectives.indexed_all_to_all_v' reads the CommContext there: run --materialize-dist-tensor-ctx after the collective lowering, as --pld-lower-collectives does), got 6 tensor and 0 !pld.comm_ctx arguments}}
    %d = call @__builtin_indexed_all_to_all_v__int8(%in, %t, %s, %c, %r, %x) {pl.core_num = 3 : i64, pl.sync_start, pl.arg_directions = ["in", "inout", "inout", "in", "inout", "in"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<*xi8>, !pld.dtensor<*xi8>, !pld.dtensor<*xi32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pl.tensor<*xi32>) -> !pld.dtensor<*xi8>
    return
  }
}

// -----

// The HOST rail's builtin callable (what --lower-host-tensor-collectives
// synthesizes, here without --materialize-dist-tensor-ctx): its call packs
// pl.abi_arg_count = 6 arguments, but only five tensors exist.
func.func private @__builtin_all_to_all_v__fp32(%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
    attributes {pl.builtin_template_dir = ":pypto.runtime.builtins.collectives.all_to_all_v", pl.builtin_template_vars = "dtype_cpp=float", pl.func_kind = "aiv", pl.require_contiguous_operands} {
  return %arg1 : !pld.dtensor<*xf32>
}
func.func private @builtin.tensor.all_to_all_v__fp32(%arg0: !pl.tensor<*xf32> {pl.direction = "in"}, %arg1: !pld.dtensor<*xf32> {pl.direction = "inout"}, %arg2: !pld.dtensor<*xi32> {pl.direction = "inout"}, %arg3: !pl.tensor<*xi32> {pl.direction = "in"}, %arg4: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op callee @__builtin_all_to_all_v__fp32 must receive a !pld.comm_ctx as args[5], after its 5 tensor arguments (its builtin template ':pypto.runtime.builtins.collectives.all_to_all_v' reads the CommContext there: run --materialize-dist-tensor-ctx after the collective lowering, as --pld-lower-collectives does), got 5 tensor and 0 !pld.comm_ctx arguments}}
  %0 = call @__builtin_all_to_all_v__fp32(%arg0, %arg1, %arg2, %arg3, %arg4) {pl.abi_arg_count = 6 : i64, pl.arg_directions = ["in", "inout", "inout", "in", "inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>) -> !pld.dtensor<*xf32>
  return %0 : !pld.dtensor<*xf32>
}
func.func @host(%in: !pl.tensor<16x4xf32>) attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<16x4xf32>
  %s = pld.window %b1 : !pld.dtensor<2x8xi32>
  %c = pld.window %b2 : !pld.dtensor<2xi32>
  %r = pld.window %b3 : !pld.dtensor<2xi32>
  %0 = pl.cast %in : !pl.tensor<16x4xf32> to !pl.tensor<*xf32>
  %1 = pl.cast %t : !pld.dtensor<16x4xf32> to !pld.dtensor<*xf32>
  %2 = pl.cast %s : !pld.dtensor<2x8xi32> to !pld.dtensor<*xi32>
  %3 = pl.cast %c : !pld.dtensor<2xi32> to !pl.tensor<*xi32>
  %4 = pl.cast %r : !pld.dtensor<2xi32> to !pld.dtensor<*xi32>
  %c0 = arith.constant 0 : index
  pld.host.dispatch @builtin.tensor.all_to_all_v__fp32(%0, %1, %2, %3, %4) on %c0 : (!pl.tensor<*xf32>, !pld.dtensor<*xf32>, !pld.dtensor<*xi32>, !pl.tensor<*xi32>, !pld.dtensor<*xi32>), index
  return
}

// -----

// simpler's calling convention passes the integer scalars before the
// CommContexts: an integer parameter after a !pld.comm_ctx one has no slot.
// expected-error @+1 {{'func.func' op orchestration function @late_int: integer parameter #2 must come before every !pld.comm_ctx parameter (a runner passes the integer scalars first, then the CommContexts)}}
func.func @late_int(%a: !pl.tensor<4xf32>, %c: !pld.comm_ctx, %n: i64) attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// A launch spec's block_num is an int16_t: a static width above 32767 is
// refused where the call names it.
func.func private @wide(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/scale.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op attribute 'pl.core_num' of the call to @wide must be a block count in [1, 32767] (a launch spec's block_num is an int16_t), got 40000}}
  %r = call @wide(%a) {pl.core_num = 40000 : i64, pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// A pl.tensor.create a ChipTensor cannot hold (six dimensions) is refused at
// the create (pld-opt's --legalize-spmd-launches refuses it earlier).
func.func @chip() attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.create' op '!pl.tensor<1x1x1x1x1x2xf32>' cannot be a ChipTensor (at most 5 dimensions, extents below 2^32)}}
  %t = pl.tensor.create : !pl.tensor<1x1x1x1x1x2xf32>
  return
}

// -----

// A pl.tensor.create is zero-filled by the builtin fill kernel @__builtin_tensor_fill__b32,
// whose name a function of the module already has: its file and func_id would be ambiguous.
// expected-note @+1 {{declared here}}
func.func private @__builtin_tensor_fill__b32(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip() attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.create' op needs the builtin kernel @__builtin_tensor_fill__b32, but a function of this module has that name}}
  %t = pl.tensor.create : !pl.tensor<4xf32>
  return
}

// -----

// The same for a pl.tensor.assemble's copy kernel.
// expected-note @+1 {{declared here}}
func.func private @__builtin_tensor_copy__b8(%a: !pl.tensor<4xi8> {pl.direction = "inout"}) -> !pl.tensor<4xi8> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %a : !pl.tensor<4xi8>
}
func.func @chip(%x: !pl.tensor<8xi8>, %y: !pl.tensor<4xi8>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pl.tensor.assemble' op needs the builtin kernel @__builtin_tensor_copy__b8, but a function of this module has that name}}
  %r = pl.tensor.assemble %y into %x {offsets = array<i64: 4>, pl.task_deps = [], pl.task_id = 0 : i64} : !pl.tensor<4xi8> into !pl.tensor<8xi8>
  return
}

// -----

// chip_entries.cpp names a sub-build's symbols pld_chip_<c> plus a suffix: @foo_entry's
// ChipEntry would be @foo's entry point.
func.func @foo() attributes {pl.func_kind = "orchestration"} {
  return
}
// expected-error @+1 {{@foo_entry and @foo: chip_entries.cpp would define 'pld_chip_foo_entry' twice (the ChipEntry of @foo_entry, and @foo's entry point)}}
func.func @foo_entry() attributes {pl.func_kind = "orchestration"} {
  return
}

// -----

// pld's derived order names tasks by pl.task_id: a dependency on an id no task has.
func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'func.call' op pl.task_deps names task 3, but no task of @chip has that pl.task_id}}
  %r = call @k(%a) {pl.arg_directions = ["inout"], pl.task_deps = [3], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

// -----

// ... and one id given to two tasks.
func.func private @k(%a: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv", pl.kernel_source = "kernel_src/add_one.cpp"} {
  return %a : !pl.tensor<4xf32>
}
func.func @chip(%a: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  // expected-note @+1 {{the other task}}
  %r = call @k(%a) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  // expected-error @+1 {{'func.call' op pl.task_id 0 is given to two tasks of @chip}}
  %s = call @k(%r) {pl.arg_directions = ["inout"], pl.task_deps = [], pl.task_id = 0 : i64} : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

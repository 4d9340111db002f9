// An orchestration function's name becomes its folder (next_levels/<name>/)
// and its extern "C" symbol, a HOST orchestrator's its file (host/<name>.cpp):
// --legalize-spmd-launches refuses the names pld-translate could not use, by
// the same rules (ir::entry_names), so pld-opt never accepts a program that
// pld-translate then refuses for its names.
// RUN: pld-opt %s --split-input-file --legalize-spmd-launches --verify-diagnostics

// expected-error @+1 {{'func.func' op @main: its C symbol 'main' is the program's entry point}}
func.func @main() attributes {pl.func_kind = "orchestration"} { return }

// -----

// expected-error @+1 {{'func.func' op @int: its C symbol 'int' is a C++ keyword}}
func.func @int() attributes {pl.func_kind = "graph"} { return }

// -----

// expected-error @+1 {{'func.func' op @__x: its C symbol '__x' is reserved for the C++ implementation}}
func.func @__x() attributes {pl.func_kind = "orchestration"} { return }

// -----

// expected-error @+1 {{'func.func' op orchestration function @"a/b": its name cannot be a directory name}}
func.func @"a/b"() attributes {pl.func_kind = "orchestration"} { return }

// -----

// expected-error @+1 {{'func.func' op HOST orchestrator @"..": its name cannot be a file name}}
func.func @".."() attributes {pl.func_kind = "orchestration", pl.level = "host"} { return }

// -----

func.func @"a.b"() attributes {pl.func_kind = "orchestration"} { return }
// expected-error @+1 {{'func.func' op @a_b and @a.b have the same C symbol 'a_b'}}
func.func @a_b() attributes {pl.func_kind = "orchestration"} { return }

// -----

// expected-error @+1 {{'func.func' op @f_entry and @f: chip_entries.cpp would define 'pld_chip_f_entry' twice (the ChipEntry of @f_entry, and @f's entry point)}}
func.func @f_entry() attributes {pl.func_kind = "orchestration"} { return }
func.func @f() attributes {pl.func_kind = "orchestration"} { return }

// -----

// Declarations and kernels are not entries; a plain name is fine.
func.func private @main() attributes {pl.func_kind = "orchestration"}
func.func @int(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %x : !pl.tensor<4xf32>
}
func.func @chip_pipeline() attributes {pl.func_kind = "orchestration"} { return }

// -----

// A launched AIV kernel's name is its file (kernels/aiv/<name>.cpp), reported once.
// expected-error @+1 {{'func.func' op AIV kernel @"k/1": its name cannot be a file name}}
func.func @"k/1"(%x: !pl.tensor<4xf32> {pl.direction = "inout"}) -> !pl.tensor<4xf32> attributes {pl.func_kind = "aiv"} {
  return %x : !pl.tensor<4xf32>
}
func.func @chip(%x: !pl.tensor<4xf32>) attributes {pl.func_kind = "orchestration"} {
  %a = func.call @"k/1"(%x) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  %b = func.call @"k/1"(%a) : (!pl.tensor<4xf32>) -> !pl.tensor<4xf32>
  return
}

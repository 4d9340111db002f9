// Every diagnostic of pld.tensor.indexed_all_to_all_v on the CHIP rail
// (docs/spec/indexed.md's table, in its order; the HOST and InCore rows
// are the other rails' passes: lower-host-tensor-collectives.mlir,
// lower-composite-ops.mlir). One error per failing collective, at it.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// Row 1: the module's arch is not a5 (absent: the default a2a3).
module {
  func.func @no_arch(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport), got pl.arch = "a2a3" (the default when absent)}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Row 1, explicitly a2a3; it is reported before any later row (here a runtime core_num).
module attributes {pl.arch = "a2a3"} {
  func.func @a2a3(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>,
              %n: i64) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op indexed_all_to_all_v needs pl.arch = "a5" (A5 URMA PER_PEER transport), got pl.arch = "a2a3" (the default when absent)}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i core_num(%n)
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// The signal's NR is not static.
module attributes {pl.arch = "a5"} {
  func.func @dynamic_nr(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<?x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op signal shape must be static on the CHIP rail, got '!pld.dtensor<?x8xi32>'}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<?x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// An unranked signal: S not static either.
module attributes {pl.arch = "a5"} {
  func.func @unranked_signal(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<*xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{signal shape must be static on the CHIP rail, got '!pld.dtensor<*xi32>'}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<*xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// A runtime core_num (a scalar parameter) is refused: L is the exact launch width.
module attributes {pl.arch = "a5"} {
  func.func @runtime(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>,
              %n: i64) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op a runtime core_num is not supported for indexed_all_to_all_v: its core_num is the exact launch width L, which must be a compile-time constant on the CHIP rail}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i core_num(%n)
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// A runtime core_num that is arithmetic on a parameter.
module attributes {pl.arch = "a5"} {
  func.func @runtime_arith(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>,
              %n: i64) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %one = arith.constant 1 : i64
    %l = arith.addi %n, %one : i64
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op a runtime core_num is not supported for indexed_all_to_all_v: its core_num is the exact launch width L, which must be a compile-time constant on the CHIP rail}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i core_num(%l)
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// core_num 0.
module attributes {pl.arch = "a5"} {
  func.func @zero(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op core_num must be in [1, 2147483647], got 0}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 0 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// core_num 2^31 (folded from constants).
module attributes {pl.arch = "a5"} {
  func.func @too_big(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %a = arith.constant 1073741824 : i64
    %b = arith.constant 2 : i64
    %l = arith.muli %a, %b : i64
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op core_num must be in [1, 2147483647], got 2147483648}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i core_num(%l)
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// S < L: P = 4, S = 8, L = 10 (the plain op would fold L to B = 8 and accept it).
module attributes {pl.arch = "a5"} {
  func.func @stride(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<4x8xi32>,
              %c: !pld.dtensor<4xi32>,
              %r: !pl.tensor<4xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+2 {{the signal needs one column (lane) per launched block}}
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op signal stride S=8 is smaller than the launch width L=10 (indexed_all_to_all_v launches exactly core_num blocks)}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 10 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pl.tensor<4xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// S = L is enough.
module attributes {pl.arch = "a5"} {
  func.func @stride_ok(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<4x8xi32>,
              %c: !pld.dtensor<4xi32>,
              %r: !pl.tensor<4xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 8 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32>, !pld.dtensor<4xi32>, !pl.tensor<4xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// The element type is neither f32 nor i8.
module attributes {pl.arch = "a5"} {
  func.func @f16(%in: !pl.tensor<16x4xf16>, %t: !pld.dtensor<16x4xf16>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf16>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op the CHIP rail supports only f32 or i8, got f16}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf16>, !pld.dtensor<16x4xf16>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf16>
    return %0 : !pld.dtensor<16x4xf16>
  }
}

// -----

// Operand 'input' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_input(%src: !pl.tensor<4x16xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
    %x = pl.tensor.transpose %src {perm = array<i64: 1, 0>} : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'input' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %x, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Operand 'target' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_target(%in: !pl.tensor<16x4xf32>,
              %src: !pld.dtensor<4x16xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
    %x = pl.tensor.transpose %src {perm = array<i64: 1, 0>} : !pld.dtensor<4x16xf32> -> !pld.dtensor<16x4xf32>
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'target' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %x, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Operand 'signal' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_signal(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %src: !pld.dtensor<8x2xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.transpose'}}
    %x = pl.tensor.transpose %src {perm = array<i64: 1, 0>} : !pld.dtensor<8x2xi32> -> !pld.dtensor<2x8xi32>
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'signal' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %x, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Operand 'send_counts' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_send_counts(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %src: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>,
              %v: i32,
              %k: index) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.write'}}
    %x = pl.tensor.write %v into %src[%k] : i32 into !pld.dtensor<2xi32>, index
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'send_counts' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %x, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Operand 'recv_counts' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_recv_counts(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %src: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>,
              %v: i32,
              %k: index) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.write'}}
    %x = pl.tensor.write %v into %src[%k] : i32 into !pl.tensor<2xi32>, index
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'recv_counts' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %x, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// Operand 'index' not provably contiguous (the note names the op that broke the chain).
module attributes {pl.arch = "a5"} {
  func.func @contiguity_index(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %src: !pl.tensor<16xi32>,
              %v: i32,
              %k: index) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-note @+1 {{the chain is broken by 'pl.tensor.write'}}
    %x = pl.tensor.write %v into %src[%k] : i32 into !pl.tensor<16xi32>, index
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op operand 'index' is not provably contiguous}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %x {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
}

// -----

// A symbol of the kernel's name that is not exactly the synthesized kernel: an error at every collective needing it.
module attributes {pl.arch = "a5"} {
  // expected-note @+1 {{this symbol is not the synthesized builtin kernel the collective lowers to}}
  func.func private @__builtin_indexed_all_to_all_v__fp32(%a: !pl.tensor<*xf32>) -> !pl.tensor<*xf32> {
    return %a : !pl.tensor<*xf32>
  }
  func.func @clash(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{symbol '@__builtin_indexed_all_to_all_v__fp32' already exists}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    // expected-error @+1 {{symbol '@__builtin_indexed_all_to_all_v__fp32' already exists}}
    %1 = pld.tensor.indexed_all_to_all_v %in, %0, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %1 : !pld.dtensor<16x4xf32>
  }
}

// -----

// One error per failing collective: the first failing row of each.
module attributes {pl.arch = "a5"} {
  func.func @each(%in: !pl.tensor<16x4xf32>,
              %t: !pld.dtensor<16x4xf32>,
              %s: !pld.dtensor<2x8xi32>,
              %c: !pld.dtensor<2xi32>,
              %r: !pl.tensor<2xi32>,
              %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op core_num must be in [1, 2147483647], got -1}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = -1 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    // expected-note @+2 {{the signal needs one column (lane) per launched block}}
    // expected-error @+1 {{'pld.tensor.indexed_all_to_all_v' op signal stride S=8 is smaller than the launch width L=9 (indexed_all_to_all_v launches exactly core_num blocks)}}
    %1 = pld.tensor.indexed_all_to_all_v %in, %0, %s, %c, %r, %i {core_num = 9 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %1 : !pld.dtensor<16x4xf32>
  }
}

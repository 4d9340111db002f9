// CHIP rail (domains.md): a collective's operands that trace to parameters of
// its CHIP orchestration function are resolved, at every pld.host.dispatch of
// it, to the window buffers bound there; per dispatch site: pairwise-distinct,
// one domain, NR = ranks. Error at the collective, notes at the dispatch and
// the buffers / domains.
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics

// Aliasing: input and target bound to two views of one allocation.
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands input and target must be different window allocations}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{both are views of this pld.window_buffer}}
  %b0 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b0 {offset = 256 : i64} : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  scf.for %dev = %c0 to %c2 step %c1 {
    // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
    pld.host.dispatch @chip(%in, %t, %s, %c, %r) on %dev
        : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  }
  return
}

// -----

// One domain: the signal's window is in another domain. The operands reach
// the collective through a reshape chain and a loop-carried value.
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %lb = arith.constant 0 : index
  %ub = arith.constant 3 : index
  %st = arith.constant 1 : index
  %res = scf.for %i = %lb to %ub step %st iter_args(%acc = %t) -> !pld.dtensor<16x4xf32> {
    %v = pl.tensor.reshape %in : !pld.dtensor<16x4xf32> -> !pld.dtensor<64xf32>
    %w = pl.tensor.reshape %v : !pld.dtensor<64xf32> -> !pld.dtensor<16x4xf32>
    // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands of one collective must belong to one communication domain}}
    %d = pld.tensor.all_to_all_v %w, %acc, %s, %c, %r {core_num = 2 : i64}
        : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
    scf.yield %d : !pld.dtensor<16x4xf32>
  }
  return %res : !pld.dtensor<16x4xf32>
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{which is in this communication domain (ranks = 2)}}
  %d0 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  // expected-note@+1 {{which is in this communication domain (ranks = 2)}}
  %d1 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  // expected-note@+1 {{operand 'input' is a view of this pld.window_buffer}}
  %b0 = pld.window_buffer in %d0 {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d0 {bytes = 256 : i64} : !pld.window_buffer
  // expected-note@+1 {{operand 'signal' is a view of this pld.window_buffer}}
  %b2 = pld.window_buffer in %d1 {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d0 {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d0 {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  %dev = arith.constant 0 : index
  // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
  pld.host.dispatch @chip(%in, %t, %s, %c, %r) on %dev
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  return
}

// -----

// NR = ranks, at the second of two dispatch sites (the first is correct).
func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op signal has NR=2 rows but communication domain has 4 ranks}}
  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %d : !pld.dtensor<16x4xf32>
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  // expected-note@+1 {{this communication domain has 4 ranks}}
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %a0 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a1 = pld.window_buffer in %d2 {bytes = 256 : i64} : !pld.window_buffer
  %a2 = pld.window_buffer in %d2 {bytes = 64 : i64} : !pld.window_buffer
  %a3 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %a4 = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %b0 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d4 {bytes = 256 : i64} : !pld.window_buffer
  // expected-note@+1 {{the signal is a view of this pld.window_buffer}}
  %b2 = pld.window_buffer in %d4 {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d4 {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d4 {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %a0 : !pld.dtensor<16x4xf32>
  %t = pld.window %a1 : !pld.dtensor<16x4xf32>
  %s = pld.window %a2 : !pld.dtensor<2x8xi32>
  %c = pld.window %a3 : !pld.dtensor<2xi32>
  %r = pld.window %a4 : !pld.dtensor<2xi32>
  %in4 = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t4 = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s4 = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c4 = pld.window %b3 : !pld.dtensor<2xi32>
  %r4 = pld.window %b4 : !pld.dtensor<2xi32>
  %dev = arith.constant 0 : index
  pld.host.dispatch @chip(%in, %t, %s, %c, %r) on %dev
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
  pld.host.dispatch @chip(%in4, %t4, %s4, %c4, %r4) on %dev
      : (!pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32>), index
  return
}

// -----

// The indexed variant (a5): send_counts and target views of one buffer.
module attributes {pl.arch = "a5"} {
  func.func @chip(%in: !pl.tensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                  %c: !pld.dtensor<2xi32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>) -> !pld.dtensor<16x4xf32>
      attributes {pl.func_kind = "orchestration"} {
    // expected-error@+1 {{'pld.tensor.indexed_all_to_all_v' op operands target and send_counts must be different window allocations}}
    %0 = pld.tensor.indexed_all_to_all_v %in, %t, %s, %c, %r, %i {core_num = 2 : i64}
        : !pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>,
          !pl.tensor<2xi32>, !pl.tensor<16xi32> -> !pld.dtensor<16x4xf32>
    return %0 : !pld.dtensor<16x4xf32>
  }
  func.func @host(%in: !pl.tensor<16x4xf32>, %r: !pl.tensor<2xi32>, %i: !pl.tensor<16xi32>)
      attributes {pl.func_kind = "orchestration", pl.level = "host"} {
    // expected-note@+1 {{both are views of this pld.window_buffer}}
    %b1 = pld.window_buffer {bytes = 512 : i64} : !pld.window_buffer
    %b2 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
    %t = pld.window %b1 : !pld.dtensor<16x4xf32>
    %c = pld.window %b1 {offset = 256 : i64} : !pld.dtensor<2xi32>
    %s = pld.window %b2 : !pld.dtensor<2x8xi32>
    %dev = arith.constant 1 : index
    // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
    pld.host.dispatch @chip(%in, %t, %s, %c, %r, %i) on %dev
        : (!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pl.tensor<2xi32>, !pl.tensor<16xi32>), index
    return
  }
}

// CHIP rail, window provenance for the collective family (domains.md): every
// operand of a family collective is resolved at each pld.host.dispatch of its
// function; one domain per collective, NR = the domain's ranks (allreduce's
// ring mode: NR is the signal's trailing dimension).
// RUN: pld-opt %s --split-input-file --lower-l2-tensor-collectives --verify-diagnostics

// allgather: the target's window in one domain, the signal's in another.
func.func @chip(%in: !pld.dtensor<2x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allgather' op operands of one collective must belong to one communication domain}}
  %d = pld.tensor.allgather %in, %t, %s : !pld.dtensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{which is in this communication domain (ranks = 4)}}
  %d0 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  // expected-note@+1 {{which is in this communication domain (ranks = 4)}}
  %d1 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  // expected-note@+1 {{operand 'input' is a view of this pld.window_buffer}}
  %b0 = pld.window_buffer in %d0 {bytes = 32 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d0 {bytes = 128 : i64} : !pld.window_buffer
  // expected-note@+1 {{operand 'signal' is a view of this pld.window_buffer}}
  %b2 = pld.window_buffer in %d1 {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<2x4xf32>
  %t = pld.window %b1 : !pld.dtensor<8x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4xi32>
  %dev = arith.constant 0 : index
  // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
  pld.host.dispatch @chip(%in, %t, %s) on %dev
      : (!pld.dtensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32>), index
  return
}

// -----

// Ring allreduce: NR = 3 (the [5, 3] signal's trailing dimension) in a 4-rank domain.
func.func @chip(%t: !pld.dtensor<12xf32>, %s: !pld.dtensor<5x3xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal has NR=3 rows but communication domain has 4 ranks}}
  %d = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<12xf32>, !pld.dtensor<5x3xi32> -> !pld.dtensor<12xf32>
  return
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{this communication domain has 4 ranks}}
  %d4 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %b0 = pld.window_buffer in %d4 {bytes = 48 : i64} : !pld.window_buffer
  // expected-note@+1 {{the signal is a view of this pld.window_buffer}}
  %b1 = pld.window_buffer in %d4 {bytes = 60 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<12xf32>
  %s = pld.window %b1 : !pld.dtensor<5x3xi32>
  %dev = arith.constant 0 : index
  // expected-note@+1 {{at this dispatch of @chip, which binds the collective's windows}}
  pld.host.dispatch @chip(%t, %s) on %dev : (!pld.dtensor<12xf32>, !pld.dtensor<5x3xi32>), index
  return
}

// -----

// barrier: accepted when its one window is in a domain of NR ranks.
func.func @chip(%s: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %d = pld.tensor.barrier %s : !pld.dtensor<2xi32> -> !pld.dtensor<2xi32>
  return
}
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d2 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %b = pld.window_buffer in %d2 {bytes = 8 : i64} : !pld.window_buffer
  %s = pld.window %b : !pld.dtensor<2xi32>
  %dev = arith.constant 1 : index
  pld.host.dispatch @chip(%s) on %dev : (!pld.dtensor<2xi32>), index
  return
}

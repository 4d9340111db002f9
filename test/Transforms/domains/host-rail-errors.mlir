// HOST rail (domains.md): after today's checks, the operands' windows must be
// in one communication domain, and an explicit domain's ranks must be the
// signal's NR. Errors at the collective, notes at the domains.
// RUN: pld-opt %s --split-input-file --lower-host-tensor-collectives --verify-diagnostics

// Two explicit domains.
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
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands of one collective must belong to one communication domain}}
  %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A buffer without a domain is in the implicit domain, a domain of its own.
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{which is in this communication domain (ranks = 2)}}
  %d0 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  // expected-note@+1 {{operand 'input' is a view of this pld.window_buffer}}
  %b0 = pld.window_buffer in %d0 {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d0 {bytes = 256 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer in %d0 {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d0 {bytes = 8 : i64} : !pld.window_buffer
  // expected-note@+1 {{operand 'recv_counts' is a view of this pld.window_buffer, in the HOST orchestrator's implicit communication domain}}
  %b4 = pld.window_buffer {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error@+1 {{operands of one collective must belong to one communication domain}}
  %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// NR = ranks: a 2-row signal in a 4-rank domain.
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  // expected-note@+1 {{this communication domain has 4 ranks}}
  %d = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  %b0 = pld.window_buffer in %d {bytes = 256 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer in %d {bytes = 256 : i64} : !pld.window_buffer
  // expected-note@+1 {{the signal is a view of this pld.window_buffer}}
  %b2 = pld.window_buffer in %d {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b1 : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op signal has NR=2 rows but communication domain has 4 ranks}}
  %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// Order: pairwise-distinct comes first (today's check), even across domains.
func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d0 = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %d1 = pld.comm_domain {ranks = 4 : i64} : !pld.comm_domain
  // expected-note@+1 {{both are views of this pld.window_buffer}}
  %b0 = pld.window_buffer in %d0 {bytes = 512 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer in %d1 {bytes = 64 : i64} : !pld.window_buffer
  %b3 = pld.window_buffer in %d0 {bytes = 8 : i64} : !pld.window_buffer
  %b4 = pld.window_buffer in %d0 {bytes = 8 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<16x4xf32>
  %t = pld.window %b0 {offset = 256 : i64} : !pld.dtensor<16x4xf32>
  %s = pld.window %b2 : !pld.dtensor<2x8xi32>
  %c = pld.window %b3 : !pld.dtensor<2xi32>
  %r = pld.window %b4 : !pld.dtensor<2xi32>
  // expected-error@+1 {{'pld.tensor.all_to_all_v' op operands input and target must be different window allocations}}
  %x = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return
}

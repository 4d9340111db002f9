// The pld.tensor.broadcast type deducer: family.md's Checks rows that apply
// to it, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --verify-diagnostics

func.func @f(%t: !pld.dtensor<8xi64>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op supports only f32, f16, i8 or i32, got i64}}
  %0 = pld.tensor.broadcast %t, %s {root = 0 : i64} : !pld.dtensor<8xi64>, !pld.dtensor<4xi32> -> !pld.dtensor<8xi64>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op root must be in [0, NR=4), got 4}}
  %0 = pld.tensor.broadcast %t, %s {root = 4 : i64} : !pld.dtensor<8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<?xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op root must be in [0, NR=?), got -1}}
  %0 = pld.tensor.broadcast %t, %s {root = -1 : i64} : !pld.dtensor<8xi8>, !pld.dtensor<?xi32> -> !pld.dtensor<8xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op requires attribute 'root'}}
  %0 = pld.tensor.broadcast %t, %s : !pld.dtensor<8xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<8xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op signal stride S=2 is smaller than the launch width L=8}}
  %0 = pld.tensor.broadcast %t, %s {root = 1 : i64, core_num = 8 : i64} : !pld.dtensor<8xi8>, !pld.dtensor<4x2xi32> -> !pld.dtensor<8xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<8xi8>, %s: !pld.dtensor<4xi32, layout = dn>) {
  // expected-error@+1 {{'pld.tensor.broadcast' op operand 'signal' must have layout nd, got dn}}
  %0 = pld.tensor.broadcast %t, %s {root = 1 : i64} : !pld.dtensor<8xi8>, !pld.dtensor<4xi32, layout = dn> -> !pld.dtensor<8xi8>
  return
}

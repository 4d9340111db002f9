// The pld.tensor.allreduce type deducer: one case per row of family.md's
// Checks table that the types prove, first failing row reported at the op.
// RUN: pld-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics

func.func @f(%t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op supports only f32, f16 or i32, got i8}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xi8>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xi8>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xbf16>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op supports only f32, f16 or i32, got bf16}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xbf16>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xbf16>
  return
}

// -----

// reduce has no default.
func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op reduce must be one of sum, max, min, prod (the attribute is required)}}
  %0 = pld.tensor.allreduce %t, %s : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op reduce must be one of sum, max, min, prod, got "avg"}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "avg"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op reduce must be one of sum, max, min, prod, got 1 : i64}}
  %0 = pld.tensor.allreduce %t, %s {reduce = 1 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op mode must be mesh or ring, got "tree"}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "tree"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x8xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op core_num must be in [1, 2147483647], got 0}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 0 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x8xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op core_num must be in [1, 2147483647], got 2147483648}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2147483648 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xf32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<4xf32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xf32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x2x2xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<4x2x2xi32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x2x2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

// A local signal: peers address it.
func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pl.tensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pl.tensor<4xi32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pl.tensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<0x4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal must be an i32 [NR] or [NR, S] window (a !pld.dtensor with NR >= 1), got '!pld.dtensor<0x4xi32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<0x4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pl.tensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'target' must be a !pld.dtensor (a window peers can address), got '!pl.tensor<16x4xf32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pl.tensor<16x4xf32>, !pld.dtensor<4xi32> -> !pl.tensor<16x4xf32>
  return
}

// -----

// An [NR] signal has one lane: S = 1.
func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal stride S=1 is smaller than the launch width L=2}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 2 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x2xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op signal stride S=2 is smaller than the launch width L=4}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 4 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x2xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<7x4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode needs core_num = 1, got 2}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring", core_num = 2 : i64} : !pld.dtensor<16x4xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode needs a [2*(NR-1)+1, NR] signal, got [4, 4]}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode needs a [2*(NR-1)+1, NR] signal, got [4]}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<3x2xf32>, %s: !pld.dtensor<7x4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode needs the element count divisible by NR=4, got 6 elements}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<3x2xf32>, !pld.dtensor<7x4xi32> -> !pld.dtensor<3x2xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<17x4xf32>, %s: !pld.dtensor<33x17xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op ring mode supports at most 16 ranks, got NR=17}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<17x4xf32>, !pld.dtensor<33x17xi32> -> !pld.dtensor<17x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32, layout = dn>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'target' must have layout nd, got dn}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32, layout = dn>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32, layout = dn>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4x8xi32, valid = [4, 2]>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'signal' has a valid_shape narrower than its shape}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4x8xi32, valid = [4, 2]> -> !pld.dtensor<16x4xf32>
  return
}

// -----

func.func @f(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op result type '!pld.dtensor<64xf32>' must be the type of 'target' '!pld.dtensor<16x4xf32>'}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<64xf32>
  return
}

// -----

// The same i32 window as target and signal.
func.func @f(%s: !pld.dtensor<4xi32>) {
  // expected-error@+1 {{'pld.tensor.allreduce' op operand 'target' must not be the same value as 'signal'}}
  %0 = pld.tensor.allreduce %s, %s {reduce = "sum"} : !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  return
}

// -----

// At module level no pass would ever see it.
"test.region"() ({
^bb0(%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<4xi32>):
  // expected-error@+1 {{'pld.tensor.allreduce' op must be inside a function body}}
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<16x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<16x4xf32>
  "test.done"() : () -> ()
}) : () -> ()

// The launch width B = cal_all_to_all_v_blocks(P, L) for RFC #2521's worked
// examples: B == 1 leaves the call bare, B > 1 attaches pl.core_num = B and
// pl.sync_start. Every signal is wide enough (S = 64).
// RUN: pld-opt %s --lower-l2-tensor-collectives | FileCheck %s --implicit-check-not=pld.tensor

// CHECK-LABEL: func.func @p8_l1(
// CHECK: call @__builtin_all_to_all_v__fp32
// CHECK-NOT: pl.core_num
// CHECK-SAME: -> !pld.dtensor<*xf32>
func.func @p8_l1(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p8_l7(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 7 : i64, pl.sync_start}
func.func @p8_l7(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 7 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p8_l8(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}
func.func @p8_l8(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 8 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p8_l10(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}
func.func @p8_l10(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 10 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p8_l15(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}
func.func @p8_l15(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 15 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p8_l16(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 16 : i64, pl.sync_start}
func.func @p8_l16(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>, %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 16 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>, !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// CHECK-LABEL: func.func @p16_l7(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 7 : i64, pl.sync_start}
func.func @p16_l7(%in: !pld.dtensor<32x4xf32>, %t: !pld.dtensor<32x4xf32>, %s: !pld.dtensor<16x64xi32>, %c: !pld.dtensor<16xi32>, %r: !pld.dtensor<16xi32>) -> !pld.dtensor<32x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 7 : i64}
      : !pld.dtensor<32x4xf32>, !pld.dtensor<32x4xf32>, !pld.dtensor<16x64xi32>, !pld.dtensor<16xi32>, !pld.dtensor<16xi32> -> !pld.dtensor<32x4xf32>
  return %0 : !pld.dtensor<32x4xf32>
}

// CHECK-LABEL: func.func @p16_l16(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 16 : i64, pl.sync_start}
func.func @p16_l16(%in: !pld.dtensor<32x4xf32>, %t: !pld.dtensor<32x4xf32>, %s: !pld.dtensor<16x64xi32>, %c: !pld.dtensor<16xi32>, %r: !pld.dtensor<16xi32>) -> !pld.dtensor<32x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 16 : i64}
      : !pld.dtensor<32x4xf32>, !pld.dtensor<32x4xf32>, !pld.dtensor<16x64xi32>, !pld.dtensor<16xi32>, !pld.dtensor<16xi32> -> !pld.dtensor<32x4xf32>
  return %0 : !pld.dtensor<32x4xf32>
}

// CHECK-LABEL: func.func @p4_l2(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 2 : i64, pl.sync_start}
func.func @p4_l2(%in: !pld.dtensor<8x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x64xi32>, %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 2 : i64}
      : !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4x64xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return %0 : !pld.dtensor<8x4xf32>
}

// CHECK-LABEL: func.func @p4_l10(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 8 : i64, pl.sync_start}
func.func @p4_l10(%in: !pld.dtensor<8x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4x64xi32>, %c: !pld.dtensor<4xi32>, %r: !pld.dtensor<4xi32>) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 10 : i64}
      : !pld.dtensor<8x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4x64xi32>, !pld.dtensor<4xi32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return %0 : !pld.dtensor<8x4xf32>
}

// CHECK-LABEL: func.func @p2_l5(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 4 : i64, pl.sync_start}
func.func @p2_l5(%in: !pld.dtensor<4x4xf32>, %t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<2x64xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<4x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 5 : i64}
      : !pld.dtensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<2x64xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xf32>
  return %0 : !pld.dtensor<4x4xf32>
}

// CHECK-LABEL: func.func @p2_l6(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 6 : i64, pl.sync_start}
func.func @p2_l6(%in: !pld.dtensor<4x4xf32>, %t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<2x64xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<4x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 6 : i64}
      : !pld.dtensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<2x64xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xf32>
  return %0 : !pld.dtensor<4x4xf32>
}

// CHECK-LABEL: func.func @p2_l51(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 50 : i64, pl.sync_start}
func.func @p2_l51(%in: !pld.dtensor<4x4xf32>, %t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<2x64xi32>, %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<4x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 51 : i64}
      : !pld.dtensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<2x64xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xf32>
  return %0 : !pld.dtensor<4x4xf32>
}

// CHECK-LABEL: func.func @p1_l48(
// CHECK: call @__builtin_all_to_all_v__fp32({{.*}}) {pl.core_num = 48 : i64, pl.sync_start}
func.func @p1_l48(%in: !pld.dtensor<2x4xf32>, %t: !pld.dtensor<2x4xf32>, %s: !pld.dtensor<1x64xi32>, %c: !pld.dtensor<1xi32>, %r: !pld.dtensor<1xi32>) -> !pld.dtensor<2x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 48 : i64}
      : !pld.dtensor<2x4xf32>, !pld.dtensor<2x4xf32>, !pld.dtensor<1x64xi32>, !pld.dtensor<1xi32>, !pld.dtensor<1xi32> -> !pld.dtensor<2x4xf32>
  return %0 : !pld.dtensor<2x4xf32>
}

// A compile-time CHIP launch width above 32767 is refused at the collective:
// the launch spec's block_num that pld-translate fills is an int16_t, so the
// build could not hold it (core_num itself may go up to 2^31 - 1; a runtime
// width is checked when the program runs). 32767 itself is accepted.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives | FileCheck %s

// CHECK-LABEL: func.func @at_the_limit
// CHECK: call @__builtin_allreduce_sum__fp32({{.*}}) {pl.core_num = 32767 : i64, pl.sync_start}
func.func @at_the_limit(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<2x32767xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %x = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 32767 : i64}
      : !pld.dtensor<8x4xf32>, !pld.dtensor<2x32767xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

func.func @exact_width(%t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<2x40000xi32>)
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.allreduce' op launch width L=32768 exceeds 32767, the most blocks one launch holds (a launch spec's block_num is an int16_t)}}
  %x = pld.tensor.allreduce %t, %s {reduce = "sum", core_num = 32768 : i64}
      : !pld.dtensor<8x4xf32>, !pld.dtensor<2x40000xi32> -> !pld.dtensor<8x4xf32>
  return
}

// -----

// all_to_all_v's width is core_num folded for P ranks: L = 32769 with P = 2 is B = 32768.
func.func @folded_width(%in: !pld.dtensor<4x4xf32>, %t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<2x40000xi32>,
                        %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<4x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{'pld.tensor.all_to_all_v' op launch width B=32768 exceeds 32767, the most blocks one launch holds (a launch spec's block_num is an int16_t; core_num L=32769 folded for P=2 ranks)}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 32769 : i64}
      : !pld.dtensor<4x4xf32>, !pld.dtensor<4x4xf32>, !pld.dtensor<2x40000xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<4x4xf32>
  return %0 : !pld.dtensor<4x4xf32>
}

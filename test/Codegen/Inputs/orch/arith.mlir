// Integer scalars in a CHIP orchestration body: parameters (OrchArgs
// scalars), arith ops at i8/i32/i64/index with MLIR's wrapping semantics,
// scf.for / scf.while / scf.if carrying scalars. Each result is stored into
// %out (pl.tensor.write), which pld-run prints. Called with a = 7, b = -3,
// c = 100.
func.func @arith(%out: !pl.tensor<24xi64>, %a: i64, %b: i32, %c: i8) attributes {pl.func_kind = "orchestration"} {
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %z8 = arith.constant 0 : i8
  %k3_8 = arith.constant 3 : i8
  %k10_8 = arith.constant 10 : i8
  %k4_8 = arith.constant 4 : i8
  %k60 = arith.constant 60 : i64
  %k1 = arith.constant 1 : i64
  %km1 = arith.constant -1 : i64
  %k300 = arith.constant 300 : i64
  %b64 = arith.extsi %b : i32 to i64
  %neg = arith.subi %z8, %c : i8
  %v0 = arith.addi %c, %c : i8
  %w0 = arith.extsi %v0 : i8 to i64
  %v1 = arith.muli %b, %b : i32
  %w1 = arith.extsi %v1 : i32 to i64
  %w2 = arith.divsi %a, %b64 : i64
  %w3 = arith.remsi %a, %b64 : i64
  %v4 = arith.divui %c, %k3_8 : i8
  %w4 = arith.extsi %v4 : i8 to i64
  %v5 = arith.divui %neg, %k3_8 : i8
  %w5 = arith.extsi %v5 : i8 to i64
  %v6 = arith.remui %neg, %k10_8 : i8
  %w6 = arith.extsi %v6 : i8 to i64
  %v7 = arith.cmpi ult, %c, %neg : i8
  %w7 = arith.extui %v7 : i1 to i64
  %v8 = arith.cmpi slt, %c, %neg : i8
  %w8 = arith.extsi %v8 : i1 to i64
  %w9 = arith.select %v7, %a, %b64 : i64
  %w10 = arith.shli %a, %k60 : i64
  %w11 = arith.shrsi %b64, %k1 : i64
  %v12 = arith.shrui %neg, %k4_8 : i8
  %w12 = arith.extsi %v12 : i8 to i64
  %v13 = arith.trunci %k300 : i64 to i8
  %w13 = arith.extsi %v13 : i8 to i64
  %v14 = arith.trunci %km1 : i64 to i8
  %w14 = arith.extui %v14 : i8 to i64
  %v15 = arith.maxui %c, %neg : i8
  %w15 = arith.extsi %v15 : i8 to i64
  %v16 = arith.minsi %c, %neg : i8
  %w16 = arith.extsi %v16 : i8 to i64
  %w17 = arith.xori %a, %km1 : i64
  %ai = arith.index_cast %a : i64 to index
  %three = arith.constant 3 : index
  %ai3 = arith.muli %ai, %three : index
  %w18 = arith.index_cast %ai3 : index to i64
  // sum of 0..a-1 in an scf.while
  %w20:2 = scf.while (%i = %i0, %s = %i0) : (index, index) -> (index, index) {
    %more = arith.cmpi slt, %i, %ai : index
    scf.condition(%more) %i, %s : index, index
  } do {
  ^bb0(%j: index, %t: index):
    %j1 = arith.addi %j, %i1 : index
    %t1 = arith.addi %t, %j : index
    scf.yield %j1, %t1 : index, index
  }
  %w20i = arith.index_cast %w20#1 : index to i64
  // sum of i*i for i in 0..3 in an scf.for
  %w21 = scf.for %i = %i0 to %i4 step %i1 iter_args(%acc = %i0) -> (index) {
    %sq = arith.muli %i, %i : index
    %acc1 = arith.addi %acc, %sq : index
    scf.yield %acc1 : index
  }
  %w21i = arith.index_cast %w21 : index to i64
  %w22 = scf.if %v8 -> (i64) {
    scf.yield %k1 : i64
  } else {
    %two = arith.addi %k1, %k1 : i64
    scf.yield %two : i64
  }
  %m1 = arith.minui %c, %neg : i8
  %m2 = arith.maxsi %m1, %neg : i8
  %m2w = arith.extsi %m2 : i8 to i64
  %nu = arith.index_castui %neg : i8 to index
  %nuw = arith.index_cast %nu : index to i64
  %w23 = arith.addi %m2w, %nuw : i64
  %k3 = arith.constant 3 : i64
  %k8 = arith.constant 8 : i64
  %an = arith.andi %a, %k3 : i64
  %w19 = arith.ori %an, %k8 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c18 = arith.constant 18 : index
  %c19 = arith.constant 19 : index
  %c20 = arith.constant 20 : index
  %c21 = arith.constant 21 : index
  %c22 = arith.constant 22 : index
  %c23 = arith.constant 23 : index
  %o0 = pl.tensor.write %w0 into %out[%c0] : i64 into !pl.tensor<24xi64>, index
  %o1 = pl.tensor.write %w1 into %o0[%c1] : i64 into !pl.tensor<24xi64>, index
  %o2 = pl.tensor.write %w2 into %o1[%c2] : i64 into !pl.tensor<24xi64>, index
  %o3 = pl.tensor.write %w3 into %o2[%c3] : i64 into !pl.tensor<24xi64>, index
  %o4 = pl.tensor.write %w4 into %o3[%c4] : i64 into !pl.tensor<24xi64>, index
  %o5 = pl.tensor.write %w5 into %o4[%c5] : i64 into !pl.tensor<24xi64>, index
  %o6 = pl.tensor.write %w6 into %o5[%c6] : i64 into !pl.tensor<24xi64>, index
  %o7 = pl.tensor.write %w7 into %o6[%c7] : i64 into !pl.tensor<24xi64>, index
  %o8 = pl.tensor.write %w8 into %o7[%c8] : i64 into !pl.tensor<24xi64>, index
  %o9 = pl.tensor.write %w9 into %o8[%c9] : i64 into !pl.tensor<24xi64>, index
  %o10 = pl.tensor.write %w10 into %o9[%c10] : i64 into !pl.tensor<24xi64>, index
  %o11 = pl.tensor.write %w11 into %o10[%c11] : i64 into !pl.tensor<24xi64>, index
  %o12 = pl.tensor.write %w12 into %o11[%c12] : i64 into !pl.tensor<24xi64>, index
  %o13 = pl.tensor.write %w13 into %o12[%c13] : i64 into !pl.tensor<24xi64>, index
  %o14 = pl.tensor.write %w14 into %o13[%c14] : i64 into !pl.tensor<24xi64>, index
  %o15 = pl.tensor.write %w15 into %o14[%c15] : i64 into !pl.tensor<24xi64>, index
  %o16 = pl.tensor.write %w16 into %o15[%c16] : i64 into !pl.tensor<24xi64>, index
  %o17 = pl.tensor.write %w17 into %o16[%c17] : i64 into !pl.tensor<24xi64>, index
  %o18 = pl.tensor.write %w18 into %o17[%c18] : i64 into !pl.tensor<24xi64>, index
  %o19 = pl.tensor.write %w19 into %o18[%c19] : i64 into !pl.tensor<24xi64>, index
  %o20 = pl.tensor.write %w20i into %o19[%c20] : i64 into !pl.tensor<24xi64>, index
  %o21 = pl.tensor.write %w21i into %o20[%c21] : i64 into !pl.tensor<24xi64>, index
  %o22 = pl.tensor.write %w22 into %o21[%c22] : i64 into !pl.tensor<24xi64>, index
  %o23 = pl.tensor.write %w23 into %o22[%c23] : i64 into !pl.tensor<24xi64>, index
  return
}

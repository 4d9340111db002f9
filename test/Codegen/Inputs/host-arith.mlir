// Integer scalars in a HOST orchestrator (input of host-arith.test): the CHIP
// rail's scalar model (docs/codegen.md). Run with a = 0x100000005,
// b = 0x7fffffff (i32), c = 100 (i8; 0x164 reads as 100 too), d (the divisor)
// and report (i1): each pld.host.require checks what MLIR's semantics say, and
// with report = 1 the last one fails listing every computed value.
func.func @nop() attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @host_main(%a: i64, %b: i32, %c: i8, %d: i64, %report: i1)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  // trunci keeps the low 32 bits; extui zero-extends them.
  %t = arith.trunci %a : i64 to i32
  %e = arith.extui %t : i32 to i64
  %five = arith.constant 5 : i64
  %ok_e = arith.cmpi eq, %e, %five : i64
  pld.host.require %ok_e else error 10, "trunci/extui"
  %m1 = arith.constant -1 : i32
  %z = arith.extui %m1 : i32 to i64
  %u32max = arith.constant 4294967295 : i64
  %ok_z = arith.cmpi eq, %z, %u32max : i64
  pld.host.require %ok_z else error 11, "extui of a negative i32"
  // i32 addition wraps: INT32_MAX + 1 = INT32_MIN, below b as signed.
  %one = arith.constant 1 : i32
  %s = arith.addi %b, %one : i32
  %min = arith.constant -2147483648 : i32
  %ok_s = arith.cmpi eq, %s, %min : i32
  pld.host.require %ok_s else error 12, "i32 add wraps"
  %lt_s = arith.cmpi slt, %s, %b : i32
  pld.host.require %lt_s else error 13, "INT32_MIN <s INT32_MAX"
  // i8: c + c and c * c wrap at 8 bits; -c is 156 unsigned.
  %zero8 = arith.constant 0 : i8
  %negc = arith.subi %zero8, %c : i8
  %sum8 = arith.addi %c, %c : i8
  %mul8 = arith.muli %c, %c : i8
  %ult = arith.cmpi ult, %c, %negc : i8
  %slt = arith.cmpi slt, %c, %negc : i8
  pld.host.require %ult else error 14, "100 <u 156 (i8 -100)"
  %sel = arith.select %slt, %c, %negc : i8
  %three8 = arith.constant 3 : i8
  %divu8 = arith.divui %negc, %three8 : i8
  %remu8 = arith.remui %negc, %three8 : i8
  %shl8 = arith.shli %c, %three8 : i8
  %shru8 = arith.shrui %negc, %three8 : i8
  %shrs8 = arith.shrsi %negc, %three8 : i8
  %maxu8 = arith.maxui %c, %negc : i8
  %minu8 = arith.minui %c, %negc : i8
  %maxs8 = arith.maxsi %c, %negc : i8
  %mins8 = arith.minsi %c, %negc : i8
  %and8 = arith.andi %negc, %three8 : i8
  %or8 = arith.ori %c, %three8 : i8
  %exts = arith.extsi %negc : i8 to i64
  // index casts: signed and unsigned widening, narrowing truncates.
  %ix = arith.index_cast %s : i32 to index
  %ixu = arith.index_castui %s : i32 to index
  %big = arith.constant 300 : index
  %nar = arith.index_cast %big : index to i8
  // Division by a run-time divisor: d = 0 fails with 5 at this op.
  %q = arith.divsi %a, %d : i64
  %r = arith.remsi %a, %d : i64
  // i1: the parameter's low bit; xori with true negates it.
  %true = arith.constant true
  %quiet = arith.xori %report, %true : i1
  pld.host.require %quiet else error 9, "values"
      seen(%e, %z, %s, %sum8, %mul8, %slt, %sel, %divu8, %remu8, %shl8, %shru8, %shrs8, %maxu8, %minu8, %maxs8, %mins8, %and8, %or8, %exts, %ix, %ixu, %nar, %q, %r
           : i64, i64, i32, i8, i8, i1, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i64, index, index, i8, i64, i64)
      {value_names = ["e", "z", "s", "sum8", "mul8", "slt", "sel", "divu8", "remu8", "shl8", "shru8", "shrs8", "maxu8", "minu8", "maxs8", "mins8", "and8", "or8", "exts", "ix", "ixu", "nar", "q", "r"]}
  pld.host.dispatch @nop() on %c0 : (), index
  return
}

// A HOST orchestrator's scf.for with run-time bounds and step: every
// iteration checks lb <= i < ub (an overflowing increment would break it)
// and dispatches an empty CHIP function to device 0.
func.func @nop() attributes {pl.func_kind = "orchestration"} {
  return
}
func.func @host_main(%lb: i64, %ub: i64, %step: i64)
    attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %c0 = arith.constant 0 : index
  %l = arith.index_cast %lb : i64 to index
  %u = arith.index_cast %ub : i64 to index
  %s = arith.index_cast %step : i64 to index
  scf.for %i = %l to %u step %s {
    %ge = arith.cmpi sge, %i, %l : index
    %lt = arith.cmpi slt, %i, %u : index
    %ok = arith.andi %ge, %lt : i1
    pld.host.require %ok else error 7, "iteration outside [lb, ub)"
    pld.host.dispatch @nop() on %c0 : (), index
  }
  return
}

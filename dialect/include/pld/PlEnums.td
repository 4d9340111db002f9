//===- PlEnums.td - the pl.* vocabularies ------------------*- tablegen -*-===//
//
// The string vocabularies of the `pl.*` discardable attributes (ir.md):
// `pl.func_kind`, `pl.level`, `pl.direction`, `pl.arch`. They stay string
// attributes in the IR (the spec spells them so); these enums are the one
// list of their values: the verifier checks against them, the predicates the
// passes use (`pld::isChipOrchestration`, ...) read them, and Rust asks
// through the C API (`pld-c/Dialects.h`).
//
//===----------------------------------------------------------------------===//

#ifndef PLD_PLENUMS_TD
#define PLD_PLENUMS_TD

include "mlir/IR/EnumAttr.td"

class Pl_StringEnum<string name, string summary, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, summary, cases> {
  let cppNamespace = "::pld::pl";
  let genSpecializedAttr = 0;
}

def Pl_FuncKind : Pl_StringEnum<"FuncKind", "pl.func_kind", [
  I32EnumAttrCase<"Orchestration", 0, "orchestration">,
  I32EnumAttrCase<"Graph", 1, "graph">,
  I32EnumAttrCase<"InCore", 2, "incore">,
  I32EnumAttrCase<"Aic", 3, "aic">,
  I32EnumAttrCase<"Aiv", 4, "aiv">,
  I32EnumAttrCase<"Opaque", 5, "opaque">]>;

def Pl_Level : Pl_StringEnum<"Level", "pl.level (absent: chip)", [
  I32EnumAttrCase<"Chip", 0, "chip">,
  I32EnumAttrCase<"Host", 1, "host">]>;

def Pl_Direction : Pl_StringEnum<"Direction", "pl.direction", [
  I32EnumAttrCase<"In", 0, "in">,
  I32EnumAttrCase<"Out", 1, "out">,
  I32EnumAttrCase<"InOut", 2, "inout">]>;

def Pl_Arch : Pl_StringEnum<"Arch", "pl.arch (absent: a2a3)", [
  I32EnumAttrCase<"A2A3", 0, "a2a3">,
  I32EnumAttrCase<"A5", 1, "a5">]>;

// The collective family's attributes (docs/spec/family.md): `reduce` of
// allreduce / reduce_scatter and `mode` of allreduce. String attributes in
// the IR like the others, so `{reduce = "sum"}` parses in both spellings.
def Pl_Reduce : Pl_StringEnum<"Reduce", "reduce", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Max", 1, "max">,
  I32EnumAttrCase<"Min", 2, "min">,
  I32EnumAttrCase<"Prod", 3, "prod">]>;

def Pl_CollectiveMode : Pl_StringEnum<"CollectiveMode", "mode (absent: mesh)", [
  I32EnumAttrCase<"Mesh", 0, "mesh">,
  I32EnumAttrCase<"Ring", 1, "ring">]>;

#endif // PLD_PLENUMS_TD

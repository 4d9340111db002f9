// A symbol of a kernel's name that is not exactly the synthesized kernel is
// an error at every collective that needs it; nothing is rewritten.
// RUN: pld-opt %s --split-input-file --verify-diagnostics --lower-l2-tensor-collectives

// expected-note @+1 {{this symbol is not the synthesized builtin kernel the collective lowers to}}
func.func private @__builtin_all_to_all_v__fp32(%a: !pl.tensor<*xf32>) -> !pl.tensor<*xf32> {
  return %a : !pl.tensor<*xf32>
}

func.func @chip(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>,
                %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{symbol '@__builtin_all_to_all_v__fp32' already exists}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>
  return %0 : !pld.dtensor<16x4xf32>
}

// -----

// The same declaration but without the template attributes is a clash too.
// expected-note @+1 {{not the synthesized builtin kernel}}
func.func private @__builtin_all_to_all_v__int8(%input: !pl.tensor<*xi8> {pl.direction = "in"}, %target: !pld.dtensor<*xi8> {pl.direction = "inout"}, %signal: !pld.dtensor<*xi32> {pl.direction = "inout"}, %send_counts: !pl.tensor<*xi32> {pl.direction = "in"}, %recv_counts: !pld.dtensor<*xi32> {pl.direction = "inout"}) -> !pld.dtensor<*xi8> attributes {pl.func_kind = "aiv"} {
  return %target : !pld.dtensor<*xi8>
}

func.func @chip_i8(%in: !pld.dtensor<16x4xi8>, %t: !pld.dtensor<16x4xi8>, %s: !pld.dtensor<2x8xi32>,
                   %c: !pld.dtensor<2xi32>, %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xi8>
    attributes {pl.func_kind = "orchestration"} {
  // expected-error @+1 {{symbol '@__builtin_all_to_all_v__int8' already exists}}
  %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xi8>
  // expected-error @+1 {{symbol '@__builtin_all_to_all_v__int8' already exists}}
  %1 = pld.tensor.all_to_all_v %in, %0, %s, %c, %r {core_num = 1 : i64}
      : !pld.dtensor<16x4xi8>, !pld.dtensor<16x4xi8>, !pld.dtensor<2x8xi32>, !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xi8>
  return %1 : !pld.dtensor<16x4xi8>
}

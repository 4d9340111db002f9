"""Generates large inputs for scale.test: python3 gen_scale.py KIND N."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
T = "!pl.tensor<4xf32>"
if kind == "chain":
    # @f0 calls @f1 calls ... @f{n-1}: a deep call graph.
    for i in range(n):
        call = f"  func.call @f{i + 1}(%x) : ({T}) -> ()\n" if i + 1 < n else ""
        print(f'func.func @f{i}(%x: {T}) attributes {{pl.func_kind = "orchestration"}} {{\n{call}  return\n}}')
elif kind == "params":
    # One function with n parameters, each passed to an out parameter.
    print(f'func.func @w(%x: {T} {{pl.direction = "out"}}) attributes {{pl.func_kind = "aiv"}} {{ return }}')
    params = ", ".join(f"%p{i}: {T}" for i in range(n))
    print(f'func.func @o({params}) attributes {{pl.func_kind = "orchestration"}} {{')
    for i in range(n):
        print(f"  func.call @w(%p{i}) : ({T}) -> ()")
    print("  return\n}")
elif kind == "nest":
    # n nested scf.for loops around one task.
    print(f'func.func @w(%x: {T} {{pl.direction = "out"}}) attributes {{pl.func_kind = "aiv"}} {{ return }}')
    print(f'func.func @o(%a: {T}) attributes {{pl.func_kind = "orchestration"}} {{')
    print("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index")
    for i in range(n):
        print(f"  scf.for %i{i} = %c0 to %c1 step %c1 {{")
    print(f"  func.call @w(%a) : ({T}) -> ()")
    for i in range(n):
        print("  }")
    print("  return\n}")
elif kind == "dispatch":
    # n CHIP functions of one all_to_all_v each, each dispatched over 2 devices by one HOST
    # orchestrator from windows of its implicit domain.
    D, S, C = "!pld.dtensor<16x4xf32>", "!pld.dtensor<2x8xi32>", "!pld.dtensor<2xi32>"
    for i in range(n):
        print(f'func.func @chip{i}(%in: {D}, %t: {D}, %s: {S}, %c: {C}, %r: {C}) -> {D} attributes {{pl.func_kind = "orchestration"}} {{')
        print(f"  %d = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {{core_num = 2 : i64}} : {D}, {D}, {S}, {C}, {C} -> {D}")
        print(f"  return %d : {D}\n}}")
    print('func.func @host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {')
    for j, (b, t) in enumerate([(256, D), (256, D), (64, S), (8, C), (8, C)]):
        print(f"  %a{j} = pld.window_buffer {{bytes = {b} : i64}} : !pld.window_buffer")
        print(f"  %w{j} = pld.window %a{j} : {t}")
    print("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index")
    for i in range(n):
        print(f"  scf.for %dev{i} = %c0 to %c2 step %c1 {{")
        print(f"    pld.host.dispatch @chip{i}(%w0, %w1, %w2, %w3, %w4) on %dev{i} : ({D}, {D}, {S}, {C}, {C}), index")
        print("  }")
    print("  return\n}")

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

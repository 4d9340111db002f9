"""Imports a generated kernel_config.py and prints it one entry a line (for FileCheck)."""
import importlib.util
import os
import sys

path = sys.argv[1]
spec = importlib.util.spec_from_file_location("kernel_config", path)
config = importlib.util.module_from_spec(spec)
spec.loader.exec_module(config)

base = os.path.dirname(path)
if hasattr(config, "ARCH"):
    print("ARCH", config.ARCH)
sources = []
for k in config.KERNELS:
    assert set(k) == {"func_id", "name", "source", "core_type", "signature"}, k
    print("KERNEL", k["func_id"], k["name"], k["source"], k["core_type"], ",".join(k["signature"]))
    sources.append(k["source"])
o = config.ORCHESTRATION
assert set(o) == {"source", "function_name", "signature"}, o
print("ORCHESTRATION", o["source"], o["function_name"], ",".join(o["signature"]))
sources.append(o["source"])
missing = [s for s in sources if not os.path.isfile(os.path.join(base, s))]
print("SOURCES EXIST" if not missing else "MISSING " + " ".join(missing))

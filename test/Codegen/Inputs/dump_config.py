"""Imports a generated kernel_config.py and prints it one entry a line (for FileCheck)."""
import importlib.util
import os
import sys

path = sys.argv[1]
spec = importlib.util.spec_from_file_location("kernel_config", path)
config = importlib.util.module_from_spec(spec)
spec.loader.exec_module(config)

base = os.path.dirname(os.path.abspath(path))
names = {config._D.IN: "IN", config._D.OUT: "OUT", config._D.INOUT: "INOUT"}


def rel(source):
    assert os.path.isabs(source), source
    return os.path.relpath(source, base)


if hasattr(config, "ARCH"):
    print("ARCH", config.ARCH)
assert config.RUNTIME_CONFIG == {"runtime": "tensormap_and_ringbuffer", "aicpu_thread_num": 0}, config.RUNTIME_CONFIG
sources = []
for k in config.KERNELS:
    assert set(k) == {"func_id", "name", "source", "core_type", "signature"}, k
    print("KERNEL", k["func_id"], k["name"], rel(k["source"]), k["core_type"], ",".join(names[d] for d in k["signature"]))
    sources.append(k["source"])
o = config.ORCHESTRATION
assert set(o) == {"source", "function_name", "signature"}, o
print("ORCHESTRATION", rel(o["source"]), o["function_name"], ",".join(names[d] for d in o["signature"]))
sources.append(o["source"])
missing = [s for s in sources if not os.path.isfile(s)]
print("SOURCES EXIST" if not missing else "MISSING " + " ".join(missing))

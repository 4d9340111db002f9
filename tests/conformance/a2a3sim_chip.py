"""Runs a CHIP sub-build pld-translate rendered on simpler's a2a3sim (docs/device.md,
"Conformance 2"): its kernels and orchestration built with simpler's own compilers, the
orchestration run on P chips through simpler's Worker(level=3), the window parameters in one
communication domain, each CommContext scalar that domain's context. No torch: host tensors are
shared mappings with the attributes the Worker API reads.

Usage: python a2a3sim_chip.py CASE.json   (run with the environment scripts/simpler-sim.sh built)

CASE.json: {"subbuild": DIR, "ranks": P, "pto_isa": DIR, "scalars": [int, ...], "contexts": N,
            "outputs": FILE, "kernel_cache": DIR (compiled kernels, keyed by text),
            "params": [{"name", "kind": "tensor"|"window", "shape": [...], "dtype": "f32"|"i32",
                        "direction": "in"|"out"|"inout", "values": [[rank 0...], ...] | null}]}
The params are the orchestration's tensor parameters in order; its scalars are the integer
parameters (sign-extended to 64 bits), then N CommContexts (the domain's context). Writes FILE: {name: [[rank 0
values], ...]} for every out / inout host tensor (the windows stay in the domain).
"""
import ctypes
import hashlib
import importlib.util
import json
import math
import logging
import mmap
import os
import struct
import sys

FORMATS = {"f32": ("f", 4), "i32": ("i", 4)}


class SharedArray:
    """A MAP_SHARED mapping (forked chip processes see it) standing in for a torch tensor."""

    def __init__(self, fmt, values):
        self.fmt, self.itemsize = fmt, struct.calcsize(fmt)
        self.n = len(values)
        self.mm = mmap.mmap(-1, max(self.n * self.itemsize, 1), flags=mmap.MAP_SHARED)
        self.mm[: self.n * self.itemsize] = struct.pack(f"<{self.n}{fmt}", *values)
        self.addr = ctypes.addressof(ctypes.c_char.from_buffer(self.mm))

    def data_ptr(self):
        return self.addr

    def numel(self):
        return self.n

    def element_size(self):
        return self.itemsize

    def is_shared(self):
        return True

    def values(self):
        return list(struct.unpack(f"<{self.n}{self.fmt}", self.mm[: self.n * self.itemsize]))


def main():
    case = json.load(open(sys.argv[1]))
    ranks = case["ranks"]
    # simpler finds pto-isa only as a git checkout it clones itself; the snapshot is given.
    import simpler_setup.pto_isa as pto_isa

    pto_isa.ensure_pto_isa_root = lambda verbose=False: case["pto_isa"]
    from simpler.task_interface import (CallConfig, ChipCallable, CommBufferSpec, CoreCallable,
                                        DataType, TaskArgs, TensorArgType)
    from simpler.worker import Worker
    from simpler_setup.kernel_compiler import KernelCompiler

    logging.getLogger("simpler").setLevel(logging.WARNING)
    spec = importlib.util.spec_from_file_location("kernel_config", case["subbuild"] + "/kernel_config.py")
    config = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(config)
    runtime = config.RUNTIME_CONFIG["runtime"]

    compiler = KernelCompiler(platform="a2a3sim")
    includes = list(compiler.get_orchestration_include_dirs(runtime)) + [str(compiler.project_root / "src" / "common")]
    def compile_incore(k):
        # The 2- and 4-rank sub-builds of an example share most kernel texts: simpler's compiler
        # builds each distinct (text, core type, include folders) once per test.
        key = hashlib.sha256(open(k["source"], "rb").read())
        key.update(json.dumps([k["core_type"], case["pto_isa"], includes]).encode())
        key = key.hexdigest()
        cached = os.path.join(case["kernel_cache"], key + ".bin")
        if os.path.exists(cached):
            return open(cached, "rb").read()
        binary = compiler.compile_incore(source_path=k["source"], core_type=k["core_type"],
                                         pto_isa_root=case["pto_isa"], extra_include_dirs=includes)
        os.makedirs(case["kernel_cache"], exist_ok=True)
        with open(cached + f".{os.getpid()}", "wb") as f:
            f.write(binary)
        os.replace(cached + f".{os.getpid()}", cached)
        return binary

    children = []
    for k in config.KERNELS:
        binary = compile_incore(k)
        children.append((k["func_id"], CoreCallable.build(signature=k["signature"], binary=binary)))
    orch = config.ORCHESTRATION
    binary = compiler.compile_orchestration(runtime_name=runtime, source_path=orch["source"])
    callable_ = ChipCallable.build(signature=orch["signature"], func_name=orch["function_name"],
                                   config_name="aicpu_orchestration_config", binary=binary, children=children)

    dtypes = {"f32": DataType.FLOAT32, "i32": DataType.INT32}
    params = case["params"]

    def numel(p):
        n = 1
        for d in p["shape"]:
            n *= d
        return n

    def initial(p, r):
        values = p["values"][r] if p["values"] is not None else [0] * numel(p)
        return [int(v) for v in values] if p["dtype"] == "i32" else [float(v) for v in values]

    # Host tensors before init(): the chip processes are forked from it.
    host = {p["name"]: [SharedArray(FORMATS[p["dtype"]][0], initial(p, r)) for r in range(ranks)]
            for p in params if p["kind"] == "tensor"}
    windows = [p for p in params if p["kind"] == "window"]
    worker = Worker(level=3, platform="a2a3sim", runtime=runtime, device_ids=list(range(ranks)), num_sub_workers=0)
    handle = worker.register(callable_)
    results = {}
    try:
        worker.init()
        staged = {}
        for p in windows:
            if p["values"] is not None:
                size = numel(p) * FORMATS[p["dtype"]][1]
                bufs = []
                for r in range(ranks):
                    b = worker.create_buffer(size)
                    b.shm.buf[:size] = struct.pack(f"<{numel(p)}{FORMATS[p['dtype']][0]}", *initial(p, r))
                    bufs.append(b)
                staged[p["name"]] = bufs
        specs = [CommBufferSpec(name=p["name"], dtype={"f32": "float32", "i32": "int32"}[p["dtype"]],
                                count=numel(p), nbytes=max(numel(p) * FORMATS[p["dtype"]][1], 64)) for p in windows]
        window_size = sum(s.nbytes for s in specs)
        def orchestrate(o, _args, cfg):
            with o.allocate_domain(name="pld", workers=list(range(ranks)), window_size=window_size,
                                   buffers=specs) as dom:
                per_rank = []
                for r in range(ranks):
                    d = dom[r]
                    for name, bufs in staged.items():
                        o.copy_to(d.buffers[name], bufs[r])
                    a = TaskArgs()
                    for p in params:
                        tag = {"in": TensorArgType.INPUT, "out": TensorArgType.OUTPUT_EXISTING,
                               "inout": TensorArgType.INOUT}[p["direction"]]
                        if p["kind"] == "tensor":
                            t = worker.make_tensor_arg(host[p["name"]][r], shapes=tuple(p["shape"]),
                                                       dtype=dtypes[p["dtype"]])
                        else:
                            t = d.buffers[p["name"]].tensor(tuple(p["shape"]), dtypes[p["dtype"]])
                        a.add_tensor(t, tag)
                    for v in case.get("scalars", []):
                        a.add_scalar(v & 0xFFFFFFFFFFFFFFFF)
                    for _ in range(case["contexts"]):
                        a.add_scalar(d.device_ctx)
                    per_rank.append(a)
                o.submit_next_level_group(handle, per_rank, cfg, workers=list(range(ranks)))

        worker.run(orchestrate, args=None, config=CallConfig())
        for p in params:
            if p["direction"] == "in" or p["kind"] != "tensor":
                continue
            # Rows simpler leaves undefined may hold any bits, NaN and inf among them, which
            # JSON cannot spell: those values are written as null.
            results[p["name"]] = [
                [v if math.isfinite(v) else None for v in host[p["name"]][r].values()]
                for r in range(ranks)
            ]
    finally:
        worker.close()
    json.dump(results, open(case["outputs"], "w"))


if __name__ == "__main__":
    main()

"""One pld-opt run with `--mlir-timing`: the benches' shared runner.

`run_timed` returns each timed entry's seconds (summed over repeats of the
same name: `Parser`, a pass's class name, ...), the peak RSS in MiB, and the
run's stderr (for lines a bench reads besides the timing table).
"""
import os
import re
import subprocess
import sys

TIMING = re.compile(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(.+?)\s*$")


def run_timed(pld_opt, path, args, out=os.devnull, env=None):
    cmd = [pld_opt, path, *args, "--mlir-timing", "--mlir-timing-display=list", "-o", out]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{stderr[-2000:]}")
    times = {}
    for line in stderr.splitlines():
        m = TIMING.match(line)
        if m:
            times[m.group(2)] = times.get(m.group(2), 0.0) + float(m.group(1))
    return times, usage.ru_maxrss / 1024.0, stderr

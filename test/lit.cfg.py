# lit configuration for the pld suite: IR in, IR out (FileCheck), diagnostics
# (--verify-diagnostics). Finds pld-opt in PLD_BIN_DIR (default
# target/debug) and FileCheck/not in LLVM 22's bin folder.
import os
import subprocess

import lit.formats

config.name = "pld"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
# A test that hangs fails after this many seconds instead of stalling CI (the
# slowest, test/Transforms/scale.test and the codegen runs, take a few
# seconds; lit needs psutil for it: python3-psutil, scripts/setup.sh).
lit_config.maxIndividualTestTime = 300
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(
    os.environ.get("PLD_TEST_EXEC_ROOT", os.path.join(config.test_source_root, "..", "target", "lit"))
)

root = os.path.abspath(os.path.join(config.test_source_root, ".."))
bin_dir = os.environ.get("PLD_BIN_DIR", os.path.join(root, "target", "debug"))


def llvm_bindir():
    # LLVM 22 only: the unversioned llvm-config on these machines is LLVM 14,
    # whose FileCheck would silently run the suite against another LLVM.
    try:
        out = subprocess.check_output(["llvm-config-22", "--bindir"], text=True).strip()
        if os.path.exists(os.path.join(out, "FileCheck")):
            return out
    except (OSError, subprocess.CalledProcessError):
        pass
    lit_config.fatal("llvm-config-22 (LLVM 22's FileCheck, not) not found: run bash scripts/setup.sh")


config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bindir(), config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.substitutions.append(("%root", root))
config.substitutions.append(("%examples", os.path.join(root, "examples")))

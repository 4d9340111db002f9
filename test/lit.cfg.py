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


def llvm_prefix():
    # The one LLVM prefix variable (MLIR_SYS_220_PREFIX: melior's, set by
    # .cargo/config.toml for cargo test), else LLVM 22's own llvm-config. Never
    # the unversioned llvm-config: it is LLVM 14 on these machines, whose
    # FileCheck would silently run the suite against another LLVM.
    prefix = os.environ.get("MLIR_SYS_220_PREFIX")
    if not prefix:
        try:
            prefix = subprocess.check_output(["llvm-config-22", "--prefix"], text=True).strip()
        except (OSError, subprocess.CalledProcessError):
            lit_config.fatal("neither MLIR_SYS_220_PREFIX nor llvm-config-22: run bash scripts/setup.sh")
    return prefix


config.llvm_prefix = llvm_prefix()


def llvm_bindir():
    bindir = os.path.join(config.llvm_prefix, "bin")
    if not os.path.exists(os.path.join(bindir, "FileCheck")):
        lit_config.fatal(f"{bindir} has no FileCheck (llvm-22-tools): run bash scripts/setup.sh")
    return bindir


config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bindir(), config.environment.get("PATH", os.environ.get("PATH", ""))]
)
# The include folders every rendered .cpp compiles with (pld_runtime/ and the device headers).
config.substitutions.append(
    ("%rt_includes", "-I {0}/runtime/include -I {0}/runtime/include/device".format(root)))
config.substitutions.append(("%root", root))
# pld-run (the simulator crate's runner, built beside pld-opt) runs generated
# trees for the Codegen tests; its build cache is this checkout's
# (target/pld-sim-cache/run), shared by every test and content-addressed.
if os.path.exists(os.path.join(bin_dir, "pld-run")):
    config.available_features.add("pld-run")
config.environment["PLD_SIM_ROOT"] = root
# Everything pld-run compiles here (generated orchestrations, HOST entries and
# kernels, the test kernels, the runtime and its driver) is warning-free. The
# Rust suites (sim/tests, runner/tests) pass the same flags, so a unit they share
# compiles once per run.
config.environment["PLD_SIM_CXXFLAGS"] = "-Wall -Wextra -Werror"
config.substitutions.append(("%examples", os.path.join(root, "examples")))

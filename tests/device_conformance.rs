//! docs/spec/device.md, "Conformance" 1: every rendered builtin kernel variant, and every user
//! kernel of the examples (`runtime/examples/kernels`, copied verbatim into the trees), compiles against
//! only pto-isa's and simpler's headers (the reference snapshots, extracted where
//! `PLD_PTO_ISA_DIR` and `PLD_SIMPLER_DIR` point; `.ci/run` sets both), with the contract's exact
//! clang++-22 command, each kernel alone in an empty folder (one of every template verbatim, the
//! other variants with their shared include block precompiled: [`precompiled_headers`]); every
//! rendered orchestration
//! compiles against simpler's orchestration API; one kernel of every op runs on pto-isa's own CPU
//! implementation. Conformance 2 (the examples' CHIP sub-builds on simpler's a2a3sim, against
//! pld-run and the examples' goldens) is `runner/tests/a2a3sim.rs`. Without the two variables the
//! tests say why in one line and pass: the snapshots are not part of the repository.

use crate::shared;

use shared::{render_tree, snapshots};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The contract's flags (device.md, Conformance 1), before the include folders.
const FLAGS: &[&str] = &[
    "-std=c++20",
    "-fsyntax-only",
    "-D__CPU_SIM",
    "-D__DAV_VEC__",
    "-DPTO_CPU_MAX_THREADS=1",
    "-Werror=pre-c++20-compat-pedantic",
    "-Wno-macro-redefined",
    "-Wno-ignored-attributes",
    "-include",
    "stdint.h",
    "-include",
    "stddef.h",
];

/// pto-isa's and simpler's header folders, as the contract lists them.
fn include_dirs(pto: &Path, simpler: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![pto.join("include"), pto.join("include/pto")];
    for d in [
        "src/common",
        "src/common/task_interface",
        "src/a2a3/runtime/tensormap_and_ringbuffer/common",
        "src/a2a3/runtime/tensormap_and_ringbuffer/runtime",
        "src/a2a3/runtime/tensormap_and_ringbuffer/orchestration",
        "src/a2a3/platform/include",
        "src/common/platform/include",
    ] {
        dirs.push(simpler.join(d));
    }
    dirs
}

/// Precompiles `block` with `flags` (the compile's own, without `-fsyntax-only`) in `dir`: the
/// `-include-pch` file, or None (with clang's message printed) when it does not build.
fn precompile(cxx: &str, flags: &[String], block: &str, dir: &Path) -> Option<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("prefix.h"), block).unwrap();
    let pch = dir.join("prefix.pch");
    let out = Command::new(cxx)
        .args(flags.iter().filter(|f| *f != "-fsyntax-only"))
        .args(["-x", "c++-header", "prefix.h", "-o"])
        .arg(&pch)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cxx}: {e}"));
    if out.status.success() {
        Some(pch)
    } else {
        eprintln!(
            "the precompiled header of {} does not build; its kernels take the exact command:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        None
    }
}

/// For each source (by index), the precompiled header it is compiled with, or None for the
/// exact command: the first source of each `group` and every source whose include block no
/// other source shares take the exact command, the others their shared block's header, built
/// once in `work` (pto-isa's headers are most of each compile: 3.3 CPU-s a kernel alone, 0.5
/// through the header). `PLD_CONFORMANCE_EXACT=1`: every source takes the exact command.
fn precompiled_headers(
    cxx: &str,
    flags: &[String],
    sources: &[(&str, &str)],
    work: &Path,
) -> Vec<Option<PathBuf>> {
    if std::env::var_os("PLD_CONFORMANCE_EXACT").is_some_and(|v| v == "1") {
        return vec![None; sources.len()];
    }
    let blocks: Vec<Option<String>> = sources.iter().map(|(_, s)| pld::include_block(s)).collect();
    let mut built: std::collections::HashMap<&str, Option<PathBuf>> = Default::default();
    let mut exact_groups = std::collections::HashSet::new();
    let mut out = Vec::new();
    for ((group, _), block) in sources.iter().zip(&blocks) {
        let shared = block
            .as_deref()
            .filter(|b| blocks.iter().filter(|o| o.as_deref() == Some(*b)).count() > 1);
        let (Some(block), false) = (shared, exact_groups.insert(*group)) else {
            out.push(None);
            continue;
        };
        let n = built.len();
        let pch = built
            .entry(block)
            .or_insert_with(|| precompile(cxx, flags, block, &work.join(format!("pch-{n}"))));
        out.push(pch.clone());
    }
    out
}

/// `check` over `items` on every core; the failures it names, in `items`' order.
fn parallel<T: Sync>(items: Vec<T>, check: impl Fn(&T) -> Option<String> + Sync) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut found: Vec<(usize, String)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.extend(check(item).map(|f| (i, f)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    found.sort();
    found.into_iter().map(|(_, f)| f).collect()
}

/// A compiler's first 20 lines of complaint.
fn first_lines(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .lines()
        .take(20)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_builtin_and_example_kernel_compiles_against_pto_isa_and_simpler_headers() {
    let Some((pto, simpler)) = snapshots() else {
        return;
    };
    for d in [&pto, &simpler] {
        assert!(d.is_dir(), "{} is not a folder", d.display());
    }
    let cxx = std::env::var("PLD_CONFORMANCE_CXX").unwrap_or_else(|_| "clang++-22".into());
    let kernels = pld::builtin_kernels();
    assert!(
        kernels.len() > 100,
        "only {} kernels sampled",
        kernels.len()
    );
    let work = std::env::temp_dir().join(format!("pld-conformance-{}", std::process::id()));
    let mut args: Vec<String> = FLAGS.iter().map(|s| s.to_string()).collect();
    for d in include_dirs(&pto, &simpler) {
        args.push("-isystem".into());
        args.push(d.display().to_string());
    }
    // One kernel of every template through the exact command, the other variants through their
    // include block's precompiled header.
    let sources: Vec<(&str, &str)> = kernels
        .iter()
        .map(|k| (k.template, k.source.as_str()))
        .collect();
    let pchs = precompiled_headers(&cxx, &args, &sources, &work);
    let exact = pchs.iter().filter(|p| p.is_none()).count();

    // Every kernel in its own empty folder, compiled on every core.
    let failures = parallel(kernels.iter().zip(&pchs).collect(), |&(k, pch)| {
        let dir = work.join(&k.symbol);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("kernel.cpp"), &k.source).unwrap();
        let mut cmd = Command::new(&cxx);
        cmd.args(&args);
        if let Some(pch) = pch {
            cmd.arg("-include-pch").arg(pch);
        }
        let o = cmd
            .arg("kernel.cpp")
            .current_dir(&dir)
            .stdout(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {cxx}: {e}"));
        (!o.status.success())
            .then(|| format!("{} ({}):\n{}", k.symbol, k.template, first_lines(&o.stderr)))
    });
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        failures.is_empty(),
        "{} of {} kernels do not compile against pto-isa + simpler:\n{}",
        failures.len(),
        kernels.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{} builtin kernels compile against pto-isa's and simpler's headers ({exact} through the exact command)",
        kernels.len()
    );
}

/// The kernels the run harness links, by symbol, and the entry name it calls each by.
const RUN_KERNELS: &[(&str, &str)] = &[
    ("__builtin_allreduce_sum__fp32", "k_allreduce"),
    ("__builtin_reduce_scatter_sum__fp32", "k_reduce_scatter"),
    ("__builtin_allgather__fp32", "k_allgather"),
    ("__builtin_broadcast_root0__fp32", "k_broadcast"),
    ("__builtin_all_to_all__fp32", "k_all_to_all"),
    ("__builtin_reduce_sum_root0__fp32", "k_reduce"),
    ("__builtin_gather_root0__fp32", "k_gather"),
    ("__builtin_scatter_root0__fp32", "k_scatter"),
    ("__builtin_allreduce_ring_sum__fp32", "k_ring"),
    ("__builtin_permute_0to1_1to2_2to0__fp32", "k_permute"),
    ("__builtin_barrier", "k_barrier"),
    ("__builtin_all_to_all_v__fp32", "k_all_to_all_v"),
    ("__builtin_indexed_all_to_all_v__fp32", "k_indexed"),
    ("__builtin_allreduce_sum__fp16", "k_allreduce_f16"),
    ("__builtin_tensor_fill__b32", "k_fill"),
    ("__builtin_tensor_copy__b32", "k_copy"),
];

/// Every builtin kernel template (every collective op of the dialect, ring mode its own, and the
/// tensor kernels of `pl.tensor.create` / `assemble`) has a kernel in [`RUN_KERNELS`]: a new collective fails here until
/// `tests/conformance/pto_cpu_run.cpp` runs it on pto-isa's CPU implementation. Needs no snapshot.
#[test]
fn every_kernel_template_runs_on_pto_isa_cpu() {
    let kernels = pld::builtin_kernels();
    let template_of = |symbol: &str| {
        kernels
            .iter()
            .find(|k| k.symbol == symbol)
            .unwrap_or_else(|| panic!("RUN_KERNELS names {symbol}, which is no builtin kernel"))
            .template
    };
    let run: std::collections::BTreeSet<&str> =
        RUN_KERNELS.iter().map(|(s, _)| template_of(s)).collect();
    let all: std::collections::BTreeSet<&str> = kernels.iter().map(|k| k.template).collect();
    let missing: Vec<&&str> = all.difference(&run).collect();
    assert!(
        missing.is_empty(),
        "no kernel of these templates runs on pto-isa's CPU implementation (RUN_KERNELS, tests/conformance/pto_cpu_run.cpp): {missing:?}"
    );
}

/// Beyond compiling: the rendered kernels (one variant of every op) run on pto-isa's own CPU
/// implementation (its
/// `TPUT`/`TNOTIFY`/`TWAIT`/`TLOAD`/`TADD`/..., with its shape checks) over simpler's structures,
/// P = 2 and 4 ranks × L = 1 and 2 blocks as threads, and give each op's meaning
/// (`tests/conformance/pto_cpu_run.cpp`). Not simpler's runtime or a2a3sim (Conformance 2).
#[test]
fn builtin_kernels_run_on_pto_isa_cpu_implementation() {
    let Some((pto, simpler)) = snapshots() else {
        return;
    };
    let cxx = std::env::var("PLD_CONFORMANCE_CXX").unwrap_or_else(|_| "clang++-22".into());
    let work = std::env::temp_dir().join(format!("pld-pto-run-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    // The contract's flags, compiling objects (-O1 -c) instead of checking syntax; the kernel
    // text's C++17 check is the other test's.
    let mut flags: Vec<String> = FLAGS
        .iter()
        .filter(|f| !matches!(**f, "-fsyntax-only" | "-Werror=pre-c++20-compat-pedantic"))
        .map(|s| s.to_string())
        .collect();
    flags.push("-O1".into());
    for d in include_dirs(&pto, &simpler) {
        flags.push("-isystem".into());
        flags.push(d.display().to_string());
    }
    let kernels = pld::builtin_kernels();
    let run: Vec<_> = RUN_KERNELS
        .iter()
        .map(|(symbol, entry)| {
            let k = kernels
                .iter()
                .find(|k| k.symbol == *symbol)
                .unwrap_or_else(|| panic!("no builtin kernel {symbol}"));
            (k, *entry)
        })
        .collect();
    // The kernels' shared include block precompiled once (what they run is the same code).
    let sources: Vec<(&str, &str)> = run.iter().map(|(k, _)| ("", k.source.as_str())).collect();
    let pchs = precompiled_headers(&cxx, &flags, &sources, &work);
    let mut objects = Vec::new();
    let mut jobs = Vec::new();
    for ((k, entry), pch) in run.iter().zip(&pchs) {
        let src = work.join(format!("{entry}.cpp"));
        std::fs::write(&src, &k.source).unwrap();
        let obj = work.join(format!("{entry}.o"));
        let mut cmd = Command::new(&cxx);
        cmd.args(&flags);
        if let Some(pch) = pch {
            cmd.arg("-include-pch").arg(pch);
        }
        jobs.push(
            cmd.arg(format!("-Dkernel_entry={entry}"))
                .arg("-c")
                .arg(&src)
                .arg("-o")
                .arg(&obj)
                .stderr(Stdio::piped())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot run {cxx}: {e}")),
        );
        objects.push(obj);
    }
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/pto_cpu_run.cpp");
    let harness_obj = work.join("harness.o");
    jobs.push(
        Command::new(&cxx)
            .args(&flags)
            .arg("-c")
            .arg(&harness)
            .arg("-o")
            .arg(&harness_obj)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    for j in jobs {
        let out = j.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "compile failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let exe = work.join("pto_cpu_run");
    let link = Command::new(&cxx)
        .args(&objects)
        .arg(&harness_obj)
        .args(["-lpthread", "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        link.status.success(),
        "link failed:\n{}",
        String::from_utf8_lossy(&link.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let _ = std::fs::remove_dir_all(&work);
    assert!(
        run.status.success(),
        "the builtin kernels on pto-isa's CPU implementation:\n{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("0 failed"), "{stdout}");
}

/// simpler's orchestration include folders (what its `compile_orchestration` passes; no pto-isa).
fn orchestration_include_dirs(simpler: &Path) -> Vec<PathBuf> {
    [
        "src/a2a3/runtime/tensormap_and_ringbuffer/runtime",
        "src/a2a3/runtime/tensormap_and_ringbuffer/orchestration",
        "src/a2a3/runtime/tensormap_and_ringbuffer/common",
        "src/common/task_interface",
        "src/common",
        "src/a2a3/platform/include",
        "src/common/platform/include",
    ]
    .iter()
    .map(|d| simpler.join(d))
    .collect()
}

/// Modules whose rendered CHIP orchestrations the conformance compiles: the examples and the
/// orchestration inputs of the lit suite (loops, branches, views, creates, assembles, writes,
/// requires, launches, the family on both rails, the indexed variant).
const ORCHESTRATION_MODULES: &[(&str, &str)] = &[
    ("examples/chip_pipeline.mlir", "runtime/examples"),
    ("examples/tp_layer.mlir", "runtime/examples"),
    ("examples/ep_moe.mlir", "runtime/examples"),
    ("examples/moe_layers.mlir", "runtime/examples"),
    ("examples/micro_batches.mlir", "runtime/examples"),
    ("examples/pp_pipeline.mlir", "runtime/examples"),
    ("test/Codegen/Inputs/orch/arith.mlir", "test/Codegen/Inputs"),
    (
        "test/Codegen/Inputs/orch/launch.mlir",
        "test/Codegen/Inputs",
    ),
    (
        "test/Codegen/Inputs/orch/nested.mlir",
        "test/Codegen/Inputs",
    ),
    ("test/Codegen/Inputs/orch/views.mlir", "test/Codegen/Inputs"),
    (
        "test/Codegen/Inputs/orch/submit-alloc.mlir",
        "test/Codegen/Inputs",
    ),
    (
        "test/Codegen/Inputs/orch/require-literals.mlir",
        "test/Codegen/Inputs",
    ),
    ("test/Codegen/Inputs/family.mlir", "test/Codegen/Inputs"),
    ("test/Codegen/Inputs/indexed.mlir", "runtime/examples"),
    ("test/Codegen/Inputs/both-rails.mlir", "runtime/examples"),
];

/// Every `next_levels/*/orchestration/*.cpp` pld-opt + pld-translate render for `module`.
fn rendered_orchestrations(root: &Path, module: &str, kernels: &str, work: &Path) -> Vec<PathBuf> {
    let out = work.join(module.replace('/', "_"));
    render_tree(
        Path::new(env!("CARGO_BIN_EXE_pld-opt")),
        &root.join(module),
        &root.join(kernels),
        &out,
    );
    let mut found = Vec::new();
    for level in std::fs::read_dir(out.join("next_levels")).unwrap() {
        let orch = level.unwrap().path().join("orchestration");
        for f in std::fs::read_dir(&orch).unwrap() {
            found.push(f.unwrap().path());
        }
    }
    found.sort();
    found
}

/// device.md, "Orchestration text": every CHIP orchestration pld-translate renders for the
/// examples and the lit suite's orchestration inputs, and `runtime/examples/chip_pipeline.cpp`
/// (the runtime suite's hand-written one), compiles against simpler's own headers with the host
/// g++ and C++17, as simpler builds orchestrations, each alone in an empty folder; pld's runtime
/// runs the very same text (pld-run, pld-sim, runtime/tests).
#[test]
fn orchestration_text_compiles_against_simpler_orchestration_api() {
    let Some((_, simpler)) = snapshots() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let render_dir = std::env::temp_dir().join(format!("pld-orch-render-{}", std::process::id()));
    std::fs::create_dir_all(&render_dir).unwrap();
    let mut sources = vec![root.join("runtime/examples/chip_pipeline.cpp")];
    for (module, kernels) in ORCHESTRATION_MODULES {
        sources.extend(rendered_orchestrations(root, module, kernels, &render_dir));
    }
    assert!(sources.len() > 20, "only {} orchestrations", sources.len());
    let work = std::env::temp_dir().join(format!("pld-orch-conformance-{}", std::process::id()));
    // Each alone in its own empty folder, on every core.
    let failures = parallel(sources.iter().enumerate().collect(), |&(n, src)| {
        let text = std::fs::read_to_string(src).unwrap();
        assert!(
            text.contains("#include \"pto_orchestration_api.h\"")
                && text.contains("aicpu_orchestration_entry")
                && text.contains("aicpu_orchestration_config"),
            "{} is not written against simpler's orchestration API",
            src.display()
        );
        let dir = work.join(n.to_string());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("orchestration.cpp"), &text).unwrap();
        let mut cmd = Command::new("g++");
        cmd.args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror"]);
        for d in orchestration_include_dirs(&simpler) {
            cmd.arg("-isystem").arg(d);
        }
        let out = cmd
            .arg("orchestration.cpp")
            .current_dir(&dir)
            .stdout(Stdio::null())
            .output()
            .expect("cannot run g++");
        (!out.status.success()).then(|| format!("{}:\n{}", src.display(), first_lines(&out.stderr)))
    });
    let _ = std::fs::remove_dir_all(&work);
    let _ = std::fs::remove_dir_all(&render_dir);
    assert!(
        failures.is_empty(),
        "{} of {} orchestrations do not compile against simpler's API:\n{}",
        failures.len(),
        sources.len(),
        failures.join("\n\n")
    );
    eprintln!(
        "{} orchestrations compile against simpler's orchestration API",
        sources.len()
    );
}

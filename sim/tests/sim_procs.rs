//! pld-sim's ranks as processes (the sim spec's "Ranks as processes, and faults"): both modes
//! give identical results; a cross-rank addressing mutant passes in thread mode and fails in
//! process mode; every fault kind × place on two ranks ends with the right status, within
//! `timeout_ms` + 5 s, leaving no rank process and no `/dev/shm` entry; so does pld-sim itself
//! killed by SIGTERM / SIGINT in the middle of a run.

use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use pld_run::elem::Elem;
use pld_sim::case::Case;
use pld_sim::golden;
use pld_sim::result::SimResult;

use crate::common;
use common::{TEST_CXXFLAGS, scratch};

const PLD_SIM: &str = env!("CARGO_BIN_EXE_pld-sim");

fn run_sim(case_json: &str, envs: &[(&str, &str)]) -> (Output, Duration) {
    let mut cmd = Command::new(PLD_SIM);
    cmd.env("PLD_SIM_CXXFLAGS", TEST_CXXFLAGS)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run pld-sim");
    let pid = child.id();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(case_json.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let took = start.elapsed();
    // Nothing of this run may outlive pld-sim: no driver, no rank process.
    assert_eq!(
        leftovers(pid),
        Vec::<String>::new(),
        "processes left by {case_json}"
    );
    (out, took)
}

/// The result of an f32 case (every case here is one).
fn result(out: &Output, what: &str) -> SimResult {
    assert!(
        out.status.success(),
        "{what}: pld-sim exited {}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    SimResult::from_json(&String::from_utf8_lossy(&out.stdout), Elem::F32).unwrap()
}

/// Processes (pid: cmdline) whose command line holds pld-sim `pid`'s run directories (the
/// simulator driver and its forked rank processes run `<bin> <cache>/runs/<pid>.<n>/params.txt`).
fn leftovers(pid: u32) -> Vec<String> {
    let needle = format!("/runs/{pid}.");
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmd) = std::fs::read(e.path().join("cmdline")) {
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            if cmd.contains(&needle) {
                found.push(format!("{name}: {cmd}"));
            }
        }
    }
    found
}

/// The runtime's shared-memory objects in /dev/shm (`pld-world-*`).
fn shm_entries() -> Vec<String> {
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| n.starts_with("pld-world-"))
                .collect()
        })
        .unwrap_or_default()
}

const TWO_RANKS: &str = r#""ranks": 2, "core_num": 2, "dtype": "f32", "max_recv": 2, "row_elems": 3, "send_counts": [[2, 1], [2, 2]]"#;

#[test]
fn both_modes_give_identical_results() {
    // A plain case, a looped one, a refusal, a runtime core_num, domains and a family case
    // (CHIP and HOST rail): the result JSON byte for byte.
    let cases = [
        r#"{"ranks": 4, "core_num": 8, "dtype": "f32", "max_recv": 3, "row_elems": 5, "send_counts": [[1,2,3,4],[4,3,2,1],[0,0,0,0],[9,-2,9,9]], "repeat": 3}"#,
        r#"{"ranks": 3, "core_num": 7, "dtype": "i8", "max_recv": 2, "row_elems": 3, "send_counts": [[1,2,3],[2,-1,0],[2,2,2]], "layers": 3}"#,
        r#"{"ranks": 2, "core_num": 4, "dtype": "f32", "max_recv": 2, "row_elems": 3, "send_counts": [[1,2],[2,1]], "non_contiguous": "target"}"#,
        r#"{"ranks": 4, "core_num": 5, "dtype": "f32", "max_recv": 2, "row_elems": 3, "send_counts": [[1,2,0,1],[2,1,2,2],[0,0,1,1],[2,2,2,2]], "runtime_core_num": true}"#,
        r#"{"ranks": 5, "core_num": 3, "dtype": "f32", "max_recv": 2, "row_elems": 3, "domains": [{"ranks": 4, "send_counts": [[2,0,1,3],[1,2,-1,0],[5,1,1,1],[0,0,2,2]]}, {"ranks": 2, "send_counts": [[1,2],[2,0]]}]}"#,
        r#"{"op": "allreduce", "ranks": 4, "dtype": "f16", "rows": 3, "row_elems": 5, "reduce": "sum", "core_num": 2, "repeat": 2}"#,
        r#"{"op": "broadcast", "ranks": 3, "dtype": "i32", "rows": 2, "row_elems": 4, "root": 1, "rail": "host"}"#,
    ];
    for c in cases {
        let (p, _) = run_sim(c, &[]);
        let (t, _) = run_sim(c, &[("PLD_SIM_RANKS_AS", "threads")]);
        assert!(p.status.success() && t.status.success(), "{c}");
        assert_eq!(
            String::from_utf8_lossy(&p.stdout),
            String::from_utf8_lossy(&t.stdout),
            "{c}"
        );
        let err = String::from_utf8_lossy(&p.stderr);
        assert!(err.contains("ranks as processes"), "{err}");
    }
}

/// consume_step reading every peer's *local* input through a raw pointer (the driver's test hook
/// `pld_sim_peer_input`) instead of its own target window: the same values, as long as every rank
/// shares one address space.
const MUTANT_CONSUME: &str = r#"
#include <cstring>
#include "pld_runtime/kernel.h"
extern "C" const void* pld_sim_peer_input(int rank);
extern "C" int pld_sim_window_rank(const void* p);
PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* data = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* recv = pld::tensor_arg(args, 1);
  const PLD_GM pld::Tensor* out = pld::tensor_arg(args, 2);
  const int me = pld_sim_window_rank(data->data);
  const int64_t P = recv->shape[0], rows = data->shape[0], row = data->shape[1] * data->elem_size;
  const int64_t mr = rows / P;
  const int32_t* counts = static_cast<const int32_t*>(recv->data);
  char* o = static_cast<char*>(out->data);
  std::memset(o, 0, rows * row);
  for (int64_t s = 0; s < P; ++s) {
    const char* in = static_cast<const char*>(pld_sim_peer_input(static_cast<int>(s)));
    for (int64_t k = 0; k < counts[s]; ++k)
      std::memcpy(o + (s * mr + k) * row, in + (me * mr + k) * row, row);
  }
}
"#;

#[test]
fn a_cross_rank_addressing_mutant_passes_as_threads_and_fails_as_processes() {
    // `scripts/test.sh --quick` (the edit loop) leaves the builds that are cold by design (a
    // private cache) to the full run.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    let root = scratch("mutant-root");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    copy_dir(&repo.join("runtime"), &root.0.join("runtime"));
    copy_dir(&repo.join("sim/src"), &root.0.join("sim/src"));
    copy_dir(&repo.join("runner/driver"), &root.0.join("runner/driver"));
    std::fs::write(
        root.0.join("sim/src/kernels/consume_step.cpp"),
        MUTANT_CONSUME,
    )
    .unwrap();
    let root_s = root.0.to_str().unwrap();
    let json = r#"{"ranks": 3, "core_num": 3, "dtype": "f32", "max_recv": 2, "row_elems": 3, "send_counts": [[2,1,0],[1,2,2],[0,2,1]]}"#;
    let case = Case::from_json(json).unwrap();
    // Thread mode: every check passes (golden, and consume_step's output equals the window).
    // The private root builds the runtime cold: at -O0, which the addressing fault does not
    // depend on.
    let (t, _) = run_sim(
        json,
        &[
            ("PLD_SIM_ROOT", root_s),
            ("PLD_SIM_CXXFLAGS", "-O0"),
            ("PLD_SIM_RANKS_AS", "threads"),
        ],
    );
    let r = result(&t, "threads");
    assert_eq!(r.status, "ok", "{}", r.message);
    golden::check(&case, &r).unwrap();
    // Process mode: a peer's input is not in this rank's address space.
    let (p, _) = run_sim(
        json,
        &[("PLD_SIM_ROOT", root_s), ("PLD_SIM_CXXFLAGS", "-O0")],
    );
    let r = result(&p, "processes");
    assert_eq!(r.status, "rank_failed", "{}", r.message);
    assert_eq!(r.code, 6);
    assert!(r.message.contains("killed by signal 11"), "{}", r.message);
    assert!(r.ranks.iter().any(|k| k.failed), "{:?}", r.ranks);
}

#[test]
fn the_copy_trace_catches_what_the_golden_cannot_in_both_modes() {
    // A mutant that stores recv_counts from every lane of a peer's blocks, not only lane 0: the
    // same value lands in the same place, so the windows (all the golden sees) are right; the
    // copy trace (sim/src/wire.rs) counts two stores per exchange. The runtime's log is in shared
    // memory, so rank processes report their copies as threads do.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let fam = "templates/pypto/runtime/builtins/collectives";
    let tree = scratch("wire-mutant");
    copy_dir(&repo.join(fam), &tree.0.join("collectives"));
    let kernel = tree.0.join("collectives/all_to_all_v/kernel.cpp.in");
    let text = std::fs::read_to_string(&kernel).unwrap();
    assert_eq!(text.matches("    if (lane == 0) {").count(), 1);
    std::fs::write(
        &kernel,
        text.replace("    if (lane == 0) {", "    if (true) {"),
    )
    .unwrap();
    let dir = tree.0.join("collectives");
    // P = 2 and B = 4: two lanes per peer.
    let json = r#"{"ranks": 2, "core_num": 4, "dtype": "f32", "max_recv": 2, "row_elems": 3, "send_counts": [[2, 1], [0, 2]]}"#;
    for mode in ["threads", "processes"] {
        let (out, _) = run_sim(
            json,
            &[
                ("PLD_DEV_TEMPLATE_DIR", dir.to_str().unwrap()),
                ("PLD_SIM_RANKS_AS", mode),
            ],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{mode}: the mutant passed");
        // Whichever store the trace lists first: a lane-1 block (1 or 3), not its peer's owner.
        assert!(
            err.contains("the copy trace of __builtin_all_to_all_v__fp32: rank ")
                && (err.contains(" block 1 stored 4 bytes at recv_counts[0] of rank ")
                    || err.contains(" block 3 stored 4 bytes at recv_counts[1] of rank "))
                && err.contains("(the owner is block "),
            "{mode}: {err}"
        );
    }
    // The same case with the real template passes in both modes.
    for mode in ["threads", "processes"] {
        let (out, _) = run_sim(json, &[("PLD_SIM_RANKS_AS", mode)]);
        assert_eq!(result(&out, mode).status, "ok");
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}

#[test]
fn every_fault_on_two_ranks_ends_cleanly() {
    const TIMEOUT_MS: u64 = 1500;
    let shm_before = shm_entries();
    // Warm the cache (the module is shared by every fault case).
    let (w, _) = run_sim(&format!("{{{TWO_RANKS}}}"), &[]);
    assert_eq!(result(&w, "warm").status, "ok");
    let mut handles = Vec::new();
    for kind in ["crash", "hang", "exit"] {
        for at in ["before", "inside", "after"] {
            for rank in [0, 1] {
                handles.push(std::thread::spawn(move || {
                    let json = format!(
                        r#"{{{TWO_RANKS}, "timeout_ms": {TIMEOUT_MS}, "fault": {{"rank": {rank}, "kind": "{kind}", "at": "{at}"}}}}"#
                    );
                    let (out, took) = run_sim(&json, &[]);
                    let r = result(&out, &json);
                    let what = format!("{kind} {at} rank {rank}: {}", r.message);
                    assert_eq!(r.code, 6, "{what}");
                    assert!(
                        took < Duration::from_millis(TIMEOUT_MS + 5000),
                        "{what}: took {took:?}"
                    );
                    match kind {
                        "hang" => {
                            assert_eq!(r.status, "timeout", "{what}");
                            assert!(
                                r.message.contains(&format!("{rank}]"))
                                    || r.message.contains(&format!("{rank},")),
                                "{what}"
                            );
                        }
                        _ => {
                            assert_eq!(r.status, "rank_failed", "{what}");
                            let how = if kind == "crash" {
                                "killed by signal 9"
                            } else {
                                "exited with status 0 before its orchestration finished"
                            };
                            assert!(
                                r.message.starts_with(&format!("rank {rank} {how}")),
                                "{what}"
                            );
                        }
                    }
                    assert_eq!(r.ranks.len(), 2, "{what}");
                    assert!(r.ranks[rank].failed, "{what}");
                    // A crash or exit after the collective leaves the other rank finished, with
                    // its windows reported.
                    if kind != "hang" && at == "after" {
                        let other = &r.ranks[1 - rank];
                        assert!(!other.failed && other.recv_counts.as_ref().is_some_and(|c| c.len() == 2), "{what}");
                    }
                    (kind, at, rank, took)
                }));
            }
        }
    }
    for h in handles {
        let (kind, at, rank, took) = h.join().unwrap();
        eprintln!("{kind} {at} rank {rank}: {took:?}");
    }
    let leaked: Vec<_> = shm_entries()
        .into_iter()
        .filter(|e| !shm_before.contains(e))
        .collect();
    assert!(leaked.is_empty(), "/dev/shm entries left: {leaked:?}");
}

#[test]
fn a_family_fault_ends_cleanly() {
    let base = r#""op": "allgather", "ranks": 2, "dtype": "f32", "rows": 2, "row_elems": 3"#;
    // Warm the cache: the time bound is the run's, not the first build's.
    let (w, _) = run_sim(&format!("{{{base}}}"), &[]);
    assert!(w.status.success());
    let json = &format!(
        r#"{{{base}, "timeout_ms": 1000, "fault": {{"rank": 1, "kind": "crash", "at": "inside"}}}}"#
    );
    let (out, took) = run_sim(json, &[]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["status"], "rank_failed", "{text}");
    assert_eq!(v["code"], 6);
    assert_eq!(v["ranks"][1], serde_json::json!({"failed": true}), "{text}");
    assert!(took < Duration::from_millis(6000));
    // Faults need rank processes.
    let (t, _) = run_sim(json, &[("PLD_SIM_RANKS_AS", "threads")]);
    assert!(!t.status.success());
    assert!(String::from_utf8_lossy(&t.stderr).contains("needs ranks as processes"));
}

#[test]
fn pld_sim_killed_mid_run_leaves_nothing() {
    let shm_before = shm_entries();
    let json = format!(
        r#"{{{TWO_RANKS}, "timeout_ms": 60000, "fault": {{"rank": 1, "kind": "hang", "at": "inside"}}}}"#
    );
    // Warm the cache so the run is under way quickly.
    let _ = run_sim(&format!("{{{TWO_RANKS}}}"), &[]);
    for sig in ["-TERM", "-INT"] {
        let mut cmd = Command::new(PLD_SIM);
        // A shell without job control starts a background command (`bash scripts/test.sh &`)
        // with SIGINT ignored, and the child would inherit that: the run then ends only at its
        // 60 s bound. What is tested is pld-sim under the signal's default action, as from a
        // terminal, so the child starts with it.
        unsafe extern "C" {
            fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
        }
        const SIGINT: std::ffi::c_int = 2;
        const SIG_DFL: usize = 0;
        // SAFETY: signal(2) is async-signal-safe, the one call between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                signal(SIGINT, SIG_DFL);
                Ok(())
            });
        }
        let mut child = cmd
            .env("PLD_SIM_CXXFLAGS", TEST_CXXFLAGS)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(json.as_bytes())
            .unwrap();
        let pid = child.id();
        // Wait for the driver and its two rank processes.
        let start = Instant::now();
        while leftovers(pid).len() < 3 {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the run never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Command::new("kill")
            .args([sig, &pid.to_string()])
            .status()
            .unwrap();
        let _ = child.wait();
        let start = Instant::now();
        while !leftovers(pid).is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "{sig}: left {:?}",
                leftovers(pid)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let leaked: Vec<_> = shm_entries()
        .into_iter()
        .filter(|e| !shm_before.contains(e))
        .collect();
    assert!(leaked.is_empty(), "/dev/shm entries left: {leaked:?}");
}

#[test]
fn sixteen_ranks_of_sixteen_blocks_as_processes_within_twice_the_threads_time() {
    // Six runs of 16 x 16 blocks: the edit loop's longest tail; the full run keeps it.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    // The launcher is not the limit: P = 16 ranks × L = 16 blocks, 20 exchanges back to back,
    // the best of three runs per mode (what pld-sim reports on stderr as the run's wall time).
    let counts: Vec<String> = (0..16)
        .map(|s| {
            let row: Vec<String> = (0..16).map(|d| ((s * 3 + d) % 5).to_string()).collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    let json = format!(
        r#"{{"ranks": 16, "core_num": 16, "dtype": "f32", "max_recv": 4, "row_elems": 8, "repeat": 20, "send_counts": [{}]}}"#,
        counts.join(",")
    );
    let wall = |envs: &[(&str, &str)]| -> f64 {
        (0..3)
            .map(|_| {
                let (out, _) = run_sim(&json, envs);
                assert_eq!(result(&out, "P16").status, "ok");
                let err = String::from_utf8_lossy(&out.stderr).to_string();
                let ms = err
                    .split("ran in ")
                    .nth(1)
                    .and_then(|t| t.split(" ms").next())
                    .and_then(|t| t.parse::<f64>().ok());
                ms.unwrap_or_else(|| panic!("no wall time in {err}"))
            })
            .fold(f64::INFINITY, f64::min)
    };
    let _ = wall(&[]); // build
    let procs = wall(&[]);
    let threads = wall(&[("PLD_SIM_RANKS_AS", "threads")]);
    eprintln!("P16 x L16, 20 exchanges: processes {procs:.1} ms, threads {threads:.1} ms");
    // A little slack for a loaded machine's noise at this scale (tens of ms).
    assert!(
        procs <= 2.0 * threads + 50.0,
        "processes {procs:.1} ms vs threads {threads:.1} ms"
    );
}

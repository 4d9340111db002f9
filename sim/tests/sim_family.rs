//! pld-sim for the collective family, end to end through the binary: the CI slice against the
//! independent golden (sim/src/family/golden.rs), malformed cases (exit 2, a message, no
//! result), a result checked by hand (keys, f16 as exact decimals), and a ThreadSanitizer slice.
//! The full family matrix is `pld-sim --matrix family` (docs/sim.md, "The collective family"),
//! not run here.

use std::path::Path;
use std::process::{Command, Output};

use pld_sim::family::case::FamilyCase;
use pld_sim::family::golden;
use pld_sim::family::matrix;
use pld_sim::result::SimResult;

use crate::common;
use common::{TEST_CXXFLAGS, scratch};

const PLD_SIM: &str = env!("CARGO_BIN_EXE_pld-sim");

fn run(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(PLD_SIM);
    cmd.args(args).env("PLD_SIM_CXXFLAGS", TEST_CXXFLAGS);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("run pld-sim")
}

/// Runs one case through the binary (`-o`), returns the raw JSON and the parsed result.
fn sim(dir: &Path, name: &str, case: &FamilyCase, envs: &[(&str, &str)]) -> (String, SimResult) {
    let case_path = dir.join(format!("{name}.json"));
    std::fs::write(&case_path, case.to_json().to_string()).unwrap();
    let out_path = dir.join(format!("{name}.result.json"));
    let out = run(
        &[
            case_path.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ],
        envs,
    );
    assert!(
        out.status.success(),
        "{name}: pld-sim exited {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&out_path).unwrap();
    let r = SimResult::from_json(&text, case.dtype).unwrap_or_else(|e| panic!("{name}: {e}"));
    (text, r)
}

#[test]
fn family_ci_slice_against_the_golden() {
    // Through the library (the tools next to the pld-sim binary), so the verdict sees the kernel
    // block counts and stage counters the JSON does not carry.
    let tc = common::toolchain();
    let mut failures = Vec::new();
    let entries = matrix::ci();
    for e in &entries {
        let r = pld_sim::family::run::run_family(&tc, &e.case);
        if let Err(m) = r.and_then(|r| matrix::judge(e, &r)) {
            failures.push(format!("{}: {m}", e.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

/// The family's and all_to_all_v's CI slices again with every transfer completing at seeded
/// random points before its completion point instead of the latest (`PLD_DMA_SEED`,
/// docs/device.md): no kernel may depend on when, inside that window, its transfers land.
#[test]
fn ci_slices_at_seeded_random_completion_points() {
    for (matrix, seed) in [("family-ci", "11"), ("ci", "12")] {
        let out = run(&["--matrix", matrix], &[("PLD_DMA_SEED", seed)]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(" 0 failed"),
            "{matrix} under PLD_DMA_SEED={seed}:\n{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn results_through_the_binary_match_the_golden_and_by_hand() {
    let dir = scratch("by-hand");
    // f16 allreduce sum over 3 ranks, one element per row: payload (r*131 + i*17) % 1000 - 500
    // over 8: row 0 sums -62.5 - 46.125 - 29.75 = -138.375 (11 significant bits: exact in f16),
    // row 1 -60.375 - 44 - 27.625 = -132.
    let case = FamilyCase::from_json(
        r#"{"op": "allreduce", "ranks": 3, "dtype": "f16", "rows": 2, "row_elems": 1, "reduce": "sum"}"#,
    )
    .unwrap();
    let (text, r) = sim(&dir.0, "allreduce_f16", &case, &[]);
    golden::check(&case, &r).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["status", "code", "message", "blocks", "ranks"]);
    let rank_keys: Vec<&str> = v["ranks"][0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(rank_keys, ["target", "signal"]);
    assert!(text.contains("[[-138.375],[-132]]"), "{text}");
    assert_eq!(v["ranks"][2]["signal"], serde_json::json!([[0], [0], [0]]));

    // i8 all_to_all over 2 ranks: rank r row q = payload(q, r) = (q*37 + r*11) % 251 - 125.
    let case = FamilyCase::from_json(
        r#"{"op": "all_to_all", "ranks": 2, "dtype": "i8", "rows": 1, "row_elems": 1, "rail": "host"}"#,
    )
    .unwrap();
    let (text, r) = sim(&dir.0, "a2a_i8_host", &case, &[]);
    golden::check(&case, &r).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ranks"][0]["target"], serde_json::json!([[-125], [-88]]));
    assert_eq!(v["ranks"][1]["target"], serde_json::json!([[-114], [-77]]));

    // Barrier with delays: enter_ns / leave_ns, every leave after every enter, rank 0 entering
    // last (it sleeps 100 ms) so every rank's leave is after rank 0's enter, which is well after
    // the others' (> 15 ms: 85 ms of slack for ranks started late on a loaded machine).
    let case = FamilyCase::from_json(
        r#"{"op": "barrier", "ranks": 3, "delay_us": [100000, 0, 0], "rail": "host"}"#,
    )
    .unwrap();
    let (text, r) = sim(&dir.0, "barrier", &case, &[]);
    golden::check(&case, &r).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["ranks"][1]["target"], serde_json::json!([]));
    let enter0 = r.ranks[0].enter_ns.unwrap();
    for rank in &r.ranks[1..] {
        assert!(enter0 - rank.enter_ns.unwrap() > 15_000_000, "{text}");
        assert!(rank.leave_ns.unwrap() >= enter0, "{text}");
    }

    // A compile_error keeps pld-opt's message and no ranks.
    let case = FamilyCase::from_json(
        r#"{"op": "allreduce", "ranks": 2, "dtype": "f32", "rows": 2, "row_elems": 1, "reduce": "avg"}"#,
    )
    .unwrap();
    let (_, r) = sim(&dir.0, "bad_reduce", &case, &[]);
    assert_eq!(r.status, "compile_error");
    assert!(
        r.message
            .contains("reduce must be one of sum, max, min, prod"),
        "{}",
        r.message
    );
    assert!(r.ranks.is_empty());
}

#[test]
fn malformed_family_cases_exit_2_with_a_message() {
    let dir = scratch("malformed");
    for (i, (case, msg)) in [
        (r#"{"op": "allreduce", "ranks": 17, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "sum"}"#, "ranks must be in 1..16"),
        (r#"{"op": "allgather", "ranks": 2, "dtype": "bfloat16", "rows": 1, "row_elems": 1}"#, "dtype must be an element type"),
        (r#"{"op": "allgather", "ranks": 2, "dtype": "f32", "rows": 1}"#, "missing key 'row_elems'"),
        (r#"{"op": "broadcast", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "reduce": "sum"}"#, "key 'reduce' does not apply to op broadcast"),
        (r#"{"op": "barrier", "ranks": 2, "delay_us": [1, 2, 3]}"#, "delay_us must list 2 ints"),
        (r#"{"op": "barrier", "ranks": 2, "rail": "both"}"#, "rail must be"),
        (r#"{"op": "barrier", "ranks": 2, "loop": "yes"}"#, "loop must be true or false"),
        (r#"{"op": "all_to_all", "ranks": 2, "dtype": "f32", "rows": 1, "row_elems": 1, "send_counts": []}"#, "unknown key 'send_counts'"),
        (r#"{"op": "allreduce_v", "ranks": 2}"#, "op must be"),
    ]
    .iter()
    .enumerate()
    {
        let path = dir.0.join(format!("bad{i}.json"));
        std::fs::write(&path, case).unwrap();
        let out = run(&[path.to_str().unwrap()], &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{case}: {err}");
        assert!(out.stdout.is_empty(), "{case}: a result was printed");
        assert!(
            err.starts_with(&format!("pld-sim: {}: ", path.display())) && err.contains(msg),
            "{case}: {err}"
        );
    }
    // A dtype a program can state but the op refuses is pld-opt's compile_error, exit 0.
    for (i, (case, msg)) in [
        (r#"{"op": "allgather", "ranks": 2, "dtype": "bf16", "rows": 1, "row_elems": 1}"#, "'pld.tensor.allgather' op"),
        (r#"{"op": "allreduce", "ranks": 2, "dtype": "i64", "rows": 1, "row_elems": 1, "reduce": "sum"}"#, "'pld.tensor.allreduce' op supports only f32, f16 or i32, got i64"),
        (r#"{"op": "broadcast", "ranks": 2, "dtype": "f64", "rows": 1, "row_elems": 1}"#, "element type must be f32, f16, bf16, i8, i32 or i64, got 'f64'"),
    ]
    .iter()
    .enumerate()
    {
        let path = dir.0.join(format!("refused{i}.json"));
        std::fs::write(&path, case).unwrap();
        let out = run(&[path.to_str().unwrap()], &[]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{case}: {}", String::from_utf8_lossy(&out.stderr));
        let r: serde_json::Value = serde_json::from_str(&text).expect("a result");
        assert_eq!(r["status"], "compile_error", "{case}: {text}");
        assert!(r["message"].as_str().unwrap().contains(msg), "{case}: {text}");
    }
    // A filter that selects nothing is a usage error; --list prints the entries.
    let out = run(&["--matrix", "family-ci", "--filter", "zzzz"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["--matrix", "family", "--list", "--filter", "barrier:P16"],
        &[],
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 2);
}

#[test]
fn family_under_thread_sanitizer() {
    // `scripts/test.sh --quick` (the edit loop) leaves the sanitizer builds to the full run.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    // The family driver, the rendered kernels, the generated orchestrations and the runtime
    // under ThreadSanitizer (common::TSAN_ENV).
    let dir = scratch("tsan");
    let env = common::TSAN_ENV;
    let picks = [
        "allreduce:sum_f32_P4_L2",
        "allreduce_ring:sum_f32_P4",
        "reduce_scatter:min_f16_P5_L2",
        "all_to_all:i32_P4_L2",
        "host_rep3:broadcast_f32_P2",
        "host_loop5:barrier_P4",
    ];
    let entries: Vec<_> = matrix::ci()
        .into_iter()
        .filter(|e| picks.contains(&e.name.as_str()))
        .collect();
    assert_eq!(entries.len(), picks.len());
    for e in &entries {
        let (_, r) = sim(&dir.0, &e.name.replace(':', "_"), &e.case, &env);
        golden::check(&e.case, &r).unwrap_or_else(|m| panic!("{}: {m}", e.name));
    }
}

#[test]
fn the_family_bench_times_every_op_and_checks_the_last_run() {
    // A tiny `pld-sim --bench --family` (benches/sim_family.sh): every data op and the barrier,
    // 3 restaged runs each. Without the restaging the last run fails its check (the stage step's
    // counter past its one staged call, an allreduce summing sums) and so the exit status.
    let ops = "allreduce,ring,reduce_scatter,allgather,all_to_all,reduce,gather,scatter,permute";
    let out = run(
        &[
            "--bench",
            "--family",
            "--ranks",
            "2",
            "--sizes-kib",
            "1",
            "--ops",
            ops,
            "--warmup",
            "1",
            "--small-iters",
            "2",
            "--barrier-ranks",
            "3",
            "--barrier-iters",
            "2",
        ],
        &[],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "exit {}: {}\n{stdout}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    for op in ops.split(',') {
        let row = stdout
            .lines()
            .find(|l| l.starts_with(&format!("| {op} | 2 |")))
            .unwrap_or_else(|| panic!("no row for {op}:\n{stdout}"));
        let cells: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 12, "{row}");
        assert_eq!(cells[3], "1 KiB", "{row}");
        let us: f64 = cells[5].parse().unwrap();
        assert!(us > 0.0, "{row}");
    }
    let barrier = stdout.lines().find(|l| l.starts_with("| 3 |"));
    assert!(barrier.is_some(), "no barrier row for P = 3:\n{stdout}");
    // A flag the bench does not know is a usage error.
    let bad = run(&["--bench", "--family", "--ops", "broadcast"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown op 'broadcast' for --ops"));
}

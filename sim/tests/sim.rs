//! pld-sim end to end: the CI slice of the case matrix against the independent golden
//! (sim/src/golden.rs), the refusal statuses, malformed cases, the result format and the cache.
//! The full matrix is `cargo run --release --bin pld-sim -- --matrix` (docs/sim.md).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pld_run::elem::Elem;
use pld_sim::case::Case;
use pld_sim::matrix::{self, Expect};
use pld_sim::result::SimResult;

use crate::common;
use common::{TEST_CXXFLAGS, scratch};

const PLD_SIM: &str = env!("CARGO_BIN_EXE_pld-sim");

fn run(args: &[&str], envs: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(PLD_SIM);
    cmd.args(args).env("PLD_SIM_CXXFLAGS", TEST_CXXFLAGS);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("run pld-sim")
}

/// Runs one case through the binary (alternating stdout and `-o`), returns the parsed result.
fn sim(dir: &Path, name: &str, case_json: &str, envs: &[(&str, &Path)]) -> SimResult {
    let case_path = dir.join(format!("{name}.json"));
    std::fs::write(&case_path, case_json).unwrap();
    let out_path = dir.join(format!("{name}.result.json"));
    let use_file = name.len().is_multiple_of(2);
    let case_arg = case_path.to_str().unwrap();
    let out_arg = out_path.to_str().unwrap();
    let args: Vec<&str> = if use_file {
        vec![case_arg, "-o", out_arg]
    } else {
        vec![case_arg]
    };
    let out = run(&args, envs);
    assert!(
        out.status.success(),
        "pld-sim {name} exited {}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let text = if use_file {
        assert!(out.stdout.is_empty(), "with -o nothing goes to stdout");
        std::fs::read_to_string(&out_path).unwrap()
    } else {
        String::from_utf8(out.stdout).unwrap()
    };
    // A case pld-sim refuses (exit 2) fails above; the rest parse, so the dtype is theirs.
    let dtype = Case::from_json(case_json).map_or(Elem::F32, |c| c.dtype);
    SimResult::from_json(&text, dtype).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"))
}

#[test]
fn ci_slice_against_the_golden() {
    let dir = scratch("slice");
    // A raw launch is no case key: those entries run in the matrix mode (below).
    let entries: Vec<_> = matrix::ci_slice()
        .into_iter()
        .filter(|e| e.case.launch.is_none())
        .collect();
    let mut failures = Vec::new();
    let mut expectations = BTreeSet::new();
    for e in &entries {
        let result = sim(
            &dir,
            &e.name.replace(':', "_"),
            &e.case.to_json().to_string(),
            &[],
        );
        if let Err(msg) = matrix::judge(e, &result) {
            failures.push(format!("{}: {msg}", e.name));
        }
        expectations.insert(match &e.expect {
            Expect::Golden => "golden".to_string(),
            Expect::CompileError(_) => "compile_error".to_string(),
            Expect::Refused { status, code } => format!("{status} {code}"),
            Expect::Domains => "domains".to_string(),
            Expect::Untouched => "untouched".to_string(),
        });
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
    // The slice exercises every kind of outcome.
    let kinds: Vec<&str> = expectations.iter().map(String::as_str).collect();
    assert_eq!(
        kinds,
        [
            "compile_error",
            "domains",
            "fatal 7",
            "golden",
            "invalid_args 5"
        ]
    );
}

#[test]
fn domains_of_different_sizes_in_one_world() {
    // docs/spec/domains.md, "Runtime": a world of 5 devices, a domain of 4 ranks and one of
    // 2. Each runs its own pipeline with rankNum = its size; device 4 is in neither.
    let dir = scratch("domains");
    let text = r#"{"ranks": 5, "core_num": 3, "dtype": "f32", "max_recv": 2, "row_elems": 3,
        "domains": [{"ranks": 4, "send_counts": [[2,0,1,3],[1,2,-1,0],[5,1,1,1],[0,0,2,2]]},
                    {"ranks": 2, "send_counts": [[1,2],[2,0]]}]}"#;
    let case = Case::from_json(text).unwrap();
    let r = sim(&dir, "two", text, &[]);
    assert_eq!(
        (r.status.as_str(), r.code, r.blocks),
        ("ok", 0, 3),
        "{}",
        r.message
    );
    assert!(r.ranks.is_empty());
    assert!(
        r.message.starts_with(
            "5 devices, domains [4 ranks x 3 blocks, 2 ranks x 2 blocks], 1 exchange(s) per domain;"
        ),
        "{}",
        r.message
    );
    // 4 x 3 + 2 x 2 collective blocks; stage_step and consume_step once per (device, domain).
    assert!(
        r.message
            .ends_with("__builtin_all_to_all_v__fp32=16 consume_step=6 stage_step=6"),
        "{}",
        r.message
    );
    pld_sim::golden::check_domains(&case, &r).unwrap();
    let e = matrix::Entry {
        name: "two".into(),
        case: case.clone(),
        expect: Expect::Domains,
    };
    matrix::judge(&e, &r).unwrap();
    // By hand, the 2-rank domain: device 0 receives 1 row from itself and 2 from device 1
    // (clamped to max_recv 2); device 1 receives 2 from device 0 and none from itself.
    let small = &r.domains[1];
    assert_eq!((small.ranks, small.blocks, small.devices.len()), (2, 2, 5));
    assert_eq!(small.devices[0].recv_counts, Some(vec![1, 2]));
    assert_eq!(small.devices[1].recv_counts, Some(vec![2, 0]));
    // Device 1's target row 0 is device 0's input row 1*MR + 0 = d 1, k 0: 10000 + e.
    assert_eq!(
        small.devices[1].values(Elem::F32)[0],
        [10_000.0, 10_001.0, 10_002.0]
    );
    // Devices 2..5 are outside it: its windows there are untouched.
    for dev in &small.devices[2..] {
        assert!(
            dev.recv_counts.iter().flatten().all(|&v| v == 0)
                && dev.target.iter().flatten().all(|&v| v == 0)
        );
        assert!(dev.signal.iter().flatten().all(|&v| v == 0));
    }
    // Each domain's windows are those of its own case run alone in a world of its size.
    for d in 0..2 {
        let alone = case.domain_case(d);
        let r_alone = sim(
            &dir,
            &format!("alone{d}"),
            &alone.to_json().to_string(),
            &[],
        );
        assert_eq!(r_alone.status, "ok", "{}", r_alone.message);
        assert_eq!(
            r.domains[d].devices[..alone.ranks],
            r_alone.ranks[..],
            "domain {d}"
        );
        assert_eq!(r.domains[d].blocks, r_alone.blocks);
    }

    // A domain pld-opt refuses is the case's compile_error, in that domain's own words: at
    // S = 2 the 4-rank domain's B = 3 is refused, the 2-rank domain's B = 2 is not.
    let refused = sim(
        &dir,
        "refused",
        &text.replace(
            "\"row_elems\": 3,",
            "\"row_elems\": 3, \"signal_stride\": 2,",
        ),
        &[],
    );
    assert_eq!(
        (refused.status.as_str(), refused.blocks),
        ("compile_error", 3),
        "{}",
        refused.message
    );
    assert!(
        refused.message.starts_with("domain 0 (4 ranks): ")
            && refused
                .message
                .contains("signal stride S=2 is smaller than the admitted block count B=3"),
        "{}",
        refused.message
    );

    // Malformed: pld-sim exits 2 with the reason.
    let bad = [
        ("top_counts", text.replace("\"row_elems\": 3,", "\"row_elems\": 3, \"send_counts\": [[1]],"), "no top-level send_counts"),
        ("too_big", text.replace("{\"ranks\": 2,", "{\"ranks\": 6,"), "domains[1]: ranks must be in 1..5"),
        ("shape", text.replace("[[1,2],[2,0]]", "[[1,2]]"), "domains[1]: send_counts must be 2 x 2"),
        ("key", text.replace("{\"ranks\": 2,", "{\"size\": 1, \"ranks\": 2,"), "domains[1]: unknown key 'size'"),
        ("strided", text.replace("\"row_elems\": 3,", "\"row_elems\": 3, \"non_contiguous\": \"target\","), "non_contiguous"),
        ("empty", r#"{"ranks": 2, "core_num": 1, "dtype": "i8", "max_recv": 1, "row_elems": 1, "domains": []}"#.into(), "1..8 domains"),
    ];
    for (name, text, want) in bad {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, &text).unwrap();
        let out = run(&[path.to_str().unwrap()], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.contains(want), "{name}: {stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn refusals_leave_every_operand_untouched() {
    let dir = scratch("refusals");
    // Over capacity: B = 16 > 8 cores; fatal 7, no block of the collective started.
    let over = r#"{"ranks": 4, "core_num": 16, "dtype": "i8", "max_recv": 2, "row_elems": 5, "aiv_capacity": 8,
                   "send_counts": [[2,2,2,2],[2,2,2,2],[2,2,2,2],[2,2,2,2]]}"#;
    let r = sim(&dir, "over", over, &[]);
    assert_eq!((r.status.as_str(), r.code, r.blocks), ("fatal", 7, 16));
    assert!(
        r.message.contains("exceeds the 8 AIV cores"),
        "{}",
        r.message
    );
    assert!(
        r.message
            .contains("__builtin_all_to_all_v__int8=0 consume_step=0 stage_step=4"),
        "{}",
        r.message
    );
    // The same case at capacity runs.
    let at = over.replace("\"aiv_capacity\": 8", "\"aiv_capacity\": 16");
    let r = sim(&dir, "at", &at, &[]);
    assert_eq!(r.status, "ok", "{}", r.message);
    pld_sim::golden::check(&Case::from_json(&at).unwrap(), &r).unwrap();

    // A strided operand: invalid_args 5, the collective and consume_step never submitted.
    for op in ["input", "target", "signal", "send_counts", "recv_counts"] {
        let case = over.replace(
            "\"aiv_capacity\": 8",
            &format!("\"non_contiguous\": \"{op}\""),
        );
        let r = sim(&dir, &format!("strided_{op}"), &case, &[]);
        assert_eq!(
            (r.status.as_str(), r.code),
            ("invalid_args", 5),
            "{op}: {}",
            r.message
        );
        assert!(
            r.message
                .contains("__builtin_all_to_all_v__int8=0 consume_step=0"),
            "{}",
            r.message
        );
        assert_eq!(r.ranks.len(), 4);
        for rank in &r.ranks {
            assert!(rank.target.iter().flatten().all(|&v| v == 0));
            assert!(rank.recv_counts.iter().flatten().all(|&v| v == 0));
            assert!(rank.signal.iter().flatten().all(|&v| v == 0));
        }
    }
}

#[test]
fn signal_stride_below_the_launch_width_is_a_compile_error() {
    let dir = scratch("stride");
    let case = r#"{"ranks": 2, "core_num": 6, "dtype": "f32", "max_recv": 2, "row_elems": 3, "signal_stride": 4,
                   "send_counts": [[1,2],[2,1]]}"#;
    let r = sim(&dir, "lt", case, &[]);
    assert_eq!(r.status, "compile_error");
    assert_ne!(r.code, 0);
    assert_eq!(r.blocks, 6);
    assert!(r.ranks.is_empty());
    assert!(r.message.contains("pld-opt"), "{}", r.message);
    assert!(
        r.message
            .contains("signal stride S=4 is smaller than the admitted block count B=6"),
        "{}",
        r.message
    );
    // core_num outside [1, 2147483647]: pld-opt rejects it too (B is reported as 0).
    let zero = case.replace("\"core_num\": 6", "\"core_num\": 0");
    let r = sim(&dir, "l0", &zero, &[]);
    assert_eq!(
        (r.status.as_str(), r.blocks),
        ("compile_error", 0),
        "{}",
        r.message
    );
    assert!(
        r.message
            .contains("core_num must be in [1, 2147483647], got 0"),
        "{}",
        r.message
    );
    // A dtype a program can state but the CHIP rail refuses: pld-opt's compile_error (exit 0),
    // for the plain and the indexed op.
    for (i, dt) in ["f16", "i32", "bf16"].iter().enumerate() {
        let refused = case
            .replace("\"core_num\": 6", "\"core_num\": 2")
            .replace("\"f32\"", &format!("\"{dt}\""));
        let r = sim(&dir, &format!("dt{i}"), &refused, &[]);
        assert_eq!(r.status, "compile_error", "{}", r.message);
        assert!(
            r.message
                .contains(&format!("the CHIP rail supports only f32 or i8, got {dt}")),
            "{}",
            r.message
        );
    }
    // S = B and S > B run, with the signal back to 0 on every lane.
    for s in [6, 9] {
        let case = case.replace(
            "\"signal_stride\": 4",
            &format!("\"signal_stride\": {s}, \"repeat\": 7"),
        );
        let r = sim(&dir, &format!("s{s}"), &case, &[]);
        pld_sim::golden::check(&Case::from_json(&case).unwrap(), &r).unwrap();
        assert!(
            r.ranks
                .iter()
                .all(|rank| rank.signal.iter().all(|row| row.len() == s))
        );
    }
}

#[test]
fn result_json_has_exactly_the_spec_keys() {
    let dir = scratch("format");
    let case = r#"{"ranks": 2, "core_num": 1, "dtype": "i8", "max_recv": 3, "row_elems": 3,
                   "send_counts": [[3, 1], [-2, 9]]}"#;
    let path = dir.join("case.json");
    std::fs::write(&path, case).unwrap();
    let out = run(&[path.to_str().unwrap()], &[]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        BTreeSet::from_iter(keys),
        BTreeSet::from(["status", "code", "message", "blocks", "ranks"])
    );
    let rank = &v["ranks"][1];
    let keys: Vec<&str> = rank
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        BTreeSet::from_iter(keys),
        BTreeSet::from(["recv_counts", "target", "signal"])
    );
    // Rank 1 gets 1 row from rank 0 (its input row 1*3+0) and min(9, 3) = 3 of its own.
    assert_eq!(rank["recv_counts"], serde_json::json!([1, 3]));
    // i8 payload: (r*37 + d*11 + k*5 + e) % 251 - 125 for r=0, d=1, k=0: 11+e-125.
    assert_eq!(rank["target"][0], serde_json::json!([-114, -113, -112]));
    assert_eq!(rank["target"][1], serde_json::json!([0, 0, 0]));
    assert_eq!(rank["signal"], serde_json::json!([[0], [0]]));
    assert_eq!(v["status"], "ok");
    assert_eq!(v["blocks"], 1);
}

/// The indexed op's case keys: `op`, `input_rows`, `index`; a by-hand result; the malformed ones.
#[test]
fn indexed_case_keys_and_a_result_by_hand() {
    let dir = scratch("indexed");
    // P = 2, MR = 2, one f32 per row, 3 input rows per rank (rank 0: 0, 100, 10000; rank 1:
    // 1000000, 1000100, 1010000), L = 3 blocks (exact: the plain op would fold it to 2).
    let case = r#"{"op": "indexed_all_to_all_v", "ranks": 2, "core_num": 3, "dtype": "f32", "max_recv": 2,
                   "row_elems": 1, "input_rows": 3, "send_counts": [[2, 1], [-1, 5]],
                   "index": [[2, 2, 1, 0], [0, 1, 3, -7]]}"#;
    let r = sim(&dir, "by_hand", case, &[]);
    assert_eq!(
        (r.status.as_str(), r.code, r.blocks),
        ("ok", 0, 3),
        "{}",
        r.message
    );
    assert!(r.message.contains("2 ranks x 3 blocks, 1 exchange(s); kernel blocks started: __builtin_indexed_all_to_all_v__fp32=6 consume_step=2 stage_step=2"), "{}", r.message);
    let col = |rank: usize| {
        r.ranks[rank]
            .values(Elem::F32)
            .iter()
            .map(|row| row[0])
            .collect::<Vec<_>>()
    };
    // Rank 0 gathers its own row 2 twice; rank 1 sends it nothing (count -1).
    assert_eq!(
        (col(0), r.ranks[0].recv_counts.clone().unwrap()),
        (vec![10_000.0, 10_000.0, 0.0, 0.0], vec![2, 0])
    );
    // Rank 1: rank 0's row 1 (index[0][2]); its own slots 3 and -7 are out of range: zero rows.
    assert_eq!(
        (col(1), r.ranks[1].recv_counts.clone().unwrap()),
        (vec![100.0, 0.0, 0.0, 0.0], vec![1, 2])
    );
    assert_eq!(
        r.ranks[1].signal,
        vec![vec![0, 0, 0], vec![0, 0, 0]],
        "S defaults to L"
    );
    pld_sim::golden::check(&Case::from_json(case).unwrap(), &r).unwrap();
    // The default index is the identity: with input_rows = P * MR, the plain exchange.
    let identity = r#"{"op": "indexed_all_to_all_v", "ranks": 2, "core_num": 2, "dtype": "i8", "max_recv": 3,
                       "row_elems": 4, "send_counts": [[3, 1], [0, 7]]}"#;
    let plain = identity.replace("\"op\": \"indexed_all_to_all_v\", ", "");
    let (a, b) = (
        sim(&dir, "identity", identity, &[]),
        sim(&dir, "plain", &plain, &[]),
    );
    assert_eq!(a.ranks, b.ranks);

    let cases = [
        (
            "op",
            case.replace("indexed_all_to_all_v", "all_gather_v"),
            "op must be \"all_to_all_v\" or \"indexed_all_to_all_v\"",
        ),
        (
            "plain_index",
            case.replace("\"op\": \"indexed_all_to_all_v\", ", ""),
            "key 'input_rows' needs \"op\": \"indexed_all_to_all_v\"",
        ),
        (
            "index_lists",
            case.replace("[[2, 2, 1, 0], [0, 1, 3, -7]]", "[[2, 2, 1, 0]]"),
            "index must be 2 lists of 4 ints",
        ),
        (
            "index_len",
            case.replace("[0, 1, 3, -7]", "[0, 1, 3]"),
            "list 1 has 3 entries",
        ),
        (
            "index_i32",
            case.replace("-7]", "4294967296]"),
            "index[1][3] must be an int32",
        ),
        (
            "input_rows",
            case.replace("\"input_rows\": 3", "\"input_rows\": 0"),
            "input_rows must be >= 1",
        ),
        (
            "layers",
            case.replace("\"row_elems\": 1", "\"row_elems\": 1, \"layers\": 2"),
            "not written for op indexed_all_to_all_v",
        ),
        (
            "strided_index_plain",
            plain.replace(
                "\"row_elems\": 4",
                "\"row_elems\": 4, \"non_contiguous\": \"index\"",
            ),
            "is an operand of op indexed_all_to_all_v only",
        ),
    ];
    for (name, text, want) in cases {
        let path = dir.join(format!("bad_{name}.json"));
        std::fs::write(&path, &text).unwrap();
        let out = run(&[path.to_str().unwrap()], &[]);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{name}: no result");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{name}: {err}");
    }
}

#[test]
fn malformed_cases_exit_nonzero_with_a_message() {
    let dir = scratch("malformed");
    let good = r#"{"ranks": 2, "core_num": 2, "dtype": "f32", "max_recv": 2, "row_elems": 2, "send_counts": [[1,1],[1,1]]}"#;
    let cases = [
        ("bad_json", "{\"ranks\": 2,".to_string(), "bad JSON"),
        (
            "missing",
            good.replace("\"dtype\": \"f32\", ", ""),
            "missing key 'dtype'",
        ),
        (
            "ranks0",
            good.replace("\"ranks\": 2", "\"ranks\": 0"),
            "ranks must be in 1..16",
        ),
        (
            "ranks17",
            good.replace("\"ranks\": 2", "\"ranks\": 17"),
            "ranks must be in 1..16",
        ),
        (
            "rows",
            good.replace("[[1,1],[1,1]]", "[[1,1]]"),
            "send_counts must be 2 x 2",
        ),
        (
            "cols",
            good.replace("[[1,1],[1,1]]", "[[1,1],[1,1,1]]"),
            "send_counts must be 2 x 2",
        ),
        (
            "not_int",
            good.replace("[[1,1],[1,1]]", "[[1,1],[1,\"x\"]]"),
            "int32",
        ),
        (
            "dtype",
            good.replace("\"f32\"", "\"bfloat16\""),
            "dtype must be an element type",
        ),
        // 2 ranks x 2 x 2 rows x 2^23 elements: 128 MiB per rank, but 2^26 target values to hold
        // and print (a 16-rank variant of this was OOM-killed instead of refused).
        (
            "huge",
            good.replace("\"row_elems\": 2", "\"row_elems\": 8388608"),
            "exceed 16777216 values",
        ),
        (
            "operand",
            good.replace(
                "\"row_elems\": 2",
                "\"row_elems\": 2, \"non_contiguous\": \"out\"",
            ),
            "non_contiguous",
        ),
        (
            "layers0",
            good.replace("\"row_elems\": 2", "\"row_elems\": 2, \"layers\": 0"),
            "layers must be in 1..64",
        ),
        (
            "layers_neg",
            good.replace("\"row_elems\": 2", "\"row_elems\": 2, \"layers\": -3"),
            "layers must be in 1..64",
        ),
        (
            "layers65",
            good.replace("\"row_elems\": 2", "\"row_elems\": 2, \"layers\": 65"),
            "layers must be in 1..64",
        ),
        (
            "layers_float",
            good.replace("\"row_elems\": 2", "\"row_elems\": 2, \"layers\": 1.5"),
            "key 'layers' must be an integer",
        ),
        // A default S = B that a huge core_num makes huge is refused like an explicit one.
        (
            "default_stride",
            good.replace("\"core_num\": 2", "\"core_num\": 2147483647"),
            "the default signal_stride B = 2147483646 (core_num 2147483647) is too large",
        ),
    ];
    let rt_cases = ["1", "0", "\"true\"", "\"yes\"", "[]", "{}", "1.0"].map(|bad| {
        (
            format!("runtime_core_num {bad}"),
            good.replace(
                "\"row_elems\": 2",
                &format!("\"row_elems\": 2, \"runtime_core_num\": {bad}"),
            ),
            format!("runtime_core_num must be true or false, got {bad}"),
        )
    });
    let cases = cases
        .into_iter()
        .map(|(n, t, m)| (n.to_string(), t, m.to_string()))
        .chain(rt_cases)
        .enumerate()
        .map(|(i, (n, t, m))| {
            (
                format!(
                    "{i}_{}",
                    n.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                ),
                t,
                m,
            )
        });
    for (name, text, msg) in cases {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, &text).unwrap();
        let out = run(&[path.to_str().unwrap()], &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.contains(&msg),
            "{name}: expected {msg:?} in {stderr:?}"
        );
        assert!(
            out.stdout.is_empty(),
            "{name}: no result for a malformed case"
        );
    }
    let missing = run(&[dir.join("no-such.json").to_str().unwrap()], &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(run(&[], &[]).status.code(), Some(2));
    // A matrix filter that selects nothing is a usage error, not "0 passed, 0 failed".
    let none = run(&["--matrix", "ci", "--filter", "no-such-entry"], &[]);
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("no entry of the ci matrix matches"));
    assert_eq!(
        run(&["--matrix", "ci", "--filter", "repeat", "--list"], &[])
            .status
            .code(),
        Some(0)
    );
    for bad in ["0", "x"] {
        let jobs = run(&["--matrix", "ci", "--jobs", bad], &[]);
        assert_eq!(jobs.status.code(), Some(2), "--jobs {bad}");
        assert!(
            String::from_utf8_lossy(&jobs.stderr).contains("--jobs needs a count of at least 1")
        );
    }
}

#[test]
fn a_matrix_run_on_several_jobs_reports_in_entry_order() {
    // Entries of different lengths (one and 100 exchanges) finish out of order on 3 jobs.
    let names = |out: &Output, col: usize| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().nth(col).map(str::to_string))
            .filter(|n| n.contains(':'))
            .collect()
    };
    let listed = run(&["--matrix", "ci", "--filter", "P4_L8", "--list"], &[]);
    let want = names(&listed, 0);
    assert!(want.len() >= 3, "{want:?}");
    let ran = run(&["--matrix", "ci", "--filter", "P4_L8", "--jobs", "3"], &[]);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stdout)
    );
    assert_eq!(names(&ran, 1), want);
    let tally = String::from_utf8_lossy(&ran.stdout);
    assert!(
        tally.contains(&format!("{} passed, 0 failed (ci matrix", want.len())),
        "{tally}"
    );
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

/// The cache entries in `dir` (not a temporary, not a precompiled header's folder).
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter(|e| {
                e.as_ref().is_ok_and(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    !name.contains(".tmp.") && !name.starts_with("pch-")
                })
            })
            .count()
        })
        .unwrap_or(0)
}

#[test]
fn each_variant_compiles_once_in_a_private_cache_keyed_by_the_compiler() {
    // `scripts/test.sh --quick` (the edit loop) leaves the builds that are cold by design (a
    // private cache) to the full run.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    // A private root (PLD_SIM_ROOT) so the counts are not disturbed by the other tests.
    use std::os::unix::fs::PermissionsExt;
    let root = scratch("root");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    copy_dir(&repo.join("runtime"), &root.join("runtime"));
    copy_dir(&repo.join("sim/src"), &root.join("sim/src"));
    copy_dir(&repo.join("runner/driver"), &root.join("runner/driver"));
    // `$CXX` is a wrapper script, edited in place below.
    let cxx = root.join("cxx");
    let write_cxx = |comment: &str| {
        std::fs::write(&cxx, format!("#!/bin/sh\n# {comment}\nexec g++ \"$@\"\n")).unwrap();
        std::fs::set_permissions(&cxx, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    write_cxx("first");
    // What is built where, not how fast it runs: -O0 builds the runtime faster.
    let o0 = PathBuf::from("-O0");
    let env = [
        ("PLD_SIM_ROOT", &*root),
        ("CXX", cxx.as_path()),
        ("PLD_SIM_CXXFLAGS", o0.as_path()),
    ];
    let cache = root.join("target/pld-sim-cache");
    let counts = || {
        (
            entries(&cache.join("run/trees")),
            entries(&cache.join("run/obj")),
            entries(&cache.join("run/bin")),
        )
    };

    let a = r#"{"ranks": 4, "core_num": 8, "dtype": "f32", "max_recv": 3, "row_elems": 5,
                "send_counts": [[1,2,3,4],[4,3,2,1],[0,0,0,0],[9,9,9,9]]}"#;
    let c = Case::from_json(a).unwrap();
    pld_sim::golden::check(&c, &sim(&root, "a", a, &env)).unwrap();
    let (trees, objs, bins) = counts();
    assert_eq!((trees, bins), (1, 1));
    assert!(
        objs >= 5,
        "runtime, driver, orchestration, kernel table, kernels: {objs}"
    );

    // Other counts and repeat: the same module, nothing rebuilt.
    let b = a
        .replace("[9,9,9,9]", "[-2,5,1,0]")
        .replace("\"row_elems\": 5", "\"row_elems\": 5, \"repeat\": 3");
    pld_sim::golden::check(&Case::from_json(&b).unwrap(), &sim(&root, "b", &b, &env)).unwrap();
    assert_eq!(counts(), (trees, objs, bins));

    // Another shape: a new module (tree); objects shared with the first are reused.
    let d = a.replace("\"max_recv\": 3", "\"max_recv\": 4");
    pld_sim::golden::check(&Case::from_json(&d).unwrap(), &sim(&root, "d", &d, &env)).unwrap();
    let (trees2, objs2, bins2) = counts();
    assert_eq!(trees2, trees + 1);
    assert!(
        objs2 < objs * 2,
        "the runtime and driver objects are shared: {objs} then {objs2}"
    );

    // Objects and binaries are keyed by the compiler itself, not by the `$CXX` string: the
    // wrapper edited in place (as an upgrade or another compiler on PATH would be) must not
    // reuse what the previous one built. The first case again: every object and its binary
    // rebuilt.
    write_cxx("second, a longer comment");
    pld_sim::golden::check(&c, &sim(&root, "c", a, &env)).unwrap();
    let (trees3, objs3, bins3) = counts();
    assert_eq!(trees3, trees2, "the module is the same");
    assert_eq!(
        objs3,
        objs2 + objs,
        "every object of the first case rebuilt"
    );
    assert_eq!(bins3, bins2 + 1);

    // The cache stays inside the root; scratch run directories are cleaned up.
    assert_eq!(entries(&cache.join("runs")), 0);
}

/// Runs the CI slice's raw launches (docs/sim.md "Raw launches") through `pld-sim --matrix ci
/// --filter raw:` with `envs`: their launch is no case key, and the matrix mode runs the entries
/// themselves. Every one must pass.
fn raw_launches(envs: &[(&str, &Path)]) {
    let entries = matrix::ci_slice();
    let raw: Vec<_> = entries.iter().filter(|e| e.case.launch.is_some()).collect();
    assert!(raw.iter().all(|e| e.name.starts_with("raw:")));
    // Every outcome a raw launch can have.
    for want in [
        Expect::Golden,
        Expect::Untouched,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    ] {
        assert!(
            raw.iter().any(|e| e.expect == want),
            "no raw entry {want:?}"
        );
    }
    let out = run(&["--matrix", "ci", "--filter", "raw:", "--jobs", "2"], envs);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains(&format!("{} passed, 0 failed", raw.len())),
        "pld-sim exited {}:\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn raw_launches_against_the_golden() {
    raw_launches(&[]);
}

/// The raw launches with the kernels, the runtime and the engine under ThreadSanitizer (ranks as
/// threads, where it sees every rank's accesses; -O0: every access the source makes stays one).
/// Under ASan + UBSan they are the sanitizer job's (scripts/kernels-asan.sh).
#[test]
fn raw_launches_under_thread_sanitizer() {
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    raw_launches(&tsan_env());
}

/// [`common::TSAN_ENV`] as `run`'s environment.
fn tsan_env() -> [(&'static str, &'static Path); 3] {
    common::TSAN_ENV.map(|(k, v)| (k, Path::new(v)))
}

#[test]
fn generated_pipeline_under_thread_sanitizer() {
    // `scripts/test.sh --quick` (the edit loop) leaves the sanitizer builds to the full run.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    let dir = scratch("tsan");
    let env = tsan_env();
    let picks = [
        "repeat:P4_L8_f32",
        "repeat:P8_L3",
        "P16_L10_f32_uniform",
        "P2_L16",
        "S_gt_B:P4",
        "strided_signal",
        // A looped pipeline: 3 exchanges per call in an scf.for of the generated orchestration.
        "layers:P4_L4_f32_random_mr3_re5_S4_layers3",
        // core_num as chip_pipeline's i64 parameter (OrchArgs scalar 0), B computed at run time.
        "runtime:P4_L5_f32_random",
        // The indexed kernel: 20 exchanges on one signal with L = 7 blocks at P = 4 (blocks
        // >= P only share the local chunk), out-of-range rows at L < P, a strided index.
        "indexed_repeat:P4_L7",
        "indexed:P8_L8_i8_reverse",
        "indexed_repeat:P8_L3",
        "indexed_strided_index",
        // Two communication domains (4 and 2 ranks) in one world of 4 devices.
        "domains:W4_D4+2",
    ];
    let entries: Vec<_> = matrix::ci_slice()
        .into_iter()
        .filter(|e| picks.iter().any(|p| e.name.starts_with(p)))
        .collect();
    assert_eq!(
        entries.len(),
        14,
        "{:?}",
        entries.iter().map(|e| &e.name).collect::<Vec<_>>()
    );
    for e in &entries {
        let r = sim(
            &dir,
            &e.name.replace(':', "_"),
            &e.case.to_json().to_string(),
            &env,
        );
        matrix::judge(e, &r).unwrap_or_else(|m| panic!("{}: {m}", e.name));
    }
}

#[test]
fn layers_restage_what_the_previous_iteration_received() {
    let dir = scratch("layers");
    // P=2, MR=2, one f32 per row. Inputs: rank 0 [0, 100, 10000, 10100], rank 1 [1000000,
    // 1000100, 1010000, 1010100]; 0->0 sends 2 rows, 0->1 1, 1->0 0, 1->1 2.
    let one = r#"{"ranks": 2, "core_num": 2, "dtype": "f32", "max_recv": 2, "row_elems": 1,
                  "send_counts": [[2, 1], [0, 2]]}"#;
    let col = |r: &SimResult, rank: usize| {
        r.ranks[rank]
            .values(Elem::F32)
            .iter()
            .map(|row| row[0])
            .collect::<Vec<_>>()
    };
    let r = sim(&dir, "one", one, &[]);
    assert_eq!(col(&r, 1), [10_000.0, 0.0, 1_010_000.0, 1_010_100.0]);
    assert!(
        r.message
            .contains("__builtin_all_to_all_v__fp32=4 consume_step=2 stage_step=2"),
        "{}",
        r.message
    );
    // Layer 1 stages the received windows: rank 1's row 0 now comes from rank 0's target row 2,
    // which nothing wrote; rank 1's own rows come back unchanged.
    let two = one.replace("\"row_elems\": 1", "\"row_elems\": 1, \"layers\": 2");
    let r = sim(&dir, "two", &two, &[]);
    assert_eq!(r.status, "ok", "{}", r.message);
    assert_eq!(col(&r, 0), [0.0, 100.0, 0.0, 0.0]);
    assert_eq!(col(&r, 1), [0.0, 0.0, 1_010_000.0, 1_010_100.0]);
    assert_eq!(
        (
            r.ranks[0].recv_counts.clone().unwrap(),
            r.ranks[1].recv_counts.clone().unwrap()
        ),
        (vec![2, 0], vec![1, 2])
    );
    assert!(
        r.message.contains("2 exchange(s) (1 call(s) x 2 layers)"),
        "{}",
        r.message
    );
    assert!(
        r.message
            .contains("__builtin_all_to_all_v__fp32=8 consume_step=4 stage_step=4"),
        "{}",
        r.message
    );
    pld_sim::golden::check(&Case::from_json(&two).unwrap(), &r).unwrap();
    // `layers: 1` spelled out is the default.
    let explicit = one.replace("\"row_elems\": 1", "\"row_elems\": 1, \"layers\": 1");
    assert_eq!(
        sim(&dir, "explicit", &explicit, &[]),
        sim(&dir, "default", one, &[])
    );
}

#[test]
fn nested_loops_equal_one_loop_of_as_many_layers() {
    // Not a case key: `inner_layers` nests a second scf.for inside the layers loop (both carry
    // the window and the result; the source is chosen on layer == 0 && sub == 0). 2 x 3 nested
    // iterations must leave what `layers: 6` leaves (the golden of 6 exchanges per call) and
    // start 6 collectives, stage_steps and consume_steps per rank and call. Run through the
    // library with the tools next to the pld-sim binary.
    let tc = common::toolchain();
    let mut nested = matrix::case(
        4,
        8,
        pld_sim::case::Elem::I8,
        3,
        7,
        matrix::Pattern::Random,
        900,
    );
    (nested.layers, nested.inner_layers, nested.repeat) = (2, 3, 2);
    let module = pld_sim::chip_pipeline::chip_pipeline(&nested);
    assert_eq!(module.matches("scf.for").count(), 2, "{module}");
    let r = pld_sim::run::run_case(&tc, &nested).unwrap_or_else(|e| panic!("{e}"));
    let e = matrix::Entry {
        name: "nested".into(),
        case: nested.clone(),
        expect: Expect::Golden,
    };
    matrix::judge(&e, &r).unwrap_or_else(|m| panic!("{m}"));
    assert!(
        r.message.contains("12 exchange(s) (2 call(s) x 6 layers)"),
        "{}",
        r.message
    );
    let mut flat = nested.clone();
    (flat.layers, flat.inner_layers) = (6, 1);
    assert_eq!(
        pld_sim::golden::expected(&flat),
        pld_sim::golden::expected(&nested)
    );
    // Six exchanges differ from five and from one: the golden is not a fixed point here.
    for n in [1, 5] {
        let mut other = flat.clone();
        other.layers = n;
        assert_ne!(
            pld_sim::golden::expected(&other),
            pld_sim::golden::expected(&flat),
            "layers {n}"
        );
    }
}

/// A case with `"runtime_core_num": true` added.
fn runtime(case: &str) -> String {
    let i = case.rfind('}').unwrap();
    format!("{}, \"runtime_core_num\": true}}", &case[..i])
}

#[test]
fn runtime_core_num_equals_the_compile_time_case() {
    // core_num passed at run time (chip_pipeline's i64 parameter, OrchArgs scalar 0) leaves
    // exactly what the compile-time attribute leaves: the same result, message and block counts
    // included (both are also checked against the golden, whose B is its own fold).
    let dir = scratch("runtime");
    let cases = [
        // B = 4 = S < L: a folded width.
        r#"{"ranks": 4, "core_num": 5, "dtype": "f32", "max_recv": 3, "row_elems": 5,
            "send_counts": [[1,2,3,4],[4,3,2,1],[0,0,0,0],[9,-2,9,9]]}"#,
        // B = 6 at P = 3 (L = 7 folded), odd rows, i8, 3 exchanges back to back on one signal.
        r#"{"ranks": 3, "core_num": 7, "dtype": "i8", "max_recv": 5, "row_elems": 11, "repeat": 3,
            "send_counts": [[5,0,-1],[2,7,5],[1,1,3]]}"#,
        // B = 1 < P: a single block without sync start; S > B.
        r#"{"ranks": 4, "core_num": 1, "dtype": "f32", "max_recv": 2, "row_elems": 3, "signal_stride": 3,
            "send_counts": [[2,2,2,2],[1,0,1,0],[2,1,0,-1],[3,3,3,3]]}"#,
        // In a loop of 2 layers.
        r#"{"ranks": 2, "core_num": 3, "dtype": "f32", "max_recv": 2, "row_elems": 1, "layers": 2,
            "send_counts": [[2, 1], [0, 2]]}"#,
    ];
    for (i, st) in cases.iter().enumerate() {
        let rt = runtime(st);
        let case = Case::from_json(&rt).unwrap();
        assert!(case.runtime_core_num);
        let module = pld_sim::chip_pipeline::chip_pipeline(&case);
        assert!(
            module.contains("%core_num: i64) -> !pl.tensor<"),
            "{module}"
        );
        assert!(
            module.contains("core_num(%core_num)") && !module.contains("{core_num ="),
            "{module}"
        );
        let r_static = sim(&dir, &format!("static{i}"), st, &[]);
        let r_runtime = sim(&dir, &format!("runtime{i}"), &rt, &[]);
        pld_sim::golden::check(&case, &r_runtime).unwrap_or_else(|e| panic!("case {i}: {e}"));
        assert_eq!(r_runtime, r_static, "case {i}");
    }
}

#[test]
fn runtime_core_num_refusals_are_invalid_args_with_nothing_written() {
    // What a compile-time core_num refuses at compile time (S < B, L outside [1, 2^31 - 1]) is
    // refused at run time: invalid_args 5 from the orchestration's pl.require, after the stage
    // task and before the collective, on every rank (none waits alone in a barrier), with the
    // collective's target, recv_counts and signal untouched.
    let dir = scratch("runtime_refusals");
    let base = r#"{"ranks": 2, "core_num": 6, "dtype": "f32", "max_recv": 2, "row_elems": 3, "signal_stride": 4,
                   "send_counts": [[1,2],[2,1]]}"#;
    for (l, b, compile_time) in [
        (
            6i64,
            6,
            "signal stride S=4 is smaller than the admitted block count B=6",
        ),
        (0, 0, "core_num must be in [1, 2147483647], got 0"),
        (-1, 0, "core_num must be in [1, 2147483647], got -1"),
        (
            2147483648,
            0,
            "core_num must be in [1, 2147483647], got 2147483648",
        ),
    ] {
        let st = base.replace("\"core_num\": 6", &format!("\"core_num\": {l}"));
        let r = sim(&dir, &format!("static_{l}"), &st, &[]);
        assert_eq!(r.status, "compile_error", "L={l}: {}", r.message);
        assert!(r.message.contains(compile_time), "L={l}: {}", r.message);

        let rt = runtime(&st);
        let r = sim(&dir, &format!("runtime_{l}"), &rt, &[]);
        assert_eq!(
            (r.status.as_str(), r.code, r.blocks),
            ("invalid_args", 5, b),
            "L={l}: {}",
            r.message
        );
        for text in [
            "core_num must be in [1, 2147483647]",
            "signal stride S=4",
            "block count B",
            "rank statuses [5, 5]",
        ] {
            assert!(
                r.message.contains(text),
                "L={l}: {text:?} not in {}",
                r.message
            );
        }
        assert!(
            r.message.contains(
                "staging windows holding the input: 2 of 2 ranks; kernel blocks started: __builtin_all_to_all_v__fp32=0 consume_step=0 stage_step=2"
            ),
            "L={l}: {}",
            r.message
        );
        let case = Case::from_json(&rt).unwrap();
        pld_sim::golden::check_refused(&case, &r, "invalid_args", 5)
            .unwrap_or_else(|e| panic!("L={l}: {e}"));
        assert_eq!(r.ranks.len(), 2);
        for rank in &r.ranks {
            assert_eq!(rank.signal, vec![vec![0; 4]; 2]);
            assert!(
                rank.target.iter().flatten().all(|&v| v == 0)
                    && rank.recv_counts == Some(vec![0, 0])
            );
        }
        // Inside a loop of 3 layers and called 4 times: refused in the first iteration of the
        // first call (stage_step once per rank).
        let looped = rt.replace(
            "\"row_elems\": 3",
            "\"row_elems\": 3, \"layers\": 3, \"repeat\": 4",
        );
        let r = sim(&dir, &format!("looped_{l}"), &looped, &[]);
        pld_sim::golden::check_refused(&Case::from_json(&looped).unwrap(), &r, "invalid_args", 5)
            .unwrap_or_else(|e| panic!("looped L={l}: {e}"));
        assert!(
            r.message.contains("consume_step=0 stage_step=2"),
            "{}",
            r.message
        );
    }
    // The same module with a valid L runs (S = 4 >= B = 4).
    let ok = runtime(&base.replace("\"core_num\": 6", "\"core_num\": 5"));
    let r = sim(&dir, "runtime_ok", &ok, &[]);
    pld_sim::golden::check(&Case::from_json(&ok).unwrap(), &r).unwrap();
    assert!(
        r.message
            .contains("__builtin_all_to_all_v__fp32=8 consume_step=2 stage_step=2"),
        "{}",
        r.message
    );
}

/// `pld-sim --matrix full --list | head -1`: the closed pipe ends pld-sim
/// quietly (SIGPIPE, as for any filter), not with a panic on stderr.
#[test]
fn a_closed_stdout_ends_the_listing_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(PLD_SIM)
        .args(["--matrix", "full", "--list"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("pld-sim runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    // The reader is dropped: stdout is closed while pld-sim is still listing.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "pld-sim wrote to stderr: {stderr}");
    assert!(
        out.status.success() || out.status.signal() == Some(13),
        "{:?}",
        out.status
    );
}

#[test]
fn the_exchange_bench_times_both_ops_and_checks_what_moved() {
    // A tiny `pld-sim --bench` (benches/sim_exchange.sh): each timed run's row, and the
    // indexed form beside the plain op; the last run is judged by the golden (exit 1 otherwise).
    for extra in [&[][..], &["--indexed"][..]] {
        let mut args = vec![
            "--bench", "--ranks", "2", "--mib", "1", "--warmup", "1", "--iters", "2",
        ];
        args.extend_from_slice(extra);
        let out = run(&args, &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{args:?}: exit {}: {}\n{stdout}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let row = stdout
            .lines()
            .find(|l| l.starts_with("| 2 | 2 | 1 |"))
            .unwrap_or_else(|| panic!("{args:?}: no row for P = 2:\n{stdout}"));
        let ratio: f64 = row
            .trim_matches('|')
            .split(" | ")
            .nth(5)
            .map(|c| c.trim().trim_matches('*'))
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("{row}"));
        assert!(ratio > 0.0, "{row}");
    }
}

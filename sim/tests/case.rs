//! The pld-sim case table (`pld_sim::case`, docs/sim.md) by hand: defaults, every refusal's
//! message, the indexed, domains, layers, runtime core_num and fault keys.

use pld_sim::case::*;

const OK: &str = r#"{"ranks": 2, "core_num": 4, "dtype": "f32", "max_recv": 3, "row_elems": 5,
                     "send_counts": [[1, 2], [3, -2]]}"#;

#[test]
fn parses_defaults() {
    let c = Case::from_json(OK).unwrap();
    assert_eq!(c.ranks, 2);
    assert_eq!(c.blocks(), 4);
    assert_eq!(c.stride(), 4);
    assert_eq!(c.repeat, 1);
    assert_eq!(c.aiv_capacity, 48);
    assert_eq!(c.non_contiguous, None);
    assert_eq!((c.layers, c.inner_layers), (1, 1));
    assert!(!c.runtime_core_num);
    assert_eq!(c.send_counts, vec![vec![1, 2], vec![3, -2]]);
    assert_eq!(Case::from_value(&c.to_json()).unwrap(), c);
}

fn err(text: &str) -> String {
    Case::from_json(text).unwrap_err().to_string()
}

#[test]
fn rejects_malformed() {
    assert!(err("{").starts_with("bad JSON"));
    assert_eq!(err(r#"{"ranks": 2}"#), "missing key 'core_num'");
    assert!(err(&OK.replace("\"ranks\": 2", "\"ranks\": 17")).contains("ranks must be in 1..16"));
    assert!(err(&OK.replace("\"ranks\": 2", "\"ranks\": 0")).contains("ranks must be in 1..16"));
    assert!(err(&OK.replace("[[1, 2], [3, -2]]", "[[1, 2]]")).contains("must be 2 x 2"));
    assert!(err(&OK.replace("[[1, 2], [3, -2]]", "[[1, 2], [3]]")).contains("row 1 has 1 entries"));
    assert!(err(&OK.replace("[[1, 2], [3, -2]]", "[[1, 2], [3, 4294967296]]")).contains("int32"));
    assert!(err(&OK.replace("\"f32\"", "\"float\"")).contains("dtype must be an element type"));
    assert_eq!(
        Case::from_json(&OK.replace("\"f32\"", "\"f16\""))
            .unwrap()
            .dtype,
        Elem::F16
    );
    assert!(err(&OK.replace("\"ranks\"", "\"rank\"")).contains("unknown key 'rank'"));
    // Sizes bounded over all ranks together (16 ranks x 2^24-element rows used to be accepted
    // and then OOM-killed the simulator), and so is the signal.
    let sixteen = format!(
        r#"{{"ranks": 16, "core_num": 16, "dtype": "f32", "max_recv": 1, "row_elems": {}, "send_counts": {}}}"#,
        1 << 24,
        serde_json::json!(vec![vec![1; 16]; 16])
    );
    assert!(
        err(&sixteen).contains("exceed 16777216 values"),
        "{}",
        err(&sixteen)
    );
    let fits = sixteen.replace("16777216", &(MAX_RESULT_VALUES / 256).to_string());
    assert!(Case::from_json(&fits).is_ok());
    let big_s = sixteen
        .replace("16777216", "1")
        .replace("\"max_recv\"", "\"signal_stride\": 4194304, \"max_recv\"");
    assert!(
        err(&big_s).contains("signal_stride 4194304 is too large"),
        "{}",
        err(&big_s)
    );
    for bad in ["0", "-1", "65", "2.5", "\"3\"", "true"] {
        let text = OK.replace(
            "\"row_elems\": 5",
            &format!("\"row_elems\": 5, \"layers\": {bad}"),
        );
        assert!(
            err(&text).contains("layers"),
            "layers {bad}: {}",
            err(&text)
        );
    }
    let nc = OK.replace(
        "\"row_elems\": 5",
        "\"row_elems\": 5, \"non_contiguous\": \"bogus\"",
    );
    assert!(err(&nc).contains("non_contiguous"));
}

#[test]
fn runtime_core_num_is_a_bool_and_admits_any_core_num() {
    let with = |v: &str, l: &str| {
        OK.replace(
            "\"row_elems\": 5",
            &format!("\"row_elems\": 5, \"runtime_core_num\": {v}"),
        )
        .replace("\"core_num\": 4", &format!("\"core_num\": {l}"))
    };
    for (v, want) in [("true", true), ("false", false), ("null", false)] {
        let c = Case::from_json(&with(v, "4")).unwrap();
        assert_eq!(c.runtime_core_num, want);
        assert_eq!(Case::from_value(&c.to_json()).unwrap(), c);
    }
    assert!(
        !Case::from_json(OK)
            .unwrap()
            .to_json()
            .as_object()
            .unwrap()
            .contains_key("runtime_core_num")
    );
    for bad in ["1", "0", "\"true\"", "[]", "{}"] {
        assert_eq!(
            err(&with(bad, "4")),
            format!("runtime_core_num must be true or false, got {bad}")
        );
    }
    // What the orchestration refuses at run time is a well-formed case: B is 0 for an L out of
    // range (S then defaults to 1), and the fold otherwise.
    for (l, b, s) in [
        ("0", 0, 1),
        ("-1", 0, 1),
        ("2147483648", 0, 1),
        ("-9223372036854775808", 0, 1),
        ("5", 4, 4),
    ] {
        let c = Case::from_json(&with("true", l)).unwrap();
        assert_eq!((c.blocks(), c.stride()), (b, s), "L={l}");
    }
    // A default S = B too large to print is refused; an explicit small S makes it expressible.
    assert!(err(&with("true", "2147483647")).contains("the default signal_stride B = 2147483646"));
    let explicit =
        with("true", "2147483647").replace("\"max_recv\"", "\"signal_stride\": 4, \"max_recv\"");
    assert_eq!(Case::from_json(&explicit).unwrap().blocks(), 2147483646);
}

#[test]
fn domains_are_cases_of_their_own_in_one_world() {
    let text = r#"{"ranks": 5, "core_num": 3, "dtype": "i8", "max_recv": 2, "row_elems": 3, "repeat": 2,
        "domains": [{"ranks": 4, "send_counts": [[2,0,1,3],[1,2,-1,0],[5,1,1,1],[0,0,2,2]]},
                    {"ranks": 2, "send_counts": [[1,2],[2,0]]}]}"#;
    let c = Case::from_json(text).unwrap();
    assert_eq!((c.ranks, c.domains.len(), c.send_counts.len()), (5, 2, 0));
    let small = c.domain_case(1);
    assert_eq!(
        (small.ranks, small.repeat, small.send_counts.clone()),
        (2, 2, vec![vec![1, 2], vec![2, 0]])
    );
    assert!(small.domains.is_empty());
    // B per domain (3 at P = 4, 2 at P = 2), the widest at the top.
    assert_eq!(
        (c.domain_case(0).blocks(), small.blocks(), c.blocks()),
        (3, 2, 3)
    );
    assert_eq!(Case::from_value(&c.to_json()).unwrap(), c);
    assert!(!c.to_json().as_object().unwrap().contains_key("send_counts"));

    let with = |from: &str, to: &str| err(&text.replace(from, to));
    assert!(
        with("\"repeat\": 2,", "\"repeat\": 2, \"send_counts\": [[1]],")
            .contains("no top-level send_counts")
    );
    assert!(with("{\"ranks\": 2,", "{\"ranks\": 6,").contains("domains[1]: ranks must be in 1..5"));
    assert!(with("{\"ranks\": 2,", "{\"ranks\": 0,").contains("domains[1]: ranks must be in 1..5"));
    assert!(
        with(
            "{\"ranks\": 2, \"send_counts\": [[1,2],[2,0]]}",
            "{\"ranks\": 2}"
        )
        .contains("domains[1]: missing key 'send_counts'")
    );
    assert!(with("[[1,2],[2,0]]", "[[1,2],[2]]").contains("domains[1]: send_counts must be 2 x 2"));
    assert!(
        with("\"max_recv\": 2", "\"max_recv\": 0").contains("domains[0]: max_recv must be >= 1")
    );
    assert!(
        with("{\"ranks\": 2,", "{\"x\": 1, \"ranks\": 2,").contains("domains[1]: unknown key 'x'")
    );
    assert!(
        with("\"repeat\": 2,", "\"op\": \"indexed_all_to_all_v\",")
            .contains("only op all_to_all_v")
    );
    assert!(
        with("\"repeat\": 2,", "\"non_contiguous\": \"signal\",")
            .contains("non_contiguous is not supported")
    );
    let not_list = r#"{"ranks": 1, "core_num": 1, "dtype": "i8", "max_recv": 1, "row_elems": 1, "domains": 3}"#;
    assert!(err(not_list).contains("domains must be a list"));
    let nine = format!(
        r#"{{"ranks": 1, "core_num": 1, "dtype": "i8", "max_recv": 1, "row_elems": 1, "domains": {}}}"#,
        serde_json::json!(vec![
            serde_json::json!({"ranks": 1, "send_counts": [[1]]});
            9
        ])
    );
    assert!(err(&nine).contains("domains must list 1..8 domains, got 9"));
}

#[test]
fn layers_within_bounds() {
    for n in [1, 2, 64] {
        let text = OK.replace(
            "\"row_elems\": 5",
            &format!("\"row_elems\": 5, \"layers\": {n}"),
        );
        let c = Case::from_json(&text).unwrap();
        assert_eq!((c.layers, c.exchanges_per_call()), (n, n as i64));
        assert_eq!(Case::from_value(&c.to_json()).unwrap(), c);
    }
}

#[test]
fn strided_view_needs_an_extent_above_one() {
    let one = r#"{"ranks": 1, "core_num": 1, "dtype": "i8", "max_recv": 1, "row_elems": 4,
                  "send_counts": [[1]], "non_contiguous": "send_counts"}"#;
    assert!(err(one).contains("every extent <= 1"));
    let ok = one.replace("send_counts\"}", "target\"}");
    assert_eq!(
        Case::from_json(&ok).unwrap().non_contiguous,
        Some(Operand::Target)
    );
}

#[test]
fn fault_and_timeout_keys() {
    let with = |extra: &str| OK.replace("\"row_elems\": 5", &format!("\"row_elems\": 5, {extra}"));
    let c = Case::from_json(OK).unwrap();
    assert_eq!((c.timeout_ms, c.fault), (DEFAULT_TIMEOUT_MS, None));
    let c = Case::from_json(&with(
        r#""timeout_ms": 1500, "fault": {"rank": 1, "kind": "hang", "at": "inside"}"#,
    ))
    .unwrap();
    assert_eq!(c.timeout_ms, 1500);
    assert_eq!(
        c.fault,
        Some(Fault {
            rank: 1,
            kind: FaultKind::Hang,
            at: FaultAt::Inside
        })
    );
    assert_eq!(Case::from_value(&c.to_json()).unwrap(), c);
    for (extra, want) in [
        (
            r#""timeout_ms": 0"#,
            "timeout_ms must be an integer in 1..86400000",
        ),
        (r#""timeout_ms": "1""#, "timeout_ms must be an integer"),
        (r#""fault": 1"#, "fault must be an object"),
        (
            r#""fault": {"rank": 9, "kind": "crash", "at": "before"}"#,
            "fault.rank must be an integer in 0..",
        ),
        (
            r#""fault": {"rank": 0, "kind": "boom", "at": "before"}"#,
            "fault.kind must be",
        ),
        (
            r#""fault": {"rank": 0, "kind": "exit", "at": "during"}"#,
            "fault.at must be",
        ),
        (
            r#""fault": {"rank": 0, "kind": "exit", "at": "after", "x": 1}"#,
            "fault: unknown key 'x'",
        ),
    ] {
        assert!(
            err(&with(extra)).contains(want),
            "{extra}: {}",
            err(&with(extra))
        );
    }
}

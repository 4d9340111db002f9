//! Every collective with a rank-0 and a rank-1 operand in every role: the
//! verifier, the whole pipeline and pld-translate report a located error (or
//! accept), and never crash. Issue 21 item 4: an indexed exchange whose
//! `target` was `!pld.dtensor<f32>` segfaulted the verifier in `formatDims`
//! (it dropped the leading dimension of a rank-0 shape).
//!
//! A new collective adds its row to [`COLLECTIVES`] (a test fails until it does).

use std::{
    path::PathBuf,
    process::{Command, Output},
};

/// One collective: its op name, module attributes, operand roles with a
/// valid type each, and its attribute dictionary.
struct Row {
    op: &'static str,
    module_attrs: &'static str,
    operands: &'static [(&'static str, &'static str)],
    attrs: &'static str,
    /// Roles whose rank-0 type is valid (family.md: allreduce and broadcast
    /// take a target of any shape).
    rank0_ok: &'static [&'static str],
}

const COLLECTIVES: &[Row] = &[
    Row {
        op: "pld.tensor.all_to_all_v",
        module_attrs: "",
        operands: &[
            ("input", "!pld.dtensor<16x4xf32>"),
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<2x8xi32>"),
            ("send_counts", "!pld.dtensor<2xi32>"),
            ("recv_counts", "!pld.dtensor<2xi32>"),
        ],
        attrs: "{core_num = 2 : i64}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.indexed_all_to_all_v",
        module_attrs: "attributes {pl.arch = \"a5\"} ",
        operands: &[
            ("input", "!pl.tensor<16x4xf32>"),
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<2x8xi32>"),
            ("send_counts", "!pld.dtensor<2xi32>"),
            ("recv_counts", "!pld.dtensor<2xi32>"),
            ("index", "!pl.tensor<16xi32>"),
        ],
        attrs: "{core_num = 2 : i64}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.allreduce",
        module_attrs: "",
        operands: &[
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<4x2xi32>"),
        ],
        attrs: "{reduce = \"sum\", core_num = 2 : i64}",
        rank0_ok: &["target"],
    },
    Row {
        op: "pld.tensor.allreduce",
        module_attrs: "",
        operands: &[
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<7x4xi32>"),
        ],
        attrs: "{reduce = \"max\", mode = \"ring\"}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.reduce_scatter",
        module_attrs: "",
        operands: &[
            ("target", "!pld.dtensor<16x4xf16>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "{reduce = \"prod\"}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.allgather",
        module_attrs: "",
        operands: &[
            ("input", "!pl.tensor<4x4xi8>"),
            ("target", "!pld.dtensor<16x4xi8>"),
            ("signal", "!pld.dtensor<4x2xi32>"),
        ],
        attrs: "{core_num = 2 : i64}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.broadcast",
        module_attrs: "",
        operands: &[
            ("target", "!pld.dtensor<16x4xi32>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "{root = 3 : i64}",
        rank0_ok: &["target"],
    },
    Row {
        op: "pld.tensor.all_to_all",
        module_attrs: "",
        operands: &[
            ("input", "!pl.tensor<16x4xf32>"),
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.barrier",
        module_attrs: "",
        operands: &[("signal", "!pld.dtensor<4xi32>")],
        attrs: "",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.reduce",
        module_attrs: "",
        operands: &[
            ("target", "!pld.dtensor<16x4xf32>"),
            ("signal", "!pld.dtensor<4x2xi32>"),
        ],
        attrs: "{reduce = \"sum\", root = 1 : i64, core_num = 2 : i64}",
        rank0_ok: &["target"],
    },
    Row {
        op: "pld.tensor.gather",
        module_attrs: "",
        operands: &[
            ("input", "!pl.tensor<4x4xi8>"),
            ("target", "!pld.dtensor<16x4xi8>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "{root = 2 : i64}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.scatter",
        module_attrs: "",
        operands: &[
            ("input", "!pl.tensor<16x4xf16>"),
            ("target", "!pld.dtensor<4x4xf16>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "{root = 0 : i64}",
        rank0_ok: &[],
    },
    Row {
        op: "pld.tensor.permute",
        module_attrs: "",
        operands: &[
            ("input", "!pl.tensor<4x4xi32>"),
            ("target", "!pld.dtensor<4x4xi32>"),
            ("signal", "!pld.dtensor<4xi32>"),
        ],
        attrs: "{pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}",
        rank0_ok: &[],
    },
];

/// `ty` with its shape replaced by `rank` dims (rank 0: no dims; rank 1: 16).
fn with_rank(ty: &str, rank: usize) -> String {
    let open = ty.find('<').expect("a shaped type");
    let elem_at = ty.rfind('x').map_or(open + 1, |x| x + 1);
    let head = &ty[..=open];
    let elem = &ty[elem_at..];
    match rank {
        0 => format!("{head}{elem}"),
        _ => format!("{head}16x{elem}"),
    }
}

/// A module with one CHIP orchestration function holding the collective in
/// the generic form, operand `role` of type `ty`; the call is on line 3.
fn module(row: &Row, role: usize, ty: &str) -> String {
    let types: Vec<String> = row
        .operands
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            if i == role {
                ty.to_string()
            } else {
                t.to_string()
            }
        })
        .collect();
    let params: Vec<String> = types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("%a{i}: {t}"))
        .collect();
    let args: Vec<String> = (0..types.len()).map(|i| format!("%a{i}")).collect();
    // The result is the target (the barrier's: its signal).
    let result = &types[row
        .operands
        .iter()
        .position(|(name, _)| *name == "target")
        .unwrap_or(0)];
    format!(
        "module {attrs}{{\n\
         func.func @chip({params}) -> {result} attributes {{pl.func_kind = \"orchestration\"}} {{\n\
         \x20 %0 = \"{op}\"({args}) {opattrs} : ({types}) -> {result}\n\
         \x20 return %0 : {result}\n\
         }}\n}}\n",
        attrs = row.module_attrs,
        params = params.join(", "),
        op = row.op,
        args = args.join(", "),
        opattrs = row.attrs,
        types = types.join(", "),
    )
}

fn bin(name: &str) -> PathBuf {
    let opt = PathBuf::from(env!("CARGO_BIN_EXE_pld-opt"));
    opt.with_file_name(name)
}

fn run(tool: &str, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(bin(tool))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the tool runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Exit 0, or exit 1 with an error located in the input (`<stdin>:L:C`).
fn check_outcome(what: &str, out: &Output, input: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => {}
        Some(1) => assert!(
            stderr.contains("<stdin>:") && stderr.contains("error:"),
            "{what}: exit 1 without a located error:\n{stderr}\n--- input\n{input}"
        ),
        other => panic!(
            "{what}: crashed or exited oddly ({other:?}, status {:?}):\n{stderr}\n--- input\n{input}",
            out.status
        ),
    }
}

/// The rows cover exactly the dialect's collectives (allreduce has a row per mode).
#[test]
fn every_collective_of_the_dialect_has_a_row() {
    let mut rows: Vec<&str> = COLLECTIVES.iter().map(|r| r.op).collect();
    rows.sort();
    rows.dedup();
    let mut ops = pld::collective_op_names(&pld::create_context());
    ops.sort();
    assert_eq!(rows, ops);
}

#[test]
fn rank_0_and_1_operands_of_every_role_get_a_located_error() {
    let out_dir = std::env::temp_dir().join(format!("pld-operand-ranks-{}", std::process::id()));
    let out_arg = out_dir.to_string_lossy().into_owned();
    let mut refused = 0;
    for row in COLLECTIVES {
        for (role, (name, ty)) in row.operands.iter().enumerate() {
            for rank in [0, 1] {
                let ty = with_rank(ty, rank);
                let input = module(row, role, &ty);
                let what = format!("{} with {name}: {ty}", row.op);
                let verified = run("pld-opt", &[], &input);
                check_outcome(&format!("pld-opt ({what})"), &verified, &input);
                if verified.status.code() == Some(1) {
                    refused += 1;
                    // The verifier's refusal is at the collective, in its voice.
                    let stderr = String::from_utf8_lossy(&verified.stderr);
                    assert!(
                        stderr.contains(&format!("<stdin>:3:8: error: '{}' op ", row.op)),
                        "{what}: the error is not at the collective:\n{stderr}"
                    );
                }
                let lowered = run("pld-opt", &["--pld-lower-collectives"], &input);
                check_outcome(
                    &format!("pld-opt --pld-lower-collectives ({what})"),
                    &lowered,
                    &input,
                );
                let translated = run(
                    "pld-translate",
                    &["--pld-to-ascend-build", "--output-dir", &out_arg],
                    &input,
                );
                check_outcome(&format!("pld-translate ({what})"), &translated, &input);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    // Rank 0 is wrong for every role but a family target of any shape; rank 1
    // for the signal of all_to_all_v (needs [NR, S]) and more.
    assert!(
        refused
            >= COLLECTIVES
                .iter()
                .map(|r| r.operands.len() - r.rank0_ok.len())
                .sum::<usize>()
    );
}

/// The finding itself: a rank-0 target of the indexed exchange.
#[test]
fn indexed_rank_0_target_is_refused_at_the_op() {
    let row = &COLLECTIVES[1];
    let input = module(row, 1, "!pld.dtensor<f32>");
    let out = run("pld-opt", &[], &input);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "<stdin>:3:8: error: 'pld.tensor.indexed_all_to_all_v' op operand 'target' must have a row dimension"
        ),
        "{stderr}"
    );
}

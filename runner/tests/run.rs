//! pld-run as users run it (docs/running.md): the examples (`examples/moe_layers.mlir`,
//! `examples/micro_batches.mlir`, `examples/tp_layer.mlir`, `examples/ep_moe.mlir`, HOST and CHIP
//! entries) through `pld-run --expected-output=...`, with references computed from the
//! examples' documented meaning (`common::goldens`: plain Rust loops, nothing from the crate),
//! written as `.npy` / `.npz` through `npyz`; a HOST orchestrator's own
//! windows shown and checked; a wrong expectation failing with its mismatch printed; every input
//! form; f16 and bf16 tensors; a runtime refusal exiting with the runtime's code and its located
//! message; an already-lowered module. runner/tests/examples.rs runs the examples' full matrices on 2
//! and 4 ranks against the same references.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use npyz::WriterBuilder;

use crate::common;
use common::goldens::*;
use common::*;

// ------------------------------------------------------------------ moe_layers (P = 4)

const P_MOE: usize = 4;

#[test]
fn moe_host_entry_matches_the_reference() {
    let dir = scratch("moe-host");
    let inp = inputs(P_MOE * MOE_TOKENS * MOE_HIDDEN, 7);
    let shape = [(P_MOE * MOE_TOKENS) as u64, MOE_HIDDEN as u64];
    let inp_path = dir.0.join("inp.npy");
    write_npy_f32(&inp_path, &shape, &inp);
    let want = dir.0.join("want.npy");
    write_npy_f32(&want, &shape, &moe_golden(P_MOE, 3, &inp).0);
    let outs = dir.0.join("outs");
    let args = |extra: &[String]| {
        let mut a = vec![
            s("--function=@moe_host"),
            s("--ranks=4"),
            format!("--input=@{}", inp_path.display()), // inp: a bare .npy, positional
            s("--input=32x4xf32=0"),                    // out: a literal (one element fills it)
            s("--input=i64=3"),                         // num_layers
            s("--input=core_num=4"),                    // by name
            kernels(),
        ];
        a.extend_from_slice(extra);
        a.push(example("moe_layers"));
        a
    };
    let o = pld_run(&args(&[
        format!("--expected-output=out=@{}", want.display()),
        format!("--output-dir={}", outs.display()),
    ]));
    expect_ok(&o);
    assert!(
        o.stdout.contains("@moe_host (HOST) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("expected outputs hold: out"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("out (32x4xf32, host tensor, out):"),
        "{}",
        o.stdout
    );
    // The saved output is the reference, for every rank (one host tensor).
    let golden = moe_golden(P_MOE, 3, &inp).0;
    for r in 0..4 {
        assert_eq!(read_npy_f32(&outs.join(format!("out.rank{r}.npy"))), golden);
    }
    // A repeat run with other inputs reuses the compiled tree (no build progress line).
    let t0 = Instant::now();
    let want2 = dir.0.join("want2.npy");
    write_npy_f32(&want2, &shape, &moe_golden(P_MOE, 1, &inp).0);
    let mut a = args(&[format!("--expected-output=out=@{}", want2.display())]);
    a[4] = s("--input=i64=1");
    let o = pld_run(&a);
    expect_ok(&o);
    assert!(!o.stderr.contains("pld-run: compiling"), "{}", o.stderr);
    eprintln!("repeat run: {:.1?}", t0.elapsed());
    // A core_num the runtime refuses: status 5, the message located in the module.
    let mut a = args(&[]);
    a[5] = s("--input=core_num=0");
    let o = pld_run(&a);
    assert_eq!(o.code, 5, "stdout:\n{}\nstderr:\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("@moe_host (HOST) on 4 ranks: status 5"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("error 5: pld.tensor.all_to_all_v: core_num must be in [1, 2147483647]"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("moe_layers.mlir:"),
        "the message is located:\n{}",
        o.stdout
    );
}

#[test]
fn moe_chip_entry_per_rank_expectations_from_an_npz() {
    let dir = scratch("moe-chip");
    let inp = inputs(P_MOE * MOE_TOKENS * MOE_HIDDEN, 8);
    let shape = [(P_MOE * MOE_TOKENS) as u64, MOE_HIDDEN as u64];
    let inp_path = dir.0.join("inp.npy");
    write_npy_f32(&inp_path, &shape, &inp);
    // The synthesized HOST side gives every rank its own `out`: rank r writes its rows only.
    let golden = moe_golden(P_MOE, 2, &inp).0;
    let rows = MOE_TOKENS * MOE_HIDDEN;
    let per_rank: Vec<Vec<f32>> = (0..P_MOE)
        .map(|r| {
            let mut v = vec![0.0; golden.len()];
            v[r * rows..(r + 1) * rows].copy_from_slice(&golden[r * rows..(r + 1) * rows]);
            v
        })
        .collect();
    let want = dir.0.join("want.npz");
    write_npz_f32(&want, &shape, &per_rank);
    let o = pld_run(&[
        s("--function=@moe_layers"),
        s("--ranks=4"),
        format!("--input=inp=32x4xf32=@{}", inp_path.display()),
        s("--input=num_layers=i64=2"),
        s("--input=core_num=i64=8"),
        format!("--expected-output=out=@{}", want.display()),
        kernels(),
        example("moe_layers"),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@moe_layers (CHIP) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("expected outputs hold: out"),
        "{}",
        o.stdout
    );
    // The windows are outputs too (inout), per rank; the signal cells are back to 0.
    assert!(
        o.stdout.contains("signal (4x8xi32, rank 3, inout):"),
        "{}",
        o.stdout
    );
    let zeros = "--expected-output=signal=4x8xi32=0";
    let o2 = pld_run(&[
        s("--function=@moe_layers"),
        s("--ranks=4"),
        format!("--input=inp=@{}", inp_path.display()),
        s("--input=num_layers=2"),
        s("--input=core_num=8"),
        s(zeros),
        kernels(),
        example("moe_layers"),
    ]);
    expect_ok(&o2);
}

// ------------------------------------------------------------------ micro_batches (P = 2)

const P_MB: usize = 2;

const MB_SHAPE: [u64; 2] = [(MB_MICRO * P_MB * MB_PER_PEER) as u64, MB_HIDDEN as u64];

#[test]
fn micro_batches_per_rank_inputs_and_expectations() {
    let dir = scratch("micro");
    let x = micro_inputs(P_MB, 21);
    let y = micro_golden(P_MB, &x);
    let mut args = vec![s("--function=@micro_batches"), s("--ranks=2"), kernels()];
    for r in 0..P_MB {
        let xp = dir.0.join(format!("x{r}.npy"));
        write_npy_f32(&xp, &MB_SHAPE, &x[r]);
        let yp = dir.0.join(format!("y{r}.npy"));
        write_npy_f32(&yp, &MB_SHAPE, &y[r]);
        // x: consecutive positional rank: inputs bind one parameter.
        args.push(format!("--input=rank:{r}:@{}", xp.display()));
        args.push(format!("--expected-output=y=rank:{r}:@{}", yp.display()));
    }
    args.push(example("micro_batches"));
    let o = pld_run(&args);
    expect_ok(&o);
    assert!(o.stdout.contains("y (12x3xf32, rank 1, "), "{}", o.stdout);
    assert!(
        o.stdout.contains("expected outputs hold: y"),
        "{}",
        o.stdout
    );

    // The same through one .npz per parameter (arr_0, arr_1 = ranks 0, 1).
    let xz = dir.0.join("x.npz");
    write_npz_f32(&xz, &MB_SHAPE, &x);
    let yz = dir.0.join("y.npz");
    write_npz_f32(&yz, &MB_SHAPE, &y);
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=x=@{}", xz.display()),
        format!("--expected-output=y=@{}", yz.display()),
        example("micro_batches"),
    ]);
    expect_ok(&o);
}

#[test]
fn a_wrong_expected_output_fails_with_the_mismatch() {
    let dir = scratch("wrong");
    let x = micro_inputs(P_MB, 31);
    let mut y = micro_golden(P_MB, &x);
    y[1][3 * 2 + 1] += 0.5; // rank 1, row 2, column 1
    let xz = dir.0.join("x.npz");
    write_npz_f32(&xz, &MB_SHAPE, &x);
    let yz = dir.0.join("y.npz");
    write_npz_f32(&yz, &MB_SHAPE, &y);
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=@{}", xz.display()),
        format!("--expected-output=y=@{}", yz.display()),
        s("--tolerance=0.1"),
        example("micro_batches"),
    ]);
    assert_eq!(o.code, 1, "stdout:\n{}\nstderr:\n{}", o.stdout, o.stderr);
    assert!(
        o.stdout.contains("mismatch: y rank 1 index [2, 1]: got ")
            && o.stdout
                .contains("(1 of 36 elements differ, tolerance 0.1)"),
        "{}",
        o.stdout
    );
    assert!(!o.stdout.contains("mismatch: y rank 0"), "{}", o.stdout);
    // Within the tolerance it holds.
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=@{}", xz.display()),
        format!("--expected-output=y=@{}", yz.display()),
        s("--tolerance=0.5"),
        example("micro_batches"),
    ]);
    expect_ok(&o);
    // Integers compare exactly whatever the tolerance: recv_counts of rank 0 is not all 5.
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=@{}", xz.display()),
        s("--expected-output=recv_counts=2xi32=5"),
        s("--tolerance=100"),
        example("micro_batches"),
    ]);
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(
        o.stdout
            .contains("mismatch: recv_counts rank 0 index [0]: got "),
        "{}",
        o.stdout
    );
}

#[test]
fn input_forms_and_their_errors() {
    let dir = scratch("forms");
    let x = micro_inputs(P_MB, 41);
    let y = micro_golden(P_MB, &x);
    // A literal per rank, row-major.
    let lit = |v: &[f32]| {
        v.iter()
            .map(|f| f.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let yz = dir.0.join("y.npz");
    write_npz_f32(&yz, &MB_SHAPE, &y);
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=x=rank:0:12x3xf32={}", lit(&x[0])),
        format!("--input=x=rank:1:12x3xf32={}", lit(&x[1])),
        format!("--expected-output=y=@{}", yz.display()),
        example("micro_batches"),
    ]);
    expect_ok(&o);
    let bad = |args: &[String], code: i32, needle: &str| {
        let mut a = vec![s("--function=@micro_batches"), s("--ranks=2"), kernels()];
        a.extend_from_slice(args);
        a.push(example("micro_batches"));
        let o = pld_run(&a);
        assert_eq!(
            o.code, code,
            "{a:?}\nstdout:\n{}\nstderr:\n{}",
            o.stdout, o.stderr
        );
        assert!(
            o.stderr.contains(needle),
            "{a:?}: no `{needle}` in:\n{}",
            o.stderr
        );
    };
    bad(
        &[s("--input=4x3xf32=1")],
        2,
        "parameter x (!pl.tensor<12x3xf32>): the value is 4x3xf32, not 12x3xf32",
    );
    bad(
        &[s("--input=12x3xf32=1,2")],
        2,
        "12x3xf32 holds 36 elements, the literal gives 2",
    );
    bad(
        &[s("--input=rank:0:12x3xf32=1")],
        2,
        "parameter x: rank 1 has no value",
    );
    bad(
        &[s("--expected-output=z=@nothing.npy")],
        2,
        "no tensor parameter `z`",
    );
    bad(&[s("--input=@/nonexistent.npy")], 2, "/nonexistent.npy");
    bad(&[s("--frobnicate=1")], 2, "unknown option --frobnicate");
    bad(&[s("--frobnicate")], 2, "unknown option --frobnicate");
    bad(
        &[s("--ranks")],
        2,
        "`--ranks`: options are written --ranks=VALUE",
    );
    bad(
        &[s("--function=@mb_pack")],
        2,
        "neither a HOST orchestrator",
    );
    bad(
        &[s("--function=@nope")],
        2,
        "the module has no function @nope",
    );
}

/// micro_batches written to `module` by `pld-opt ARGS`, run through pld-run with its parameters
/// named `arg0`, `arg1` (as in a module without SSA names) against the reference.
fn micro_batches_by_arg_names(name: &str, pld_opt_args: &[&str], file: &str) {
    let dir = scratch(name);
    let module = dir.0.join(file);
    let out = Command::new(pld_opt())
        .args(pld_opt_args)
        .arg(example("micro_batches"))
        .arg("-o")
        .arg(&module)
        .output()
        .unwrap();
    assert!(out.status.success());
    if file.ends_with(".mlirbc") {
        assert!(std::fs::read(&module).unwrap().starts_with(b"ML\xefR"));
    }
    let x = micro_inputs(P_MB, 51);
    let y = micro_golden(P_MB, &x);
    let xz = dir.0.join("x.npz");
    write_npz_f32(&xz, &MB_SHAPE, &x);
    let yz = dir.0.join("y.npz");
    write_npz_f32(&yz, &MB_SHAPE, &y);
    let o = pld_run(&[
        s("--function=@micro_batches"),
        s("--ranks=2"),
        kernels(),
        format!("--input=arg0=@{}", xz.display()),
        format!("--expected-output=arg1=@{}", yz.display()),
        module.display().to_string(),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("expected outputs hold: arg1"),
        "{}",
        o.stdout
    );
}

#[test]
fn an_already_lowered_module_uses_arg_names() {
    micro_batches_by_arg_names(
        "lowered",
        &["--pld-lower-collectives"],
        "micro_batches.lowered.mlir",
    );
}

/// MLIR bytecode (which every pld tool reads) runs like its text; it keeps no SSA names, so
/// the parameters are `arg0`, ... as in an already-lowered module.
#[test]
fn a_bytecode_module_runs_like_its_text() {
    micro_batches_by_arg_names("bytecode", &["--emit-bytecode"], "micro_batches.mlirbc");
}

// ------------------------------------------------------------------ tp_layer (P = 4)

const P_TP: usize = 4;

#[test]
fn tp_host_entry_matches_the_reference_and_shows_its_windows() {
    let dir = scratch("tp-host");
    let (x, w1, w2) = tp_inputs(&dir.0, P_TP, 11);
    let golden = tp_golden(P_TP, TP_LAYERS, &x, &w1, &w2).0;
    assert!(golden.iter().any(|v| *v != 0.0), "a trivial output");
    // Every rank writes its copy of the result into rows [r*T, (r+1)*T) of the one host `out`.
    let want_out: Vec<f32> = (0..P_TP).flat_map(|_| golden.iter().copied()).collect();
    let want = dir.0.join("want_out.npy");
    write_npy_f32(
        &want,
        &[(P_TP * TP_TOKENS) as u64, TP_HIDDEN as u64],
        &want_out,
    );
    // The windows @tp_host allocates: the ping-pong ends with the last layer's output in act_b
    // and the one before it in act_a, on every rank; the signal cells are back to zero.
    let act = [TP_TOKENS as u64, TP_HIDDEN as u64];
    let want_b = dir.0.join("want_act_b.npy");
    write_npy_f32(&want_b, &act, &golden);
    let want_a = dir.0.join("want_act_a.npy");
    write_npy_f32(
        &want_a,
        &act,
        &tp_golden(P_TP, TP_LAYERS - 1, &x, &w1, &w2).0,
    );
    let outs = dir.0.join("outs");
    let o = pld_run(&[
        s("--function=@tp_host"),
        s("--ranks=4"),
        format!("--input=@{}", dir.0.join("inp.npy").display()),
        format!("--input=@{}", dir.0.join("w1.npy").display()),
        format!("--input=@{}", dir.0.join("w2.npy").display()),
        format!("--expected-output=out=@{}", want.display()),
        format!("--expected-output=act_b=@{}", want_b.display()),
        format!("--expected-output=act_a=@{}", want_a.display()),
        s("--expected-output=signal=4x2xi32=0"),
        format!("--output-dir={}", outs.display()),
        kernels(),
        example("tp_layer"),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@tp_host (HOST) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("expected outputs hold: out, act_a, act_b, signal"),
        "{}",
        o.stdout
    );
    for shown in [
        "out (16x6xf32, host tensor, out):",
        "act_a (4x6xf32, rank 0, window):",
        "act_b (4x6xf32, rank 3, window):",
        "signal (4x2xi32, rank 3, window):",
    ] {
        assert!(o.stdout.contains(shown), "no `{shown}` in:\n{}", o.stdout);
    }
    for r in 0..P_TP {
        assert_eq!(
            read_npy_f32(&outs.join(format!("act_b.rank{r}.npy"))),
            golden
        );
    }
    // A window takes no input: it starts as zeros.
    let o = pld_run(&[
        s("--function=@tp_host"),
        s("--ranks=4"),
        s("--input=act_a=4x6xf32=1"),
        kernels(),
        example("tp_layer"),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("act_a is a window the HOST orchestrator allocates itself"),
        "{}",
        o.stderr
    );
}

#[test]
fn tp_chip_entry_per_rank_output_rows() {
    let dir = scratch("tp-chip");
    let (x, w1, w2) = tp_inputs(&dir.0, P_TP, 12);
    let golden = tp_golden(P_TP, TP_LAYERS, &x, &w1, &w2).0;
    // pld-run gives every rank its own `out`: rank r's copy of the result is in its rows only.
    let rows = TP_TOKENS * TP_HIDDEN;
    let per_rank: Vec<Vec<f32>> = (0..P_TP)
        .map(|r| {
            let mut v = vec![0.0; P_TP * rows];
            v[r * rows..(r + 1) * rows].copy_from_slice(&golden);
            v
        })
        .collect();
    let want = dir.0.join("want_out.npz");
    write_npz_f32(
        &want,
        &[(P_TP * TP_TOKENS) as u64, TP_HIDDEN as u64],
        &per_rank,
    );
    let want_b = dir.0.join("want_act_b.npy");
    write_npy_f32(&want_b, &[TP_TOKENS as u64, TP_HIDDEN as u64], &golden);
    let o = pld_run(&[
        s("--function=@tp_layer"),
        s("--ranks=4"),
        format!("--input=inp=@{}", dir.0.join("inp.npy").display()),
        format!("--input=w1=@{}", dir.0.join("w1.npy").display()),
        format!("--input=w2=@{}", dir.0.join("w2.npy").display()),
        format!("--expected-output=out=@{}", want.display()),
        format!("--expected-output=act_b=@{}", want_b.display()),
        s("--expected-output=signal=4x2xi32=0"),
        kernels(),
        example("tp_layer"),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@tp_layer (CHIP) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("expected outputs hold: out, act_b, signal"),
        "{}",
        o.stdout
    );
}

// ------------------------------------------------------------------ ep_moe (P = 4)

const P_EP: usize = 4;

#[test]
fn ep_host_entry_matches_the_reference_and_shows_its_windows() {
    let dir = scratch("ep-host");
    let inp = inputs(P_EP * EP_TOKENS * EP_HIDDEN, 13);
    let shape = [(P_EP * EP_TOKENS) as u64, EP_HIDDEN as u64];
    let inp_path = dir.0.join("inp.npy");
    write_npy_f32(&inp_path, &shape, &inp);
    let want = dir.0.join("want.npy");
    write_npy_f32(&want, &shape, &ep_golden(P_EP, 3, &inp).0);
    let outs = dir.0.join("outs");
    let o = pld_run(&[
        s("--function=@ep_host"),
        s("--ranks=4"),
        format!("--input=@{}", inp_path.display()),
        s("--input=32x4xf32=0"),
        s("--input=i64=3"),
        format!("--expected-output=out=@{}", want.display()),
        // Every rank's routing table window holds rank 0's table of the last layer (the
        // broadcast's result), and the shared signal is back to zeros.
        format!(
            "--expected-output=table=5xi32={}",
            i32_literal(&ep_table(P_EP, 2))
        ),
        s("--expected-output=signal=4x2xi32=0"),
        format!("--output-dir={}", outs.display()),
        kernels(),
        example("ep_moe"),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@ep_host (HOST) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("expected outputs hold: out, table, signal"),
        "{}",
        o.stdout
    );
    for shown in [
        "table (5xi32, rank 1, window):",
        "recv (12x4xf32, rank 2, window):",
        "combined (12x4xf32, rank 3, window):",
    ] {
        assert!(o.stdout.contains(shown), "no `{shown}` in:\n{}", o.stdout);
    }
    assert!(outs.join("table.rank3.npy").is_file());
    // A wrong table on one rank fails there, exactly (integers).
    let o = pld_run(&[
        s("--function=@ep_host"),
        s("--ranks=4"),
        format!("--input=@{}", inp_path.display()),
        s("--input=32x4xf32=0"),
        s("--input=i64=3"),
        format!(
            "--expected-output=table=rank:2:5xi32={}",
            i32_literal(&ep_table(P_EP, 1))
        ),
        kernels(),
        example("ep_moe"),
    ]);
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(
        o.stdout.contains("mismatch: table rank 2 index [0]: got "),
        "{}",
        o.stdout
    );
}

#[test]
fn ep_chip_entry_per_rank_output_rows() {
    let dir = scratch("ep-chip");
    let inp = inputs(P_EP * EP_TOKENS * EP_HIDDEN, 14);
    let shape = [(P_EP * EP_TOKENS) as u64, EP_HIDDEN as u64];
    let inp_path = dir.0.join("inp.npy");
    write_npy_f32(&inp_path, &shape, &inp);
    let golden = ep_golden(P_EP, 2, &inp).0;
    let rows = EP_TOKENS * EP_HIDDEN;
    let per_rank: Vec<Vec<f32>> = (0..P_EP)
        .map(|r| {
            let mut v = vec![0.0; golden.len()];
            v[r * rows..(r + 1) * rows].copy_from_slice(&golden[r * rows..(r + 1) * rows]);
            v
        })
        .collect();
    let want = dir.0.join("want.npz");
    write_npz_f32(&want, &shape, &per_rank);
    let o = pld_run(&[
        s("--function=@ep_moe"),
        s("--ranks=4"),
        format!("--input=inp=@{}", inp_path.display()),
        s("--input=num_layers=2"),
        format!("--expected-output=out=@{}", want.display()),
        format!(
            "--expected-output=table=5xi32={}",
            i32_literal(&ep_table(P_EP, 1))
        ),
        s("--expected-output=signal=4x2xi32=0"),
        kernels(),
        example("ep_moe"),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@ep_moe (CHIP) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout
            .contains("expected outputs hold: out, table, signal"),
        "{}",
        o.stdout
    );
}

// ------------------------------------------------------------------ f16 and bf16

/// Two ranks sum their f16 windows in place (no user kernel).
const SUM16: &str = r#"// Every rank's x becomes the sum of every rank's x (f16, widened to float, rounded once).
func.func @sum16(%x: !pld.dtensor<4x8xf16>, %signal: !pld.dtensor<2xi32>)
    attributes {pl.func_kind = "orchestration"} {
  %y = pld.tensor.allreduce %x, %signal {reduce = "sum", core_num = 1 : i64}
      : !pld.dtensor<4x8xf16>, !pld.dtensor<2xi32> -> !pld.dtensor<4x8xf16>
  return
}
"#;

fn write_npy_f16(path: &Path, shape: &[u64], v: &[f32]) {
    let f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(f)
        .begin_nd()
        .unwrap();
    w.extend(v.iter().map(|x| half::f16::from_f32(*x))).unwrap();
    w.finish().unwrap();
}

fn write_npz_f16(path: &Path, shape: &[u64], arrays: &[Vec<f32>]) {
    let mut npz = npyz::npz::NpzWriter::create(path).unwrap();
    for (i, a) in arrays.iter().enumerate() {
        let mut w = npz
            .array::<half::f16>(&format!("arr_{i}"), Default::default())
            .unwrap()
            .default_dtype()
            .shape(shape)
            .begin_nd()
            .unwrap();
        w.extend(a.iter().map(|x| half::f16::from_f32(*x))).unwrap();
        w.finish().unwrap();
    }
}

#[test]
fn f16_windows_in_out_and_expected_within_a_tolerance() {
    let dir = scratch("f16");
    let module = dir.0.join("sum16.mlir");
    std::fs::write(&module, SUM16).unwrap();
    // Per-rank inputs with fractions f16 holds exactly (k/8 for small k).
    let n = 32;
    let x: Vec<Vec<f32>> = (0..2)
        .map(|r| {
            (0..n)
                .map(|i| ((i * 7 + r * 3) % 23) as f32 / 8.0 - 1.0)
                .collect()
        })
        .collect();
    let sum: Vec<f32> = (0..n).map(|i| x[0][i] + x[1][i]).collect();
    let xz = dir.0.join("x.npz");
    write_npz_f16(&xz, &[4, 8], &x);
    // The reference in f32 (exact here), nudged by 0.01 so that only a tolerance makes it hold.
    let nudged: Vec<f32> = sum.iter().map(|v| v + 0.01).collect();
    let want = dir.0.join("want.npy");
    write_npy_f16(&want, &[4, 8], &nudged);
    let outs = dir.0.join("outs");
    let run = |tolerance: &str| {
        pld_run(&[
            s("--function=@sum16"),
            s("--ranks=2"),
            format!("--input=x=@{}", xz.display()),
            format!("--expected-output=x=@{}", want.display()),
            format!("--tolerance={tolerance}"),
            format!("--output-dir={}", outs.display()),
            module.display().to_string(),
        ])
    };
    let o = run("0.02");
    expect_ok(&o);
    assert!(
        o.stdout.contains("x (4x8xf16, rank 1, inout):"),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains("expected outputs hold: x"),
        "{}",
        o.stdout
    );
    // The saved output is a float16 .npy holding the sum, on both ranks.
    for r in 0..2 {
        let f = std::fs::File::open(outs.join(format!("x.rank{r}.npy"))).unwrap();
        let npy = npyz::NpyFile::new(std::io::BufReader::new(f)).unwrap();
        assert_eq!(npy.dtype().descr(), "'<f2'");
        let got: Vec<f32> = npy
            .into_vec::<half::f16>()
            .unwrap()
            .iter()
            .map(|h| h.to_f32())
            .collect();
        assert_eq!(got, sum);
    }
    // Without the tolerance the nudge is a mismatch.
    let o = run("0.001");
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(
        o.stdout.contains("mismatch: x rank 0 index [0, 0]: got ")
            && o.stdout
                .contains("(32 of 32 elements differ, tolerance 0.001)"),
        "{}",
        o.stdout
    );
    // A literal input, rounded to f16 once: 0.1 + 0.1 on two ranks.
    let o = pld_run(&[
        s("--function=@sum16"),
        s("--ranks=2"),
        s("--input=4x8xf16=0.1"),
        s("--expected-output=x=4x8xf16=0.2"),
        s("--tolerance=0.001"),
        module.display().to_string(),
    ]);
    expect_ok(&o);
    // An f32 file for an f16 parameter is refused (f16 reads `<f2` only).
    let f32_file = dir.0.join("f32.npy");
    write_npy_f32(&f32_file, &[4, 8], &sum);
    let o = pld_run(&[
        s("--function=@sum16"),
        s("--ranks=2"),
        format!("--input=@{}", f32_file.display()),
        module.display().to_string(),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("is 4x8xf32"), "{}", o.stderr);
}

/// A bf16 kernel: y = 2 * x + 1, widened to float and rounded once (to nearest, ties to even).
const AFFINE_BF16_KERNEL: &str = r#"#include <cstdint>
#include <cstring>
#include "pld_runtime/kernel.h"

static float widen(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
static uint16_t narrow(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

PLD_AIV_KERNEL void kernel_entry(PLD_GM int64_t* args) {
  const PLD_GM pld::Tensor* x = pld::tensor_arg(args, 0);
  const PLD_GM pld::Tensor* y = pld::tensor_arg(args, 1);
  const int64_t n = x->numel();
  if (y->numel() != n) return;
  for (int64_t i = 0; i < n; ++i) y->as<uint16_t>()[i] = narrow(2.0f * widen(x->as<uint16_t>()[i]) + 1.0f);
}
"#;

const AFFINE_BF16: &str = r#"func.func private @affine_bf16(%x: !pl.tensor<2x4xbf16> {pl.direction = "in"},
                               %y: !pl.tensor<2x4xbf16> {pl.direction = "out"}) -> !pl.tensor<2x4xbf16>
    attributes {pl.func_kind = "aiv", pl.kernel_source = "affine_bf16.cpp"} {
  return %y : !pl.tensor<2x4xbf16>
}

func.func @affine(%x: !pl.tensor<2x4xbf16>, %y: !pl.tensor<2x4xbf16>)
    attributes {pl.func_kind = "orchestration"} {
  %r = func.call @affine_bf16(%x, %y) : (!pl.tensor<2x4xbf16>, !pl.tensor<2x4xbf16>) -> !pl.tensor<2x4xbf16>
  return
}
"#;

#[test]
fn bf16_tensors_read_and_write_float32_npy() {
    let dir = scratch("bf16");
    let module = dir.0.join("affine.mlir");
    std::fs::write(&module, AFFINE_BF16).unwrap();
    std::fs::write(dir.0.join("affine_bf16.cpp"), AFFINE_BF16_KERNEL).unwrap();
    // 1/3 is not a bf16: the float32 file is rounded to the nearest one when read.
    let x: Vec<f32> = vec![0.0, 1.0, -2.5, 1.0 / 3.0, 100.0, 0.125, -7.0, 3.0];
    let to_bf16 = |v: f32| half::bf16::from_f32(v).to_f32();
    let y: Vec<f32> = x.iter().map(|v| to_bf16(2.0 * to_bf16(*v) + 1.0)).collect();
    let xp = dir.0.join("x.npy");
    write_npy_f32(&xp, &[2, 4], &x);
    let yp = dir.0.join("y.npy");
    write_npy_f32(&yp, &[2, 4], &y);
    let outs = dir.0.join("outs");
    let o = pld_run(&[
        s("--function=@affine"),
        s("--ranks=1"),
        format!("--input=@{}", xp.display()),
        format!("--expected-output=y=@{}", yp.display()),
        s("--tolerance=0"),
        format!("--output-dir={}", outs.display()),
        module.display().to_string(),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("y (2x4xbf16, rank 0, out):"),
        "{}",
        o.stdout
    );
    // Saved as float32, exactly the bf16 values.
    assert_eq!(read_npy_f32(&outs.join("y.rank0.npy")), y);
}

/// The build cache follows the kernel sources the manifest lists: editing one renders and
/// builds the program again (its new behaviour shows), restoring it reuses the first build.
#[test]
fn an_edited_kernel_source_is_built_again() {
    let dir = scratch("edited-kernel");
    let module = dir.0.join("affine.mlir");
    std::fs::write(&module, AFFINE_BF16).unwrap();
    let kernel = dir.0.join("affine_bf16.cpp");
    let run = |want: f32| {
        let o = pld_run(&[
            s("--function=@affine"),
            s("--ranks=1"),
            s("--input=2x4xbf16=1"),
            format!("--expected-output=y=2x4xbf16={want}"),
            module.display().to_string(),
        ]);
        expect_ok(&o);
        o.stderr
    };
    std::fs::write(&kernel, AFFINE_BF16_KERNEL).unwrap();
    let first = run(3.0); // 2 * 1 + 1
    // A text no earlier run has built (the cache outlives test runs).
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let edited_text = format!(
        "// edited {stamp}\n{}",
        AFFINE_BF16_KERNEL.replace("+ 1.0f", "+ 5.0f")
    );
    std::fs::write(&kernel, edited_text).unwrap();
    let edited = run(7.0); // 2 * 1 + 5
    assert!(
        edited.contains("pld-run: lowering and rendering"),
        "{edited}"
    );
    assert!(edited.contains("pld-run: compiling"), "{edited}");
    std::fs::write(&kernel, AFFINE_BF16_KERNEL).unwrap();
    let restored = run(3.0);
    assert!(
        !restored.contains("pld-run: compiling"),
        "{first}\n{restored}"
    );
}

/// Ranks as processes (the default, as pld-sim) and as threads (`--ranks-as=threads`) run the
/// same program to the same outputs, byte for byte, the HOST orchestrator's own windows
/// included; a bad `--ranks-as` is a usage error.
#[test]
fn ranks_as_processes_and_threads_give_the_same_outputs() {
    let dir = scratch("ranks-as");
    let (x, w1, w2) = tp_inputs(&dir.0, P_TP, 5);
    let golden = tp_golden(P_TP, TP_LAYERS, &x, &w1, &w2).0;
    let run = |mode: &str| {
        let outs = dir.0.join(format!("outs-{mode}"));
        let o = pld_run(&[
            s("--function=@tp_host"),
            s("--ranks=4"),
            format!("--ranks-as={mode}"),
            format!("--input=@{}", dir.0.join("inp.npy").display()),
            format!("--input=@{}", dir.0.join("w1.npy").display()),
            format!("--input=@{}", dir.0.join("w2.npy").display()),
            format!("--output-dir={}", outs.display()),
            kernels(),
            example("tp_layer"),
        ]);
        expect_ok(&o);
        outs
    };
    let (procs, threads) = (run("processes"), run("threads"));
    for name in ["out.rank0", "act_b.rank2", "act_a.rank3", "signal.rank1"] {
        let file = format!("{name}.npy");
        assert_eq!(
            std::fs::read(procs.join(&file)).unwrap(),
            std::fs::read(threads.join(&file)).unwrap(),
            "{file} differs between the modes"
        );
    }
    assert_eq!(read_npy_f32(&procs.join("act_b.rank2.npy")), golden);
    let o = pld_run(&[
        s("--function=@tp_host"),
        s("--ranks-as=fibers"),
        example("tp_layer"),
    ]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr
            .contains("--ranks-as=fibers: expected processes or threads"),
        "{}",
        o.stderr
    );
}

/// `text` saved as `<dir>/<name>`; its path, as pld-run takes it.
fn module_file(dir: &Scratch, name: &str, text: &str) -> String {
    let path = dir.0.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// A P = 4 allgather (signal `[4]`) as a CHIP entry, and the same collective fanned out from a
/// HOST loop over 4 devices.
const ALLGATHER_P4: &str = r#"func.func @ag(%in: !pl.tensor<2x4xf32>, %t: !pld.dtensor<8x4xf32>, %s: !pld.dtensor<4xi32>) -> !pld.dtensor<8x4xf32>
    attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allgather %in, %t, %s : !pl.tensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return %0 : !pld.dtensor<8x4xf32>
}
func.func @ag_host() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 32 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 128 : i64} : !pld.window_buffer
  %b2 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %in = pld.window %b0 : !pld.dtensor<2x4xf32>
  %t = pld.window %b1 : !pld.dtensor<8x4xf32>
  %s = pld.window %b2 : !pld.dtensor<4xi32>
  %0 = pld.tensor.allgather %in, %t, %s : !pld.dtensor<2x4xf32>, !pld.dtensor<8x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<8x4xf32>
  return
}
"#;

#[test]
fn a_collective_on_a_world_of_another_size_fails_located() {
    let dir = scratch("world-size");
    let module = module_file(&dir, "ag.mlir", ALLGATHER_P4);
    // Without --ranks the collectives' NR decides: 4 ranks, each gathers every rank's rows.
    let o = pld_run(&[
        s("--function=@ag"),
        s("--input=2x4xf32=1"),
        s("--expected-output=t=8x4xf32=1"),
        module.clone(),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("@ag (CHIP) on 4 ranks: ok"),
        "{}",
        o.stdout
    );
    // Any other world size: status 5 at the collective, naming both numbers (it used to report
    // ok with every output zeros).
    for (entry, ranks, rail, mode) in [
        ("@ag", 2, "CHIP", "processes"),
        ("@ag", 8, "CHIP", "processes"),
        ("@ag_host", 8, "HOST", "processes"),
        ("@ag_host", 2, "HOST", "processes"),
        ("@ag_host", 2, "HOST", "threads"),
    ] {
        let mut args = vec![
            format!("--function={entry}"),
            format!("--ranks={ranks}"),
            format!("--ranks-as={mode}"),
        ];
        if entry == "@ag" {
            args.push(s("--input=2x4xf32=1"));
        }
        args.push(module.clone());
        let o = pld_run(&args);
        assert_eq!(o.code, 5, "{entry} on {ranks}:\n{}\n{}", o.stdout, o.stderr);
        assert!(
            o.stdout
                .contains(&format!("{entry} ({rail}) on {ranks} ranks: status 5")),
            "{}",
            o.stdout
        );
        let line = if entry == "@ag" { 3 } else { 13 };
        let want = format!(
            "error 5: pld.tensor.allgather at ag.mlir:{line}:8: the CommContext has {ranks} ranks \
             but the signal's NR is 4 (kernel __builtin_allgather__fp32)"
        );
        assert!(o.stdout.contains(&want), "want {want}\n{}", o.stdout);
    }
}

#[test]
fn ranks_default_to_the_programs_nr_and_are_required_when_collectives_disagree() {
    let dir = scratch("ranks-default");
    let module = module_file(
        &dir,
        "two.mlir",
        r#"func.func @two(%s: !pld.dtensor<4xi32>, %s2: !pld.dtensor<2xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.barrier %s : !pld.dtensor<4xi32> -> !pld.dtensor<4xi32>
  %1 = pld.tensor.barrier %s2 : !pld.dtensor<2xi32> -> !pld.dtensor<2xi32>
  return
}
"#,
    );
    let o = pld_run(&[s("--function=@two"), module.clone()]);
    assert_eq!(o.code, 2, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains(
            "--ranks=P is required: the module's collectives do not agree on a rank count: \
             pld.tensor.barrier at "
        ) && o
            .stderr
            .contains("two.mlir:2:8 (NR=4), pld.tensor.barrier at ")
            && o.stderr.contains("two.mlir:3:8 (NR=2)"),
        "{}",
        o.stderr
    );
    // A communication domain runs its collectives on a subset of the world: its NR says nothing
    // of the world's size.
    let module = module_file(
        &dir,
        "domain.mlir",
        r#"func.func @dom() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %d = pld.comm_domain {ranks = 2 : i64} : !pld.comm_domain
  %b = pld.window_buffer in %d {bytes = 8 : i64} : !pld.window_buffer
  %s = pld.window %b : !pld.dtensor<2xi32>
  %0 = pld.tensor.barrier %s : !pld.dtensor<2xi32> -> !pld.dtensor<2xi32>
  return
}
"#,
    );
    let o = pld_run(&[s("--function=@dom"), module.clone()]);
    assert_eq!(o.code, 2, "{}\n{}", o.stdout, o.stderr);
    assert!(
        o.stderr.contains(
            "--ranks=P is required: the module declares a communication domain (pld.comm_domain at "
        ) && o.stderr.contains("domain.mlir:2:8)"),
        "{}",
        o.stderr
    );
}

/// A HOST loop that dispatches a P = 4 allreduce to 3 devices: rank 3 never arrives.
const MISSING_PEER: &str = r#"func.func @h3() attributes {pl.func_kind = "orchestration", pl.level = "host"} {
  %b0 = pld.window_buffer {bytes = 64 : i64} : !pld.window_buffer
  %b1 = pld.window_buffer {bytes = 16 : i64} : !pld.window_buffer
  %t = pld.window %b0 : !pld.dtensor<4x4xf32>
  %s = pld.window %b1 : !pld.dtensor<4xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %d = %c0 to %c3 step %c1 {
    pld.host.dispatch @step(%t, %s) on %d : (!pld.dtensor<4x4xf32>, !pld.dtensor<4xi32>), index
  }
  return
}
func.func @step(%t: !pld.dtensor<4x4xf32>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<4x4xf32>, !pld.dtensor<4xi32> -> !pld.dtensor<4x4xf32>
  return
}
"#;

#[test]
fn a_peer_that_never_arrives_is_named_and_the_run_is_bounded() {
    let dir = scratch("missing-peer");
    let module = module_file(&dir, "h3.mlir", MISSING_PEER);
    for mode in ["processes", "threads"] {
        let t0 = Instant::now();
        let o = pld_run(&[
            s("--function=@h3"),
            s("--timeout-ms=1500"),
            format!("--ranks-as={mode}"),
            module.clone(),
        ]);
        let took = t0.elapsed();
        assert_eq!(o.code, 6, "{mode}:\n{}\n{}", o.stdout, o.stderr);
        assert!(
            o.stdout.contains("@h3 (HOST) on 4 ranks: status 6"),
            "{}",
            o.stdout
        );
        for rank in 0..3 {
            let want = format!(
                "rank {rank} waits in pld.tensor.allreduce at h3.mlir:15:8 \
                 (kernel __builtin_allreduce_sum__fp32), peers that never arrived: 3"
            );
            assert!(
                o.stdout.contains(&want),
                "{mode}: want {want}\n{}",
                o.stdout
            );
        }
        assert!(
            !o.stdout.contains("rank 3 waits"),
            "{mode}: rank 3 never entered:\n{}",
            o.stdout
        );
        // Bounded by the timeout (plus the build and a margin), not by the 10 s default.
        assert!(took.as_secs() < 60, "{mode} took {took:?}");
    }
}

#[test]
fn print_limit_zero_prints_no_values() {
    let dir = scratch("print-limit");
    let module = module_file(&dir, "ag.mlir", ALLGATHER_P4);
    let o = pld_run(&[
        s("--function=@ag"),
        s("--input=2x4xf32=3"),
        s("--print-limit=0"),
        module.clone(),
    ]);
    expect_ok(&o);
    assert_eq!(o.stdout, "@ag (CHIP) on 4 ranks: ok\n", "{}", o.stdout);
    let o = pld_run(&[
        s("--function=@ag"),
        s("--input=2x4xf32=3"),
        s("--print-limit=32"),
        module.clone(),
    ]);
    expect_ok(&o);
    assert!(
        o.stdout.contains("t (8x4xf32, rank 3, inout):"),
        "{}",
        o.stdout
    );
}

#[test]
fn the_build_cache_is_per_user_not_in_the_checkout() {
    // `scripts/test.sh --quick` (the edit loop) leaves the builds that are cold by design (a
    // private cache) to the full run.
    if std::env::var_os("PLD_QUICK").is_some() {
        eprintln!("skipped: PLD_QUICK is set (scripts/test.sh --quick)");
        return;
    }
    let dir = scratch("user-cache");
    let module = module_file(&dir, "ag.mlir", ALLGATHER_P4);
    let home = dir.0.join("cache-home");
    let out = Command::new(PLD_RUN)
        .args([s("--function=@ag"), s("--input=2x4xf32=1"), module.clone()])
        .env("XDG_CACHE_HOME", &home)
        .env_remove("PLD_SIM_ROOT")
        // Where the build goes, not how fast it runs: -O0 builds the runtime faster.
        .env("PLD_SIM_CXXFLAGS", "-O0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trees = home.join("pld-run/run/trees");
    assert!(
        std::fs::read_dir(&trees).is_ok_and(|mut d| d.next().is_some()),
        "no cache entry under {}",
        trees.display()
    );
    // The generated units compiled through precompiled headers of their include blocks (the
    // orchestration's block among them), built with the run's flags.
    let pchs: Vec<std::path::PathBuf> = std::fs::read_dir(home.join("pld-run/run/obj"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("pch-"))
        .collect();
    assert!(
        pchs.iter().all(|p| p.join("prefix.h.gch").is_file()
            && std::fs::read_to_string(p.join("flags"))
                .unwrap()
                .contains("-O0\n")),
        "{pchs:?}"
    );
    assert!(
        pchs.iter()
            .any(|p| std::fs::read_to_string(p.join("prefix.h"))
                .unwrap()
                .contains("#include \"pto_orchestration_api.h\"")),
        "no precompiled orchestration block among {pchs:?}"
    );
}

/// f16 sums whose ring partials leave the f16 range (docs/spec/family.md, Reductions): the mesh
/// fold accumulates in f32 and rounds once; the ring rounds every hop's partial to f16.
const F16_SUMS: &str = r#"func.func @mesh(%t: !pld.dtensor<4x1xf16>, %s: !pld.dtensor<4xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum"} : !pld.dtensor<4x1xf16>, !pld.dtensor<4xi32> -> !pld.dtensor<4x1xf16>
  return
}
func.func @ring(%t: !pld.dtensor<4x1xf16>, %s: !pld.dtensor<7x4xi32>) attributes {pl.func_kind = "orchestration"} {
  %0 = pld.tensor.allreduce %t, %s {reduce = "sum", mode = "ring"} : !pld.dtensor<4x1xf16>, !pld.dtensor<7x4xi32> -> !pld.dtensor<4x1xf16>
  return
}
"#;

#[test]
fn f16_ring_partials_overflow_where_the_mesh_fold_does_not() {
    let dir = scratch("f16-ring");
    let module = module_file(&dir, "sums.mlir", F16_SUMS);
    // Every element of rank r holds x[r]; the exact sum is 32, every partial of the mesh fold's
    // f32 accumulator is in range, but a ring hop that adds two of one sign is not.
    let x = [60000.0f32, 60000.0, -60000.0, -59968.0];
    let xz = dir.0.join("x.npz");
    let per_rank: Vec<Vec<f32>> = x.iter().map(|v| vec![*v; 4]).collect();
    write_npz_f16(&xz, &[4, 1], &per_rank);
    let run = |entry: &str| {
        let outs = dir.0.join(format!("outs-{entry}"));
        let o = pld_run(&[
            format!("--function=@{entry}"),
            format!("--input=t=@{}", xz.display()),
            format!("--output-dir={}", outs.display()),
            module.clone(),
        ]);
        expect_ok(&o);
        (0..4)
            .map(|r| {
                let f = std::fs::File::open(outs.join(format!("t.rank{r}.npy"))).unwrap();
                let npy = npyz::NpyFile::new(std::io::BufReader::new(f)).unwrap();
                npy.into_vec::<half::f16>().unwrap()
            })
            .collect::<Vec<_>>()
    };
    // Mesh: exactly 32 everywhere.
    for (r, got) in run("mesh").iter().enumerate() {
        assert!(
            got.iter().all(|h| h.to_f32() == 32.0),
            "mesh rank {r}: {got:?}"
        );
    }
    // Ring: bitwise identical on every rank; each element is 32 or an overflow (+-inf), and the
    // chunk whose partial starts with the two 60000s overflows.
    let ring = run("ring");
    for (r, got) in ring.iter().enumerate() {
        assert_eq!(
            got.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
            ring[0].iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
            "ring rank {r} differs from rank 0"
        );
    }
    assert!(
        ring[0]
            .iter()
            .all(|h| h.to_f32() == 32.0 || h.is_infinite()),
        "{:?}",
        ring[0]
    );
    assert!(ring[0].iter().any(|h| h.is_infinite()), "{:?}", ring[0]);
}

//! The example programs run end to end through pld-run on 2 and 4 ranks, over a matrix of their
//! parameters per example (layers, `core_num`, the CHIP entry and the HOST orchestrator), each
//! rank's outputs compared with the reference computed from the example's documented meaning
//! (`common::goldens`, shared with runner/tests/run.rs), the kernel blocks that ran with the launch
//! widths the lowering computes (`--print-statistics`), every signal cell back to zero, and a
//! `core_num` the lowering's runtime check refuses failing every rank with 5, located. The
//! examples are written for one rank count; the other is their text retargeted
//! ([`goldens::Example::module_for`]). The lowering's structure (loops kept, one task per
//! collective) is checked by the root crate's tests/examples.rs.

use std::path::{Path, PathBuf};

use crate::common;
use common::goldens::*;
use common::*;

/// One pld-run of an example: its report, the kernel blocks it counted, and where its outputs
/// went.
struct Run {
    out: Out,
    blocks: i64,
    outs: PathBuf,
}

impl Run {
    fn f32s(&self, name: &str, rank: usize) -> Vec<f32> {
        read_npy_f32(&self.outs.join(format!("{name}.rank{rank}.npy")))
    }
    fn i32s(&self, name: &str, rank: usize) -> Vec<i32> {
        read_npy_i32(&self.outs.join(format!("{name}.rank{rank}.npy")))
    }
    /// Every rank's `signal` window holds zeros: each collective returned its cells.
    fn signal_back_to_zero(&self, p: usize, what: &str) {
        for r in 0..p {
            assert!(
                self.i32s("signal", r).iter().all(|c| *c == 0),
                "{what}: rank {r}'s signal cells are not back to 0"
            );
        }
    }
}

/// Runs `function` of `module` on `p` ranks with `args`, counting blocks and saving every output.
fn run(dir: &Path, tag: &str, module: &Path, function: &str, p: usize, args: &[String]) -> Run {
    let outs = dir.join(format!("outs-{tag}"));
    let mut all = vec![
        format!("--function=@{function}"),
        format!("--ranks={p}"),
        s("--print-statistics"),
        s("--print-limit=0"),
        format!("--output-dir={}", outs.display()),
        kernels(),
    ];
    all.extend_from_slice(args);
    all.push(module.display().to_string());
    let out = pld_run(&all);
    let blocks = out
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("statistics: "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|b| b.strip_suffix(" blocks"))
        .and_then(|b| b.parse().ok())
        .unwrap_or_else(|| panic!("no statistics in:\n{}\n{}", out.stdout, out.stderr));
    Run { out, blocks, outs }
}

fn assert_rows_eq(what: &str, got: &[f32], want: &[f32], width: usize) {
    assert_eq!(got.len(), want.len(), "{what}: element count");
    for (i, (g, w)) in got.chunks(width).zip(want.chunks(width)).enumerate() {
        assert_eq!(g, w, "{what}: row {i} differs");
    }
}

/// `golden`'s rows [r*rows, (r+1)*rows) in a tensor otherwise `fill`: what rank r's own copy of
/// a host tensor holds under a CHIP entry (pld-run gives each rank its own).
fn own_rows(golden: &[f32], r: usize, rows: usize, fill: f32) -> Vec<f32> {
    let mut v = vec![fill; golden.len()];
    v[r * rows..(r + 1) * rows].copy_from_slice(&golden[r * rows..(r + 1) * rows]);
    v
}

// ------------------------------------------------------------------ moe_layers

fn moe(p: usize) {
    let dir = scratch(&format!("moe-p{p}"));
    let module = MOE.module_for(p, &dir.0);
    let rows = p * MOE_TOKENS;
    let shape = [rows as u64, MOE_HIDDEN as u64];
    let mut dropped_somewhere = false;
    let cases = [
        ("chip", 3, 4, 1),
        ("chip", 1, 1, 2),
        ("chip", 2, 3, 3),
        ("chip", 4, 9, 4), // folded to B = 8 = S
        ("chip", 0, 4, 5),
        ("chip", -2, 4, 6),
        ("chip", 5, 2, 7),
        ("host", 3, 4, 8),
        ("host", 2, 8, 9),
        ("chip", 3, 0, 10),
        ("chip", 2, 16, 11),
        ("host", 3, -1, 12),
        ("chip", 0, 0, 13),
    ];
    for (mode, layers, core_num, seed) in cases {
        let inp = inputs(rows * MOE_HIDDEN, seed + 100 * p as u64);
        let inp_path = dir.0.join(format!("inp-{seed}.npy"));
        write_npy_f32(&inp_path, &shape, &inp);
        let chip = mode == "chip";
        let r = run(
            &dir.0,
            &seed.to_string(),
            &module,
            if chip { "moe_layers" } else { "moe_host" },
            p,
            &[
                format!("--input=inp=@{}", inp_path.display()),
                format!("--input=out={rows}x{MOE_HIDDEN}xf32=-1"),
                format!("--input=num_layers={layers}"),
                format!("--input=core_num={core_num}"),
            ],
        );
        let what = format!("moe_layers P={p} {mode} num_layers={layers} core_num={core_num}");
        let (pi, runs) = (p as i64, layers.max(0));
        let b = launch_width(pi, core_num);
        let refused =
            runs > 0 && (!(1..=i64::from(i32::MAX)).contains(&core_num) || b > MOE_SIGNAL_STRIDE);
        let o = &r.out;
        let shown = format!("{what}:\n{}\n{}", o.stdout, o.stderr);
        if refused {
            assert_eq!(o.code, 5, "{shown}");
            let statuses = vec!["5"; p].join(" ");
            assert!(
                o.stdout.contains(&format!("rank status: {statuses}\n")),
                "{shown}"
            );
            assert!(
                o.stdout.contains(
                    "error 5: pld.tensor.all_to_all_v: core_num must be in [1, 2147483647]"
                ),
                "{shown}"
            );
            assert!(
                o.stdout
                    .contains(&format!("(seen: core_num L={core_num}, B={b})")),
                "{shown}"
            );
            assert!(
                o.stdout.contains("raised by the check at moe_layers.mlir:"),
                "{shown}"
            );
            // Each rank filled its two creates and loaded its tokens, then the first
            // collective's check failed.
            assert_eq!(r.blocks, (2 + 2) * pi, "{shown}");
            for rank in 0..if chip { p } else { 1 } {
                assert!(r.f32s("out", rank).iter().all(|v| *v == -1.0), "{shown}");
            }
        } else {
            assert_eq!(o.code, 0, "{shown}");
            // Per rank: load + store, the fills of its two pl.tensor.creates, and per
            // layer route + expert + gather and two all_to_all_v of B blocks.
            assert_eq!(
                r.blocks,
                pi * (2 + 2 + runs * (3 + 2 * b)),
                "{what}: launch widths"
            );
            let (want, dropped) = moe_golden(p, layers, &inp);
            dropped_somewhere |= dropped;
            if chip {
                for rank in 0..p {
                    let own = own_rows(&want, rank, MOE_TOKENS * MOE_HIDDEN, -1.0);
                    assert_rows_eq(
                        &format!("{what} rank {rank}"),
                        &r.f32s("out", rank),
                        &own,
                        MOE_HIDDEN,
                    );
                }
            } else {
                assert_rows_eq(&what, &r.f32s("out", 0), &want, MOE_HIDDEN);
            }
        }
        if chip {
            r.signal_back_to_zero(p, &what);
        }
    }
    assert!(
        dropped_somewhere,
        "P={p}: no input exercised the capacity limit"
    );
}

#[test]
fn moe_layers_p2() {
    moe(2);
}

#[test]
fn moe_layers_p4() {
    moe(4);
}

// ------------------------------------------------------------------ micro_batches

fn micro(p: usize) {
    let dir = scratch(&format!("micro-p{p}"));
    let module = MICRO.module_for(p, &dir.0);
    let shape = micro_shape(p);
    for seed in [11u64, 12, 13] {
        let x = micro_inputs(p, seed + 100 * p as u64);
        let xz = dir.0.join(format!("x-{seed}.npz"));
        write_npz_f32(&xz, &shape, &x);
        let r = run(
            &dir.0,
            &seed.to_string(),
            &module,
            "micro_batches",
            p,
            &[format!("--input=x=@{}", xz.display())],
        );
        let what = format!("micro_batches P={p} seed {seed}");
        assert_eq!(r.out.code, 0, "{what}:\n{}\n{}", r.out.stdout, r.out.stderr);
        assert!(
            r.out
                .stdout
                .contains("runtime-owned buffers live after the run: 0\n"),
            "{what}: the per-iteration creates are freed on return:\n{}",
            r.out.stdout
        );
        let want = micro_golden(p, &x);
        for rank in 0..p {
            assert_rows_eq(
                &format!("{what} rank {rank}"),
                &r.f32s("y", rank),
                &want[rank],
                MB_HIDDEN,
            );
        }
        r.signal_back_to_zero(p, &what);
    }
}

#[test]
fn micro_batches_p2() {
    micro(2);
}

#[test]
fn micro_batches_p4() {
    micro(4);
}

// ------------------------------------------------------------------ tp_layer

fn tp(p: usize) {
    let dir = scratch(&format!("tp-p{p}"));
    let module = TP.module_for(p, &dir.0);
    let rows = TP_TOKENS * TP_HIDDEN;
    for (mode, seed) in [("chip", 1u64), ("chip", 2), ("host", 3), ("host", 4)] {
        let case = dir.0.join(format!("in-{seed}"));
        std::fs::create_dir_all(&case).unwrap();
        let (x, w1, w2) = tp_inputs(&case, p, seed + 100 * p as u64);
        let chip = mode == "chip";
        let r = run(
            &dir.0,
            &seed.to_string(),
            &module,
            if chip { "tp_layer" } else { "tp_host" },
            p,
            &[
                format!("--input=inp=@{}", case.join("inp.npy").display()),
                format!("--input=w1=@{}", case.join("w1.npy").display()),
                format!("--input=w2=@{}", case.join("w2.npy").display()),
                format!("--input=out={}x{TP_HIDDEN}xf32=-1", p * TP_TOKENS),
            ],
        );
        let what = format!("tp_layer P={p} {mode} seed {seed}");
        assert_eq!(r.out.code, 0, "{what}:\n{}\n{}", r.out.stdout, r.out.stderr);
        // Per rank: load + store, the fill of its pl.tensor.create, and per layer column +
        // row + an allreduce of 2 blocks.
        assert_eq!(
            r.blocks,
            (p * (2 + 1 + TP_LAYERS * 4)) as i64,
            "{what}: launch widths"
        );
        let (want, nonlinear) = tp_golden(p, TP_LAYERS, &x, &w1, &w2);
        assert!(nonlinear, "{what}: the relu is not exercised");
        assert!(want.iter().any(|v| *v != 0.0), "{what}: a trivial output");
        // Every rank holds the whole result: rank r's copy is rows [r*T, (r+1)*T) of out.
        let every: Vec<f32> = (0..p).flat_map(|_| want.iter().copied()).collect();
        if chip {
            for rank in 0..p {
                let own = own_rows(&every, rank, rows, -1.0);
                assert_rows_eq(
                    &format!("{what} rank {rank}"),
                    &r.f32s("out", rank),
                    &own,
                    TP_HIDDEN,
                );
            }
        } else {
            assert_rows_eq(&what, &r.f32s("out", 0), &every, TP_HIDDEN);
        }
        // The ping-pong ends with the last layer's output in act_b (the CHIP entry's window
        // parameter, the HOST orchestrator's own window).
        for rank in 0..p {
            assert_rows_eq(
                &format!("{what} act_b rank {rank}"),
                &r.f32s("act_b", rank),
                &want,
                TP_HIDDEN,
            );
        }
        r.signal_back_to_zero(p, &what);
    }
}

#[test]
fn tp_layer_p2() {
    tp(2);
}

#[test]
fn tp_layer_p4() {
    tp(4);
}

// ------------------------------------------------------------------ ep_moe

fn ep(p: usize) {
    let dir = scratch(&format!("ep-p{p}"));
    let module = EP.module_for(p, &dir.0);
    let rows = p * EP_TOKENS;
    let shape = [rows as u64, EP_HIDDEN as u64];
    let mut dropped_somewhere = false;
    let cases = [
        ("chip", 3, 1u64),
        ("chip", 1, 2),
        ("chip", 4, 3),
        ("chip", 0, 4),
        ("chip", -1, 5),
        ("host", 3, 6),
        ("host", 2, 7),
    ];
    for (mode, layers, seed) in cases {
        let inp = inputs(rows * EP_HIDDEN, seed + 100 * p as u64);
        let inp_path = dir.0.join(format!("inp-{seed}.npy"));
        write_npy_f32(&inp_path, &shape, &inp);
        let chip = mode == "chip";
        let r = run(
            &dir.0,
            &seed.to_string(),
            &module,
            if chip { "ep_moe" } else { "ep_host" },
            p,
            &[
                format!("--input=inp=@{}", inp_path.display()),
                format!("--input=out={rows}x{EP_HIDDEN}xf32=-1"),
                format!("--input=num_layers={layers}"),
            ],
        );
        let what = format!("ep_moe P={p} {mode} num_layers={layers}");
        assert_eq!(r.out.code, 0, "{what}:\n{}\n{}", r.out.stdout, r.out.stderr);
        let runs = layers.max(0);
        // Per rank: load + store, the fills of its four pl.tensor.creates, and per layer 10
        // blocks (router, broadcast, route, two all_to_all, expert, gather, barrier).
        assert_eq!(
            r.blocks,
            p as i64 * (2 + 4 + runs * 10),
            "{what}: launch widths"
        );
        // Every rank's routing table is rank 0's of the last layer (the broadcast's result).
        let table = if runs > 0 {
            ep_table(p, runs - 1)
        } else {
            vec![0; EP_CLASSES]
        };
        let table: Vec<i32> = table.iter().map(|v| *v as i32).collect();
        for rank in 0..p {
            assert_eq!(
                r.i32s("table", rank),
                table,
                "{what}: rank {rank}'s routing table"
            );
        }
        let (want, dropped) = ep_golden(p, layers, &inp);
        dropped_somewhere |= dropped;
        if chip {
            for rank in 0..p {
                let own = own_rows(&want, rank, EP_TOKENS * EP_HIDDEN, -1.0);
                assert_rows_eq(
                    &format!("{what} rank {rank}"),
                    &r.f32s("out", rank),
                    &own,
                    EP_HIDDEN,
                );
            }
        } else {
            assert_rows_eq(&what, &r.f32s("out", 0), &want, EP_HIDDEN);
        }
        r.signal_back_to_zero(p, &what);
    }
    assert!(
        dropped_somewhere,
        "P={p}: no input exercised the capacity limit"
    );
}

#[test]
fn ep_moe_p2() {
    ep(2);
}

#[test]
fn ep_moe_p4() {
    ep(4);
}

// ------------------------------------------------------------------ pp_pipeline

fn pp(p: usize) {
    let dir = scratch(&format!("pp-p{p}"));
    let module = PP.module_for(p, &dir.0);
    let rows = PP_MICRO * PP_TOKENS;
    for (mode, seed) in [("chip", 1u64), ("chip", 2), ("host", 5)] {
        // Tokens in [0, 3), weights in {-1, 0, 1}: every f32 sum is an exact integer.
        let inp: Vec<i64> = inputs(rows * PP_HIDDEN, seed + 100 * p as u64)
            .iter()
            .map(|v| *v as i64 % 3)
            .collect();
        let w: Vec<i64> = inputs(p * PP_HIDDEN * PP_HIDDEN, seed + 1000 + 100 * p as u64)
            .iter()
            .map(|v| *v as i64 % 3 - 1)
            .collect();
        let inp_path = dir.0.join(format!("inp-{seed}.npy"));
        let w_path = dir.0.join(format!("w-{seed}.npy"));
        let f = |v: &[i64]| v.iter().map(|x| *x as f32).collect::<Vec<f32>>();
        write_npy_f32(&inp_path, &[rows as u64, PP_HIDDEN as u64], &f(&inp));
        write_npy_f32(&w_path, &[(p * PP_HIDDEN) as u64, PP_HIDDEN as u64], &f(&w));
        let chip = mode == "chip";
        let r = run(
            &dir.0,
            &seed.to_string(),
            &module,
            if chip { "pp_pipeline" } else { "pp_host" },
            p,
            &[
                format!("--input=inp=@{}", inp_path.display()),
                format!("--input=w=@{}", w_path.display()),
                format!("--input=out={rows}x{PP_HIDDEN}xf32=-1"),
            ],
        );
        let what = format!("pp_pipeline P={p} {mode} seed {seed}");
        assert_eq!(r.out.code, 0, "{what}:\n{}\n{}", r.out.stdout, r.out.stderr);
        // Per rank: the fills of its two pl.tensor.creates, a stage and a permute per step
        // (NM + P - 1 steps; none for one stage), and the reduce.
        let steps = (PP_MICRO + p - 1) as i64;
        let permutes = if p > 1 { steps } else { 0 };
        assert_eq!(
            r.blocks,
            p as i64 * (2 + steps + permutes + 1),
            "{what}: launches"
        );
        let (want_out, want_loss) = pp_golden(p, &inp, &w);
        assert!(
            want_out.iter().any(|v| *v > 1.0),
            "{what}: a trivial output"
        );
        // The last stage stores every micro-batch's output (the CHIP entry: its own copy of out).
        let last = if chip { p - 1 } else { 0 };
        assert_rows_eq(&what, &r.f32s("out", last), &want_out, PP_HIDDEN);
        for (rank, want) in want_loss.iter().enumerate() {
            assert_eq!(&r.f32s("loss", rank), want, "{what}: rank {rank}'s loss");
        }
        r.signal_back_to_zero(p, &what);
    }
}

#[test]
fn pp_pipeline_p2() {
    pp(2);
}

#[test]
fn pp_pipeline_p4() {
    pp(4);
}

/// Retargeting reaches every P-dependent shape: the file written for one rank count, retargeted
/// to it, is unchanged (checked by `module_for`), and to the other count differs.
#[test]
fn retargeting_changes_the_file_only_for_another_rank_count() {
    let dir = scratch("retarget");
    for ex in [&MOE, &MICRO, &TP, &EP, &PP] {
        let same = ex.module_for(ex.written_for, &dir.0);
        assert!(same.starts_with(root().join("examples")));
        let other = if ex.written_for == 2 { 4 } else { 2 };
        let text = std::fs::read_to_string(ex.module_for(other, &dir.0)).unwrap();
        let original = std::fs::read_to_string(&same).unwrap();
        assert_ne!(text, original, "{}", ex.name);
    }
}

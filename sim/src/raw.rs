//! Raw launches (docs/sim.md "Raw launches"): a case's kernel submitted by the engine's test
//! hook ([`pld_run::engine::RawLaunch`]) instead of through `chip_pipeline`, for the launches
//! pld-opt never emits but the kernel template's contract covers: widths other than the fold,
//! `[P, 1]` counts, rows of several dimensions, `recv_counts` in local memory, one or null
//! context slots, targets that start non-zero, early returns and capacity refusals. The kernel
//! comes from the tree of a carrier module of the case's op and dtype, one text (and so one
//! cached build) for every raw case of that op and dtype; the result is judged as a pipeline
//! case's is, by the golden and the copy trace.

use crate::case::{Case, Contexts, Elem, Launch, Op};
use crate::chip_pipeline::{CHIP_FN, chip_pipeline};
use crate::launch::{self, block_counts, i32_bytes, payload, started};
use crate::result::{RankResult, SimResult};
use crate::wire;
use pld_run::engine::{Arg, EntryRun, Place, RawLaunch, Spec, TensorArg};
use pld_run::toolchain::Toolchain;

/// The module whose tree holds the kernel: per op and dtype, the module of a CI-slice entry that
/// the ThreadSanitizer slice builds too (`repeat:P4_L8_f32`, `repeat:P8_L3`,
/// `indexed_repeat:P4_L7`, `indexed:P8_L8_i8_reverse`; `matrix/raw.rs` checks the texts are
/// theirs), so the raw launches, plain or under TSan, add no tree of their own. The kernel does
/// not depend on the module: its P, widths and shapes come from the launch.
pub(crate) fn carrier(op: Op, dtype: Elem) -> Case {
    let (p, l, mr, re, n_in) = match (op, dtype) {
        (Op::AllToAllV, Elem::I8) => (8, 3, 2, 9, None),
        (Op::AllToAllV, _) => (4, 8, 3, 7, None),
        (Op::IndexedAllToAllV, Elem::I8) => (8, 8, 3, 5, Some(27)),
        (Op::IndexedAllToAllV, _) => (4, 7, 3, 7, Some(15)),
    };
    let mut c = Case::exchange(p, l, dtype, mr, re, vec![vec![0; p]; p]);
    c.op = op;
    c.input_rows = n_in;
    c
}

/// `rows` rows of `re` elements: `[rows, RE]`, or `[rows, 2, RE / 2]` for an even RE > 2 (the
/// kernel's row is the product of the dimensions after the first).
fn rows_of(rows: i64, re: i64) -> Vec<u64> {
    match re > 2 && re % 2 == 0 {
        true => vec![rows.max(0) as u64, 2, re as u64 / 2],
        false => vec![rows.max(0) as u64, re.max(0) as u64],
    }
}

/// The kernel's operands in argument order (input, target, signal, send_counts, recv_counts,
/// and the indexed op's index), then its context slots.
fn args(case: &Case, l: &Launch) -> Vec<Arg> {
    let (p, el) = (case.ranks, case.dtype.size() as usize);
    let (mr, re) = (case.max_recv, case.row_elems);
    let in_elems = l.input_row_elems.unwrap_or(re);
    let counts = if l.counts_2d {
        vec![p as u64, 1]
    } else {
        vec![p as u64]
    };
    let mut input = TensorArg::zeros(Place::Host, el, &rows_of(case.in_rows(), in_elems));
    let mut target = TensorArg::zeros(Place::Window, el, &rows_of(case.target_rows(), re));
    let signal = TensorArg::zeros(Place::Window, 4, &[p as u64, case.stride() as u64]);
    let mut send = TensorArg::zeros(Place::Window, 4, &counts);
    let recv_place = if l.recv_local {
        Place::Host
    } else {
        Place::Window
    };
    let mut recv = TensorArg::zeros(recv_place, 4, &counts);
    for r in 0..p {
        input
            .per_rank
            .insert(r, payload(case, r, case.in_rows(), in_elems));
        send.per_rank.insert(r, i32_bytes(&case.send_counts[r]));
    }
    if l.target_fill != 0 {
        target.shared = Some(vec![l.target_fill; target.bytes()]);
    }
    if l.recv_fill != 0 {
        recv.shared = Some(i32_bytes(&vec![l.recv_fill; p]));
    }
    let mut v = vec![input, target, signal, send, recv];
    if case.op == Op::IndexedAllToAllV {
        let len = l.index_len.unwrap_or(p as i64 * mr).max(0);
        let dims = if l.index_2d {
            vec![len as u64, 1]
        } else {
            vec![len as u64]
        };
        let mut index = TensorArg::zeros(Place::Host, 4, &dims);
        for (r, list) in case.index_lists().iter().enumerate() {
            index
                .per_rank
                .insert(r, i32_bytes(&list[..(len as usize).min(list.len())]));
        }
        v.push(index);
    }
    let slots = if l.contexts == Contexts::One { 1 } else { 3 };
    let mut args: Vec<Arg> = v.into_iter().map(Arg::Tensor).collect();
    args.extend((0..slots).map(|_| Arg::Comm));
    args
}

/// Where the collective's operands are among the engine's tensors (see [`args`]).
const OPERANDS: wire::Operands = wire::Operands {
    input: 0,
    target: 1,
    recv_counts: 4,
};

/// Runs a raw case (`case.launch`) of `kernel`, the case's kernel. `Err` is a failure of pld-sim
/// itself; a refusal or an early return is an `Ok` result for the judge.
pub(crate) fn run_case(tc: &Toolchain, case: &Case, kernel: &str) -> Result<SimResult, String> {
    let l = case.launch.as_ref().ok_or("not a raw case")?;
    let text = chip_pipeline(&carrier(case.op, case.dtype));
    let kernel_dir = tc.root.join("sim/src");
    let runner = launch::build(tc, &text, &kernel_dir, (&[CHIP_FN], false), case.blocks())?
        .map_err(|r| format!("the carrier module was refused ({}): {}", r.code, r.message))?;
    let mut spec = Spec::new(case.ranks, 4096, EntryRun::default());
    spec.entries = vec![EntryRun {
        index: 0,
        domain: None,
        args: args(case, l),
        launch: Some(RawLaunch {
            kernel: kernel.to_string(),
            block_num: l.blocks,
            sync_start: l.blocks > 1,
            null_comms: 2 * usize::from(l.contexts == Contexts::NullExtras),
        }),
    }];
    spec.aiv_capacity = Some(case.aiv_capacity);
    spec.repeat = case.repeat;
    spec.trace_copies = true;
    // Ranks enter at staggered times (0, 300, 600 µs before each block): only the kernel's
    // barriers order them.
    spec.trace_kernel = Some(kernel.to_string());
    spec.delay_us = (0..case.ranks).map(|r| 300 * (r as i64 % 3)).collect();
    launch::configure(tc, &mut spec, case.timeout_ms, case.fault)?;
    let ran =
        match launch::run_bounded(tc, &runner, &spec, (case.timeout_ms, case.blocks()), "rank")? {
            Ok(ran) => ran,
            Err(killed) => return Ok(killed),
        };
    let report = &ran.report;
    if ran.traced(&spec) {
        wire::check(case, kernel, OPERANDS, &report.copies)
            .map_err(|e| format!("the copy trace of {kernel}: {e}"))?;
    }
    let kernels = block_counts(report, &runner.kernels(), str::to_string);
    let started = started(&kernels);
    let (status, code, message) = ran.outcome(
        &started,
        || {
            format!(
                "raw launch of {kernel}: {} ranks x {} blocks, {} exchange(s)",
                case.ranks, l.blocks, case.repeat
            )
        },
        || None,
        |r, code| format!("rank {r}: the raw launch returned {code}"),
    );
    let mut ranks = Vec::new();
    for r in 0..case.ranks {
        if ran.unfinished.contains(&r) {
            ranks.push(RankResult::failed());
            continue;
        }
        let get = |i: usize| {
            report
                .output(i, r)
                .ok_or_else(|| format!("the engine wrote no tensor {i} of rank {r}"))
        };
        let (target, signal, recv) = (get(1)?, get(2)?, get(4)?);
        let rows = case.target_rows().max(0) as usize;
        let shape = (
            case.dtype,
            rows,
            case.row_elems.max(0) as usize,
            case.stride() as usize,
        );
        ranks.push(RankResult::from_windows(shape, &target, &signal, &recv));
    }
    Ok(SimResult {
        status: status.into(),
        code,
        message,
        blocks: case.blocks(),
        ranks,
        kernels,
        ..SimResult::default()
    })
}

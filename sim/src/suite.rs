//! One model for every pld-sim suite, all_to_all_v's ([`crate::matrix`]) and the family's
//! ([`crate::family::matrix`]): a case is a [`SimCase`] (its JSON, its element type, its run
//! through the engine and its golden's verdict), a matrix is named [`Section`]s of [`Entry`]s,
//! each saying what it must produce ([`Expect`]), and [`judge`] gives the verdict on the one
//! [`SimResult`]. pld-sim's case and `--matrix` commands are written once over it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use serde_json::Value;

use crate::SimError;
use crate::result::SimResult;
use pld_run::elem::Elem;
use pld_run::toolchain::Toolchain;

/// A pld-sim case of one suite.
pub trait SimCase: Clone + std::fmt::Debug {
    /// The case JSON (what `--list` prints; pld-sim reads it back as the same case, and refuses
    /// a raw launch's, which no case file states).
    fn to_json(&self) -> Value;
    /// The element type of its target (how its result prints and parses).
    fn dtype(&self) -> Elem;
    /// Runs the case end to end. `Err` is a failure of pld-sim itself; every outcome of the
    /// case, compile_error included, is an `Ok` result.
    fn run(&self, tc: &Toolchain) -> Result<SimResult, SimError>;
    /// The suite's verdict on a result that must be `expect` (never [`Expect::CompileError`],
    /// which [`judge`] decides alike for every suite): the golden, the kernels' block counts.
    fn check(&self, expect: &Expect, result: &SimResult) -> Result<(), String>;
}

/// What an entry must produce.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// status ok, and the golden (all_to_all_v: targets, recv_counts, zero signal, the
    /// collective's and the steps' block counts; the family: every call's target, the signal,
    /// the kernels' block counts).
    Golden,
    /// compile_error whose message contains the text.
    CompileError(String),
    /// all_to_all_v: fatal / invalid_args with the code, and nothing of the collective or after
    /// it ran: zero targets, recv_counts and signals, no collective or consume_step block started.
    Refused {
        /// `fatal` or `invalid_args`.
        status: &'static str,
        /// The runtime's error code.
        code: i64,
    },
    /// An exchange kernel's raw launch that returns early (an operand it cannot serve): status
    /// ok, every block of the collective started, and its targets, recv_counts and signals as
    /// they started.
    Untouched,
    /// all_to_all_v's `domains` case: status ok, every domain's windows equal its own exchange's
    /// golden on its devices and are untouched (zero) on every other device of the world; the
    /// collective ran Σ N·B_N × repeat × layers blocks, stage_step and consume_step Σ N × repeat
    /// × layers.
    Domains,
}

/// One matrix entry.
#[derive(Clone, Debug)]
pub struct Entry<C> {
    /// A unique name (`--filter` matches substrings of it).
    pub name: String,
    /// The case run.
    pub case: C,
    /// How its result is judged.
    pub expect: Expect,
}

/// One section of a matrix: a kind of case and its entries.
pub struct Section<C> {
    /// What the section covers (the names of most of its entries start with it).
    pub name: &'static str,
    /// Its entries in the full matrix.
    pub full: Vec<Entry<C>>,
    /// Its entries in the CI slice.
    pub ci: Vec<Entry<C>>,
}

/// Every section's full entries (`ci` false) or CI-slice entries, in section order.
pub fn entries<C>(sections: Vec<Section<C>>, ci: bool) -> Vec<Entry<C>> {
    sections
        .into_iter()
        .flat_map(|s| if ci { s.ci } else { s.full })
        .collect()
}

/// Judges a result against an entry's expectation.
pub fn judge<C: SimCase>(entry: &Entry<C>, result: &SimResult) -> Result<(), SimError> {
    match &entry.expect {
        Expect::CompileError(text) => {
            if result.status != "compile_error" || !result.message.contains(text.as_str()) {
                return Err(SimError::Mismatch(format!(
                    "expected a compile_error containing {text:?}, got {} (code {}): {}",
                    result.status, result.code, result.message
                )));
            }
            Ok(())
        }
        expect => entry.case.check(expect, result).map_err(SimError::Mismatch),
    }
}

/// Runs and judges every entry, `jobs` at a time (each entry is its own engine run, so they are
/// independent; the build cache serializes what two of them would build alike), handing each
/// verdict and its wall time (seconds) to `report` in entry order; returns (passed, failed).
pub fn run_matrix<C: SimCase + Sync>(
    tc: &Toolchain,
    entries: &[Entry<C>],
    jobs: usize,
    mut report: impl FnMut(&Entry<C>, &Result<(), SimError>, f64),
) -> (usize, usize) {
    let (mut passed, mut failed) = (0, 0);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, entries.len().max(1)) {
            let (tx, next) = (tx.clone(), &next);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(e) = entries.get(i) else { return };
                    let t = Instant::now();
                    // A panic is that entry's failure: the others still run and report.
                    let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        e.case.run(tc).and_then(|r| judge(e, &r))
                    }))
                    .unwrap_or_else(|_| {
                        Err(SimError::Driver(format!(
                            "pld-sim panicked running {}",
                            e.name
                        )))
                    });
                    if tx.send((i, verdict, t.elapsed().as_secs_f64())).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Verdicts arrive as entries finish; they are reported in entry order.
        let mut done: Vec<Option<(Result<(), SimError>, f64)>> =
            entries.iter().map(|_| None).collect();
        let mut reported = 0;
        for (i, verdict, secs) in rx {
            done[i] = Some((verdict, secs));
            while let Some((verdict, secs)) = done.get_mut(reported).and_then(Option::take) {
                if verdict.is_ok() {
                    passed += 1;
                } else {
                    failed += 1;
                }
                report(&entries[reported], &verdict, secs);
                reported += 1;
            }
        }
    });
    (passed, failed)
}

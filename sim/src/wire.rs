//! What the exchange kernels move, checked from the engine's copy trace
//! (`pld_run::engine::Spec::trace_copies`): the white-box rules of docs/sim.md ("The copy trace")
//! that the golden, which sees only the windows after the run, cannot see. Every copy the
//! collective's kernel makes lands inside one (src → dst) chunk's valid rows or in a
//! `recv_counts` entry, made by the block the work split assigns; each chunk receives exactly its
//! rows once per exchange; each `recv_counts` entry is stored once per exchange. The expectations
//! come from the case alone (the counts clamped as the golden clamps them). The collective
//! family's kernels have one rule here: every copy lands inside the op's target.

use crate::case::{Case, Op};
use crate::golden::clamped_rows;
use pld_run::engine::{CopyRecord, Loc};

/// The most ranks the exchange kernels address (their signal protocol's limit).
const KERNEL_MAX_RANKS: usize = 16;

/// Where the pipeline's collective operands are among the engine's tensors.
#[derive(Clone, Copy, Debug)]
pub struct Operands {
    /// The collective's `input` (the staging window).
    pub input: usize,
    /// Its `target` window.
    pub target: usize,
    /// Its `recv_counts` window.
    pub recv_counts: usize,
}

/// Checks the copies of `kernel` (the case's collective) in `copies` against the case's rules.
/// `Err` names the first copy or tally that breaks one.
pub fn check(case: &Case, kernel: &str, at: Operands, copies: &[CopyRecord]) -> Result<(), String> {
    // A kernel that cannot serve the exchange (more ranks than it addresses, no row per source,
    // empty rows) returns before its first copy: nothing may cross.
    if case.ranks > KERNEL_MAX_RANKS || case.max_recv <= 0 || case.row_elems <= 0 {
        return match copies.iter().find(|c| c.kernel == kernel) {
            Some(c) => Err(format!(
                "rank {} block {} copied {} bytes, but the kernel must return early ({} ranks, max_recv {}, row_elems {})",
                c.rank, c.block, c.bytes, case.ranks, case.max_recv, case.row_elems
            )),
            None => Ok(()),
        };
    }
    let mut tally = Tally::new(case);
    for c in copies.iter().filter(|c| c.kernel == kernel) {
        // A wild copy (by a kernel under test) is a finding, never an index out of range here.
        if c.rank >= tally.p || c.dst.rank >= tally.p {
            return Err(format!(
                "rank {} block {} copied {} bytes into rank {}'s {:?}, outside the exchange's {} ranks",
                c.rank, c.block, c.bytes, c.dst.rank, c.dst, tally.p
            ));
        }
        if c.dst.tensor == Some(at.recv_counts) {
            tally.recv_store(c)?;
        } else if c.dst.tensor == Some(at.target) {
            match case.op {
                Op::AllToAllV => tally.plain_put(c, at.input)?,
                Op::IndexedAllToAllV => tally.indexed_put(c, at.input)?,
            }
        } else {
            return Err(format!(
                "rank {} block {} copied {} bytes outside every target and recv_counts ({:?})",
                c.rank, c.block, c.bytes, c.dst
            ));
        }
    }
    tally.totals()
}

/// The collective family's rule (docs/sim.md "The copy trace"): every copy `kernel` makes lands
/// inside the op's target (`target`: its tensor and bytes; `None`, the barrier: no copy at all)
/// on one of the `ranks` ranks.
pub fn check_family(
    kernel: &str,
    target: Option<(usize, u64)>,
    ranks: usize,
    copies: &[CopyRecord],
) -> Result<(), String> {
    for c in copies.iter().filter(|c| c.kernel == kernel) {
        let inside = target.is_some_and(|(tensor, bytes)| {
            c.dst.tensor == Some(tensor)
                && c.dst.rank < ranks
                && c.dst
                    .offset
                    .checked_add(c.bytes)
                    .is_some_and(|end| end <= bytes)
        });
        if !inside {
            return Err(format!(
                "rank {} block {} copied {} bytes to {:?}, outside every rank's target",
                c.rank, c.block, c.bytes, c.dst
            ));
        }
    }
    Ok(())
}

/// Bytes written per (src, dst) chunk and row, and `recv_counts` stores, over the run.
struct Tally<'a> {
    case: &'a Case,
    p: usize,
    mr: i64,
    row_bytes: i64,
    /// The width that carries the exchange: min(B, S).
    active: i64,
    exchanges: i64,
    index: Vec<Vec<i32>>,
    /// `stores[dst][src]`: how often rank dst stored recv_counts[src].
    stores: Vec<Vec<i64>>,
    /// `written[src][dst][k]`: bytes the sender wrote into row k of its chunk at dst.
    written: Vec<Vec<Vec<i64>>>,
    /// `zeroed[dst][src][k]`: bytes the receiver zeroed in row k of src's chunk (indexed).
    zeroed: Vec<Vec<Vec<i64>>>,
}

impl<'a> Tally<'a> {
    fn new(case: &'a Case) -> Tally<'a> {
        let p = case.ranks;
        let mr = case.max_recv;
        let rows = vec![vec![vec![0; mr.max(0) as usize]; p]; p];
        Tally {
            case,
            p,
            mr,
            row_bytes: case.row_elems * case.dtype.size() as i64,
            active: case.blocks().min(case.stride()).max(1),
            exchanges: case.repeat as i64 * case.exchanges_per_call(),
            index: case.gathered_lists(),
            stores: vec![vec![0; p]; p],
            written: rows.clone(),
            zeroed: rows,
        }
    }

    fn rows(&self, src: usize, dst: usize) -> i64 {
        clamped_rows(self.case.send_counts[src][dst], self.mr)
    }

    /// A `recv_counts[s]` store: 4 bytes into the copier's own entry, by the block that serves
    /// peer s (all_to_all_v: lane 0 of s's blocks; indexed: the receiver's block dst % active).
    fn recv_store(&mut self, c: &CopyRecord) -> Result<(), String> {
        let s = (c.dst.offset / 4) as i64;
        let p = self.p as i64;
        let owner = match self.case.op {
            Op::AllToAllV if self.active < p => s % self.active,
            Op::AllToAllV => s * (self.active / p),
            Op::IndexedAllToAllV => c.rank as i64 % self.active,
        };
        if c.bytes != 4
            || c.dst.offset % 4 != 0
            || c.dst.rank != c.rank
            || c.block != owner
            || s >= p
        {
            return Err(format!(
                "rank {} block {} stored {} bytes at recv_counts[{s}] of rank {} (the owner is block {owner} of the receiver, 4 bytes)",
                c.rank, c.block, c.bytes, c.dst.rank
            ));
        }
        self.stores[c.rank][s as usize] += 1;
        Ok(())
    }

    /// The chunk a target offset lies in and the offset inside it.
    fn chunk_of(&self, dst: &Loc) -> (usize, i64) {
        let chunk = self.mr * self.row_bytes;
        let off = dst.offset as i64;
        ((off / chunk.max(1)) as usize, off % chunk.max(1))
    }

    /// Checks that `[from, from + bytes)` of (src → dst)'s chunk lies in its valid rows and adds
    /// it per row to what the sender wrote there (`zeroed`: what the receiver zeroed).
    fn add(
        &mut self,
        c: &CopyRecord,
        zeroed: bool,
        (src, dst): (usize, usize),
        from: i64,
    ) -> Result<(), String> {
        let valid = self.rows(src, dst) * self.row_bytes;
        let to = i64::try_from(c.bytes)
            .ok()
            .and_then(|b| from.checked_add(b))
            .unwrap_or(i64::MAX);
        if from < 0 || to > valid {
            return Err(format!(
                "rank {} block {} {} bytes [{from}, {to}) of the {src} -> {dst} chunk (rank {dst}'s target), valid [0, {valid})",
                c.rank,
                c.block,
                if zeroed { "zeroed" } else { "wrote" }
            ));
        }
        let rb = self.row_bytes.max(1);
        let rows_of = match zeroed {
            true => &mut self.zeroed[dst][src],
            false => &mut self.written[src][dst],
        };
        let mut k = from / rb;
        while k * rb < to {
            rows_of[k as usize] += to.min((k + 1) * rb) - from.max(k * rb);
            k += 1;
        }
        Ok(())
    }

    /// all_to_all_v: rank src pushes into its chunk at dst, by the blocks of dst's lane group;
    /// a copy that reads the input reads the same row of the chunk it sends to dst.
    fn plain_put(&mut self, c: &CopyRecord, input: usize) -> Result<(), String> {
        let (src, dst) = (c.rank, c.dst.rank);
        let (chunk, from) = self.chunk_of(&c.dst);
        if chunk != src {
            return Err(format!(
                "rank {src} block {} wrote into chunk {chunk} of rank {dst}'s target (its own is chunk {src})",
                c.block
            ));
        }
        let p = self.p as i64;
        let lanes = self.active / p;
        let ok = if self.active < p {
            c.block == dst as i64 % self.active
        } else {
            c.block / lanes == dst as i64
        };
        if !ok {
            return Err(format!(
                "rank {src} block {} pushed to peer {dst} (active width {})",
                c.block, self.active
            ));
        }
        let chunk_bytes = self.mr * self.row_bytes;
        if c.src.tensor != Some(input)
            || c.src.rank != src
            || c.src.offset as i64 != dst as i64 * chunk_bytes + from
        {
            return Err(format!(
                "rank {src} block {} sent bytes from {:?} into offset {from} of its chunk at rank {dst} (expected rank {src}'s input at {})",
                c.block,
                c.src,
                dst as i64 * chunk_bytes + from
            ));
        }
        self.add(c, false, (src, dst), from)?;
        // With K = active / P lanes per peer, lane b % K pushes only its slice of the chunk's
        // valid elements: lane_elems = ceil(valid / (K * align)) * align (align: 32 bytes of
        // elements), begin = min(lane * lane_elems, valid), end = min(begin + lane_elems, valid).
        if self.active >= p {
            let esz = self.case.dtype.size() as i64;
            let (align, lane) = ((32 / esz).max(1), c.block % lanes);
            let valid = self.rows(src, dst) * self.case.row_elems;
            let lane_elems = (valid + lanes * align - 1) / (lanes * align) * align;
            let begin = (lane * lane_elems).min(valid);
            let end = (begin + lane_elems).min(valid);
            if from < begin * esz || from + c.bytes as i64 > end * esz {
                return Err(format!(
                    "rank {src} block {} (lane {lane} of {lanes}) pushed bytes [{from}, {}) of its chunk at rank {dst}; its slice is [{}, {})",
                    c.block,
                    from + c.bytes as i64,
                    begin * esz,
                    end * esz
                ));
            }
        }
        Ok(())
    }

    /// indexed_all_to_all_v: a receiver's zero fill of a remote chunk (by its block dst %
    /// active), or the sender's rows (a remote chunk by block dst % active, the local chunk
    /// split by rows over the active blocks); a row copied from the input is the row its index
    /// entry names.
    fn indexed_put(&mut self, c: &CopyRecord, input: usize) -> Result<(), String> {
        let (chunk, from) = self.chunk_of(&c.dst);
        let d = c.dst.rank;
        if chunk >= self.p {
            return Err(format!(
                "rank {} block {} wrote past the last chunk of rank {d}'s target (offset {})",
                c.rank, c.block, c.dst.offset
            ));
        }
        if d == c.rank && chunk != d {
            // The receiver zeroes its valid rows of src's chunk before the sender writes.
            let src = chunk;
            if c.block != d as i64 % self.active {
                return Err(format!(
                    "rank {d} block {} zeroed rows of chunk {src} (the receiver's block is {})",
                    c.block,
                    d as i64 % self.active
                ));
            }
            return self.add(c, true, (src, d), from);
        }
        let src = c.rank;
        if chunk != src {
            return Err(format!(
                "rank {src} block {} wrote into chunk {chunk} of rank {d}'s target (its own is chunk {src})",
                c.block
            ));
        }
        // The range first (past it a row would name no index entry), then who wrote it and what
        // it read.
        self.add(c, false, (src, d), from)?;
        let rb = self.row_bytes.max(1);
        let (k0, k1) = (from / rb, (from + c.bytes as i64 + rb - 1) / rb);
        if d != src {
            if c.block != d as i64 % self.active {
                return Err(format!(
                    "rank {src} block {} wrote to peer {d} (its writer is block {})",
                    c.block,
                    d as i64 % self.active
                ));
            }
        } else {
            let rows = self.rows(src, d);
            let per = (rows + self.active - 1) / self.active;
            if let Some(k) = (k0..k1).find(|k| c.block != k / per.max(1)) {
                return Err(format!(
                    "rank {src} block {} copied local row {k} (the split gives it to block {})",
                    c.block,
                    k / per.max(1)
                ));
            }
        }
        // A sender's write reads its own input, but for the zeros of its local chunk's rows
        // whose index entry is outside the input; a copy of whole rows reads, row by row, the
        // rows their index entries name (the kernel merges consecutive entries into one copy).
        let first = c.src.offset as i64 / rb;
        let named = |k: i64| self.index[src][(d as i64 * self.mr + k) as usize] as i64;
        let n_in = self.case.readable_rows();
        let wrong = if c.src.tensor != Some(input) || c.src.rank != src {
            let zeros = d == src && (k0..k1).all(|k| !(0..n_in).contains(&named(k)));
            (!zeros).then_some(k0)
        } else if from % rb == 0 && c.src.offset as i64 % rb == 0 {
            (k0..k1).find(|&k| named(k) != first + (k - k0))
        } else {
            None
        };
        if let Some(k) = wrong {
            return Err(format!(
                "rank {src} block {} copied {:?} into slot {k} of its chunk at rank {d}; the index names row {} of rank {src}'s input",
                c.block,
                c.src,
                named(k)
            ));
        }
        Ok(())
    }

    /// Per (src, dst): recv_counts stored once per exchange, each valid row written once per
    /// exchange (indexed: a remote row whose index entry is outside the input is not sent, and
    /// every valid row of a remote chunk is zeroed by its receiver once per exchange).
    fn totals(&self) -> Result<(), String> {
        let n_in = self.case.readable_rows();
        let n = self.exchanges;
        for src in 0..self.p {
            for dst in 0..self.p {
                if self.stores[dst][src] != n {
                    return Err(format!(
                        "rank {dst} stored recv_counts[{src}] {} times in {n} exchanges",
                        self.stores[dst][src]
                    ));
                }
                for k in 0..self.rows(src, dst) {
                    let sent = match self.case.op {
                        Op::AllToAllV => true,
                        Op::IndexedAllToAllV => {
                            let ix = self.index[src][(dst as i64 * self.mr + k) as usize] as i64;
                            src == dst || (0..n_in).contains(&ix)
                        }
                    };
                    let want = if sent { self.row_bytes * n } else { 0 };
                    let got = self.written[src][dst][k as usize];
                    if got != want {
                        return Err(format!(
                            "{src} -> {dst} row {k}: the sender wrote {got} bytes in {n} exchanges, expected {want}"
                        ));
                    }
                    if self.case.op == Op::IndexedAllToAllV && src != dst {
                        let zeroed = self.zeroed[dst][src][k as usize];
                        if zeroed != self.row_bytes * n {
                            return Err(format!(
                                "{src} -> {dst} row {k}: the receiver zeroed {zeroed} bytes in {n} exchanges, expected {}",
                                self.row_bytes * n
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Elem;

    const K: &str = "__builtin_all_to_all_v__fp32";
    const AT: Operands = Operands {
        input: 3,
        target: 4,
        recv_counts: 7,
    };

    fn loc(tensor: usize, rank: usize, offset: u64) -> Loc {
        Loc {
            tensor: Some(tensor),
            rank,
            offset,
        }
    }

    fn copy(rank: usize, block: i64, dst: Loc, src: Loc, bytes: u64) -> CopyRecord {
        CopyRecord {
            run: 0,
            rank,
            block,
            kernel: K.into(),
            dst,
            src,
            bytes,
        }
    }

    /// P = 2, L = 2 (B = A = 2, one lane per peer), MAX_RECV 2, one f32 per row: chunk (src →
    /// dst) is 8 bytes at src*8 of dst's target, pushed by block dst; recv_counts[s] by block s.
    fn case() -> Case {
        Case::exchange(2, 2, Elem::F32, 2, 1, vec![vec![1, 2], vec![-1, 5]])
    }

    fn trace() -> Vec<CopyRecord> {
        let mut v = Vec::new();
        for r in 0..2 {
            for s in 0..2u64 {
                v.push(copy(r, s as i64, loc(7, r, 4 * s), loc(9, r, 0), 4));
            }
        }
        v.push(copy(0, 0, loc(4, 0, 0), loc(3, 0, 0), 4)); // 0 -> 0: 1 row
        v.push(copy(0, 1, loc(4, 1, 0), loc(3, 0, 8), 8)); // 0 -> 1: 2 rows
        v.push(copy(1, 1, loc(4, 1, 8), loc(3, 1, 8), 8)); // 1 -> 1: clamp(5) = 2 rows
        // Another kernel's copies are not the collective's.
        let mut other = copy(0, 0, loc(0, 0, 0), loc(1, 0, 0), 64);
        other.kernel = "stage_step".into();
        v.push(other);
        v
    }

    #[test]
    fn a_correct_exchange_passes() {
        check(&case(), K, AT, &trace()).unwrap();
    }

    /// P = 1, B = 3 lanes over one row of 10 f32 (align 8 elements): lane slices [0, 32),
    /// [32, 40) and [40, 40) bytes; lane 2 copies nothing.
    #[test]
    fn each_lane_pushes_its_slice() {
        let c = Case::exchange(1, 3, Elem::F32, 1, 10, vec![vec![1]]);
        let slices = |first_end: u64| {
            vec![
                copy(0, 0, loc(7, 0, 0), loc(9, 0, 0), 4),
                copy(0, 0, loc(4, 0, 0), loc(3, 0, 0), first_end),
                copy(
                    0,
                    1,
                    loc(4, 0, first_end),
                    loc(3, 0, first_end),
                    40 - first_end,
                ),
            ]
        };
        check(&c, K, AT, &slices(32)).unwrap();
        // The same bytes, split at 28: every row right, but lane 1 pushed part of lane 0's slice.
        let e = check(&c, K, AT, &slices(28)).unwrap_err();
        assert!(
            e.contains("block 1 (lane 1 of 3) pushed bytes [28, 40)")
                && e.contains("its slice is [32, 40)"),
            "{e}"
        );
    }

    #[test]
    fn each_broken_rule_is_named() {
        let broken = |f: &dyn Fn(&mut Vec<CopyRecord>)| {
            let mut t = trace();
            f(&mut t);
            check(&case(), K, AT, &t).unwrap_err()
        };
        // A byte past the count (the golden cannot see it once overwritten).
        let e = broken(&|t| t[4].bytes = 8);
        assert!(
            e.contains("wrote bytes [0, 8) of the 0 -> 0 chunk") && e.contains("valid [0, 4)"),
            "{e}"
        );
        // The wrong block.
        let e = broken(&|t| t[5].block = 0);
        assert!(e.contains("rank 0 block 0 pushed to peer 1"), "{e}");
        // Into another sender's chunk.
        let e = broken(&|t| t[6].dst.offset = 0);
        assert!(e.contains("wrote into chunk 0 of rank 1's target"), "{e}");
        // From the wrong input row.
        let e = broken(&|t| t[5].src.offset = 0);
        assert!(e.contains("expected rank 0's input at 8"), "{e}");
        // A row sent twice, a store missing, a store by the wrong block, outside every operand.
        let e = broken(&|t| t.push(t[6].clone()));
        assert!(
            e.contains("1 -> 1 row 0: the sender wrote 8 bytes in 1 exchanges, expected 4"),
            "{e}"
        );
        let e = broken(&|t| {
            t.remove(1);
        });
        assert!(
            e.contains("rank 0 stored recv_counts[1] 0 times in 1 exchanges"),
            "{e}"
        );
        let e = broken(&|t| t[1].block = 0);
        assert!(e.contains("the owner is block 1"), "{e}");
        let e = broken(&|t| t[4].dst.tensor = None);
        assert!(e.contains("outside every target and recv_counts"), "{e}");
        // A wild copy is a finding, not an index out of range.
        let e = broken(&|t| t[5].dst.rank = 5);
        assert!(
            e.contains("into rank 5's") && e.contains("outside the exchange's 2 ranks"),
            "{e}"
        );
        let e = broken(&|t| t[5].dst.offset = 64);
        assert!(e.contains("wrote into chunk 8 of rank 1's target"), "{e}");
    }

    #[test]
    fn repeats_multiply_every_tally() {
        let mut c = case();
        c.repeat = 2;
        let once = trace();
        assert!(
            check(&c, K, AT, &once)
                .unwrap_err()
                .contains("1 times in 2 exchanges")
        );
        let twice: Vec<CopyRecord> = once.iter().chain(once.iter()).cloned().collect();
        check(&c, K, AT, &twice).unwrap();
    }

    /// The indexed op at P = 2, L = 2 (A = 2), MAX_RECV 2, one f32 per row, the identity index:
    /// the receiver's block dst zeroes the valid rows of the remote chunk, the sender's block
    /// dst writes them from the rows the index names, the local chunk's one row goes to block 0.
    #[test]
    fn the_indexed_rules() {
        let mut c = Case::exchange(2, 2, Elem::F32, 2, 1, vec![vec![1, 2], vec![1, 1]]);
        c.op = Op::IndexedAllToAllV;
        let k = "__builtin_indexed_all_to_all_v__fp32";
        let none = Loc {
            tensor: None,
            rank: 0,
            offset: 0,
        };
        let mut t = Vec::new();
        for r in 0..2 {
            for s in 0..2u64 {
                t.push(copy(r, r as i64, loc(7, r, 4 * s), none, 4));
            }
        }
        t.push(copy(0, 0, loc(4, 0, 8), none, 4)); // rank 0 zeroes 1 -> 0's row
        t.push(copy(1, 1, loc(4, 1, 0), none, 8)); // rank 1 zeroes 0 -> 1's two rows
        t.push(copy(0, 1, loc(4, 1, 0), loc(3, 0, 8), 8)); // 0 -> 1: index[0][2..4] = rows 2, 3
        t.push(copy(1, 0, loc(4, 0, 8), loc(3, 1, 0), 4)); // 1 -> 0: index[1][0] = row 0
        t.push(copy(0, 0, loc(4, 0, 0), loc(3, 0, 0), 4)); // local 0 -> 0
        t.push(copy(1, 0, loc(4, 1, 8), loc(3, 1, 8), 4)); // local 1 -> 1: index[1][2] = row 2
        for r in &mut t {
            r.kernel = k.into();
        }
        check(&c, k, AT, &t).unwrap();
        let broken = |f: &dyn Fn(&mut Vec<CopyRecord>)| {
            let mut t = t.clone();
            f(&mut t);
            for r in &mut t {
                r.kernel = k.into();
            }
            check(&c, k, AT, &t).unwrap_err()
        };
        let e = broken(&|t| {
            t.remove(4);
        });
        assert!(
            e.contains("1 -> 0 row 0: the receiver zeroed 0 bytes"),
            "{e}"
        );
        let e = broken(&|t| t[6].src.offset = 0);
        assert!(e.contains("the index names row 2 of rank 0's input"), "{e}");
        let e = broken(&|t| t[5].block = 0);
        assert!(e.contains("rank 1 block 0 zeroed rows of chunk 0"), "{e}");
        // The sender storing zeros into its peer's chunk as well (an in-range row).
        let e = broken(&|t| t.push(copy(0, 1, loc(4, 1, 0), none, 4)));
        assert!(
            e.contains("rank 0 block 1 copied Loc { tensor: None")
                && e.contains("the index names row 2"),
            "{e}"
        );
        // A merged copy of two rows whose second row is not the one its index entry names.
        let mut other = c.clone();
        other.index = Some(vec![vec![0, 1, 2, 0], vec![0, 1, 2, 3]]);
        let e = check(&other, k, AT, &t).unwrap_err();
        assert!(
            e.contains("into slot 1 of its chunk at rank 1; the index names row 0"),
            "{e}"
        );
        // Past the last chunk, and a row past the count whose slot has no index entry.
        let e = broken(&|t| t[6].dst.offset = 80);
        assert!(
            e.contains("wrote past the last chunk of rank 1's target"),
            "{e}"
        );
        let e = broken(&|t| (t[8].dst.offset, t[8].block) = (4, 1));
        assert!(
            e.contains("wrote bytes [4, 8) of the 0 -> 0 chunk") && e.contains("valid [0, 4)"),
            "{e}"
        );
        // The local chunk's row by the wrong block of the split.
        let e = broken(&|t| t[8].block = 1);
        assert!(
            e.contains("rank 0 block 1 copied local row 0 (the split gives it to block 0)"),
            "{e}"
        );
    }

    /// The family's rule: inside the target on the op's ranks, or no copy at all (the barrier).
    #[test]
    fn a_family_kernel_writes_only_its_target() {
        let k = "__builtin_allgather__fp32";
        let mut t = vec![copy(1, 0, loc(3, 0, 32), none_loc(), 32)];
        for r in &mut t {
            r.kernel = k.into();
        }
        check_family(k, Some((3, 64)), 2, &t).unwrap();
        let broken = |f: &dyn Fn(&mut CopyRecord)| {
            let mut t = t.clone();
            f(&mut t[0]);
            check_family(k, Some((3, 64)), 2, &t).unwrap_err()
        };
        assert!(broken(&|c| c.dst.offset = 40).contains("copied 32 bytes to"));
        assert!(broken(&|c| c.dst.tensor = Some(2)).contains("outside every rank's target"));
        assert!(broken(&|c| c.dst.rank = 2).contains("outside every rank's target"));
        assert!(broken(&|c| c.bytes = u64::MAX).contains("outside every rank's target"));
        // The barrier moves no payload; another kernel's copies are not its.
        assert!(check_family(k, None, 2, &t).is_err());
        check_family("__builtin_barrier", None, 2, &t).unwrap();
    }

    fn none_loc() -> Loc {
        Loc {
            tensor: None,
            rank: 0,
            offset: 0,
        }
    }
}

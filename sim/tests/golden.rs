//! The all_to_all_v golden (`pld_sim::golden`, the sim spec's expected outcome) by hand: payloads,
//! clamping, the fold, the indexed gather, layers and domains, and its checks of a result.

use pld_sim::case::{Case, Elem, Op};
use pld_sim::golden::*;
use pld_sim::result::{RankResult, SimResult};

fn case(ranks: usize, max_recv: i64, row_elems: i64, dtype: Elem, counts: Vec<Vec<i32>>) -> Case {
    Case::exchange(ranks, 1, dtype, max_recv, row_elems, counts)
}

fn indexed_case(
    ranks: usize,
    max_recv: i64,
    row_elems: i64,
    counts: Vec<Vec<i32>>,
    input_rows: i64,
    index: Vec<Vec<i32>>,
) -> Case {
    let mut c = case(ranks, max_recv, row_elems, Elem::F32, counts);
    (c.op, c.input_rows, c.index) = (Op::IndexedAllToAllV, Some(input_rows), Some(index));
    c
}

#[test]
fn indexed_two_ranks_by_hand() {
    // P=2, MR=2, one f32 per row, 3 input rows per rank: rank 0's rows are 0, 100, 10000;
    // rank 1's 1000000, 1000100, 1010000. index[src][d*2 + k].
    let c = indexed_case(
        2,
        2,
        1,
        vec![vec![2, 1], vec![-1, 5]],
        3,
        vec![vec![2, 2, 1, 0], vec![0, 1, 3, -7]],
    );
    let g = expected(&c);
    let col = |g: &RankGolden| g.target.iter().map(|r| r[0]).collect::<Vec<_>>();
    // Rank 0: from itself rows index[0][0..2] = 2, 2 (twice the same row); from rank 1
    // nothing (count -1).
    assert_eq!(col(&g[0]), [10_000.0, 10_000.0, 0.0, 0.0]);
    assert_eq!(g[0].recv_counts, vec![2, 0]);
    // Rank 1: from rank 0 one row, index[0][2] = 1; from itself clamp(5) = 2 rows,
    // index[1][2..4] = 3 (out of range: zeros) and -7 (zeros).
    assert_eq!(col(&g[1]), [100.0, 0.0, 0.0, 0.0]);
    assert_eq!(g[1].recv_counts, vec![1, 2]);
    // The identity index with input_rows = P*MR is the plain exchange.
    let mut plain = case(
        3,
        4,
        2,
        Elem::I8,
        vec![vec![2, 0, 4], vec![1, 3, 9], vec![-1, 4, 0]],
    );
    let want = expected(&plain);
    plain.op = Op::IndexedAllToAllV;
    assert_eq!(expected(&plain), want);
    assert_eq!(expected_blocks(&plain), 1);
    plain.core_num = 7;
    assert_eq!((expected_blocks(&plain), fold_blocks(3, 7)), (7, 6));
    plain.core_num = 0;
    assert_eq!(expected_blocks(&plain), 0);
}

#[test]
fn the_fold_by_hand() {
    for (p, l, b) in [
        (4, 10, 8),
        (3, 7, 6),
        (8, 7, 7),
        (8, 9, 8),
        (1, 16, 16),
        (2, 1, 1),
        (16, 16, 16),
        (4, 2_147_483_647, 2_147_483_644),
        (4, 0, 0),
        (4, -1, 0),
        (1, 2_147_483_648, 0),
        (4, i64::MIN, 0),
        (4, i64::MAX, 0),
    ] {
        assert_eq!(fold_blocks(p, l), b, "P={p} L={l}");
    }
    // Agrees with the crate's fold wherever that one is defined (the module is checked
    // against this one, not that one).
    for p in 1..=16usize {
        for l in 1..=40 {
            assert_eq!(
                fold_blocks(p, l),
                pld::cal_all_to_all_v_blocks(p as i64, l),
                "P={p} L={l}"
            );
        }
    }
}

#[test]
fn payload_formulas() {
    assert_eq!(payload(Elem::F32, 3, 2, 1, 4), 3_020_104.0);
    assert_eq!(payload(Elem::F32, 0, 0, 0, 0), 0.0);
    // (1*37 + 2*11 + 3*5 + 4) % 251 - 125 = 78 - 125
    assert_eq!(payload(Elem::I8, 1, 2, 3, 4), -47.0);
    // Wraps modulo 251: (15*37 + 15*11 + 0 + 200) % 251 - 125 = 920 % 251 - 125 = 167 - 125
    assert_eq!(payload(Elem::I8, 15, 15, 0, 200), 42.0);
    for v in [
        payload(Elem::I8, 7, 9, 11, 13),
        payload(Elem::I8, 0, 0, 0, 250),
    ] {
        assert!((-125.0..=125.0).contains(&v));
    }
}

#[test]
fn clamping() {
    assert_eq!(clamped_rows(-2, 4), 0);
    assert_eq!(clamped_rows(0, 4), 0);
    assert_eq!(clamped_rows(3, 4), 3);
    assert_eq!(clamped_rows(4, 4), 4);
    assert_eq!(clamped_rows(7, 4), 4);
    assert_eq!(clamped_rows(i32::MAX, 4), 4);
    assert_eq!(clamped_rows(i32::MIN, 4), 0);
}

#[test]
fn two_ranks_by_hand() {
    // P=2, MR=2, one f32 per row. send_counts[src][dst].
    let c = case(2, 2, 1, Elem::F32, vec![vec![1, 5], vec![-2, 2]]);
    let g = expected(&c);
    // Rank 0 receives 1 row from itself (its input row 0*2+0) and nothing from rank 1 (-2).
    assert_eq!(g[0].recv_counts, vec![1, 0]);
    assert_eq!(
        g[0].target,
        vec![vec![0.0], vec![0.0], vec![0.0], vec![0.0]]
    );
    // Rank 1 receives clamp(5) = 2 rows from rank 0 (rank 0's input rows 2, 3: d=1, k=0,1)
    // and 2 rows from itself (its rows 2, 3).
    assert_eq!(g[1].recv_counts, vec![2, 2]);
    assert_eq!(
        g[1].target,
        vec![
            vec![10_000.0],
            vec![10_100.0],
            vec![1_010_000.0],
            vec![1_010_100.0]
        ]
    );
}

#[test]
fn rows_past_the_count_are_zero() {
    let c = case(
        3,
        4,
        2,
        Elem::I8,
        vec![vec![2, 0, 4], vec![1, 3, 9], vec![-1, 4, 0]],
    );
    let g = expected(&c);
    for dst in 0..3 {
        for src in 0..3 {
            let rows = clamped_rows(c.send_counts[src][dst], 4) as usize;
            for k in 0..4 {
                let row = &g[dst].target[src * 4 + k];
                if k < rows {
                    assert_eq!(
                        row[1],
                        payload(Elem::I8, src as i64, dst as i64, k as i64, 1)
                    );
                } else {
                    assert_eq!(row, &vec![0.0, 0.0]);
                }
            }
        }
    }
}

#[test]
fn layers_by_hand() {
    // P=2, MR=2, one f32 per row; inputs rank 0 [0, 100, 10000, 10100], rank 1 [1000000,
    // 1000100, 1010000, 1010100]. 0->0: 2 rows, 0->1: 1, 1->0: 0, 1->1: 2.
    let mut c = case(2, 2, 1, Elem::F32, vec![vec![2, 1], vec![0, 2]]);
    let col = |g: &RankGolden| g.target.iter().map(|r| r[0]).collect::<Vec<_>>();
    let g = expected(&c);
    assert_eq!(col(&g[0]), [0.0, 100.0, 0.0, 0.0]);
    assert_eq!(col(&g[1]), [10_000.0, 0.0, 1_010_000.0, 1_010_100.0]);
    // Layer 1 stages those windows: rank 1's row 0 is now rank 0's target row 2, which
    // nothing wrote (1->0 sends 0 rows), so 0; its own rows 2, 3 come back unchanged.
    c.layers = 2;
    let g = expected(&c);
    assert_eq!(col(&g[0]), [0.0, 100.0, 0.0, 0.0]);
    assert_eq!(col(&g[1]), [0.0, 0.0, 1_010_000.0, 1_010_100.0]);
    assert_eq!(
        (g[0].recv_counts.clone(), g[1].recv_counts.clone()),
        (vec![2, 0], vec![1, 2])
    );
    c.layers = 3;
    c.repeat = 4;
    assert_eq!(expected(&c), g);
}

/// The value rank `dst` holds in target row `src*MR + k` after `n` exchanges, pointwise:
/// `k < rows(src, dst)` ? what rank `src` staged in row `dst*MR + k` : 0.
fn pointwise(c: &Case, n: u32, dst: i64, row: i64, e: i64) -> f64 {
    let (src, k) = (row / c.max_recv, row % c.max_recv);
    if n == 0 {
        return payload(c.dtype, dst, src, k, e); // x_0 = the input (row = d*MR + k)
    }
    if k < clamped_rows(c.send_counts[src as usize][dst as usize], c.max_recv) {
        pointwise(c, n - 1, src, dst * c.max_recv + k, e)
    } else {
        0.0
    }
}

#[test]
fn layers_match_the_pointwise_recursion() {
    let counts = vec![
        vec![2, 0, 4, -1],
        vec![1, 3, 9, 2],
        vec![-1, 4, 0, 3],
        vec![4, 4, 1, 0],
    ];
    for dtype in [Elem::F32, Elem::I8] {
        for (layers, inner, repeat) in [
            (1, 1, 1),
            (2, 1, 1),
            (3, 1, 2),
            (5, 1, 1),
            (2, 3, 1),
            (4, 2, 3),
        ] {
            let mut c = case(4, 4, 3, dtype, counts.clone());
            (c.layers, c.inner_layers, c.repeat) = (layers, inner, repeat);
            let g = expected(&c);
            let n = layers * inner;
            for dst in 0..4 {
                for row in 0..16 {
                    for e in 0..3 {
                        assert_eq!(
                            g[dst as usize].target[row as usize][e as usize],
                            pointwise(&c, n, dst, row, e),
                            "{dtype:?} n={n} repeat={repeat} rank {dst} row {row} elem {e}"
                        );
                    }
                }
            }
        }
    }
}

fn ok_result(c: &Case) -> SimResult {
    SimResult {
        status: "ok".into(),
        blocks: fold_blocks(c.ranks, c.core_num),
        ranks: expected(c)
            .into_iter()
            .map(|g| RankResult {
                recv_counts: Some(g.recv_counts),
                target: words(c.dtype, &g.target),
                signal: vec![vec![0; c.stride() as usize]; c.ranks],
                ..RankResult::default()
            })
            .collect(),
        ..SimResult::default()
    }
}

fn words(dtype: Elem, rows: &[Vec<f64>]) -> Vec<Vec<i64>> {
    rows.iter()
        .map(|r| r.iter().map(|&v| dtype.word(v)).collect())
        .collect()
}

#[test]
fn domains_each_against_their_own_golden_and_untouched_outside() {
    use pld_sim::case::Domain;
    use pld_sim::result::DomainResult;
    // A world of 5 devices, domains of 4 and 2 ranks (devices 4, and 2..5, outside them).
    let mut c = case(5, 2, 3, Elem::F32, Vec::new());
    c.core_num = 3;
    c.domains = vec![
        Domain {
            ranks: 4,
            send_counts: vec![
                vec![2, 0, 1, 3],
                vec![1, 2, -1, 0],
                vec![5, 1, 1, 1],
                vec![0, 0, 2, 2],
            ],
        },
        Domain {
            ranks: 2,
            send_counts: vec![vec![1, 2], vec![2, 0]],
        },
    ];
    let domain = |d: usize| {
        let sub = c.domain_case(d);
        let mut devices = ok_result(&sub).ranks;
        let zero = RankResult {
            recv_counts: Some(vec![0; sub.ranks]),
            target: vec![vec![0; 3]; sub.ranks * 2],
            signal: vec![vec![0; sub.stride() as usize]; sub.ranks],
            ..RankResult::default()
        };
        devices.resize(5, zero);
        DomainResult {
            ranks: sub.ranks,
            blocks: fold_blocks(sub.ranks, 3),
            devices,
        }
    };
    let good = SimResult {
        status: "ok".into(),
        blocks: 3,
        domains: vec![domain(0), domain(1)],
        ..SimResult::default()
    };
    assert_eq!((good.domains[0].blocks, good.domains[1].blocks), (3, 2));
    assert_eq!(check_domains(&c, &good), Ok(()));
    // A write into a device outside the domain.
    let mut bad = good.clone();
    bad.domains[1].devices[3].target[1][0] = Elem::F32.word(7.0);
    assert!(
        check_domains(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("domain 1 (2 ranks): device 3 is outside the domain")
    );
    bad = good.clone();
    bad.domains[1].devices[2].signal[0][0] = 1;
    assert!(
        check_domains(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("device 2 is outside")
    );
    // A domain's own exchange wrong.
    bad = good.clone();
    bad.domains[1].devices[0].recv_counts.as_mut().unwrap()[1] = 0;
    assert!(
        check_domains(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("domain 1 (2 ranks): rank 0: recv_counts")
    );
    // Each domain's B, and the widest at the top.
    bad = good.clone();
    bad.blocks = 2;
    assert!(
        check_domains(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("widest domain's B = 3")
    );
    bad = good.clone();
    bad.domains.pop();
    assert!(
        check_domains(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("1 domains in the result, expected 2")
    );
}

#[test]
fn check_accepts_the_golden_and_names_each_kind_of_mismatch() {
    let c = case(2, 3, 2, Elem::F32, vec![vec![3, 1], vec![2, 0]]);
    let good = ok_result(&c);
    assert_eq!(check(&c, &good), Ok(()));

    let mut bad = good.clone();
    bad.ranks[1].target[0][1] += 1;
    assert!(
        check(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("rank 1: target row 0")
    );

    let mut bad = good.clone();
    bad.ranks[0].target[5][0] = Elem::F32.word(7.0); // a row past rank 1's count of 0
    assert!(
        check(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("rank 0: target row 5")
    );

    let mut bad = good.clone();
    bad.ranks[0].recv_counts.as_mut().unwrap()[1] = 3;
    assert!(
        check(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("recv_counts")
    );

    let mut bad = good.clone();
    bad.ranks[1].signal[0][0] = 2;
    assert!(
        check(&c, &bad)
            .unwrap_err()
            .to_string()
            .contains("signal cell [0, 0] = 2")
    );

    let mut bad = good.clone();
    bad.blocks = 2;
    assert!(check(&c, &bad).unwrap_err().to_string().contains("blocks"));

    let mut bad = good;
    bad.status = "fatal".into();
    bad.code = 7;
    assert!(check(&c, &bad).is_err());
}

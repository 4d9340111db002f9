//! Repeat, signal stride, launch-width, capacity and contiguity cases of the plain exchange.

use super::*;

/// Repeat, signal stride, launch-width, capacity and contiguity cases.
pub fn extras(repeat: u32) -> Vec<Entry> {
    let mut v = Vec::new();
    let mut add = |kind: &str, c: Case, expect: Expect| v.push(kind_entry(kind, c, "", expect));
    // Back-to-back exchanges on one signal.
    let mut c = case(4, 8, Elem::F32, 3, 7, Pattern::Random, 101);
    c.repeat = repeat;
    add("repeat", c, Expect::Golden);
    let mut c = case(8, 3, Elem::I8, 2, 9, Pattern::OneAndFull, 102);
    c.repeat = repeat.min(20);
    add("repeat", c, Expect::Golden);
    // S = B explicitly, S > B (multi-block and single-block).
    let mut c = case(8, 10, Elem::F32, 3, 5, Pattern::Random, 103);
    c.signal_stride = Some(8);
    add("S_eq_B", c, Expect::Golden);
    let mut c = case(4, 4, Elem::I8, 4, 8, Pattern::Random, 104);
    c.signal_stride = Some(7);
    add("S_gt_B", c, Expect::Golden);
    let mut c = case(2, 1, Elem::F32, 4, 8, Pattern::Negative, 105);
    c.signal_stride = Some(3);
    c.repeat = repeat.min(10);
    add("S_gt_B", c, Expect::Golden);
    // S < B: pld-opt rejects the module.
    let mut c = case(4, 8, Elem::F32, 4, 3, Pattern::Random, 106);
    c.signal_stride = Some(5);
    add(
        "S_lt_B",
        c,
        Expect::CompileError(
            "signal stride S=5 is smaller than the admitted block count B=8".into(),
        ),
    );
    // Launch widths that are not multiples of P, uneven lane slices, rows not multiples of 32 B.
    add(
        "odd_width",
        case(3, 7, Elem::I8, 5, 11, Pattern::Random, 107),
        Expect::Golden,
    );
    add(
        "uneven_slices",
        case(2, 6, Elem::F32, 5, 7, Pattern::Uniform, 108),
        Expect::Golden,
    );
    add(
        "row_3_bytes",
        case(4, 10, Elem::I8, 6, 3, Pattern::Random, 109),
        Expect::Golden,
    );
    add(
        "max_ranks",
        case(16, 16, Elem::F32, 2, 3, Pattern::ZeroAndFull, 110),
        Expect::Golden,
    );
    // A looped pipeline called back to back (the windows carry over from call to call); the
    // module of the CI slice's 5-layer entry.
    let mut c = case(4, 2, Elem::I8, 4, 8, Pattern::Random, 115);
    (c.layers, c.repeat) = (5, repeat.min(5));
    add("repeat", c, Expect::Golden);
    // Capacity: exactly at it runs; above it the sync-start launch is refused (7), no block runs.
    let mut c = case(4, 8, Elem::F32, 2, 8, Pattern::Random, 111);
    c.aiv_capacity = 8;
    add("at_capacity", c, Expect::Golden);
    let mut c = case(4, 16, Elem::F32, 2, 8, Pattern::Uniform, 112);
    c.aiv_capacity = 8;
    add(
        "over_capacity_launch",
        c,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    add(
        "over_default_capacity_launch",
        case(4, 64, Elem::I8, 2, 8, Pattern::Uniform, 113),
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    // The contiguity backstop: each operand strided on every rank → 5, nothing submitted.
    for op in Operand::ALL {
        let mut c = case(4, 8, Elem::F32, 3, 5, Pattern::Uniform, 114);
        c.non_contiguous = Some(op);
        add(
            &format!("strided_{}", op.name()),
            c,
            Expect::Refused {
                status: "invalid_args",
                code: 5,
            },
        );
    }
    // In a loop a refusal stops the first iteration: stage_step once, nothing after it. Both
    // run the module of the CI slice's 3-layer entry (B = 4).
    let mut c = case(4, 4, Elem::F32, 3, 5, Pattern::Uniform, 116);
    (c.layers, c.non_contiguous) = (3, Some(Operand::Target));
    add(
        "strided_target",
        c,
        Expect::Refused {
            status: "invalid_args",
            code: 5,
        },
    );
    let mut c = case(4, 4, Elem::F32, 3, 5, Pattern::Uniform, 117);
    (c.layers, c.aiv_capacity) = (3, 2);
    add(
        "over_capacity_launch",
        c,
        Expect::Refused {
            status: "fatal",
            code: 7,
        },
    );
    v
}

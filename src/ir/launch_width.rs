//! The launch width B of an all_to_all_v (RFC #2521), and what one launch holds: its blocks and
//! its task's argument slots.

/// The most blocks one CHIP launch holds: a launch spec's `block_num` is an `int16_t` (simpler's
/// `LaunchSpec`, which the CHIP codegen fills). A compile-time width above it is refused by the
/// CHIP rail and `--legalize-spmd-launches`; a runtime one fails its run-time check.
pub const MAX_LAUNCH_BLOCKS: i64 = i16::MAX as i64;

/// The tensor slots of one kernel task (simpler's `CoreTaskArgs`, `MAX_TENSOR_ARGS`): one per
/// tensor parameter of the kernel. `--legalize-spmd-launches` refuses a launch past it.
pub const MAX_TASK_TENSORS: usize = 32;

/// The scalar slots of one kernel task (`MAX_SCALAR_ARGS`): a kernel's scalars are the
/// CommContexts `--materialize-dist-tensor-ctx` gives it, one per `!pld.dtensor` parameter.
pub const MAX_TASK_SCALARS: usize = 16;

/// The tensor slots of a CHIP orchestration entry (simpler's `ChipTaskArgs`,
/// `CHIP_MAX_TENSOR_ARGS`): one per tensor parameter of the orchestration function.
pub const CHIP_MAX_TENSOR_ARGS: usize = 256;

/// The scalar slots of a CHIP orchestration entry (`CHIP_MAX_SCALAR_ARGS`): one per integer
/// and `!pld.comm_ctx` parameter (a `!pld.dtensor` parameter gets its CommContext from
/// `--materialize-dist-tensor-ctx`).
pub const CHIP_MAX_SCALAR_ARGS: usize = 128;

/// `B = CalAllToAllVBlocks(P, L)`: the requested block limit `L` while
/// `L < P`, otherwise the largest multiple of `P` not exceeding `L`, so that
/// every peer gets the same number of lanes. `P >= 1` and `L >= 1`.
pub fn cal_all_to_all_v_blocks(ranks: i64, limit: i64) -> i64 {
    debug_assert!(ranks >= 1 && limit >= 1);
    if limit < ranks {
        limit
    } else {
        limit / ranks * ranks
    }
}

#[cfg(test)]
mod tests {
    use super::cal_all_to_all_v_blocks;

    #[test]
    fn rfc_2521_worked_examples() {
        let table = [
            (8, 1, 1),
            (8, 7, 7),
            (8, 8, 8),
            (8, 10, 8),
            (8, 15, 8),
            (8, 16, 16),
            (16, 7, 7),
            (16, 16, 16),
            (4, 2, 2),
            (4, 10, 8),
            (2, 5, 4),
            (2, 6, 6),
            (2, 51, 50),
        ];
        for (p, l, b) in table {
            assert_eq!(cal_all_to_all_v_blocks(p, l), b, "P={p} L={l}");
        }
    }

    #[test]
    fn single_rank_admits_the_whole_limit() {
        assert_eq!(cal_all_to_all_v_blocks(1, 1), 1);
        assert_eq!(cal_all_to_all_v_blocks(1, 48), 48);
    }

    #[test]
    fn int32_max_limit() {
        let max = i32::MAX as i64;
        assert_eq!(cal_all_to_all_v_blocks(1, max), max);
        assert_eq!(cal_all_to_all_v_blocks(8, max), max / 8 * 8);
        assert_eq!(cal_all_to_all_v_blocks(16, max), 2147483632);
    }
}

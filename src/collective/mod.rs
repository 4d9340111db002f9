//! The managed collectives' variant table, [`TABLE`]: one row ([`Spec`]) per
//! collective op of the dialect — `pld.tensor.all_to_all_v`,
//! `pld.tensor.indexed_all_to_all_v` and the family of docs/spec/family.md:
//! `allreduce` (a mesh and a ring template package), `reduce_scatter`,
//! `allgather`, `broadcast`, `all_to_all` and `barrier`. A row holds what
//! every rail derives from it: the kernel's operands in ABI order with their
//! canonical types and directions, the payload element types, the attributes
//! that select a kernel besides the element type (`reduce`, `mode`, `root`),
//! the builtin template package, the launch-width rule, whether a runtime
//! `core_num` is accepted, the architecture the op needs and the rails that
//! lower it. A [`Variant`] is a row, a payload element type and those
//! attributes: one synthesized kernel each (`@__builtin_all_to_all_v__fp32`,
//! `@__builtin_allreduce_ring_sum__fp16`, `@__builtin_barrier`, ...).
//!
//! `--lower-l2-tensor-collectives` plans, checks, synthesizes and rewrites
//! every row's op from this table alone (`src/passes/lower_l2_tensor_collectives.rs`);
//! `--lower-host-tensor-collectives` dispatches the same kernels for every row
//! the HOST rail lowers (all but the indexed op); `--lower-composite-ops`
//! expands the plain all_to_all_v in InCore bodies and refuses the rest; the
//! codegen reads the template packages the rows name.
//!
//! - `table`: the rows and their vocabulary;
//! - `variant`: a row's kernels (selection, symbols, synthesis);
//! - `rails`: what the rails read off an op against its row.

mod rails;
mod table;
mod variant;

pub use rails::*;
pub use table::*;
pub use variant::*;

#[cfg(test)]
mod tests {

    /// One source per fact: the dialect's collective ops (the ODS trait
    /// `Pld_CollectiveOp`) are exactly the table's rows.
    #[test]
    fn the_table_has_a_row_for_every_collective_op_of_the_dialect() {
        let context = crate::test_context();
        let mut ods = crate::ir::op_kind::collective_op_names(&context);
        let mut rows: Vec<String> = TABLE.iter().map(|s| s.op.to_string()).collect();
        ods.sort();
        rows.sort();
        assert_eq!(rows, ods);
        assert_eq!(ods.len(), 12);
    }

    use super::*;
    use melior::ir::{Location, Type};

    #[test]
    fn table_rows() {
        // NR is the ring signal's trailing dimension, every other signal's leading one.
        let ring = ALLREDUCE.ring_template.unwrap().name;
        assert_eq!(ALLREDUCE.nr_axis(ring), 1);
        assert_eq!(ALLREDUCE.nr_axis(ALLREDUCE.template.name), 0);
        assert_eq!(BARRIER.nr_axis(BARRIER.template.name), 0);
        assert_eq!(
            Collective::of_op_name("pld.tensor.all_to_all_v"),
            Some(Collective::AllToAllV)
        );
        assert_eq!(
            Collective::of_op_name("pld.tensor.indexed_all_to_all_v"),
            Some(Collective::IndexedAllToAllV)
        );
        assert_eq!(Collective::of_op_name("pld.tensor.nope"), None);
        assert_eq!(
            ALL_TO_ALL_V.directions(),
            ["in", "inout", "inout", "in", "inout"]
        );
        assert_eq!(
            INDEXED_ALL_TO_ALL_V.directions(),
            ["in", "inout", "inout", "in", "inout", "in"]
        );
        assert_eq!(ALL_TO_ALL_V.blocks(8, 10), 8);
        assert_eq!(INDEXED_ALL_TO_ALL_V.blocks(8, 10), 10);
        assert!(arch_problem(&ALL_TO_ALL_V, "a2a3").is_none());
        assert!(arch_problem(&INDEXED_ALL_TO_ALL_V, "a5").is_none());
        let m = arch_problem(&INDEXED_ALL_TO_ALL_V, "a2a3").unwrap();
        assert!(
            m.contains("indexed_all_to_all_v needs pl.arch = \"a5\" (A5 URMA PER_PEER transport)"),
            "{m}"
        );
    }

    #[test]
    fn variant_names_and_template_vars() {
        let context = crate::test_context();
        let int = |width| melior::ir::r#type::IntegerType::new(&context, width).into();
        let plain = |e| Variant::of_element(Collective::AllToAllV, e);
        assert_eq!(
            plain(Type::float32(&context)),
            Some(Variant::plain(Dtype::Fp32))
        );
        assert_eq!(plain(int(8)), Some(Variant::plain(Dtype::Int8)));
        assert_eq!(plain(int(32)), None);
        assert_eq!(plain(Type::bfloat16(&context)), None);
        assert_eq!(
            Variant::plain(Dtype::Fp32).symbol(),
            "__builtin_all_to_all_v__fp32"
        );
        assert_eq!(
            Variant::plain(Dtype::Int8).template_vars(),
            "dtype_cpp=int8_t"
        );
        let indexed = Variant::new(Collective::IndexedAllToAllV, Dtype::Int8);
        assert_eq!(indexed.symbol(), "__builtin_indexed_all_to_all_v__int8");
        let printed = |v: Variant| -> Vec<String> {
            v.canonical_type_values(&context)
                .iter()
                .map(|t| t.to_string())
                .collect()
        };
        assert_eq!(
            printed(indexed),
            [
                "!pl.tensor<*xi8>",
                "!pld.dtensor<*xi8>",
                "!pld.dtensor<*xi32>",
                "!pld.dtensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pld.dtensor<*xi8>"
            ]
        );
        assert_eq!(
            printed(Variant::plain(Dtype::Fp32)),
            [
                "!pl.tensor<*xf32>",
                "!pld.dtensor<*xf32>",
                "!pld.dtensor<*xi32>",
                "!pl.tensor<*xi32>",
                "!pld.dtensor<*xi32>",
                "!pld.dtensor<*xf32>"
            ]
        );
    }

    #[test]
    fn built_kernel_declares_the_abi() {
        use melior::ir::operation::OperationLike;
        let context = crate::test_context();
        for (v, dirs) in [
            (
                Variant::plain(Dtype::Int8),
                vec!["in", "inout", "inout", "in", "inout"],
            ),
            (
                Variant::new(Collective::IndexedAllToAllV, Dtype::Fp32),
                vec!["in", "inout", "inout", "in", "inout", "in"],
            ),
        ] {
            let kernel = v.build_kernel(&context, Location::unknown(&context));
            assert!(kernel.verify());
            let text = kernel.to_string();
            assert!(
                text.starts_with(&format!("func.func private @{}(", v.symbol())),
                "{text}"
            );
            let directions: Vec<&str> = text
                .split("pl.direction = \"")
                .skip(1)
                .map(|rest| &rest[..rest.find('"').unwrap()])
                .collect();
            assert_eq!(directions, dirs);
            // The body returns `target`, the second parameter.
            assert!(
                text.contains(&format!("return %arg1 : !pld.dtensor<*x{}>", v.element())),
                "{text}"
            );
            assert!(text.contains(v.template_dir()));
            assert!(text.contains(&v.template_vars()));
        }
    }
}

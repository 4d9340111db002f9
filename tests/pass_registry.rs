//! The passes declared in `Passes.td` (C++ classes) and their Rust bodies
//! agree: every body has a class, the registered pipeline is the documented
//! one and forwards its option, and a pass made from Rust runs through
//! melior's PassManager with its statistics and options.

use melior::{
    Context, dialect::DialectRegistry, ir::Module, pass::PassManager, utility::parse_pass_pipeline,
};
use pld::passes::{
    self, ARGUMENTS, PLD_LOWER_COLLECTIVES, lower_l2_tensor_collectives::LowerL2TensorCollectives,
};

fn context() -> Context {
    let registry = DialectRegistry::new();
    pld::register_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    pld::register_passes();
    context
}

/// Every Rust body has its C++ pass class (`create_by_argument` finds it by flag).
#[test]
fn every_body_has_a_pass_class() {
    for argument in ARGUMENTS {
        let pass = passes::create_by_argument(argument);
        let pass = pass.unwrap_or_else(|| panic!("Passes.td declares no pass '{argument}'"));
        // Hand it to a pass manager, which owns and frees it.
        let context = context();
        let pm = PassManager::new(&context);
        pm.add_pass(pass);
        // (melior's PassManager is op-agnostic: `any`.)
        assert_eq!(
            pm.as_operation_pass_manager().to_string(),
            format!("any({argument}{})", options_of(argument))
        );
    }
    assert!(passes::create_by_argument("no-such-pass").is_none());
}

fn options_of(argument: &str) -> &'static str {
    if argument == "lower-l2-tensor-collectives" {
        "{aiv-cores=0 provenance-timing=false window-provenance=true}"
    } else {
        ""
    }
}

/// `pld-lower-collectives` expands to PLD_LOWER_COLLECTIVES and forwards
/// `aiv-cores` to lower-l2-tensor-collectives.
#[test]
fn pipeline_is_the_documented_order_and_forwards_aiv_cores() {
    let context = context();
    let pm = PassManager::new(&context);
    parse_pass_pipeline(
        pm.as_operation_pass_manager(),
        "builtin.module(pld-lower-collectives{aiv-cores=4})",
    )
    .expect("the pipeline parses");
    let printed = pm.as_operation_pass_manager().to_string();
    let expected = PLD_LOWER_COLLECTIVES.replace(", ", ",").replace(
        "lower-l2-tensor-collectives",
        "lower-l2-tensor-collectives{aiv-cores=4 provenance-timing=false window-provenance=true}",
    );
    assert_eq!(printed, expected);
}

/// `passes::create` gives a pass melior can run; its option comes through
/// pipeline text.
#[test]
fn created_pass_runs_and_options_reach_the_body() {
    let context = context();
    let source = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/chip_pipeline.mlir"
    ))
    .unwrap();

    let mut module = Module::parse(&context, &source).expect("parses");
    let pm = PassManager::new(&context);
    pm.add_pass(passes::create::<LowerL2TensorCollectives>());
    pm.run(&mut module).expect("lowers");
    let text = module.as_operation().to_string();
    assert!(
        text.contains("call @__builtin_all_to_all_v__fp32("),
        "{text}"
    );
    assert!(!text.contains("pld.tensor.all_to_all_v"), "{text}");

    // chip_pipeline has P = 2 and core_num 1: B = 1 fits one AIV core.
    let mut module = Module::parse(&context, &source).expect("parses");
    let pm = PassManager::new(&context);
    parse_pass_pipeline(
        pm.as_operation_pass_manager(),
        "builtin.module(lower-l2-tensor-collectives{aiv-cores=1})",
    )
    .unwrap();
    pm.run(&mut module).expect("B = 1 <= 1 core");

    // P = 8, core_num 8: B = 8 > 4 cores fails the pass (and leaves the module as it was).
    let wide = r#"
      func.func @b8(%in: !pld.dtensor<16x4xf32>, %t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<8x64xi32>,
                    %c: !pld.dtensor<8xi32>, %r: !pld.dtensor<8xi32>) -> !pld.dtensor<16x4xf32>
          attributes {pl.func_kind = "orchestration"} {
        %0 = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {core_num = 8 : i64}
            : !pld.dtensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<8x64xi32>, !pld.dtensor<8xi32>,
              !pld.dtensor<8xi32> -> !pld.dtensor<16x4xf32>
        return %0 : !pld.dtensor<16x4xf32>
      }"#;
    for (pipeline, fits) in [
        ("lower-l2-tensor-collectives{aiv-cores=4}", false),
        ("lower-l2-tensor-collectives{aiv-cores=8}", true),
    ] {
        let mut module = Module::parse(&context, wide).expect("parses");
        let pm = PassManager::new(&context);
        parse_pass_pipeline(
            pm.as_operation_pass_manager(),
            &format!("builtin.module({pipeline})"),
        )
        .unwrap();
        assert_eq!(pm.run(&mut module).is_ok(), fits, "{pipeline}");
    }
}

/// Every pass declared in Passes.td (a generated C++ shell each) has a Rust
/// body, and every Rust body a declaration: a pass is its Passes.td def, its
/// Rust file and its tests (docs/contributing.md).
#[test]
fn every_declared_pass_has_a_body_and_back() {
    let mut declared = passes::declared_arguments();
    let mut bodies: Vec<String> = ARGUMENTS.iter().map(|a| a.to_string()).collect();
    declared.sort();
    bodies.sort();
    assert_eq!(declared, bodies);
}

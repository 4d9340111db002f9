//! The contiguity trace as a library: verdicts, culprits, cycles, and deep
//! chains (the trace is iterative, so a chain far deeper than any recursion
//! could survive on a test thread's stack is fine).

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    ir::{BlockLike, Module, RegionLike, Value, operation::OperationLike},
};
use pld::analysis::contiguity::ContiguityTrace;

fn context() -> Context {
    let registry = DialectRegistry::new();
    pld::register_dialects(&registry);
    let context = Context::new();
    for handle in [DialectHandle::arith(), DialectHandle::scf()] {
        handle.insert_dialect(&registry);
    }
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

const COLLECTIVE_TYPES: &str = "!pl.tensor<16x4xf32>, !pld.dtensor<16x4xf32>, !pld.dtensor<2x8xi32>, \
                                !pld.dtensor<2xi32>, !pld.dtensor<2xi32> -> !pld.dtensor<16x4xf32>";

/// A CHIP function whose body is `body` and whose collective takes `%in`
/// (a !pl.tensor<16x4xf32> the body defines) as its input.
fn module_with(body: &str, params: &str) -> String {
    format!(
        "func.func @f({params}%t: !pld.dtensor<16x4xf32>, %s: !pld.dtensor<2x8xi32>, %c: !pld.dtensor<2xi32>, \
         %r: !pld.dtensor<2xi32>) -> !pld.dtensor<16x4xf32> attributes {{pl.func_kind = \"orchestration\"}} {{\n\
         {body}\n  %o = pld.tensor.all_to_all_v %in, %t, %s, %c, %r {{core_num = 1 : i64}} : {COLLECTIVE_TYPES}\n\
         return %o : !pld.dtensor<16x4xf32>\n}}"
    )
}

/// The verdict on the collective's `input`: `Ok(())` or the culprit op's name.
fn input_verdict(source: &str) -> Result<(), String> {
    let context = context();
    let module = Module::parse(&context, source).expect("test IR parses");
    assert!(module.as_operation().verify(), "test IR verifies");
    let func = module.body().first_operation().expect("one function");
    let block = func.region(0).unwrap().first_block().unwrap();
    let mut op = block.first_operation();
    let mut input: Option<Value> = None;
    while let Some(current) = op {
        if current.name().as_string_ref().as_str() == Ok("pld.tensor.all_to_all_v") {
            input = Some(current.operand(0).unwrap());
        }
        op = current.next_in_block();
    }
    let mut trace = ContiguityTrace::new(module.body());
    trace
        .check(input.expect("a collective"))
        .map_err(|culprit| culprit.op_name)
}

#[test]
fn a_parameter_is_a_root() {
    assert_eq!(
        input_verdict(&module_with("", "%in: !pl.tensor<16x4xf32>, ")),
        Ok(())
    );
}

#[test]
fn reshape_chain_is_followed_and_transpose_is_named() {
    let ok = "  %a = pl.tensor.reshape %x : !pl.tensor<64xf32> -> !pl.tensor<4x16xf32>\n  \
              %in = pl.tensor.reshape %a : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>";
    assert_eq!(
        input_verdict(&module_with(ok, "%x: !pl.tensor<64xf32>, ")),
        Ok(())
    );
    let bad = "  %a = pl.tensor.transpose %x {perm = array<i64: 1, 0>} : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>\n  \
               %in = pl.tensor.reshape %a : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>";
    assert_eq!(
        input_verdict(&module_with(bad, "%x: !pl.tensor<4x16xf32>, ")),
        Err("pl.tensor.transpose".into())
    );
}

#[test]
fn a_loop_cycle_shares_one_verdict() {
    // The iter_arg reaches itself through the yield; the initializer decides.
    let loop_body = |init: &str| {
        format!(
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  \
             %in = scf.for %i = %c0 to %n step %c1 iter_args(%cur = {init}) -> !pl.tensor<16x4xf32> {{\n    \
             %v = pl.tensor.view %cur : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>\n    \
             scf.yield %v : !pl.tensor<16x4xf32>\n  }}"
        )
    };
    let params = "%x: !pl.tensor<16x4xf32>, %y: !pl.tensor<4x16xf32>, %n: index, ";
    assert_eq!(
        input_verdict(&module_with(&loop_body("%x"), params)),
        Ok(())
    );
    let tainted = format!(
        "  %bad = pl.tensor.transpose %y {{perm = array<i64: 1, 0>}} : !pl.tensor<4x16xf32> -> !pl.tensor<16x4xf32>\n{}",
        loop_body("%bad")
    );
    assert_eq!(
        input_verdict(&module_with(&tainted, params)),
        Err("pl.tensor.transpose".into())
    );
}

#[test]
fn a_chain_deeper_than_any_stack_is_traced() {
    const DEPTH: usize = 50_000;
    let mut body = String::new();
    let mut prev = "%x".to_string();
    for i in 0..DEPTH {
        body.push_str(&format!(
            "  %v{i} = pl.tensor.view {prev} : !pl.tensor<16x4xf32> -> !pl.tensor<16x4xf32>\n"
        ));
        prev = format!("%v{i}");
    }
    body.push_str(&format!(
        "  %in = pl.cast {prev} : !pl.tensor<16x4xf32> to !pl.tensor<16x4xf32>"
    ));
    assert_eq!(
        input_verdict(&module_with(&body, "%x: !pl.tensor<16x4xf32>, ")),
        Ok(())
    );
    // The same chain rooted at a write is rejected, however deep.
    let rooted_at_write = body.replacen(
        "%v0 = pl.tensor.view %x",
        "%w = pl.tensor.write %e into %x[%i, %i] : f32 into !pl.tensor<16x4xf32>, index, index\n  %v0 = pl.tensor.view %w",
        1,
    );
    assert_eq!(
        input_verdict(&module_with(
            &rooted_at_write,
            "%x: !pl.tensor<16x4xf32>, %e: f32, %i: index, "
        )),
        Err("pl.tensor.write".into())
    );
}

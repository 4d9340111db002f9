//! The tensor types' parameters as the Rust side sees them
//! ([`pld::ir::tensor_type::TensorLike`]), and their normalization: a type
//! spelled with its defaults *is* the default type.

use melior::{
    Context,
    dialect::DialectRegistry,
    ir::{Type, r#type::IntegerType},
};
use pld::ir::tensor_type::{Layout, TensorLike};
use std::{cell::RefCell, rc::Rc};

fn context() -> Context {
    let registry = DialectRegistry::new();
    pld::register_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}

fn parse<'c>(context: &'c Context, text: &str) -> Type<'c> {
    Type::parse(context, text).unwrap_or_else(|| panic!("`{text}` parses"))
}

fn info<'c>(context: &'c Context, text: &str) -> TensorLike<'c> {
    TensorLike::of(parse(context, text)).unwrap_or_else(|| panic!("`{text}` is tensor-like"))
}

#[test]
fn static_shape_and_element_type() {
    let context = context();
    let t = info(&context, "!pl.tensor<2x16xf32>");
    assert!(!t.distributed);
    assert_eq!(t.shape, Some(vec![Some(2), Some(16)]));
    assert_eq!(t.static_shape(), Some(vec![2, 16]));
    assert_eq!(t.element, Type::float32(&context));
    assert_eq!(t.layout, Layout::Nd);
    assert!(!t.has_valid && !t.has_strides);
    assert!(t.is_packed_nd());
}

#[test]
fn dynamic_dims_and_dtensor() {
    let context = context();
    let t = info(&context, "!pld.dtensor<?x4xi8>");
    assert!(t.distributed);
    assert_eq!(t.shape, Some(vec![None, Some(4)]));
    assert_eq!(t.static_shape(), None);
    assert_eq!(t.element, IntegerType::new(&context, 8).into());
}

#[test]
fn unranked() {
    let context = context();
    let t = info(&context, "!pld.dtensor<*xi32>");
    assert!(t.distributed);
    assert_eq!(t.shape, None);
    assert_eq!(t.static_shape(), None);
    assert_eq!(t.element, IntegerType::new(&context, 32).into());
    assert!(t.is_packed_nd());
}

#[test]
fn rank_zero_is_ranked() {
    let context = context();
    let t = info(&context, "!pl.tensor<f16>");
    assert_eq!(t.shape, Some(vec![]));
    assert_eq!(t.static_shape(), Some(vec![]));
}

#[test]
fn layout_valid_strides() {
    let context = context();
    let t = info(
        &context,
        "!pld.dtensor<8x16xf32, layout = dn, valid = [8, 8]>",
    );
    assert_eq!(t.layout, Layout::Dn);
    assert!(t.has_valid);
    assert!(!t.has_strides);
    assert!(!t.is_packed_nd());

    let t = info(&context, "!pl.tensor<8x16xf32, layout = nz>");
    assert_eq!(t.layout, Layout::Nz);
    assert!(!t.is_packed_nd());

    let t = info(&context, "!pl.tensor<8x16xf32, strides = [32, 1]>");
    assert_eq!(t.layout, Layout::Nd);
    assert!(t.has_strides && !t.has_valid);
    assert!(!t.is_packed_nd());

    // A `?` stride is never taken for packed.
    let t = info(&context, "!pl.tensor<4x?xf32, strides = [?, 1]>");
    assert!(t.has_strides);
}

#[test]
fn defaults_are_normalized_away() {
    let context = context();
    let plain = parse(&context, "!pl.tensor<4x4xf32>");
    for spelled in [
        "!pl.tensor<4x4xf32, layout = nd>",
        "!pl.tensor<4x4xf32, valid = [4, 4]>",
        "!pl.tensor<4x4xf32, strides = [4, 1]>",
        "!pl.tensor<4x4xf32, layout = nd, valid = [4, 4], strides = [4, 1]>",
    ] {
        let ty = parse(&context, spelled);
        assert_eq!(ty, plain, "`{spelled}` is the default type");
        assert_eq!(ty.to_string(), "!pl.tensor<4x4xf32>");
        assert!(TensorLike::of(ty).unwrap().is_packed_nd());
    }
    // Packed strides are known for a dynamic leading dim too.
    assert_eq!(
        parse(&context, "!pld.dtensor<?x4xf32, strides = [4, 1]>"),
        parse(&context, "!pld.dtensor<?x4xf32>")
    );
    assert_eq!(
        parse(&context, "!pld.dtensor<?x4xf32, valid = [?, 4]>"),
        parse(&context, "!pld.dtensor<?x4xf32>")
    );
}

#[test]
fn non_defaults_stay_distinct() {
    let context = context();
    let plain = parse(&context, "!pl.tensor<4x4xf32>");
    for spelled in [
        "!pl.tensor<4x4xf32, layout = dn>",
        "!pl.tensor<4x4xf32, valid = [2, 4]>",
        "!pl.tensor<4x4xf32, strides = [8, 1]>",
        "!pl.tensor<?x4xf32>",
        "!pl.tensor<*xf32>",
        "!pld.dtensor<4x4xf32>",
    ] {
        assert_ne!(
            parse(&context, spelled),
            plain,
            "`{spelled}` is not the default type"
        );
    }
}

#[test]
fn other_types_are_not_tensor_like() {
    let context = context();
    for text in [
        "!pld.comm_ctx",
        "!pld.window_buffer",
        "tensor<4xf32>",
        "i32",
    ] {
        assert!(TensorLike::of(parse(&context, text)).is_none(), "`{text}`");
    }
}

#[test]
fn invalid_types_do_not_parse() {
    let context = context();
    // Collect the diagnostics instead of printing them.
    let messages = Rc::new(RefCell::new(Vec::<String>::new()));
    let sink = messages.clone();
    let id = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(d.to_string());
        true
    });
    for (text, reason) in [
        (
            "!pl.tensor<4x4xf32, layout = zz>",
            "'!pl.tensor' parameter 'layout' must be nd, dn or nz, got zz",
        ),
        (
            "!pl.tensor<*xf32, valid = [4]>",
            "'!pl.tensor' parameter 'valid' needs a ranked shape",
        ),
        (
            "!pl.tensor<4x4xf32, valid = [5, 4]>",
            "'!pl.tensor' parameter 'valid' may not exceed the shape",
        ),
        (
            "!pl.tensor<4x4xf32, valid = []>",
            "'!pl.tensor' parameter 'valid' has 0 entries but the shape has rank 2",
        ),
        (
            "!pl.tensor<4x4xf32, strides = [4]>",
            "'!pl.tensor' parameter 'strides' has 1 entries",
        ),
        (
            "!pl.tensor<4x4xf32, strides = [4, 1], valid = [4, 4]>",
            "out of order",
        ),
        ("!pld.dtensor<4xi1>", "'!pld.dtensor' element type must be"),
        ("!pld.comm_ctx<4>", "takes no parameters"),
    ] {
        messages.borrow_mut().clear();
        assert!(
            Type::parse(&context, text).is_none(),
            "`{text}` is rejected"
        );
        let got = messages.borrow().join("\n");
        assert!(
            got.contains(reason),
            "`{text}`: expected `{reason}`, got `{got}`"
        );
    }
    context.detach_diagnostic_handler(id);
}

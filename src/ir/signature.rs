//! A function's signature: its type, parameter and result types, entry
//! block, argument attributes, appending parameters.

use crate::ir::at::OpAt as _;
use crate::ir::attributes::set_attr;
use melior::ir::{
    Attribute, BlockLike, BlockRef, Identifier, RegionLike, Type, ValueLike,
    attribute::{ArrayAttribute, DictionaryAttribute, TypeAttribute},
    operation::{OperationLike, OperationRef},
    r#type::FunctionType,
};

/// The function type of a `func.func`.
pub fn function_type<'c>(func: &OperationRef<'c, '_>) -> Option<FunctionType<'c>> {
    let attr = func.attribute("function_type").ok()?;
    let ty = TypeAttribute::try_from(attr).ok()?.value();
    FunctionType::try_from(ty).ok()
}

pub fn param_types<'c>(func: &OperationRef<'c, '_>) -> Vec<Type<'c>> {
    function_type(func)
        .map(|t| {
            (0..t.input_count())
                .filter_map(|i| t.input(i).ok())
                .collect()
        })
        .unwrap_or_default()
}

pub fn result_types<'c>(func: &OperationRef<'c, '_>) -> Vec<Type<'c>> {
    function_type(func)
        .map(|t| {
            (0..t.result_count())
                .filter_map(|i| t.result(i).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// The entry block of a function with a body.
pub fn entry_block<'c, 'a>(func: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    func.region_at(0)?.first_block()
}

/// Argument attribute `name` of parameter `index`.
pub fn arg_attr<'c>(
    func: &OperationRef<'c, '_>,
    index: usize,
    name: &str,
) -> Option<Attribute<'c>> {
    let all = ArrayAttribute::try_from(func.attribute("arg_attrs").ok()?).ok()?;
    let dict = DictionaryAttribute::try_from(all.element(index).ok()?).ok()?;
    dict.element_by_name(name)
}

/// The argument attribute dictionaries of every parameter, as (name, attr) lists.
pub fn arg_attr_lists<'c>(
    func: &OperationRef<'c, '_>,
    count: usize,
) -> Vec<Vec<(Identifier<'c>, Attribute<'c>)>> {
    arg_attr_dicts(func, count)
        .into_iter()
        .map(|d| match DictionaryAttribute::try_from(d) {
            Ok(dict) => (0..dict.len())
                .filter_map(|j| dict.element(j).ok())
                .collect(),
            Err(_) => Vec::new(),
        })
        .collect()
}

/// The argument attribute dictionaries of `count` parameters, as attributes
/// (an empty dictionary where a parameter has none): what a pass keeps
/// unchanged is kept as the uniqued attribute it is, not rebuilt.
pub fn arg_attr_dicts<'c>(func: &OperationRef<'c, '_>, count: usize) -> Vec<Attribute<'c>> {
    let context_ref = func.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    // The context outlives the function's attributes ('c).
    let empty: Attribute<'c> = unsafe {
        Attribute::from_raw(melior::ir::AttributeLike::to_raw(
            &DictionaryAttribute::new(context, &[]),
        ))
    };
    let all = func
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    (0..count)
        .map(|i| {
            all.as_ref()
                .and_then(|a| a.element(i).ok())
                .filter(|d| DictionaryAttribute::try_from(*d).is_ok())
                .unwrap_or(empty)
        })
        .collect()
}

/// Writes the argument attribute dictionaries (`DictionaryAttr`s) of a function.
pub fn set_arg_attr_dicts<'c>(func: &OperationRef<'c, '_>, dicts: &[Attribute<'c>]) {
    let context_ref = func.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    set_attr(
        func,
        "arg_attrs",
        ArrayAttribute::new(context, dicts).into(),
    );
}

/// `params` pairs each new parameter's type with its argument attribute
/// dictionary (a `DictionaryAttr`).
pub fn append_params<'c>(
    func: &OperationRef<'c, '_>,
    params: &[(Type<'c>, Attribute<'c>)],
) -> Vec<mlir_sys::MlirValue> {
    let context_ref = func.context();
    let context = crate::ir::context_borrow::borrow(&context_ref);
    let mut inputs = param_types(func);
    let results = result_types(func);
    let mut dicts = arg_attr_dicts(func, inputs.len());
    inputs.extend(params.iter().map(|(t, _)| *t));
    dicts.extend(params.iter().map(|(_, d)| *d));
    let ty: Type = FunctionType::new(context, &inputs, &results).into();
    set_attr(func, "function_type", TypeAttribute::new(ty).into());
    set_arg_attr_dicts(func, &dicts);
    let mut out = Vec::new();
    if let Some(entry) = entry_block(func) {
        for (ty, _) in params {
            out.push(entry.add_argument(*ty, func.location()).to_raw());
        }
    }
    out
}

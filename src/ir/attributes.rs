//! Reading and writing attributes: discardable attributes (set one, or many
//! with one uniqued dictionary), strings, string arrays, integers.

use melior::{
    Context,
    ir::{
        Attribute, AttributeLike, Identifier,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
        operation::{OperationLike, OperationRef},
        r#type::IntegerType,
    },
};

pub fn set_attr(op: &OperationRef, name: &str, attr: Attribute) {
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(
            op.to_raw(),
            mlir_sys::MlirStringRef {
                data: name.as_ptr() as *const _,
                length: name.len(),
            },
            attr.to_raw(),
        )
    }
}

/// Sets several discardable attributes at once (one new attribute
/// dictionary, and no name to look up: the identifiers are made once).
pub fn set_discardable_attrs(op: &OperationRef, attrs: &[(Identifier, Attribute)]) {
    // Two attributes at most in every caller: no heap for the raw lists.
    if let [(n0, a0), (n1, a1)] = attrs {
        let (names, values) = ([n0.to_raw(), n1.to_raw()], [a0.to_raw(), a1.to_raw()]);
        return unsafe {
            crate::capi::pldOperationSetDiscardableAttrs(
                op.to_raw(),
                2,
                names.as_ptr(),
                values.as_ptr(),
            )
        };
    }
    let names: Vec<mlir_sys::MlirIdentifier> = attrs.iter().map(|(n, _)| n.to_raw()).collect();
    let values: Vec<mlir_sys::MlirAttribute> = attrs.iter().map(|(_, a)| a.to_raw()).collect();
    unsafe {
        crate::capi::pldOperationSetDiscardableAttrs(
            op.to_raw(),
            attrs.len() as isize,
            names.as_ptr(),
            values.as_ptr(),
        )
    }
}

/// Sets discardable attributes on many ops, building each resulting
/// attribute dictionary once: the dictionaries are uniqued, so an op whose
/// dictionary is `D` gets `D` + the pairs set -- the same for every op that
/// had `D` and gets the same pairs (issue #16: ~1100 instructions per op for
/// the copy, sort and uniquing lookup, now one hash lookup when repeated).
#[derive(Default)]
pub struct DiscardableAttrSetter {
    /// (old dictionary, then name and value of up to two pairs; 0 pads) ->
    /// new dictionary, by address; every one is uniqued in the context, so
    /// lives as long as the IR.
    made: crate::ir::handle_maps::NameMap<[usize; 5], mlir_sys::MlirAttribute>,
}

impl DiscardableAttrSetter {
    pub fn set(&mut self, op: &OperationRef, name: Identifier, value: Attribute) {
        self.set_all(op, &[(name, value)]);
    }

    /// Sets up to two attributes at once (more: [`set_discardable_attrs`]).
    pub fn set_all(&mut self, op: &OperationRef, attrs: &[(Identifier, Attribute)]) {
        if attrs.len() > 2 {
            return set_discardable_attrs(op, attrs);
        }
        unsafe {
            let old = crate::capi::pldOperationGetDiscardableAttrDictionary(op.to_raw());
            let mut key = [old.ptr as usize, 0, 0, 0, 0];
            for (i, (n, v)) in attrs.iter().enumerate() {
                key[1 + 2 * i] = n.to_raw().ptr as usize;
                key[2 + 2 * i] = v.to_raw().ptr as usize;
            }
            let new = *self.made.entry(key).or_insert_with(|| {
                let names: Vec<mlir_sys::MlirIdentifier> =
                    attrs.iter().map(|(n, _)| n.to_raw()).collect();
                let values: Vec<mlir_sys::MlirAttribute> =
                    attrs.iter().map(|(_, a)| a.to_raw()).collect();
                crate::capi::pldDictionaryAttrWith(
                    old,
                    attrs.len() as isize,
                    names.as_ptr(),
                    values.as_ptr(),
                )
            });
            crate::capi::pldOperationSetDiscardableAttrDictionary(op.to_raw(), new);
        }
    }
}

/// `array` (an array attribute) with `extra` appended.
pub fn extend_array_attr<'c>(
    context: &'c Context,
    array: Attribute<'c>,
    extra: &[Attribute<'c>],
) -> Option<Attribute<'c>> {
    let array = ArrayAttribute::try_from(array).ok()?;
    let mut items: Vec<Attribute> = (0..array.len())
        .filter_map(|i| array.element(i).ok())
        .collect();
    items.extend_from_slice(extra);
    Some(ArrayAttribute::new(context, &items).into())
}

pub fn i64_attr<'c>(context: &'c Context, value: i64) -> Attribute<'c> {
    IntegerAttribute::new(IntegerType::new(context, 64).into(), value).into()
}

/// The strings of `op`'s array-of-strings attribute `name` (empty when
/// absent; a non-string entry reads as "").
pub fn string_list(op: &OperationRef, name: &str) -> Vec<String> {
    let Some(array) = op
        .attribute(name)
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
    else {
        return Vec::new();
    };
    (0..array.len())
        .map(|i| {
            array
                .element(i)
                .ok()
                .and_then(attr_str)
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

pub fn string_array_attr<'c>(context: &'c Context, values: &[&str]) -> Attribute<'c> {
    let items: Vec<Attribute> = values
        .iter()
        .map(|v| StringAttribute::new(context, v).into())
        .collect();
    ArrayAttribute::new(context, &items).into()
}

/// The text of a string or flat symbol reference attribute, read through the
/// C API: `Some("")` for an empty one, `None` for another kind or bytes that
/// are not UTF-8 (melior's `value()` panics on both).
pub fn attr_str<'c>(attr: Attribute<'c>) -> Option<&'c str> {
    let raw = attr.to_raw();
    let s = unsafe {
        if mlir_sys::mlirAttributeIsAString(raw) {
            mlir_sys::mlirStringAttrGetValue(raw)
        } else if mlir_sys::mlirAttributeIsAFlatSymbolRef(raw) {
            mlir_sys::mlirFlatSymbolRefAttrGetValue(raw)
        } else {
            return None;
        }
    };
    if s.length == 0 {
        return Some("");
    }
    // The attribute's storage is uniqued in the context and lives as long as it.
    let bytes: &'c [u8] = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    std::str::from_utf8(bytes).ok()
}

/// Whether an attribute is an array of strings ([`string_array`] would
/// succeed), without copying them.
pub fn is_string_array(attr: Attribute) -> bool {
    ArrayAttribute::try_from(attr).is_ok_and(|array| {
        (0..array.len()).all(|i| array.element(i).ok().and_then(attr_str).is_some())
    })
}

/// The integer of an integer attribute named `name`.
pub fn int_attr(op: &OperationRef, name: &str) -> Option<i64> {
    IntegerAttribute::try_from(op.attribute(name).ok()?)
        .ok()
        .map(|i| i.value())
}

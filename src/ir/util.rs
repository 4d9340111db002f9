//! Small IR helpers shared by the passes around the CHIP rail: module and
//! call-site queries, attribute builders and the few mutations melior's safe
//! API does not reach (operand lists, function signatures, erasure).

use crate::{error::PldError, ir::func_kind::symbol_name};
use melior::{
    Context,
    ir::{
        Attribute, AttributeLike, BlockLike, BlockRef, Identifier, RegionLike, Type, TypeLike,
        Value, ValueLike,
        attribute::{
            ArrayAttribute, DenseI32ArrayAttribute, DictionaryAttribute, IntegerAttribute,
            StringAttribute, TypeAttribute,
        },
        operation::{Operation, OperationLike, OperationRef, WalkOrder, WalkResult},
        r#type::{FunctionType, IntegerType},
    },
};

/// Whether `op` is a managed collective: the dialect says so (the ODS trait
/// `Pld_CollectiveOp`), so no Rust list of op names can drift from it.
pub fn is_collective_op(op: &OperationRef) -> bool {
    unsafe { crate::capi::pldOperationIsCollective(op.to_raw()) }
}

/// The names of every managed collective op registered in `context` (the ops
/// with the ODS trait `Pld_CollectiveOp`), in name order (the variant table's
/// test checks its rows against them).
#[cfg(test)]
pub fn collective_op_names(context: &Context) -> Vec<String> {
    unsafe extern "C" fn push(text: mlir_sys::MlirStringRef, data: *mut std::ffi::c_void) {
        let names = unsafe { &mut *(data as *mut Vec<String>) };
        let bytes = unsafe { std::slice::from_raw_parts(text.data as *const u8, text.length) };
        names.push(String::from_utf8_lossy(bytes).into_owned());
    }
    let mut names: Vec<String> = Vec::new();
    unsafe {
        crate::capi::pldCollectiveOpNames(
            context.to_raw(),
            Some(push),
            &mut names as *mut Vec<String> as *mut std::ffi::c_void,
        );
    }
    names
}

/// An op's name as a `String` (for messages; hot paths classify ops with
/// [`op_kind`] instead).
pub fn op_name(op: &OperationRef) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The ops the passes tell apart. [`op_kind`] classifies an op by its op
/// class's TypeID (one C call and a lookup; the name is read once per class,
/// not per op).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum OpKind {
    Call,
    Submit,
    HostDispatch,
    /// A managed collective ([`is_collective_op`]).
    Collective,
    Func,
    Module,
    Return,
    ScfFor,
    ScfWhile,
    ScfIf,
    ScfYield,
    ScfCondition,
    CfBr,
    CfCondBr,
    CfSwitch,
    Cast,
    Reshape,
    View,
    SetValidshape,
    Slice,
    Transpose,
    Assemble,
    Write,
    Create,
    Window,
    PutRows,
    Notify,
    Wait,
    Other,
}

impl OpKind {
    /// Every kind, by discriminant.
    const ALL: [OpKind; 29] = [
        Self::Call,
        Self::Submit,
        Self::HostDispatch,
        Self::Collective,
        Self::Func,
        Self::Module,
        Self::Return,
        Self::ScfFor,
        Self::ScfWhile,
        Self::ScfIf,
        Self::ScfYield,
        Self::ScfCondition,
        Self::CfBr,
        Self::CfCondBr,
        Self::CfSwitch,
        Self::Cast,
        Self::Reshape,
        Self::View,
        Self::SetValidshape,
        Self::Slice,
        Self::Transpose,
        Self::Assemble,
        Self::Write,
        Self::Create,
        Self::Window,
        Self::PutRows,
        Self::Notify,
        Self::Wait,
        Self::Other,
    ];

    pub fn from_name(name: &str) -> Self {
        match name {
            "func.call" => Self::Call,
            "pl.submit" => Self::Submit,
            "pld.host.dispatch" => Self::HostDispatch,
            "func.func" => Self::Func,
            "builtin.module" => Self::Module,
            "func.return" => Self::Return,
            "scf.for" => Self::ScfFor,
            "scf.while" => Self::ScfWhile,
            "scf.if" => Self::ScfIf,
            "scf.yield" => Self::ScfYield,
            "scf.condition" => Self::ScfCondition,
            "cf.br" => Self::CfBr,
            "cf.cond_br" => Self::CfCondBr,
            "cf.switch" => Self::CfSwitch,
            "pl.cast" => Self::Cast,
            "pl.tensor.reshape" => Self::Reshape,
            "pl.tensor.view" => Self::View,
            "pl.tensor.set_validshape" => Self::SetValidshape,
            "pl.tensor.slice" => Self::Slice,
            "pl.tensor.transpose" => Self::Transpose,
            "pl.tensor.assemble" => Self::Assemble,
            "pl.tensor.write" => Self::Write,
            "pl.tensor.create" => Self::Create,
            "pld.window" => Self::Window,
            "pld.comm.put_rows" => Self::PutRows,
            "pld.comm.notify" => Self::Notify,
            "pld.comm.wait" => Self::Wait,
            _ => Self::Other,
        }
    }

    /// `func.call`, `pl.submit`, `pld.host.dispatch` ([`CALL_OPS`]).
    pub fn is_call(self) -> bool {
        matches!(self, Self::Call | Self::Submit | Self::HostDispatch)
    }

    /// A managed collective ([`is_collective_op`]).
    pub fn is_collective(self) -> bool {
        self == Self::Collective
    }

    /// A nested scope ([`NESTED_SCOPES`]).
    pub fn is_nested_scope(self) -> bool {
        matches!(self, Self::Module | Self::Func)
    }
}

/// Op kinds by op-class TypeID (process-wide, never reused): a lock-free
/// direct-mapped cache, each slot one word holding the TypeID's address
/// (48 bits) and the kind + 1 (the top byte); a miss, or a slot another
/// class took, reads the name.
static KINDS: [std::sync::atomic::AtomicU64; 256] =
    [const { std::sync::atomic::AtomicU64::new(0) }; 256];
const ADDRESS: u64 = (1 << 56) - 1;

/// The kind of `op`: by its TypeID when registered (cached), else by name.
pub fn op_kind(op: &OperationRef) -> OpKind {
    use std::sync::atomic::Ordering::Relaxed;
    let raw = op.to_raw();
    let id = unsafe { mlir_sys::mlirOperationGetTypeID(raw) }.ptr as u64;
    let by_name = || {
        let name = unsafe { mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(raw)) };
        let bytes = unsafe { std::slice::from_raw_parts(name.data as *const u8, name.length) };
        match std::str::from_utf8(bytes).map_or(OpKind::Other, OpKind::from_name) {
            // The collectives are the dialect's to name (its ODS trait).
            OpKind::Other if unsafe { crate::capi::pldOperationIsCollective(raw) } => {
                OpKind::Collective
            }
            kind => kind,
        }
    };
    if id == 0 || id & !ADDRESS != 0 {
        return by_name();
    }
    let slot = &KINDS[((id >> 3) ^ (id >> 11)) as usize & 255];
    let word = slot.load(Relaxed);
    if word & ADDRESS == id && word >> 56 != 0 {
        return OpKind::ALL[(word >> 56) as usize - 1];
    }
    let kind = by_name();
    slot.store(id | ((kind as u64 + 1) << 56), Relaxed);
    kind
}

pub fn key<'c, 'a>(value: Value<'c, 'a>) -> usize {
    value.to_raw().ptr as usize
}

pub fn op_key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// Re-borrows an op from its raw handle (the IR outlives every pass step).
pub fn op_ref<'c, 'a>(op: &OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(op.to_raw()) }
}

/// The module's body block.
pub fn module_body<'c, 'a>(module: &OperationRef<'c, 'a>) -> Result<BlockRef<'c, 'a>, PldError> {
    module
        .region(0)?
        .first_block()
        .ok_or_else(|| PldError::Internal("module without a body".into()))
}

/// Top-level `func.func`s of the module, in order.
pub fn module_functions<'c, 'a>(module: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    let Ok(body) = module_body(module) else {
        return out;
    };
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_kind(&op) == OpKind::Func {
            out.push(op);
        }
    }
    out
}

/// The module's functions by symbol name.
pub type FunctionMap<'c, 'a> = crate::ir::ptr_map::NameMap<String, OperationRef<'c, 'a>>;

/// `func.func`s by symbol name.
pub fn function_map<'c, 'a>(module: &OperationRef<'c, 'a>) -> FunctionMap<'c, 'a> {
    module_functions(module)
        .into_iter()
        .filter_map(|f| symbol_name(&f).map(|n| (n.to_string(), f)))
        .collect()
}

/// Every op nested in `root` (not `root` itself) in program (pre-)order,
/// without descending into a nested `builtin.module` / `func.func`: a call in
/// a nested module's function is not a task of `root`, and its callee is not
/// a symbol of the top-level module.
pub fn ops_in<'c, 'a>(root: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let root_raw = root.to_raw();
    let mut raw = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == root_raw.ptr {
            return WalkResult::Advance;
        }
        if op_kind(&op).is_nested_scope() {
            return WalkResult::Skip;
        }
        raw.push(op.to_raw());
        WalkResult::Advance
    });
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
}

/// Every op of `root`'s own scope (see [`ops_in`]) whose name is in `names`,
/// in program (pre-)order.
pub fn ops_named<'c, 'a>(root: &OperationRef<'c, 'a>, names: &[&str]) -> Vec<OperationRef<'c, 'a>> {
    let kinds: Vec<OpKind> = names.iter().map(|n| OpKind::from_name(n)).collect();
    if kinds.contains(&OpKind::Other) {
        return ops_in(root)
            .into_iter()
            .filter(|op| {
                op.name()
                    .as_string_ref()
                    .as_str()
                    .is_ok_and(|n| names.contains(&n))
            })
            .collect();
    }
    ops_of_kind(root, |k| kinds.contains(&k))
}

/// Every managed collective of `root`'s own scope (see [`ops_in`]), in
/// program (pre-)order.
pub fn collectives_in<'c, 'a>(root: &OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    ops_of_kind(root, OpKind::is_collective)
}

/// Every op of `root`'s own scope (see [`ops_in`]) whose kind passes
/// `wanted`, in program (pre-)order.
pub fn ops_of_kind<'c, 'a>(
    root: &OperationRef<'c, 'a>,
    wanted: impl Fn(OpKind) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let root_raw = root.to_raw();
    let mut raw = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op.to_raw().ptr == root_raw.ptr {
            return WalkResult::Advance;
        }
        let kind = op_kind(&op);
        if kind.is_nested_scope() {
            return WalkResult::Skip;
        }
        if wanted(kind) {
            raw.push(op.to_raw());
        }
        WalkResult::Advance
    });
    raw.into_iter()
        .map(|r| unsafe { OperationRef::from_raw(r) })
        .collect()
}

/// MLIR's `SymbolTable` of a symbol-table op (a `builtin.module`): one build,
/// then lookups by name without scanning, and insertions that keep it current.
pub struct SymbolTable<'c, 'a> {
    raw: mlir_sys::MlirSymbolTable,
    _ops: std::marker::PhantomData<OperationRef<'c, 'a>>,
}

impl<'c, 'a> SymbolTable<'c, 'a> {
    /// The table of `op`, or `None` when `op` is not a symbol table.
    pub fn of(op: &OperationRef<'c, 'a>) -> Option<Self> {
        let raw = unsafe { mlir_sys::mlirSymbolTableCreate(op.to_raw()) };
        (!raw.ptr.is_null()).then_some(Self {
            raw,
            _ops: std::marker::PhantomData,
        })
    }

    /// The symbol named `name` directly in the table's op.
    pub fn lookup(&self, name: &str) -> Option<OperationRef<'c, 'a>> {
        let name = mlir_sys::MlirStringRef {
            data: name.as_ptr() as *const _,
            length: name.len(),
        };
        let raw = unsafe { mlir_sys::mlirSymbolTableLookup(self.raw, name) };
        (!raw.ptr.is_null()).then(|| unsafe { OperationRef::from_raw(raw) })
    }

    /// Appends `op` (a symbol whose name the caller has checked is free) to the
    /// table's body and registers it.
    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let raw = op.into_raw();
        // With no parent yet, MLIR's `SymbolTable::insert` places it at the
        // end of the body (before a terminator, if any).
        unsafe { mlir_sys::mlirSymbolTableInsert(self.raw, raw) };
        unsafe { OperationRef::from_raw(raw) }
    }
}

impl Drop for SymbolTable<'_, '_> {
    fn drop(&mut self) {
        unsafe { mlir_sys::mlirSymbolTableDestroy(self.raw) }
    }
}

/// Whether two ops are structurally equal (attributes, types, regions),
/// locations aside (MLIR's `OperationEquivalence`).
pub fn structurally_equal(a: &OperationRef, b: &Operation) -> bool {
    unsafe { crate::capi::pldOperationEquivalent(a.to_raw(), b.to_raw()) }
}

/// The `callee` symbol of a call-like op.
pub fn callee_name(op: &OperationRef) -> Option<String> {
    callee(op).map(str::to_string)
}

/// The `callee` symbol of a call-like op, borrowed from the context (no
/// allocation).
pub fn callee<'c>(op: &OperationRef<'c, '_>) -> Option<&'c str> {
    attr_str(op.attribute("callee").ok()?)
}

/// How many leading operands of a call-like op are callee arguments (a
/// `pld.host.dispatch` also has its device and optional core_num).
/// The result indices a `pl.submit` leaves to the runtime to allocate
/// (`runtime_alloc_outs`, in order; empty for any other op). Entry `k` is the
/// buffer the runtime allocates for the callee's parameter
/// `operand_count + k`, which the callee returns at that result index (the
/// `pl.submit` verifier checks the binding; docs/lowering.md, "pl.submit").
pub fn runtime_alloc_outs(op: &OperationRef) -> Vec<i64> {
    if op_kind(op) != OpKind::Submit {
        return Vec::new();
    }
    op.attribute("runtime_alloc_outs")
        .ok()
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
        .unwrap_or_default()
}

pub fn call_arg_count(op: &OperationRef) -> usize {
    if op_kind(op) == OpKind::HostDispatch {
        return dispatch_segments(op).map(|s| s[0] as usize).unwrap_or(0);
    }
    op.operand_count()
}

fn dispatch_segments(op: &OperationRef) -> Option<Vec<i32>> {
    let attr = op.attribute("operandSegmentSizes").ok()?;
    let array = DenseI32ArrayAttribute::try_from(attr).ok()?;
    Some(
        (0..array.len())
            .map(|i| array.element(i).unwrap_or(0))
            .collect(),
    )
}

/// Appends `extra` to the callee arguments of a call-like op, which is
/// replaced by a copy with the longer operand list (see
/// `pldOperationRebuildWithOperands`); returns the copy. `op` is erased:
/// only the returned handle may be used afterwards.
pub fn append_call_args<'c, 'a>(
    op: OperationRef<'c, 'a>,
    extra: &[mlir_sys::MlirValue],
) -> OperationRef<'c, 'a> {
    if extra.is_empty() {
        return op;
    }
    let n = call_arg_count(&op);
    let segments = if op_kind(&op) == OpKind::HostDispatch {
        dispatch_segments(&op)
    } else {
        None
    };
    let raw = unsafe {
        crate::capi::pldOperationRebuildWithOperands(
            op.to_raw(),
            n as isize,
            extra.len() as isize,
            extra.as_ptr(),
        )
    };
    // The copy lives in the same block as the original did.
    let rebuilt = unsafe { OperationRef::from_raw(raw) };
    if let Some(mut segments) = segments {
        segments[0] += extra.len() as i32;
        let context_ref = rebuilt.context();
        let context = crate::ir::context::borrow(&context_ref);
        set_attr(
            &rebuilt,
            "operandSegmentSizes",
            DenseI32ArrayAttribute::new(context, &segments).into(),
        );
    }
    rebuilt
}

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
    made: crate::ir::ptr_map::NameMap<[usize; 5], mlir_sys::MlirAttribute>,
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

/// `!pl.tensor` or `!pld.dtensor` (one C call).
pub fn is_tensor_like(ty: Type) -> bool {
    crate::ir::tensor_type::tensor_kind(ty).is_some()
}

/// `!pld.dtensor` (one C call).
pub fn is_dtensor(ty: Type) -> bool {
    crate::ir::tensor_type::tensor_kind(ty) == Some(true)
}

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
    func.region(0).ok()?.first_block()
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
    let all = func
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    (0..count)
        .map(|i| {
            let Some(dict) = all
                .as_ref()
                .and_then(|a| a.element(i).ok())
                .and_then(|d| DictionaryAttribute::try_from(d).ok())
            else {
                return Vec::new();
            };
            (0..dict.len())
                .filter_map(|j| dict.element(j).ok())
                .collect()
        })
        .collect()
}

/// Writes the argument attribute dictionaries of a function.
pub fn set_arg_attr_lists<'c>(
    func: &OperationRef<'c, '_>,
    lists: &[Vec<(Identifier<'c>, Attribute<'c>)>],
) {
    let context_ref = func.context();
    let context = crate::ir::context::borrow(&context_ref);
    let dicts: Vec<Attribute> = lists
        .iter()
        .map(|l| DictionaryAttribute::new(context, l).into())
        .collect();
    set_attr(
        func,
        "arg_attrs",
        ArrayAttribute::new(context, &dicts).into(),
    );
}

/// Appends parameters to a function: its type, its entry block (if any) and
/// its argument attributes. Returns the new block arguments' raw handles.
pub fn append_params<'c>(
    func: &OperationRef<'c, '_>,
    params: &[(Type<'c>, Vec<(Identifier<'c>, Attribute<'c>)>)],
) -> Vec<mlir_sys::MlirValue> {
    let context_ref = func.context();
    let context = crate::ir::context::borrow(&context_ref);
    let mut inputs = param_types(func);
    let results = result_types(func);
    let mut lists = arg_attr_lists(func, inputs.len());
    inputs.extend(params.iter().map(|(t, _)| *t));
    lists.extend(params.iter().map(|(_, l)| l.clone()));
    let ty: Type = FunctionType::new(context, &inputs, &results).into();
    set_attr(func, "function_type", TypeAttribute::new(ty).into());
    set_arg_attr_lists(func, &lists);
    let mut out = Vec::new();
    if let Some(entry) = entry_block(func) {
        for (ty, _) in params {
            out.push(entry.add_argument(*ty, func.location()).to_raw());
        }
    }
    out
}

/// Replaces every use of `from` with `to`.
pub fn replace_all_uses(from: Value, to: Value) {
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(from.to_raw(), to.to_raw()) }
}

/// Erases an op (it must have no uses left).
pub fn erase(op: OperationRef) {
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Inserts `new` right before `anchor`, returning the inserted op.
pub fn insert_before<'c, 'a>(
    anchor: &OperationRef<'c, 'a>,
    new: Operation<'c>,
) -> Result<OperationRef<'c, 'a>, PldError> {
    let block = anchor
        .block()
        .ok_or_else(|| PldError::Internal("op without a block".into()))?;
    Ok(block.insert_operation_before(op_ref(anchor), new))
}

/// The enclosing `func.func` of an op.
pub fn enclosing_function<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut parent = op.parent_operation();
    while let Some(p) = parent {
        if op_kind(&p) == OpKind::Func {
            return Some(p);
        }
        parent = p.parent_operation();
    }
    None
}

/// Whether `ty` is the `!pld.comm_ctx` type (one C call, an `isa`).
pub fn is_comm_ctx(ty: Type) -> bool {
    unsafe { crate::capi::pldTypeIsCommCtx(ty.to_raw()) }
}

/// The `!pld.comm_ctx` type (the pld dialect is loaded wherever a pass runs on pld IR).
pub fn comm_ctx_type(context: &Context) -> Type<'_> {
    unsafe { Type::from_raw(crate::capi::pldCommCtxTypeGet(context.to_raw())) }
}

#[cfg(test)]
mod op_kind_tests {
    use super::OpKind;

    #[test]
    fn every_kind_is_listed_at_its_discriminant() {
        for (i, kind) in OpKind::ALL.iter().enumerate() {
            assert_eq!(*kind as usize, i);
        }
        assert_eq!(OpKind::ALL.len(), OpKind::Other as usize + 1);
    }
}

#[cfg(test)]
mod append_call_args_tests {
    use super::{append_call_args, call_arg_count};
    use melior::ir::{BlockLike, Module, RegionLike, ValueLike, operation::OperationLike};

    /// The rebuilt call keeps its callee, attributes, result uses and place,
    /// gains the operands, and the original is gone.
    #[test]
    fn rebuilt_call_replaces_the_original() {
        let context = crate::test_context();
        let module = Module::parse(
            &context,
            r#"
            func.func private @k(i32) -> i32
            func.func @f(%a: i32, %b: i64) -> i32 {
              %r = func.call @k(%a) {pl.task_id = 7 : i64} : (i32) -> i32
              return %r : i32
            }
            "#,
        )
        .expect("parses");
        let body = module.body();
        let f = body
            .first_operation()
            .and_then(|k| k.next_in_block())
            .expect("@f");
        let entry = f.region(0).expect("body").first_block().expect("entry");
        let call = entry.first_operation().expect("the call");
        let extra = [entry.argument(1).expect("%b").to_raw()];
        let rebuilt = append_call_args(call, &extra);

        assert_eq!(call_arg_count(&rebuilt), 2);
        assert_eq!(
            rebuilt.operand(1).expect("operand").to_raw().ptr,
            extra[0].ptr
        );
        assert!(rebuilt.attribute("pl.task_id").is_ok());
        assert_eq!(
            entry.first_operation().map(|op| op.to_raw().ptr),
            Some(rebuilt.to_raw().ptr)
        );
        let ret = rebuilt.next_in_block().expect("the return");
        assert_eq!(
            ret.operand(0).expect("returned value").to_raw().ptr,
            rebuilt.result(0).expect("result").to_raw().ptr
        );
        // The callee keeps its one parameter (materialize-dist-tensor-ctx
        // extends both), so the module prints in generic form.
        let printed = module.as_operation().to_string();
        assert!(
            printed.contains(r#""func.call"(%arg0, %arg1) <{callee = @k}> {pl.task_id = 7 : i64} : (i32, i64) -> i32"#),
            "{printed}"
        );
        assert_eq!(printed.matches("func.call").count(), 1, "{printed}");
    }
}

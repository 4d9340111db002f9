//! Variant selection: a row, a payload element type and the attributes that
//! select a kernel ([`Variant`]); its symbol, template variables, canonical
//! kernel signature and the synthesized kernel itself.

use super::table::*;
use melior::ir::{
    Attribute, AttributeLike, BlockLike, Identifier, Location, Type, TypeLike, ValueLike,
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationRef},
    r#type::IntegerType,
};

/// One synthesized kernel: a collective, a payload element type and the
/// attributes that select a kernel (reduce, ring mode, broadcast root).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Variant {
    /// Which collective.
    pub collective: Collective,
    /// Its payload element type.
    pub dtype: Dtype,
    /// allreduce / reduce_scatter: the reduction.
    pub reduce: Option<Reduce>,
    /// allreduce: ring mode.
    pub ring: bool,
    /// broadcast, reduce, gather, scatter: the root rank.
    pub root: Option<i64>,
    /// permute: its `[source, dest]` pairs (never empty: a permute without
    /// pairs is erased, it has no kernel).
    pub pairs: Option<Pairs>,
}

/// permute's `pairs`, in attribute order (at most 16: each rank is at most
/// one pair's destination, and the family's kernels hold at most 16 ranks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pairs {
    len: u8,
    items: [(u8, u8); 16],
}

impl Pairs {
    /// The pairs of a `pairs` attribute (an `[N, 2]` i64 dense array the
    /// verifier checked), `None` when it is not one or holds more than 16
    /// pairs or a rank beyond 255.
    pub fn of_attribute(attr: Attribute) -> Option<Pairs> {
        let raw = attr.to_raw();
        unsafe {
            if !mlir_sys::mlirAttributeIsADenseElements(raw) {
                return None;
            }
            // An [N, 2] array of i64 (what the verifier admits), else nothing is read.
            let ty = mlir_sys::mlirAttributeGetType(raw);
            let element = mlir_sys::mlirShapedTypeGetElementType(ty);
            if !mlir_sys::mlirTypeIsAInteger(element)
                || mlir_sys::mlirIntegerTypeGetWidth(element) != 64
                || mlir_sys::mlirShapedTypeGetRank(ty) != 2
                || mlir_sys::mlirShapedTypeGetDimSize(ty, 1) != 2
            {
                return None;
            }
            let n = mlir_sys::mlirElementsAttrGetNumElements(raw);
            if n % 2 != 0 || n / 2 > 16 {
                return None;
            }
            let mut pairs = Pairs {
                len: (n / 2) as u8,
                items: [(0, 0); 16],
            };
            for k in 0..(n / 2) as usize {
                let s = mlir_sys::mlirDenseElementsAttrGetInt64Value(raw, 2 * k as isize);
                let d = mlir_sys::mlirDenseElementsAttrGetInt64Value(raw, 2 * k as isize + 1);
                pairs.items[k] = (u8::try_from(s).ok()?, u8::try_from(d).ok()?);
            }
            Some(pairs)
        }
    }
    /// The pairs, in order.
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.items[..self.len as usize].iter().copied()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Pairs from a list (tests and tools).
    pub fn from_list(list: &[(u8, u8)]) -> Option<Pairs> {
        if list.len() > 16 {
            return None;
        }
        let mut pairs = Pairs {
            len: list.len() as u8,
            items: [(0, 0); 16],
        };
        pairs.items[..list.len()].copy_from_slice(list);
        Some(pairs)
    }
}

/// Whether `op` is a permute without pairs: a no-op both rails erase (its
/// result is its target; no kernel, no launch), [`erase_noop`].
pub fn is_empty_permute(op: &OperationRef) -> bool {
    crate::ir::op_kind::op_name(op) == PERMUTE.op
        && op
            .attribute("pairs")
            .ok()
            .and_then(Pairs::of_attribute)
            .is_some_and(|p| p.is_empty())
}

/// Why an op has no variant: its payload element type is not one the rails
/// lower (the message names the list), or an attribute is malformed.
#[derive(Debug, PartialEq, Eq)]
pub struct NoVariant(pub String);

impl Variant {
    /// The variant of `collective` for `dtype` (no selecting attributes).
    pub fn new(collective: Collective, dtype: Dtype) -> Self {
        Self {
            collective,
            dtype,
            reduce: None,
            ring: false,
            root: None,
            pairs: None,
        }
    }
    /// A sample of every kernel the table synthesizes: each row × each of its
    /// dtypes × every reduction (and allreduce's two modes) × roots 0 and 15
    /// × three permute pair lists (one pair, a ring of three, a self pair).
    /// What tests and the device conformance run render (a root or a pair
    /// list only substitutes constants, so these stand for every value).
    pub fn samples() -> Vec<Variant> {
        let mut out = Vec::new();
        for spec in TABLE {
            for &dtype in spec.dtypes {
                let mut variants = vec![Variant::new(spec.collective, dtype)];
                if spec.selects(Select::Reduce) {
                    let rings: &[bool] = if spec.selects(Select::Mode) {
                        &[false, true]
                    } else {
                        &[false]
                    };
                    variants = Reduce::ALL
                        .iter()
                        .flat_map(|&r| rings.iter().map(move |&ring| (r, ring)))
                        .flat_map(|(r, ring)| {
                            variants.iter().map(move |v| Variant {
                                reduce: Some(r),
                                ring,
                                ..*v
                            })
                        })
                        .collect();
                }
                if spec.selects(Select::Root) {
                    variants = [0, 15]
                        .iter()
                        .flat_map(|&root| {
                            variants.iter().map(move |v| Variant {
                                root: Some(root),
                                ..*v
                            })
                        })
                        .collect();
                }
                if spec.selects(Select::Pairs) {
                    let sets: [&[(u8, u8)]; 3] = [&[(0, 1)], &[(0, 1), (1, 2), (2, 0)], &[(3, 3)]];
                    variants = sets
                        .iter()
                        .flat_map(|set| {
                            variants.iter().map(move |v| Variant {
                                pairs: Pairs::from_list(set),
                                ..*v
                            })
                        })
                        .collect();
                }
                out.extend(variants);
            }
        }
        out
    }
    /// The plain `all_to_all_v` variant of a dtype.
    pub fn plain(dtype: Dtype) -> Self {
        Self::new(Collective::AllToAllV, dtype)
    }
    /// The variant of `collective` for a payload element type, if its row
    /// lowers that type (selecting attributes unset).
    pub fn of_element(collective: Collective, element: Type) -> Option<Self> {
        Dtype::of_element(element)
            .filter(|d| collective.spec().dtypes.contains(d))
            .map(|d| Self::new(collective, d))
    }
    /// The variant a collective op lowers to: its row, its payload element
    /// type (the first payload operand's), and its `reduce` / `mode` /
    /// `root`. `rail` names the rail in the element-type message.
    pub fn of_op(op: &OperationRef, rail: &str) -> Result<Self, NoVariant> {
        let name = crate::ir::op_kind::op_name(op);
        let spec = Collective::of_op_name(&name)
            .ok_or_else(|| NoVariant(format!("{name} is not a managed collective")))?
            .spec();
        let dtype = match spec.payload_param() {
            None => spec.dtypes[0],
            Some(i) => {
                let element = op
                    .operand(i)
                    .ok()
                    .and_then(|v| crate::ir::tensor_type::TensorView::of(v.r#type()))
                    .map(|t| t.element)
                    .ok_or_else(|| {
                        NoVariant(format!("operand '{}' is not a tensor", spec.params[i].name))
                    })?;
                match Dtype::of_element(element).filter(|d| spec.dtypes.contains(d)) {
                    Some(d) => d,
                    None => {
                        return Err(NoVariant(format!(
                            "the {rail} rail supports only {}, got {element}",
                            spec.dtype_list()
                        )));
                    }
                }
            }
        };
        let string = |attr: &str| {
            op.attribute(attr)
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
        };
        let mut variant = Self::new(spec.collective, dtype);
        if spec.selects(Select::Reduce) {
            variant.reduce = Some(
                string("reduce")
                    .as_deref()
                    .and_then(Reduce::parse)
                    .ok_or_else(|| NoVariant("reduce must be one of sum, max, min, prod".into()))?,
            );
        }
        if spec.selects(Select::Mode) {
            variant.ring = string("mode").as_deref() == Some("ring");
        }
        if spec.selects(Select::Root) {
            variant.root = Some(
                op.attribute("root")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|i| i.value())
                    .ok_or_else(|| NoVariant(format!("{} needs a root", spec.short)))?,
            );
        }
        if spec.selects(Select::Pairs) {
            variant.pairs = Some(
                op.attribute("pairs")
                    .ok()
                    .and_then(Pairs::of_attribute)
                    .ok_or_else(|| {
                        NoVariant(format!(
                            "{} needs pairs: an [N, 2] i64 array of at most 16 [source, dest] ranks",
                            spec.short
                        ))
                    })?,
            );
        }
        Ok(variant)
    }
    pub fn spec(self) -> &'static Spec {
        self.collective.spec()
    }
    /// The kernel's symbol (docs/spec/family.md's Lowering table):
    /// `__builtin_<op>[_ring][_<reduce>|_root<R>]__<dt>`, `__builtin_barrier`.
    pub fn symbol(self) -> String {
        let spec = self.spec();
        if !spec.symbol_dtype {
            return format!("__builtin_{}", spec.short);
        }
        let mut name = format!("__builtin_{}", spec.short);
        if self.ring {
            name.push_str("_ring");
        }
        if let Some(r) = self.reduce {
            name.push('_');
            name.push_str(r.as_str());
        }
        if let Some(root) = self.root {
            name.push_str(&format!("_root{root}"));
        }
        if let Some(pairs) = self.pairs {
            for (s, d) in pairs.iter() {
                name.push_str(&format!("_{s}to{d}"));
            }
        }
        name.push_str("__");
        name.push_str(self.dtype.suffix());
        name
    }
    /// The payload element type's spelling (`f32`, `i8`, ...).
    pub fn element(self) -> &'static str {
        self.dtype.element()
    }
    /// `pl.builtin_template_vars` of the kernel: `dtype_cpp=<T>`, then
    /// `;reduce=<r>`, `;root=<R>`, `;pairs=<s>:<d>,...` where they apply (the
    /// same on every rail).
    pub fn template_vars(self) -> String {
        let mut vars = format!("dtype_cpp={}", self.dtype.cpp());
        if let Some(r) = self.reduce {
            vars.push_str(&format!(";reduce={}", r.as_str()));
        }
        if let Some(root) = self.root {
            vars.push_str(&format!(";root={root}"));
        }
        if let Some(pairs) = self.pairs {
            let list: Vec<String> = pairs.iter().map(|(s, d)| format!("{s}:{d}")).collect();
            vars.push_str(&format!(";pairs={}", list.join(",")));
        }
        vars
    }
    /// `pl.builtin_template_dir` of the kernel.
    pub fn template_dir(self) -> &'static str {
        let spec = self.spec();
        match &spec.ring_template {
            Some(ring) if self.ring => ring.name,
            _ => spec.template.name,
        }
    }
    /// The canonical types in ABI order, then the result type (`!pld.dtensor<*xT>`).
    pub fn canonical_type_values<'c>(self, context: &'c melior::Context) -> Vec<Type<'c>> {
        let payload = self.dtype.mlir_type(context);
        let i32t: Type = IntegerType::new(context, 32).into();
        let unranked = |distributed: bool, e: Type<'c>| unsafe {
            Type::from_raw(crate::capi::pldTensorLikeGetUnranked(
                distributed,
                e.to_raw(),
            ))
        };
        let mut types: Vec<Type> = self
            .spec()
            .params
            .iter()
            .map(|p| {
                unranked(
                    p.distributed,
                    match p.element {
                        Element::Payload => payload,
                        Element::I32 => i32t,
                    },
                )
            })
            .collect();
        // The result is the window the op returns (the target, the barrier's signal).
        let result = self.spec().result;
        types.push(types[result]);
        types
    }

    /// What every function of the canonical signature shares: its entry
    /// block (arguments named after the operands, at `collective`), the
    /// `arg_attrs` array of their `pl.direction`s and the function type.
    pub fn canonical_entry<'c>(
        self,
        context: &'c melior::Context,
        collective: Location<'c>,
    ) -> (
        melior::ir::Block<'c>,
        Attribute<'c>,
        melior::ir::r#type::FunctionType<'c>,
    ) {
        use melior::ir::{
            Block,
            attribute::{ArrayAttribute, StringAttribute},
            r#type::FunctionType,
        };
        let spec = self.spec();
        let n = spec.params.len();
        let types = self.canonical_type_values(context);
        let params: Vec<(Type, Location)> = types[..n]
            .iter()
            .zip(spec.params)
            .map(|(t, p)| (*t, Location::name(context, p.name, collective)))
            .collect();
        let direction = |d: &str| -> Attribute<'c> {
            let entry = unsafe {
                mlir_sys::mlirNamedAttributeGet(
                    Identifier::new(context, "pl.direction").to_raw(),
                    StringAttribute::new(context, d).to_raw(),
                )
            };
            unsafe {
                Attribute::from_raw(mlir_sys::mlirDictionaryAttrGet(context.to_raw(), 1, &entry))
            }
        };
        let arg_attrs: Vec<Attribute> = spec
            .params
            .iter()
            .map(|p| direction(p.direction.as_str()))
            .collect();
        (
            Block::new(&params),
            ArrayAttribute::new(context, &arg_attrs).into(),
            FunctionType::new(context, &types[..n], &types[n..]),
        )
    }

    /// The synthesized kernel built as ops (the canonical signature, a body
    /// that returns `target`: never compiled, the kernel is the builtin
    /// template; passes that read the function need the return): a `NameLoc`
    /// of its symbol around `collective`, the collective that needed it, so
    /// diagnostics about the kernel point back at that collective.
    pub fn build_kernel<'c>(
        self,
        context: &'c melior::Context,
        collective: Location<'c>,
    ) -> melior::ir::Operation<'c> {
        use melior::ir::{
            Region, RegionLike,
            attribute::{StringAttribute, TypeAttribute},
        };
        let symbol = self.symbol();
        let loc = Location::name(context, &symbol, collective);
        let (block, arg_attrs, function_type) = self.canonical_entry(context, collective);
        let target = block
            .argument(self.spec().result)
            .expect("the returned parameter");
        block.append_operation(melior::dialect::func::r#return(&[target.into()], loc));
        let region = Region::new();
        region.append_block(block);
        let string = |s: &str| -> Attribute<'c> { StringAttribute::new(context, s).into() };
        melior::dialect::func::func(
            context,
            StringAttribute::new(context, &symbol),
            TypeAttribute::new(function_type.into()),
            region,
            &[
                (
                    Identifier::new(context, "sym_visibility"),
                    string("private"),
                ),
                (Identifier::new(context, "arg_attrs"), arg_attrs),
                (
                    Identifier::new(context, "pl.builtin_template_dir"),
                    string(self.template_dir()),
                ),
                (
                    Identifier::new(context, "pl.builtin_template_vars"),
                    string(&self.template_vars()),
                ),
                (Identifier::new(context, "pl.func_kind"), string("aiv")),
                (
                    Identifier::new(context, "pl.require_contiguous_operands"),
                    Attribute::unit(context),
                ),
            ],
            loc,
        )
    }
}

/// Erases a collective that is a no-op ([`is_empty_permute`]): its result's
/// uses take the window it returns (its target).
pub fn erase_noop(op: OperationRef) {
    let spec = match Collective::of_op_name(&crate::ir::op_kind::op_name(&op)) {
        Some(c) => c.spec(),
        None => return,
    };
    if let (Ok(result), Ok(target)) = (op.result(0), op.operand(spec.result)) {
        crate::ir::mutation::replace_all_uses(result.into(), target);
    }
    crate::ir::mutation::erase(op);
}

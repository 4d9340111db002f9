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
    /// broadcast: the root rank.
    pub root: Option<i64>,
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
        }
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
        if matches!(spec.selector, Selector::Reduce | Selector::ReduceMode) {
            variant.reduce = Some(
                string("reduce")
                    .as_deref()
                    .and_then(Reduce::parse)
                    .ok_or_else(|| NoVariant("reduce must be one of sum, max, min, prod".into()))?,
            );
        }
        if spec.selector == Selector::ReduceMode {
            variant.ring = string("mode").as_deref() == Some("ring");
        }
        if spec.selector == Selector::Root {
            variant.root = Some(
                op.attribute("root")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|i| i.value())
                    .ok_or_else(|| NoVariant("broadcast needs a root".into()))?,
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
        name.push_str("__");
        name.push_str(self.dtype.suffix());
        name
    }
    /// The payload element type's spelling (`f32`, `i8`, ...).
    pub fn element(self) -> &'static str {
        self.dtype.element()
    }
    /// `pl.builtin_template_vars` of the kernel: `dtype_cpp=<T>`, then
    /// `;reduce=<r>` / `;root=<R>` where they apply (the same on every rail).
    pub fn template_vars(self) -> String {
        let mut vars = format!("dtype_cpp={}", self.dtype.cpp());
        if let Some(r) = self.reduce {
            vars.push_str(&format!(";reduce={}", r.as_str()));
        }
        if let Some(root) = self.root {
            vars.push_str(&format!(";root={root}"));
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

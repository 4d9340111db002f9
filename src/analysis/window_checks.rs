//! The window checks over a collective's resolved windows (`docs/spec/domains.md`),
//! on the provenance analysis: pairwise-distinct allocations, one domain,
//! NR = ranks ([`check_distinct`], [`check_domains`]);
//! [`check_dispatched_collectives`], the CHIP rail's interprocedural phase, and
//! [`check_local_distinct`], its in-body aliasing check. Each returns its
//! failures (message and notes); the passes report them: no analysis emits a
//! diagnostic.

use super::provenance::*;
use crate::ir::at::OpAt as _;
use crate::{
    analysis::contiguity::ContiguityTrace,
    diag,
    ir::func_kind::{is_chip_orchestration, symbol_name},
    ir::handle_maps::PtrMap,
    ir::op_kind::{op_id, value_id},
};
use melior::ir::{
    Location, Value, ValueLike,
    operation::{OperationLike, OperationRef},
};
use std::{collections::HashMap, rc::Rc};

/// A failed check: the message and its notes (after any the caller adds).
pub struct Failure<'c> {
    pub message: String,
    pub notes: Vec<(Location<'c>, String)>,
}

/// The one buffer two operands are both bound to, when each resolves to exactly one: an
/// operand that may be one of several buffers (a loop-carried window that alternates, one
/// branch of several) only may share one with another, which is left to the caller, as an
/// untraceable operand is (domains.md: distinctness stays the caller's obligation).
fn definitely_shared<T: PartialEq>(a: &[T], b: &[T]) -> Option<usize> {
    match (a, b) {
        ([x], [y]) if x == y => Some(0),
        _ => None,
    }
}

/// Pairwise-distinct allocations over `buffers` (per operand, by role):
/// `operands <a> and <b> must be different window allocations` (the caller
/// adds the `'<op>' op ` prefix), for two operands each bound to one and the
/// same buffer ([`definitely_shared`]).
pub fn check_distinct<'c>(
    roles: &[&str],
    buffers: &[Vec<OperationRef<'c, '_>>],
) -> Option<Failure<'c>> {
    for a in 0..buffers.len() {
        for b in a + 1..buffers.len() {
            let ids = |l: &[OperationRef<'c, '_>]| l.iter().map(op_id).collect::<Vec<_>>();
            if let Some(at) = definitely_shared(&ids(&buffers[a]), &ids(&buffers[b])) {
                let shared = &buffers[a][at];
                return Some(Failure {
                    message: diag::msg!(
                        "operands {} and {} must be different window allocations",
                        roles[a],
                        roles[b]
                    ),
                    notes: vec![(
                        shared.location(),
                        diag::msg!("both are views of this pld.window_buffer"),
                    )],
                });
            }
        }
    }
    None
}

/// CHIP rail, inside one body: two operands of one collective that provably
/// share a root. Each operand is traced ([`RootSets`] over the contiguity
/// trace) to the roots it may come from: a function parameter, a
/// `pl.tensor.create`, a runtime-allocated `pl.submit` result. When two
/// operands each have exactly one root and it is the same, every run binds
/// them to one buffer and the kernel reads and writes it through two roles
/// (a silent exchange of zeros): `operands <a> and <b> must be different
/// window allocations`, the HOST rail's wording, with a note at the root and
/// at each operand's own chain. Operands that only may share a root (one
/// branch or iteration of several) are left to the per-dispatch check
/// ([`check_dispatched_collectives`]) and to the caller, as on the HOST rail.
/// `roots` must be used with this leaf only (it memoizes per value).
pub fn check_local_distinct<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    roles: &[&str],
    roots: &mut RootSets,
    trace: &ContiguityTrace<'c, 'a>,
) -> Option<Failure<'c>> {
    // The common case, without tracing: operands that are distinct
    // parameters of the function have distinct roots (each its own, or none).
    let operands: Vec<Value<'c, 'a>> = (0..roles.len())
        .map(|i| op.operand_at(i))
        .collect::<Option<_>>()?;
    if operands.iter().enumerate().all(|(i, v)| {
        crate::analysis::contiguity::is_function_param(*v) && !operands[..i].contains(v)
    }) {
        return None;
    }
    let leaf = |v: Value<'c, 'a>| Some(value_id(v));
    let mut single: Vec<Option<usize>> = Vec::with_capacity(roles.len());
    for i in 0..roles.len() {
        let set = match op.operand(i) {
            Ok(v) => roots.get(v, trace, &leaf),
            Err(_) => return None,
        };
        single.push((set.len() == 1).then(|| set[0]));
    }
    for a in 0..roles.len() {
        for b in a + 1..roles.len() {
            let (Some(ra), Some(rb)) = (single[a], single[b]) else {
                continue;
            };
            if ra != rb {
                continue;
            }
            let root = value_of(ra);
            let mut notes = vec![(root_location(root), root_note(root))];
            for i in [a, b] {
                let Some(v) = op.operand_at(i) else { continue };
                if value_id(v) != ra {
                    notes.push((
                        v.location(),
                        diag::msg!("operand '{}' is a view of it through this value", roles[i]),
                    ));
                }
            }
            return Some(Failure {
                message: diag::msg!(
                    "operands {} and {} must be different window allocations",
                    roles[a],
                    roles[b]
                ),
                notes,
            });
        }
    }
    None
}

/// Re-borrows a value from its key (the IR outlives every pass step).
fn value_of<'c, 'a>(k: usize) -> Value<'c, 'a> {
    unsafe { Value::from_raw(mlir_sys::MlirValue { ptr: k as *mut _ }) }
}

/// Where a root is written: its op, or the parameter's location.
fn root_location<'c>(root: Value<'c, '_>) -> Location<'c> {
    match crate::ir::value_defs::as_result(root) {
        Some(r) => r.owner().location(),
        None => root.location(),
    }
}

/// What a root is, for the note at it: an op's result, else a parameter (a
/// root block argument is a function entry's).
fn root_note(root: Value) -> String {
    match crate::ir::value_defs::as_result(root) {
        Some(r) => diag::msg!(
            "both are views of this '{}' result",
            crate::ir::op_kind::op_name(&r.owner())
        ),
        None => diag::msg!(
            "both are views of this parameter (#{})",
            crate::ir::value_defs::as_argument(root).map_or(0, |a| a.argument_number())
        ),
    }
}

/// One domain over every resolved buffer, then NR = that domain's ranks (an
/// explicit domain only: the implicit one's rank count is the signal's NR).
pub fn check_domains<'c>(
    roles: &[&str],
    buffers: &[Vec<OperationRef<'c, '_>>],
    signal_rows: Option<i64>,
) -> Option<Failure<'c>> {
    // Distinct domains in operand order: (domain key or 0, role, buffer).
    let mut seen: Vec<(usize, &str, &OperationRef)> = Vec::new();
    for (role, list) in roles.iter().zip(buffers) {
        for buffer in list {
            let d = buffer_domain(buffer).map_or(0, |d| op_id(&d));
            if !seen.iter().any(|(k, _, _)| *k == d) {
                seen.push((d, role, buffer));
            }
        }
    }
    if seen.len() > 1 {
        let mut notes = Vec::new();
        for &(_, role, buffer) in &seen {
            match buffer_domain(buffer) {
                Some(domain) => {
                    notes.push((buffer.location(), diag::msg!("operand '{role}' is a view of this pld.window_buffer")));
                    notes.push((
                        domain.location(),
                        diag::msg!(
                            "which is in this communication domain (ranks = {})",
                            domain_ranks(&domain).unwrap_or(0)
                        ),
                    ));
                }
                None => notes.push((
                    buffer.location(),
                    diag::msg!(
                        "operand '{role}' is a view of this pld.window_buffer, in the HOST orchestrator's \
                         implicit communication domain"
                    ),
                )),
            }
        }
        return Some(Failure {
            message: diag::msg!(
                "operands of one collective must belong to one communication domain"
            ),
            notes,
        });
    }
    let (_, _, buffer) = seen.first()?;
    let domain = buffer_domain(buffer)?;
    let ranks = domain_ranks(&domain)?;
    let rows = signal_rows?;
    // The signal's own window, when it is resolved.
    let signal = roles
        .iter()
        .position(|r| *r == "signal")
        .and_then(|i| buffers[i].first());
    let mut notes = vec![(
        domain.location(),
        diag::msg!("this communication domain has {ranks} ranks"),
    )];
    if let Some(b) = signal {
        notes.push((
            b.location(),
            diag::msg!("the signal is a view of this pld.window_buffer"),
        ));
    }
    (rows != ranks).then_some(Failure {
        message: diag::msg!("signal has NR={rows} rows but communication domain has {ranks} ranks"),
        notes,
    })
}

/// Collectives of one CHIP function whose operands trace to the same
/// parameter sets (and whose op and signal NR agree): one check per dispatch
/// site covers them all.
struct Group<'c, 'a> {
    sets: Vec<Rc<[usize]>>,
    rows: Option<i64>,
    /// The op's row of the variant table (one per op name: compared by address).
    spec: &'static crate::collective::Spec,
    members: Vec<OperationRef<'c, 'a>>,
}

/// A CHIP callee holding planned collectives: its groups, computed on its
/// first dispatch.
struct Callee<'c, 'a> {
    name: &'a str,
    /// Each planned collective with its signal NR.
    collectives: Vec<(OperationRef<'c, 'a>, i64)>,
    groups: Option<Vec<Group<'c, 'a>>>,
}

/// Interned op names, compared by identity (`mlirOperationGetName` returns
/// the uniqued identifier): no string compare in the per-site loop.
struct Names {
    window: *const std::ffi::c_void,
    buffer: *const std::ffi::c_void,
    domain: *const std::ffi::c_void,
    dispatch: *const std::ffi::c_void,
    func: *const std::ffi::c_void,
    module: *const std::ffi::c_void,
}

impl Names {
    fn new(context: mlir_sys::MlirContext) -> Self {
        let id = |s: &str| unsafe {
            mlir_sys::mlirIdentifierGet(
                context,
                mlir_sys::MlirStringRef {
                    data: s.as_ptr() as *const _,
                    length: s.len(),
                },
            )
            .ptr
        };
        Names {
            window: id("pld.window"),
            buffer: id("pld.window_buffer"),
            domain: id("pld.comm_domain"),
            dispatch: id("pld.host.dispatch"),
            func: id("func.func"),
            module: id("builtin.module"),
        }
    }

    fn of(op: mlir_sys::MlirOperation) -> *const std::ffi::c_void {
        unsafe { mlir_sys::mlirOperationGetName(op).ptr }
    }
}

/// The defining op of `value`, if it is an op result.
fn raw_owner(value: mlir_sys::MlirValue) -> Option<mlir_sys::MlirOperation> {
    unsafe { mlir_sys::mlirValueIsAOpResult(value).then(|| mlir_sys::mlirOpResultGetOwner(value)) }
}

/// Operand `i` of `op`, if it has one.
fn raw_operand(op: mlir_sys::MlirOperation, i: usize) -> Option<mlir_sys::MlirValue> {
    unsafe {
        ((i as isize) < mlir_sys::mlirOperationGetNumOperands(op))
            .then(|| mlir_sys::mlirOperationGetOperand(op, i as isize))
    }
}

/// [`window_buffer_leaf`] on interned names: the buffer of a `pld.window`
/// of a `pld.window_buffer`.
fn direct_buffer(names: &Names, value: mlir_sys::MlirValue) -> Option<usize> {
    let window = raw_owner(value)?;
    if Names::of(window) != names.window {
        return None;
    }
    let buffer = raw_owner(raw_operand(window, 0)?)?;
    (Names::of(buffer) == names.buffer).then_some(buffer.ptr as usize)
}

/// [`buffer_domain`] on interned names, as a key (0: the implicit domain).
fn domain_key(names: &Names, buffer: usize) -> usize {
    let buffer = mlir_sys::MlirOperation {
        ptr: buffer as *mut _,
    };
    raw_operand(buffer, 0)
        .and_then(raw_owner)
        .filter(|op| Names::of(*op) == names.domain)
        .map_or(0, |op| op.ptr as usize)
}

/// The CHIP rail's window provenance (domains.md): for every
/// `pld.host.dispatch` of a CHIP orchestration function holding one of the
/// `planned` collectives, each collective operand traced to a parameter is
/// resolved to the window buffers bound at that dispatch, and the three
/// checks run per dispatch site. One error per collective (its first failing
/// dispatch site, in module order), at the collective, with a note at the
/// dispatch and at the buffers / domains involved. Each planned collective
/// comes with its function and its signal's NR (phase 1 read it from the
/// signal's static shape). Returns the failures, each with the collective it
/// is about: the pass reports them (this analysis emits nothing).
///
/// Linear: each function's parameter provenance and each HOST value's window
/// provenance are computed once ([`RootSets`]); a dispatch site costs one
/// check per group of collectives with the same parameter sets, on keys
/// (interned names, pointer identities, no allocation); a site binding the
/// same values to the same callee as an earlier one is not checked again
/// (its outcome, and any diagnostic, is the earlier site's).
pub fn check_dispatched_collectives<'c, 'a>(
    functions: &[OperationRef<'c, 'a>],
    planned: &[(OperationRef<'c, 'a>, OperationRef<'c, 'a>, i64)],
    trace: &ContiguityTrace<'c, 'a>,
) -> Vec<(OperationRef<'c, 'a>, Failure<'c>)> {
    // The planned collectives of each CHIP function (phase 1 gives each with its function, a
    // function's collectives consecutive), by symbol.
    let mut callees: Vec<Callee<'c, 'a>> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut last: Option<(usize, Option<usize>)> = None;
    for (at, (func, op, rows)) in planned.iter().enumerate() {
        let index = match last {
            Some((f, index)) if f == op_id(func) => index,
            _ => {
                let index = symbol_name(func)
                    .filter(|_| is_chip_orchestration(func))
                    .map(|name| {
                        *by_name.entry(name).or_insert_with(|| {
                            // The function's run of collectives, sized once.
                            let run = planned[at..]
                                .iter()
                                .take_while(|(f, _, _)| op_id(f) == op_id(func))
                                .count();
                            callees.push(Callee {
                                name,
                                collectives: Vec::with_capacity(run),
                                groups: None,
                            });
                            callees.len() - 1
                        })
                    });
                last = Some((op_id(func), index));
                index
            }
        };
        if let Some(i) = index {
            callees[i]
                .collectives
                .push((crate::ir::op_kind::reborrow_op(op), *rows));
        }
    }
    let Some((_, first, _)) = planned.first() else {
        return Vec::new();
    };
    if callees.is_empty() {
        return Vec::new();
    }
    let names = Names::new(unsafe { mlir_sys::mlirOperationGetContext(first.to_raw()) });
    let mut params = RootSets::default();
    let mut windows = RootSets::default();
    // Per `callee` attribute (uniqued: its address): the callee's index.
    let mut by_attr: PtrMap<Option<usize>> = PtrMap::default();
    // Per domain: its ranks.
    let mut ranks_of: PtrMap<Option<i64>> = PtrMap::default();
    // (callee, dispatch operands) already checked.
    let mut seen = Bindings::default();
    let mut binding: Vec<usize> = Vec::new();
    let mut failed: PtrMap<()> = PtrMap::default();
    let mut failures = Vec::new();
    let mut buffers: Vec<Vec<usize>> = Vec::new();
    let callee_name = mlir_sys::MlirStringRef {
        data: "callee".as_ptr() as *const _,
        length: "callee".len(),
    };
    for func in functions {
        if !crate::ir::func_kind::is_host_level(func) {
            continue;
        }
        for raw in dispatches(func, &names) {
            let attr = unsafe { mlir_sys::mlirOperationGetAttributeByName(raw, callee_name) };
            if attr.ptr.is_null() {
                continue;
            }
            let index = *by_attr.entry(attr.ptr as usize).or_insert_with(|| {
                if !unsafe { mlir_sys::mlirAttributeIsAFlatSymbolRef(attr) } {
                    return None;
                }
                let value = unsafe { mlir_sys::mlirFlatSymbolRefAttrGetValue(attr) };
                let bytes =
                    unsafe { std::slice::from_raw_parts(value.data as *const u8, value.length) };
                std::str::from_utf8(bytes)
                    .ok()
                    .and_then(|n| by_name.get(n).copied())
            });
            let Some(index) = index else { continue };
            // A binding seen before (same callee, same values) was checked there.
            let n = unsafe { mlir_sys::mlirOperationGetNumOperands(raw) }.max(0) as usize;
            binding.clear();
            binding.push(index);
            binding.extend((0..n).map(|i| unsafe {
                mlir_sys::mlirOperationGetOperand(raw, i as isize).ptr as usize
            }));
            if !seen.insert(&binding) {
                continue;
            }
            let callee = &mut callees[index];
            let callee_groups = callee.groups.get_or_insert_with(|| {
                let mut out: Vec<Group> = Vec::new();
                for (at, (op, rows)) in callee.collectives.iter().enumerate() {
                    let op_name_ref = op.name();
                    let Ok(name) = op_name_ref.as_string_ref().as_str() else {
                        continue;
                    };
                    let Some(spec) =
                        crate::collective::Collective::of_op_name(name).map(|c| c.spec())
                    else {
                        continue;
                    };
                    let sets: Vec<Rc<[usize]>> = (0..spec.params.len())
                        .map(|i| {
                            op.operand(i).map_or_else(
                                |_| Rc::from(Vec::new()),
                                |v| params.get(v, trace, &parameter_leaf),
                            )
                        })
                        .collect();
                    let rows = Some(*rows);
                    match out
                        .iter_mut()
                        .find(|g| std::ptr::eq(g.spec, spec) && g.rows == rows && g.sets == sets)
                    {
                        Some(g) => g.members.push(crate::ir::op_kind::reborrow_op(op)),
                        None => {
                            // Room for the rest of the function's collectives (usually one group).
                            let mut members = Vec::with_capacity(callee.collectives.len() - at);
                            members.push(crate::ir::op_kind::reborrow_op(op));
                            out.push(Group {
                                sets,
                                rows,
                                spec,
                                members,
                            });
                        }
                    }
                }
                out
            });
            for group in callee_groups.iter() {
                // Resolve each operand to buffer keys at this site.
                buffers.resize_with(group.sets.len(), Vec::new);
                buffers.truncate(group.sets.len());
                for (set, list) in group.sets.iter().zip(buffers.iter_mut()) {
                    list.clear();
                    for &p in set.iter() {
                        if p < n {
                            let arg = unsafe { mlir_sys::mlirOperationGetOperand(raw, p as isize) };
                            // A window passed as is (the common case) needs no trace.
                            match direct_buffer(&names, arg) {
                                Some(b) => list.push(b),
                                None => list.extend(
                                    windows
                                        .get(
                                            unsafe { Value::from_raw(arg) },
                                            trace,
                                            &window_buffer_leaf,
                                        )
                                        .iter()
                                        .copied(),
                                ),
                            }
                        }
                    }
                    if set.len() > 1 {
                        list.sort_unstable();
                        list.dedup();
                    }
                }
                if passes_on_keys(&names, &buffers, group.rows, &mut ranks_of) {
                    continue;
                }
                // A failure: build the diagnostic once per member not yet reported.
                let dispatch = unsafe { OperationRef::from_raw(raw) };
                let refs: Vec<Vec<OperationRef>> = buffers
                    .iter()
                    .map(|l| l.iter().map(|&k| op_from_id(k)).collect())
                    .collect();
                let roles: Vec<&str> = group.spec.params.iter().map(|p| p.name).collect();
                let Some(f) = check_distinct(&roles, &refs)
                    .or_else(|| check_domains(&roles, &refs, group.rows))
                else {
                    continue;
                };
                for op in &group.members {
                    if failed.insert(op_id(op), ()).is_some() {
                        continue;
                    }
                    let mut notes = vec![(
                        dispatch.location(),
                        diag::msg!(
                            "at this dispatch of @{}, which binds the collective's windows",
                            callee.name
                        ),
                    )];
                    notes.extend(f.notes.iter().cloned());
                    failures.push((
                        *op,
                        Failure {
                            message: f.message.clone(),
                            notes,
                        },
                    ));
                }
            }
        }
    }
    failures
}

/// The bindings (callee, dispatch operands) checked so far: an exact set without an allocation
/// per binding. The keys live end to end in one arena; a hash (FxHash's mixing step) leads to the
/// first binding with that hash, and `next` chains the others (compared key by key).
#[derive(Default)]
struct Bindings {
    arena: Vec<usize>,
    /// Per stored binding: (start in `arena`, length, next binding of the same hash or `usize::MAX`).
    entries: Vec<(usize, usize, usize)>,
    first: PtrMap<usize>,
}

impl Bindings {
    /// Adds `keys`; false if it was there already.
    fn insert(&mut self, keys: &[usize]) -> bool {
        let mut h: u64 = keys.len() as u64;
        for &k in keys {
            h = (h.rotate_left(5) ^ k as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        let new = self.entries.len();
        let mut at = match self.first.get(&(h as usize)) {
            None => {
                self.first.insert(h as usize, new);
                usize::MAX
            }
            Some(&i) => i,
        };
        let mut last = usize::MAX;
        while at != usize::MAX {
            let (start, len, next) = self.entries[at];
            if self.arena[start..start + len] == *keys {
                return false;
            }
            last = at;
            at = next;
        }
        if last != usize::MAX {
            self.entries[last].2 = new;
        }
        self.entries
            .push((self.arena.len(), keys.len(), usize::MAX));
        self.arena.extend_from_slice(keys);
        true
    }
}

/// The `pld.host.dispatch` ops of a function, in program order (nested
/// regions included, nested functions and modules not).
fn dispatches(func: &OperationRef, names: &Names) -> Vec<mlir_sys::MlirOperation> {
    use mlir_sys::*;
    fn regions(op: MlirOperation, names: &Names, out: &mut Vec<MlirOperation>) {
        unsafe {
            for r in 0..mlirOperationGetNumRegions(op) {
                let mut block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
                while !block.ptr.is_null() {
                    let mut child = mlirBlockGetFirstOperation(block);
                    while !child.ptr.is_null() {
                        let name = Names::of(child);
                        if name == names.dispatch {
                            out.push(child);
                        } else if name != names.func
                            && name != names.module
                            && mlirOperationGetNumRegions(child) > 0
                        {
                            regions(child, names, out);
                        }
                        child = mlirOperationGetNextInBlock(child);
                    }
                    block = mlirBlockGetNextInRegion(block);
                }
            }
        }
    }
    let mut out = Vec::new();
    regions(func.to_raw(), names, &mut out);
    out
}

/// The three checks on buffer keys (the fast path: no diagnostic is built).
fn passes_on_keys(
    names: &Names,
    buffers: &[Vec<usize>],
    rows: Option<i64>,
    ranks_of: &mut PtrMap<Option<i64>>,
) -> bool {
    for a in 0..buffers.len() {
        for b in a + 1..buffers.len() {
            if definitely_shared(&buffers[a], &buffers[b]).is_some() {
                return false;
            }
        }
    }
    let mut first: Option<usize> = None;
    for &k in buffers.iter().flatten() {
        let d = domain_key(names, k);
        match first {
            None => first = Some(d),
            Some(f) if f != d => return false,
            Some(_) => {}
        }
    }
    let (Some(domain), Some(rows)) = (first, rows) else {
        return true;
    };
    if domain == 0 {
        return true;
    }
    let ranks = *ranks_of
        .entry(domain)
        .or_insert_with(|| domain_ranks(&op_from_id(domain)));
    ranks.is_none_or(|ranks| ranks == rows)
}

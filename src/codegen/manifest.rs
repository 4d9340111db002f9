//! `manifest.json`: the build tree describing itself to machines
//! (docs/codegen.md, "The manifest"), so a runner never reads MLIR text or
//! recomputes what the compiler knew: every entry (each CHIP sub-build's
//! orchestration function and each HOST orchestrator) with its parameters
//! (kind, shape, element type, direction), a HOST orchestrator's own window
//! allocations with their offsets, the kernels, and every runtime check
//! (`pl.require`, `pld.host.require`) with its code and source location.

use super::{
    chip::{loc_text, source_site},
    planner::{Kernel, KernelOrigin, string_attr},
};
use crate::ir::at::{BlockAt as _, OpAt as _};
use crate::ir::{
    attributes::{attr_str, int_attr},
    signature::{arg_attr, entry_block, param_types},
    tensor_type::TensorView,
    types::is_comm_ctx,
    walk::{module_functions, ops_named},
};
use melior::ir::{
    BlockLike, Type, TypeLike, ValueLike,
    operation::{OperationLike, OperationRef},
};
use serde_json::{Value, json};
use std::rc::Rc;

/// The manifest's format version: a reader refuses another.
pub const VERSION: u64 = 1;

/// Which side runs an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rail {
    /// A CHIP orchestration function (`next_levels/<fn>/`).
    Chip,
    /// A HOST orchestrator (`host/<fn>.cpp`).
    Host,
}

/// One entry the tree holds.
pub struct Entry<'c, 'a> {
    pub func: OperationRef<'c, 'a>,
    pub name: String,
    pub c_name: String,
    pub rail: Rail,
    /// Its C++ source, relative to the tree.
    pub source: String,
    /// A CHIP sub-build's kernels, by func_id.
    pub kernels: Vec<(usize, Rc<Kernel>)>,
}

/// Where the runtime's window allocator places each allocation: the next
/// 64-byte boundary (`pld::host::World::alloc`, docs/runtime-api.md).
const WINDOW_ALIGN: u64 = 64;

fn param(func: &OperationRef, index: usize, ty: Type) -> Value {
    let (kind, shape, element) = if let Some(view) = TensorView::of(ty) {
        (
            if view.distributed { "window" } else { "tensor" },
            view.static_shape().map(|s| json!(s)).unwrap_or(Value::Null),
            json!(view.element.to_string()),
        )
    } else if is_comm_ctx(ty) {
        ("comm", Value::Null, Value::Null)
    } else if ty.is_integer() || ty.is_index() {
        ("scalar", Value::Null, json!(ty.to_string()))
    } else {
        ("other", Value::Null, Value::Null)
    };
    let direction = arg_attr(func, index, "pl.direction")
        .and_then(attr_str)
        .map_or(Value::Null, |d| json!(d));
    let location = entry_block(func)
        .and_then(|b| b.argument_at(index))
        .map_or(Value::Null, |a| json!(loc_text(a.location())));
    json!({
        "index": index,
        "type": ty.to_string(),
        "kind": kind,
        "shape": shape,
        "element_type": element,
        "direction": direction,
        "location": location,
    })
}

/// A HOST orchestrator's own windows: every `pld.window` of a
/// `pld.window_buffer` of its body, at its byte offset of every rank's
/// window. The offsets are static only when every buffer is allocated once,
/// in order, at the body's top level (not in a loop or branch).
fn host_windows(func: &OperationRef) -> Value {
    let all = ops_named(func, &["pld.window_buffer"]);
    // Every buffer once, aligned: what one run of the body allocates at
    // least (a buffer in a loop allocates once per iteration).
    let buffer_bytes: u64 = all
        .iter()
        .map(|b| {
            (int_attr(b, "bytes").unwrap_or(0).max(0) as u64).div_ceil(WINDOW_ALIGN) * WINDOW_ALIGN
        })
        .sum();
    let all_buffers = all.len();
    let Some(body) = entry_block(func) else {
        return json!({"static_layout": false, "windows": [], "alloc_end": null, "buffer_bytes": buffer_bytes});
    };
    let mut buffers: Vec<(OperationRef, u64)> = Vec::new();
    let mut end = 0u64;
    let mut op = body.first_operation();
    while let Some(o) = op {
        if crate::ir::op_kind::op_name(&o) == "pld.window_buffer" {
            let bytes = int_attr(&o, "bytes").unwrap_or(0).max(0) as u64;
            let at = end.div_ceil(WINDOW_ALIGN) * WINDOW_ALIGN;
            end = at + bytes;
            buffers.push((o, at));
        }
        op = o.next_in_block();
    }
    if buffers.len() != all_buffers {
        return json!({
            "static_layout": false,
            "why": "a pld.window_buffer is allocated inside a region (a loop or a branch)",
            "windows": [],
            "alloc_end": null,
            "buffer_bytes": buffer_bytes,
        });
    }
    // Every pld.window, in program order (a reader names them by position), with what is known
    // of it: a view of a buffer this body does not allocate, or of no static shape, has nulls.
    let windows: Vec<Value> = ops_named(func, &["pld.window"])
        .iter()
        .map(|w| {
            let base = w.operand_at(0).and_then(|buffer| {
                buffers
                    .iter()
                    .find(|(b, _)| {
                        b.result(0)
                            .is_ok_and(|r| r.to_raw().ptr == buffer.to_raw().ptr)
                    })
                    .map(|(_, at)| *at)
            });
            let ty = w.result_at(0).map(|r| r.r#type());
            let view = ty.and_then(TensorView::of);
            json!({
                "offset": base.map(|at| at + int_attr(w, "offset").unwrap_or(0).max(0) as u64),
                "type": ty.map(|t| t.to_string()),
                "shape": view.and_then(|v| v.static_shape()),
                "element_type": view.map(|v| v.element.to_string()),
                "location": loc_text(w.location()),
            })
        })
        .collect();
    json!({"static_layout": true, "windows": windows, "alloc_end": end, "buffer_bytes": buffer_bytes})
}

/// One kernel of a sub-build: its file in the tree, its tensor directions,
/// and where its text came from.
fn kernel(sub: &str, func_id: usize, k: &Kernel) -> Value {
    let (origin, from) = match &k.origin {
        KernelOrigin::Source(path) => ("kernel_source", path),
        KernelOrigin::Template(package) => ("builtin_template", package),
    };
    let signature: Vec<&str> = k.signature.iter().map(|d| d.as_str()).collect();
    json!({
        "func_id": func_id,
        "name": k.name,
        "source": format!("next_levels/{sub}/kernels/aiv/{}.cpp", k.name),
        "signature": signature,
        origin: from,
    })
}

/// Every runtime check of the module, in program order per function.
fn requires(module: &OperationRef) -> Vec<Value> {
    module_functions(module)
        .iter()
        .flat_map(|f| {
            let function = crate::ir::func_kind::symbol_name(f)
                .unwrap_or("")
                .to_string();
            ops_named(f, &["pl.require", "pld.host.require"])
                .into_iter()
                .map(move |op| {
                    let code_attr = if crate::ir::op_kind::op_name(&op) == "pl.require" {
                        "code"
                    } else {
                        "error_code"
                    };
                    json!({
                        "op": crate::ir::op_kind::op_name(&op),
                        "function": function,
                        "code": int_attr(&op, code_attr).unwrap_or(5),
                        "message": string_attr(&op, "message").unwrap_or_default(),
                        "location": source_site(op.location()),
                    })
                })
        })
        .collect()
}

/// The text of `manifest.json` for `entries` of `module` (pretty-printed,
/// keys in a fixed order, a final newline).
pub fn render(module: &OperationRef, arch: Option<&str>, entries: &[Entry]) -> String {
    let entries: Vec<Value> = entries
        .iter()
        .map(|e| {
            let params: Vec<Value> = param_types(&e.func)
                .into_iter()
                .enumerate()
                .map(|(i, ty)| param(&e.func, i, ty))
                .collect();
            let mut v = json!({
                "symbol": e.name,
                "c_symbol": e.c_name,
                "rail": match e.rail { Rail::Chip => "chip", Rail::Host => "host" },
                "source": e.source,
                "location": loc_text(e.func.location()),
                "parameters": params,
            });
            match e.rail {
                Rail::Host => v["host_windows"] = host_windows(&e.func),
                Rail::Chip => {
                    v["kernels"] = e
                        .kernels
                        .iter()
                        .map(|(id, k)| kernel(&e.name, *id, k))
                        .collect();
                }
            }
            v
        })
        .collect();
    let manifest = json!({
        "format": "pld-build-manifest",
        "version": VERSION,
        "arch": arch,
        "entries": entries,
        "requires": requires(module),
    });
    let mut text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    text.push('\n');
    text
}

//! IR helpers below the analyses and passes: typed views of the dialect's
//! types and attributes, value and symbol queries, and the launch-width fold.
//!
//! - `at`: positional lookups (operand, result, region, block argument) that
//!   may miss, without melior's print of the op on a miss.
//! - `builders`: typed builders of the `pl` / `pld` ops the passes create.
//! - `op_kind`: what an op is (`OpKind`, the collectives, keys).
//! - `walk`: a module's functions, the ops of one scope.
//! - `symbols`: `SymbolTable`, structural equality.
//! - `calls`: call-site queries and rebuilding a call with more arguments.
//! - `attributes`: reading and writing attributes.
//! - `signature`: a function's types, entry block, argument attributes.
//! - `types`: the `pl`/`pld` types the passes test for.
//! - `mutation`: the mutations melior's safe API does not reach.
//! - [`tensor_type`]: `!pl.tensor` / `!pld.dtensor` through the dialect's C API.
//! - `func_kind`: `pl.func_kind` / `pl.level`.
//! - `value_defs`: what defines a value.
//! - `context_borrow`: borrowing a `&Context` from a `ContextRef`.
//! - `handle_maps`: hash maps keyed by IR handles.
//! - [`launch_width`]: `cal_all_to_all_v_blocks` (RFC #2521).
//! - `direction`: the `pl.direction` vocabulary (in / out / inout).
//! - [`orch_ops`]: what a CHIP orchestration body may hold (the one list the
//!   orchestration codegen and `--legalize-spmd-launches` share).
//! - `host_ops`: what a HOST orchestrator body may hold (the one list the
//!   HOST codegen and `--legalize-spmd-launches` share).
//! - `entry_names`: the names a tree entry becomes (file, folder, C symbol)
//!   and their rules (the ones pld-translate and `--legalize-spmd-launches`
//!   share).

pub(crate) mod at;
pub(crate) mod attributes;
pub(crate) mod builders;
pub(crate) mod calls;
pub(crate) mod context_borrow;
pub(crate) mod direction;
pub(crate) mod entry_names;
pub(crate) mod func_kind;
pub(crate) mod handle_maps;
pub mod host_ops;
pub mod launch_width;
pub(crate) mod mutation;
pub(crate) mod op_kind;
pub mod orch_ops;
pub(crate) mod signature;
pub(crate) mod symbols;
pub mod tensor_type;
pub(crate) mod types;
pub(crate) mod value_defs;
pub(crate) mod walk;

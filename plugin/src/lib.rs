//! `libPldPlugin.so`: pld as one shared library over the host's `libMLIR.so`.
//!
//! - A dialect and pass plugin for stock `mlir-opt-22`:
//!   `mlir-opt-22 --load-dialect-plugin=P --load-pass-plugin=P
//!   --pass-pipeline='builtin.module(pld-lower-collectives)' in.mlir`
//!   (`mlirGetDialectPluginInfo`, `mlirGetPassPluginInfo`).
//! - The C API of `dialect/include/pld-c/Registration.h`
//!   (`pldRegisterDialects`, `pldRegisterPasses`, `pldRegisterAllPasses`,
//!   defined in the `pld` crate) for C and C++ drivers that link it next to
//!   `libMLIR.so` (`examples/cpp-driver/`).
//!
//! Built by `scripts/build-plugin.sh` (melior linked shared:
//! `MLIR_SYS_LINK_SHARED=1`, for the host triple named as a `--target`), installed as
//! `target/plugin/libPldPlugin.so` next to `libMLIR-C.so`.

#![allow(non_snake_case)] // the crate is named after the library, PldPlugin

use mlir_sys::MlirDialectRegistry;
use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` (mlir/Tools/Plugins/PassPlugin.h).
const MLIR_PLUGIN_API_VERSION: u32 = 1;
const NAME: &std::ffi::CStr = c"pld";
const VERSION: &std::ffi::CStr = match std::ffi::CStr::from_bytes_with_nul(
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
) {
    Ok(version) => version,
    Err(_) => panic!("a version without NUL"),
};

/// `mlir::DialectPluginLibraryInfo` (mlir/Tools/Plugins/DialectPlugin.h).
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    /// `void (*)(mlir::DialectRegistry *)`.
    pub register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// `mlir::PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: extern "C" fn(),
}

extern "C" fn register_dialects(registry: *mut c_void) {
    // An `MlirDialectRegistry` is the `DialectRegistry *`.
    pld::register_dialects_raw(MlirDialectRegistry { ptr: registry });
}

extern "C" fn register_passes() {
    pld::register_passes();
}

/// What `--load-dialect-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr(),
        plugin_version: VERSION.as_ptr(),
        register_dialect_registry_callbacks: register_dialects,
    }
}

/// What `--load-pass-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: NAME.as_ptr(),
        plugin_version: VERSION.as_ptr(),
        register_pass_registry_callbacks: register_passes,
    }
}

//! `pld-lsp-server`: MLIR's language server (`MlirLspServerMain`) over the
//! pl/pld dialects and the upstream ones `pld-opt` parses: an editor gets
//! pld's verifier diagnostics, hover, go-to-definition, document symbols and
//! op-name completion for `.mlir` files (docs/editors.md).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(pld::lsp_server_main(&args));
}

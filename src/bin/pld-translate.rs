//! `pld-translate`: an `mlir-translate`-style driver over the pl/pld
//! dialects. `--pld-to-ascend-build --output-dir DIR` writes the Ascend build
//! tree of a module lowered by `pld-opt --pld-lower-collectives` (see
//! docs/codegen.md); the codegen is `pld::codegen`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(pld::translate_main(&args));
}

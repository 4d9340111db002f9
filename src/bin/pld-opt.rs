//! `pld-opt`: an `mlir-opt`-style driver over the pl/pld dialects with every
//! pld pass registered (all standard MlirOptMain flags work).

fn main() {
    pld::register_passes();
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(pld::opt_main(&args));
}

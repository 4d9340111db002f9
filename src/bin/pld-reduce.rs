//! `pld-reduce`: MLIR's test-case reducer (`mlirReduceMain`) over the pl/pld
//! dialects, with every pld pass available to `--opt-reduction-pass` and the
//! pl/pld reduction patterns in `--reduction-tree` (docs/reducing.md).

fn main() {
    pld::register_passes();
    let args: Vec<String> = std::env::args().collect();
    std::process::exit(pld::reduce_main(&args));
}

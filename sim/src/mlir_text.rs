//! MLIR text both module writers spell alike ([`crate::chip_pipeline`],
//! [`crate::family::module`]).

/// A user kernel parameter: its name, its type and its `pl.direction`.
pub(crate) type Param<'a> = (&'a str, &'a str, &'a str);

/// The declaration of AIV user kernel `name`, its C++ at `source` (relative to the module's
/// directory): one parameter per line, aligned, returning its `out` and `inout` parameters.
pub(crate) fn aiv_kernel(name: &str, source: &str, params: &[Param]) -> String {
    let head = format!("func.func private @{name}(");
    let list: Vec<String> = (params.iter())
        .map(|(p, ty, dir)| format!("%{p}: {ty} {{pl.direction = \"{dir}\"}}"))
        .collect();
    let outs: Vec<&Param> = params.iter().filter(|p| p.2 != "in").collect();
    let names: Vec<String> = outs.iter().map(|p| format!("%{}", p.0)).collect();
    let types: Vec<&str> = outs.iter().map(|p| p.1).collect();
    format!(
        "{head}{})\n    -> {}\n    attributes {{pl.func_kind = \"aiv\", pl.kernel_source = \"{source}\"}} {{\n  return {} : {}\n}}\n",
        list.join(&format!(",\n{}", " ".repeat(head.len()))),
        results_type(params),
        names.join(", "),
        types.join(", ")
    )
}

/// The result type of a user kernel declared with `params`: its `out` and `inout` parameters'
/// types, parenthesized when there are several.
fn results_type(params: &[Param]) -> String {
    let types: Vec<&str> = params.iter().filter(|p| p.2 != "in").map(|p| p.1).collect();
    match types.len() {
        1 => types[0].to_string(),
        _ => format!("({})", types.join(", ")),
    }
}

/// `results = func.call @kernel(args)` of a user kernel declared with `params`, its types on a
/// second line.
pub(crate) fn call(kernel: &str, results: &[&str], args: &[&str], params: &[Param]) -> String {
    let types: Vec<&str> = params.iter().map(|p| p.1).collect();
    format!(
        "{} = func.call @{kernel}({})\n    : ({}) -> {}\n",
        results.join(", "),
        args.join(", "),
        types.join(", "),
        results_type(params)
    )
}

/// Every line of `text` indented by `by`.
pub(crate) fn indent(text: &str, by: &str) -> String {
    text.lines().map(|l| format!("{by}{l}\n")).collect()
}

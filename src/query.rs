//! `syclify query NAME`: what a CUDA runtime API, intrinsic, type,
//! enumerator, header or construct becomes, with an example migrated live
//! by the real pipeline (like SYCLomatic's `--query-api-mapping`).
//!
//! Sources, in order: the constructs structural rules migrate
//! (`rules/query.yaml`, each with a hand-written example), then the mapping
//! tables (`rules/*.yaml` and `--rule-file`s), whose entries get an example
//! built from their template. An unknown name gets the closest known ones.
//! The example is written to a temporary directory and migrated there as a
//! one-file project; nothing else is written.

use crate::mapping::{FunctionRule, Mappings};
use crate::project::{self, Status};
use serde::Deserialize;
use std::fmt::Write as _;
use std::sync::OnceLock;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Construct {
    pub names: Vec<String>,
    pub rule: String,
    pub becomes: String,
    pub example: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    constructs: Vec<Construct>,
}

const TABLE: &str = include_str!("../rules/query.yaml");

/// The constructs of `rules/query.yaml`.
pub fn constructs() -> &'static [Construct] {
    static T: OnceLock<Vec<Construct>> = OnceLock::new();
    T.get_or_init(|| serde_saphyr::from_str::<Table>(TABLE).expect("rules/query.yaml is valid (tested)").constructs)
}

/// What a name is.
#[derive(Debug, Clone)]
pub enum Answer {
    Construct(Construct),
    Function(FunctionRule),
    Type {
        cuda: String,
        sycl: String,
    },
    Enum {
        cuda: String,
        sycl: String,
    },
    Header {
        cuda: String,
        sycl: String,
    },
    Macro(crate::mapping::MacroRule),
    /// Not known; the closest known names, best first.
    Unknown(Vec<String>),
}

/// Looks a name up (exact; case-insensitive for constructs' names).
pub fn lookup(name: &str, m: &Mappings) -> Answer {
    let name = name.trim();
    if let Some(c) = constructs().iter().find(|c| c.names.iter().any(|n| n.eq_ignore_ascii_case(name))) {
        return Answer::Construct(c.clone());
    }
    if let Some(f) = m.functions.get(name) {
        return Answer::Function(f.clone());
    }
    if let Some(t) = m.types.get(name) {
        return Answer::Type { cuda: name.to_string(), sycl: t.clone() };
    }
    if let Some(e) = m.enums.get(name) {
        return Answer::Enum { cuda: name.to_string(), sycl: e.clone() };
    }
    if let Some(r) = m.macros.get(name) {
        return Answer::Macro(r.clone());
    }
    let header = name.trim_start_matches('<').trim_end_matches('>');
    if let Some(h) = m.header(header) {
        return Answer::Header { cuda: header.to_string(), sycl: h.clone() };
    }
    Answer::Unknown(closest(name, m))
}

/// Every name query knows.
fn known_names(m: &Mappings) -> Vec<String> {
    let mut v: Vec<String> = constructs().iter().flat_map(|c| c.names.iter().cloned()).collect();
    v.extend(m.functions.keys().cloned());
    v.extend(m.types.keys().cloned());
    v.extend(m.enums.keys().cloned());
    v.extend(m.headers.keys().cloned());
    v.extend(m.macros.keys().cloned());
    v.sort();
    v.dedup();
    v
}

/// The known names closest to `name` (edit distance, ignoring case), at
/// most five, each close enough to be a likely misspelling or a relative.
pub fn closest(name: &str, m: &Mappings) -> Vec<String> {
    let lower = name.to_ascii_lowercase();
    let mut scored: Vec<(f64, String)> = known_names(m)
        .into_iter()
        .map(|k| {
            let kl = k.to_ascii_lowercase();
            let mut score = strsim::normalized_damerau_levenshtein(&lower, &kl);
            if lower.len() >= 4 && (kl.contains(&lower) || lower.contains(&kl)) {
                score = score.max(0.75);
            }
            (score, k)
        })
        .filter(|(s, _)| *s >= 0.6)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(5).map(|(_, k)| k).collect()
}

/// How many arguments a template takes (`{0}`, `{*1}`, `{?2}`) and which
/// are taken through a pointer (`{*N}`: the call passes `&x`).
fn template_arity(f: &FunctionRule) -> (usize, Vec<bool>) {
    let re = cached_regex!(r"\{([*?]?)(\d+)\}");
    let mut n = 0;
    let mut by_pointer = Vec::new();
    for t in [&f.statement, &f.expression].into_iter().flatten() {
        for c in re.captures_iter(t) {
            let i: usize = c[2].parse().unwrap_or(0);
            n = n.max(i + 1);
            if by_pointer.len() <= i {
                by_pointer.resize(i + 1, false);
            }
            if &c[1] == "*" {
                by_pointer[i] = true;
            }
        }
    }
    by_pointer.resize(n, false);
    (n, by_pointer)
}

/// A small CUDA file that uses the name.
pub fn example(name: &str, a: &Answer) -> Option<String> {
    Some(match a {
        Answer::Construct(c) => c.example.clone(),
        Answer::Function(f) => {
            let (n, by_pointer) = template_arity(f);
            let params: Vec<String> = (0..n).map(|i| format!("class A{i}")).collect();
            let decls: Vec<String> = (0..n).map(|i| format!("A{i} a{i}")).collect();
            let args: Vec<String> = (0..n).map(|i| if by_pointer[i] { format!("&a{i}") } else { format!("a{i}") }).collect();
            let template = if n > 0 { format!("template <{}>\n", params.join(", ")) } else { String::new() };
            let host = name.starts_with("cuda") && !f.device;
            let qualifier = if host { "" } else { "__global__ " };
            format!("{template}{qualifier}void example({}) {{\n  {name}({});\n}}\n", decls.join(", "), args.join(", "))
        }
        Answer::Type { cuda, .. } => format!("void example() {{\n  {cuda} value;\n  (void)value;\n}}\n"),
        Answer::Enum { cuda, .. } => format!("int example() {{\n  auto value = {cuda};\n  return (int)value;\n}}\n"),
        Answer::Header { cuda, .. } => format!("#include <{cuda}>\n__global__ void example() {{}}\n"),
        Answer::Macro(r) if r.value.is_some() => format!("#if {} >= 11000\nint modern = {};\n#endif\n", r.cuda, r.cuda),
        Answer::Macro(r) => format!("#ifdef {}\nvoid helper();\n#endif\n", r.cuda),
        Answer::Unknown(_) => return None,
    })
}

/// The example migrated by the pipeline: its output and its diagnostics
/// (`line:col: severity: message [CODE]`).
pub fn migrate_example(cuda: &str, mappings: &Mappings) -> Result<(String, Vec<String>), String> {
    let m = project::migrate_in_memory(vec![("example.cu".to_string(), cuda.as_bytes().to_vec())], mappings);
    let report = crate::report::build(&m);
    let f = m.files.iter().find(|f| f.rel == "example.cu" && f.status == Status::Migrated).ok_or("the example was not migrated")?;
    let diags = report
        .files
        .iter()
        .flat_map(|f| f.diagnostics.iter())
        .map(|d| format!("{}:{}: {}: {} [{}]", d.line, d.column, d.severity.as_str(), d.message, d.code))
        .collect();
    Ok((f.output.clone().unwrap_or_default(), diags))
}

fn indent(s: &str) -> String {
    s.lines().map(|l| if l.is_empty() { "\n".to_string() } else { format!("    {l}\n") }).collect()
}

/// The answer for a name, as text for a terminal; false when the name is unknown.
pub fn render(name: &str, mappings: &Mappings) -> (String, bool) {
    let a = lookup(name, mappings);
    let mut s = String::new();
    match &a {
        Answer::Construct(c) => {
            let file = c.rule.replace('-', "_");
            let _ = writeln!(s, "{name}: migrated by the rule {} (src/rules/{file}.rs)\nbecomes: {}", c.rule, c.becomes);
        }
        Answer::Function(f) => {
            let _ = writeln!(s, "{name}: a function of the mapping tables (rules/*.yaml){}", if f.device { ", mapped in device code only" } else { "" });
            if let Some(t) = &f.statement {
                let _ = writeln!(s, "as a statement:  {t}");
            }
            if let Some(t) = &f.expression {
                let _ = writeln!(s, "as a value:      {t}");
            }
            let _ = writeln!(s, "  ({{0}}, {{1}}… are the call's arguments; {{*0}} the object argument 0 points to; {{queue}} the default queue)");
            if let Some(n) = &f.note {
                let _ = writeln!(s, "note: {n}");
            }
            if let Some(w) = &f.warn {
                let _ = writeln!(s, "warning: {w}");
            }
        }
        Answer::Type { cuda, sycl } => {
            let _ = writeln!(s, "{cuda}: a type of the mapping tables; becomes {sycl}");
        }
        Answer::Enum { cuda, sycl } => {
            let _ = writeln!(s, "{cuda}: an enumerator of the mapping tables; becomes {sycl}");
        }
        Answer::Header { cuda, sycl } => {
            let shown = if sycl.is_empty() { "removed (the SYCL includes replace it)".to_string() } else { format!("becomes <{sycl}>") };
            let _ = writeln!(s, "<{cuda}>: a CUDA header; {shown}");
        }
        Answer::Macro(r) => {
            let what = if r.value.is_some() { "a CUDA version macro" } else { "a CUDA header guard or compiler macro" };
            let value = r.value.map(|v| format!(", {v}")).unwrap_or_default();
            let by = if r.defined_by.contains('/') { format!("<{}>", r.defined_by) } else { r.defined_by.clone() };
            let _ = writeln!(s, "{}: {what} (rules/cuda_macros.yaml); becomes {}{value}, defined by {by} (SY0111)", r.cuda, r.sycl);
        }
        Answer::Unknown(near) => {
            let _ = writeln!(s, "syclify: `{name}` is not a name syclify knows (not migrated; a use in device code is reported as SY0010 or SY0401)");
            if !near.is_empty() {
                let _ = writeln!(s, "closest known: {}", near.join(", "));
            }
            return (s, false);
        }
    }
    if let Some(cuda) = example(name, &a) {
        let _ = write!(s, "\nexample, CUDA:\n{}", indent(&cuda));
        match migrate_example(&cuda, mappings) {
            Ok((out, diags)) => {
                let _ = write!(s, "migrated by syclify:\n{}", indent(&out));
                if !diags.is_empty() {
                    let _ = writeln!(s, "diagnostics:");
                    for d in diags {
                        let _ = writeln!(s, "    {d}");
                    }
                }
            }
            Err(e) => {
                let _ = writeln!(s, "(the example could not be migrated: {e})");
            }
        }
    }
    (s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_loads_and_names_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for c in constructs() {
            for n in &c.names {
                assert!(seen.insert(n.to_ascii_lowercase()), "{n} listed twice in rules/query.yaml");
            }
        }
    }

    #[test]
    fn lookups() {
        let m = Mappings::builtin();
        assert!(matches!(lookup("__shfl_down_sync", &m), Answer::Construct(_)));
        assert!(matches!(lookup("cudaMemcpy", &m), Answer::Function(_)));
        assert!(matches!(lookup("cudaStream_t", &m), Answer::Type { .. }));
        assert!(matches!(lookup("cudaMemcpyHostToDevice", &m), Answer::Enum { .. }));
        match lookup("cudaMemcyp", &m) {
            Answer::Unknown(near) => assert_eq!(near.first().map(String::as_str), Some("cudaMemcpy")),
            other => panic!("{other:?}"),
        }
    }

    /// Every construct's example migrates with nothing of CUDA left (SY0010).
    #[test]
    fn every_example_migrates() {
        let m = Mappings::builtin();
        for c in constructs() {
            let (out, diags) = migrate_example(&c.example, &m).unwrap();
            assert_ne!(out, c.example, "{:?}: the example did not change", c.names);
            assert!(diags.iter().all(|d| !d.contains("[SY0010]") && !d.contains("[SY0001]")), "{:?}: {diags:?}", c.names);
        }
    }

    #[test]
    fn template_arity_counts_placeholders() {
        let m = Mappings::builtin();
        let (n, by_pointer) = template_arity(&m.functions["cudaMalloc"]);
        assert_eq!(n, 2);
        assert!(by_pointer[0] && !by_pointer[1]);
    }
}

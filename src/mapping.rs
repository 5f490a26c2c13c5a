//! Mapping rules as data: CUDA API → template, type → type, enumerator →
//! value, header → header. The built-in tables (`rules/*.yaml`) are embedded
//! in the binary; users add or override entries with `--rule-file`.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FunctionRule {
    pub cuda: String,
    /// Template used when the call's value is not used.
    #[serde(default)]
    pub statement: Option<String>,
    /// Template used when the value is used (returns an error code).
    #[serde(default)]
    pub expression: Option<String>,
    /// Only in device code (kernels and `__device__` functions): e.g. `sqrt`,
    /// whose host uses must stay as they are.
    #[serde(default)]
    pub device: bool,
    /// A caveat reported (as a note, SY0403) at every use: what the mapping
    /// assumes or cannot reproduce.
    #[serde(default)]
    pub note: Option<String>,
    /// Like `note`, but a warning (SY0404) that also leaves a comment in the
    /// migrated code: the use needs a human.
    #[serde(default)]
    pub warn: Option<String>,
    /// A warning (SY0404, with a comment) only where an argument names a
    /// flag the mapping cannot honour (`cudaHostRegister(p, n,
    /// cudaHostRegisterMapped)`: kernels reading host memory).
    #[serde(default)]
    pub warn_when: Option<ArgumentWarning>,
    /// CUDA's parameter types, where the SYCL side does not convert an
    /// argument as CUDA's prototype does (`__float_as_int(float)` given a
    /// double): an argument the syntax shows to be of another arithmetic
    /// kind is converted explicitly. C math pairs (`sqrtf`/`sqrt`) need no
    /// entry: see [`Mappings::float_parameters`].
    #[serde(default)]
    pub params: Option<Vec<String>>,
}

/// See [`FunctionRule::warn_when`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgumentWarning {
    /// The argument's index (0-based).
    pub argument: usize,
    /// The name whose appearance in that argument calls for the warning.
    pub names: String,
    pub warn: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NameRule {
    pub cuda: String,
    pub sycl: String,
}

/// A library namespace whose names exist under another namespace in SYCL
/// code (`cub::BlockReduce` → `syclify::cub::BlockReduce`): the qualifier is
/// rewritten wherever it is written; a name under it that `members` does not
/// list is reported (SY0405) and left as is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamespaceRule {
    pub cuda: String,
    pub sycl: String,
    /// The names under the namespace that `sycl` has too.
    pub members: Vec<String>,
}

/// A macro CUDA's headers define that programs test (`#ifdef
/// __DRIVER_TYPES_H__`, `#if CUDART_VERSION >= 11000`): it becomes a macro
/// that the helper header replacing that CUDA header defines, so the test
/// means what it meant under CUDA (a header guard: "was that header
/// included?"; a version: the version of the API (CUDA's, NCCL's) syclify migrates from).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MacroRule {
    pub cuda: String,
    pub sycl: String,
    /// What defines `sycl` (`syclify/blas.hpp`, `the SYCL compiler`): said
    /// in the note at each test.
    pub defined_by: String,
    /// Its value where `defined_by` defines it (a version), for the note
    /// that says which branch a comparison keeps; none for a guard.
    #[serde(default)]
    pub value: Option<i64>,
    /// For the guard of a header syclify does not replace (`sycl: ""`,
    /// kept as written): the headers whose include defines it. A branch
    /// that needs it is inactive in a program none of whose files includes
    /// one of them (`src/rules/inactive_branches.rs`).
    #[serde(default)]
    pub included_by: Vec<String>,
}

impl MacroRule {
    /// Kept as written: the guard of a header syclify does not replace.
    pub fn is_kept(&self) -> bool {
        self.sycl.is_empty()
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    #[serde(default)]
    pub functions: Vec<FunctionRule>,
    #[serde(default)]
    pub types: Vec<NameRule>,
    #[serde(default)]
    pub enums: Vec<NameRule>,
    #[serde(default)]
    pub headers: Vec<NameRule>,
    #[serde(default)]
    pub namespaces: Vec<NamespaceRule>,
    #[serde(default)]
    pub macros: Vec<MacroRule>,
    #[serde(default)]
    pub unsupported: Vec<UnsupportedRule>,
}

/// A CUDA name that has no migration, with why: `cuda` is a name, or a
/// prefix ending in `*` (`cuTexRef*`). The call gets SY0401 with the reason.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsupportedRule {
    pub cuda: String,
    pub why: String,
}

/// The parameter type of CUDA's conversion intrinsics, named
/// `__<from>2<to>[_<rounding>]` (`__float2int_rd` takes a float, so a double
/// argument is first rounded to float, as CUDA does, and only then to int).
fn conversion_source(name: &str) -> Option<&'static str> {
    let rest = name.strip_prefix("__")?;
    let (from, to) = rest.split_once('2')?;
    if to.starts_with('2') || !to.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None; // `__float22half2_rn` takes a float2
    }
    Some(match from {
        "float" => "float",
        "double" => "double",
        "int" => "int",
        "uint" => "unsigned int",
        "ll" => "long long",
        "ull" => "unsigned long long",
        _ => return None,
    })
}

/// The merged tables.
#[derive(Debug, Clone, Default)]
pub struct Mappings {
    pub functions: BTreeMap<String, FunctionRule>,
    pub types: BTreeMap<String, String>,
    pub enums: BTreeMap<String, String>,
    pub headers: BTreeMap<String, String>,
    pub namespaces: BTreeMap<String, NamespaceRule>,
    pub macros: BTreeMap<String, MacroRule>,
    /// Names without a migration and why ([`UnsupportedRule`]; a prefix keeps its `*`).
    pub unsupported: BTreeMap<String, String>,
    /// The first two bytes of every name of `types` and `enums`: most
    /// names a rule asks about (every identifier of a file) are told apart
    /// by them without a lookup ([`Mappings::type_or_enum`]).
    type_or_enum_starts: NameStarts,
}

/// A set of names' first two bytes (a bit each): a name whose first two
/// bytes are not in it is none of the names.
#[derive(Debug, Clone, Default)]
pub struct NameStarts {
    bits: Vec<u64>,
}

impl NameStarts {
    fn at(name: &str) -> usize {
        let b = name.as_bytes();
        (b.first().copied().unwrap_or(0) as usize) << 8 | b.get(1).copied().unwrap_or(0) as usize
    }

    pub fn insert(&mut self, name: &str) {
        if self.bits.is_empty() {
            self.bits = vec![0; 1 << 10];
        }
        let i = Self::at(name);
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// May `name` be one of the names inserted?
    pub fn may_hold(&self, name: &str) -> bool {
        let i = Self::at(name);
        self.bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
}

impl FromIterator<&'static str> for NameStarts {
    fn from_iter<I: IntoIterator<Item = &'static str>>(names: I) -> Self {
        let mut s = NameStarts::default();
        for n in names {
            s.insert(n);
        }
        s
    }
}

const BUILTIN: &[(&str, &str)] = &[
    ("rules/runtime_api.yaml", include_str!("../rules/runtime_api.yaml")),
    ("rules/atomics.yaml", include_str!("../rules/atomics.yaml")),
    ("rules/math.yaml", include_str!("../rules/math.yaml")),
    ("rules/complex.yaml", include_str!("../rules/complex.yaml")),
    ("rules/vector_and_half_types.yaml", include_str!("../rules/vector_and_half_types.yaml")),
    ("rules/cub.yaml", include_str!("../rules/cub.yaml")),
    ("rules/thrust.yaml", include_str!("../rules/thrust.yaml")),
    ("rules/cublas.yaml", include_str!("../rules/cublas.yaml")),
    ("rules/curand.yaml", include_str!("../rules/curand.yaml")),
    ("rules/cusparse.yaml", include_str!("../rules/cusparse.yaml")),
    ("rules/cufft.yaml", include_str!("../rules/cufft.yaml")),
    ("rules/cusolver.yaml", include_str!("../rules/cusolver.yaml")),
    ("rules/nccl.yaml", include_str!("../rules/nccl.yaml")),
    ("rules/cublaslt.yaml", include_str!("../rules/cublaslt.yaml")),
    ("rules/wmma.yaml", include_str!("../rules/wmma.yaml")),
    ("rules/libcu.yaml", include_str!("../rules/libcu.yaml")),
    ("rules/nvtx.yaml", include_str!("../rules/nvtx.yaml")),
    ("rules/driver_api.yaml", include_str!("../rules/driver_api.yaml")),
    ("rules/cuda_macros.yaml", include_str!("../rules/cuda_macros.yaml")),
];

/// The built-in tables, each as its file holds it (before merging), in the
/// order they are merged: for the reference pages ([`crate::reference`]).
pub fn builtin_files() -> Vec<(&'static str, RuleFile)> {
    BUILTIN.iter().map(|(name, text)| (*name, parse(text, name).unwrap_or_else(|e| panic!("built-in rule file is valid: {e}")))).collect()
}

/// The `__names` the built-in tables map (`__shfl_down_sync`, `__half`):
/// read from the `cuda:` keys of the embedded YAML, without parsing it.
pub fn builtin_dunder_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().flat_map(|(_, text)| {
        text.lines().filter_map(|l| {
            let v = l.trim_start().trim_start_matches("- ").strip_prefix("cuda:")?.trim().trim_matches(['"', '\'']);
            v.starts_with("__").then_some(v)
        })
    })
}

impl Mappings {
    /// The built-in tables: parsed once a process (the editor and the tests
    /// migrate many times), then copied.
    pub fn builtin() -> Self {
        static TABLES: std::sync::OnceLock<Mappings> = std::sync::OnceLock::new();
        TABLES
            .get_or_init(|| {
                let mut m = Mappings::default();
                for (_, file) in builtin_files() {
                    m.add(file);
                }
                m
            })
            .clone()
    }

    /// A type as written, with every mapped type name in it migrated
    /// (`const float4` → `const syclify::float4`): for types syclify writes
    /// itself elsewhere (local memory at a launch, extra parameters).
    pub fn migrate_type_text(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for (r, w) in crate::syntax::identifiers(s) {
            if s[..r.start].trim_end().ends_with("::") {
                continue;
            }
            // a library namespace as a qualifier (`cub::BlockReduce<T, 256>`)
            if let Some(ns) = self.namespaces.get(w).filter(|_| s[r.end..].trim_start().starts_with("::")) {
                out.push_str(&s[last..r.start]);
                out.push_str(&ns.sycl);
                last = r.end;
                continue;
            }
            if let Some(t) = self.types.get(w) {
                out.push_str(&s[last..r.start]);
                out.push_str(t);
                last = r.end;
            }
        }
        out.push_str(&s[last..]);
        out
    }

    /// [`Self::migrate_type_text`], mapping enumerators too (the template
    /// arguments of a texture reference: `float4, 2, cudaReadModeElementType`).
    pub fn migrate_names_text(&self, s: &str) -> String {
        let s = self.migrate_type_text(s);
        let mut out = String::with_capacity(s.len());
        let mut last = 0;
        for (r, w) in crate::syntax::identifiers(&s) {
            if let Some(e) = self.enums.get(w).filter(|_| !s[..r.start].trim_end().ends_with("::")) {
                out.push_str(&s[last..r.start]);
                out.push_str(e);
                last = r.end;
            }
        }
        out.push_str(&s[last..]);
        out
    }

    /// The floating type a C math function's arguments have, for the
    /// functions whose SYCL counterpart is generic: CUDA converts `sqrtf(n)`'s
    /// int (or double) to float, and `sqrt(n)`'s int to double, where
    /// `sycl::sqrt(n)` is ambiguous or computes in double. A function is one
    /// of a pair: the `f`-suffixed form takes `float`, the other `double`
    /// (`rsqrtf`/`rsqrt`). Functions with an integer or pointer-to-integer
    /// parameter (`ldexpf`, `jnf`, `remquof`, ...) are left out: their
    /// arguments are not all of the one type.
    pub fn float_parameters(&self, name: &str) -> Option<&'static str> {
        const MIXED: &[&str] = &["ldexp", "scalbn", "scalbln", "jn", "yn", "nan", "remquo", "frexp"];
        let generic =
            |n: &str| self.functions.get(n).and_then(|r| r.expression.as_deref()).is_some_and(|e| e.starts_with("sycl::") && !e.contains("sycl::bit_cast"));
        if name.starts_with('_') || !generic(name) {
            return None;
        }
        match name.strip_suffix('f') {
            Some(base) if generic(base) && !MIXED.contains(&base) => Some("float"),
            _ if generic(&format!("{name}f")) && !MIXED.contains(&name) => Some("double"),
            _ => None,
        }
    }

    /// CUDA's type of parameter `i` of `name`, where it matters, and
    /// whether the table declares it ([`FunctionRule::params`]) rather than
    /// [`Mappings::float_parameters`] deriving it.
    pub fn parameter_type(&self, name: &str, i: usize) -> Option<(&str, bool)> {
        match self.functions.get(name).and_then(|r| r.params.as_ref()) {
            Some(ps) => ps.get(i).map(|p| (p.as_str(), true)),
            None => conversion_source(name).filter(|_| i == 0).map(|p| (p, true)).or_else(|| self.float_parameters(name).map(|p| (p, false))),
        }
    }

    /// Is `name` a key of `types` or of `enums`?
    pub fn type_or_enum(&self, name: &str) -> bool {
        self.type_or_enum_starts.may_hold(name) && (self.types.contains_key(name) || self.enums.contains_key(name))
    }

    /// The replacement of header `name`: its own entry, else the entry of a
    /// prefix (`cuda: "thrust/*"` stands for every Thrust header).
    pub fn header(&self, name: &str) -> Option<&String> {
        self.headers
            .get(name)
            .or_else(|| self.headers.iter().filter(|(k, _)| k.ends_with('*')).find(|(k, _)| name.starts_with(&k[..k.len() - 1])).map(|(_, v)| v))
    }

    /// Adds (or overrides) entries from a rule file.
    pub fn add(&mut self, f: RuleFile) {
        for r in f.functions {
            self.functions.insert(r.cuda.clone(), r);
        }
        for r in f.types {
            self.type_or_enum_starts.insert(&r.cuda);
            self.types.insert(r.cuda, r.sycl);
        }
        for r in f.enums {
            self.type_or_enum_starts.insert(&r.cuda);
            self.enums.insert(r.cuda, r.sycl);
        }
        for r in f.headers {
            self.headers.insert(r.cuda, r.sycl);
        }
        for r in f.namespaces {
            self.namespaces.insert(r.cuda.clone(), r);
        }
        for r in f.macros {
            self.macros.insert(r.cuda.clone(), r);
        }
        for r in f.unsupported {
            self.unsupported.insert(r.cuda, r.why);
        }
    }

    /// Why CUDA's `name` has no migration, if a table says: its own entry,
    /// else the entry of a prefix (`cuTexRef*`).
    pub fn why_unsupported(&self, name: &str) -> Option<&str> {
        self.unsupported
            .get(name)
            .or_else(|| self.unsupported.iter().filter(|(k, _)| k.ends_with('*')).find(|(k, _)| name.starts_with(&k[..k.len() - 1])).map(|(_, v)| v))
            .map(String::as_str)
    }

    pub fn load_file(&mut self, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let f = parse(&text, &path.display().to_string())?;
        self.add(f);
        Ok(())
    }
}

fn parse(text: &str, name: &str) -> Result<RuleFile, String> {
    let f: RuleFile = serde_saphyr::from_str(text).map_err(|e| format!("{name}: {e}"))?;
    for r in &f.functions {
        if r.statement.is_none() && r.expression.is_none() {
            return Err(format!("{name}: function `{}` needs a `statement` or an `expression` template", r.cuda));
        }
        for t in r.statement.iter().chain(&r.expression) {
            check_template(t).map_err(|e| format!("{name}: function `{}`: {e}", r.cuda))?;
        }
    }
    Ok(f)
}

/// A piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePiece {
    Text(String),
    Arg(usize),
    Deref(usize),
    /// `{&N}`: the address of argument N (`x` → `&x`, `*p` → `p`).
    AddressOf(usize),
    /// `{?N}`: `, ` and argument N when the call has it, nothing otherwise
    /// (CUDA's defaulted parameters, e.g. a stream).
    Optional(usize),
    Queue,
}

/// The function a template only forwards to, arguments in order
/// (`sycl::native::sin({0})` → `sycl::native::sin`): what a CUDA function
/// named without a call (`#define fast_sin __sinf`) becomes.
pub fn forwarding_target(t: &str) -> Option<String> {
    forwarding(t).map(|(name, _)| name)
}

/// [`forwarding_target`] with the number of arguments it forwards.
pub fn forwarding(t: &str) -> Option<(String, usize)> {
    let pieces = parse_template(t).ok()?;
    let (TemplatePiece::Text(head), rest) = pieces.split_first()? else {
        return None;
    };
    let name = head.strip_suffix('(')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
        return None;
    }
    let mut next = 0;
    for (k, p) in rest.iter().enumerate() {
        match p {
            TemplatePiece::Arg(i) if *i == next && k % 2 == 0 => next += 1,
            TemplatePiece::Text(t) if k % 2 == 1 && (t == ", " || (t == ")" && k == rest.len() - 1)) => {}
            _ => return None,
        }
    }
    (next > 0 && matches!(rest.last(), Some(TemplatePiece::Text(t)) if t == ")")).then(|| (name.to_string(), next))
}

pub fn parse_template(t: &str) -> Result<Vec<TemplatePiece>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut rest = t;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("{{") || rest.starts_with("}}") {
            text.push(c); // `{{` and `}}` are literal braces
            rest = &rest[2..];
            continue;
        }
        if c == '}' {
            return Err(format!("unmatched `}}` in template `{t}` (write `}}}}` for a literal brace)"));
        }
        if c != '{' {
            text.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let close = rest.find('}').ok_or_else(|| format!("unclosed `{{` in template `{t}`"))?;
        let name = &rest[1..close];
        let piece = if name == "queue" {
            TemplatePiece::Queue
        } else if let Some(n) = name.strip_prefix('*') {
            TemplatePiece::Deref(n.parse().map_err(|_| format!("bad placeholder `{{{name}}}` in `{t}`"))?)
        } else if let Some(n) = name.strip_prefix('?') {
            TemplatePiece::Optional(n.parse().map_err(|_| format!("bad placeholder `{{{name}}}` in `{t}`"))?)
        } else if let Some(n) = name.strip_prefix('&') {
            TemplatePiece::AddressOf(n.parse().map_err(|_| format!("bad placeholder `{{{name}}}` in `{t}`"))?)
        } else {
            TemplatePiece::Arg(name.parse().map_err(|_| format!("bad placeholder `{{{name}}}` in `{t}`"))?)
        };
        if !text.is_empty() {
            out.push(TemplatePiece::Text(std::mem::take(&mut text)));
        }
        out.push(piece);
        rest = &rest[close + 1..];
    }
    if !text.is_empty() {
        out.push(TemplatePiece::Text(text));
    }
    Ok(out)
}

fn check_template(t: &str) -> Result<(), String> {
    parse_template(t).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_tables_load() {
        let m = Mappings::builtin();
        assert!(m.functions.contains_key("cudaMalloc"));
        assert_eq!(m.types["cudaError_t"], "syclify::error_t");
    }

    /// Every macro of `rules/cuda_macros.yaml` that a helper header stands
    /// for is defined by that header, with the value the table gives (the
    /// note SY0111 says which branch is kept by that value).
    #[test]
    fn cuda_macros_are_defined_by_their_helper_headers() {
        let m = Mappings::builtin();
        assert!(m.macros.contains_key("__DRIVER_TYPES_H__") && m.macros.contains_key("CUDART_VERSION"));
        for r in m.macros.values() {
            if r.is_kept() {
                assert!(!r.included_by.is_empty(), "{}: a guard kept as written names the headers that define it", r.cuda);
                continue;
            }
            if !r.defined_by.contains('/') {
                assert!(r.sycl == "SYCL_LANGUAGE_VERSION", "{}: only the SYCL compiler's own macro needs no header", r.cuda);
                continue;
            }
            let path = format!("{}/runtime-headers/{}", env!("CARGO_MANIFEST_DIR"), r.defined_by);
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let line = text.lines().find(|l| l.split_whitespace().take(2).eq(["#define", r.sycl.as_str()]));
            let line = line.unwrap_or_else(|| panic!("{path} does not define {} (for {})", r.sycl, r.cuda));
            let value = line.split_whitespace().nth(2).and_then(|v| v.parse::<i64>().ok());
            assert_eq!(value, Some(r.value.unwrap_or(1)), "{path}: {line} (for {})", r.cuda);
        }
    }

    #[test]
    fn malformed_rule_file_names_the_line() {
        let err = parse("functions:\n  - cuda: cudaFoo\n    statment: x\n", "user.yaml").unwrap_err();
        assert!(err.contains("user.yaml"), "{err}");
        assert!(err.contains("line 3") || err.contains("3:"), "{err}");
    }

    #[test]
    fn templates_parse_placeholders() {
        assert_eq!(
            parse_template("{*0} = f({1}, {queue})").unwrap(),
            vec![
                TemplatePiece::Deref(0),
                TemplatePiece::Text(" = f(".into()),
                TemplatePiece::Arg(1),
                TemplatePiece::Text(", ".into()),
                TemplatePiece::Queue,
                TemplatePiece::Text(")".into())
            ]
        );
        assert!(parse_template("{x}").is_err());
        assert_eq!(parse_template("T{{{0}}}").unwrap(), vec![TemplatePiece::Text("T{".into()), TemplatePiece::Arg(0), TemplatePiece::Text("}".into())]);
    }
}

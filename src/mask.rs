//! Pre-parse masking for the constructs tree-sitter-cuda cannot parse.
//!
//! The grammar fails on `__align__(n)`, on `__device__`/`__host__` after a
//! lambda introducer, and on macros used as specifiers (`#define HD __host__
//! __device__` then `HD int f()`). Before parsing, these tokens are replaced
//! by spaces *of the same length* in a copy of the text, so every byte offset
//! of the tree is an offset of the original text; each masked range is kept
//! as a [`Mask`] for the rules to rewrite (`alignas(n)`, removal) or to read
//! (which qualifiers a macro stood for).

use std::collections::BTreeMap;
use std::ops::Range;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaskKind {
    /// `__align__(N)`; holds the text of `N`.
    Align(String),
    /// `__device__`/`__host__` written after a lambda introducer.
    LambdaQualifier,
    /// A use of a macro that expands to CUDA qualifiers; holds the macro name.
    QualifierMacro(String),
    /// A preprocessor idiom the grammar cannot nest: `extern "C" {` and its
    /// `}` each inside their own `#ifdef __cplusplus`. Kept as written.
    SplitLinkage,
    /// Text of a macro use (or its arguments) the parser could not read,
    /// hidden from it by error recovery ([`crate::parse::parse_file`]); kept
    /// as written in the output.
    Unparsed,
    /// A compiler keyword the grammar does not know (`__restrict`), or one
    /// of syclify's own specifier macros in migrated code; kept as written.
    Keyword,
    /// `__device__`/`__host__` where the grammar has no place for them
    /// (after a return type: `T const & __device__ __host__ f(..)`, or alone
    /// before an unrelated `#if` block): read as blanks (error recovery) and
    /// removed like any qualifier; holds the word.
    MisplacedQualifier(String),
    /// CUDA's calling-convention macros (`CUDART_CB`, `CUDARTAPI`, the driver's
    /// `CUDA_CB` and `CUDAAPI`: `void
    /// CUDART_CB done(void *)`), empty on Linux: read as blanks, removed.
    CallingConvention,
    /// The parentheses of `defined(X)` on a directive line inside an
    /// argument or parameter list, read as blanks (`#if defined X`) so the
    /// line parses as a directive (error recovery); kept as written.
    DirectiveParen,
    /// A block comment inside a directive (`#define M(x) \\` / `/* … */ \\`),
    /// read as blank: the grammar would end the macro's body at it. Kept as
    /// written.
    DirectiveComment,
    /// `##` in a macro body, read as `__` (so `a##b` is one name).
    TokenPaste,
    /// `#` (stringizing) in a macro body, read as a blank.
    Stringize,
    /// One blank byte after a macro used as a statement without `;`, read by
    /// the parser as the missing `;` (error recovery); nothing is written.
    StatementEnd,
    /// A macro argument made of type keywords (`long long`), which the parser
    /// cannot read as an expression: read as a placeholder name (error
    /// recovery); kept as written.
    TypeArgument,
    /// The `#if …` and `#endif` lines around execution-space qualifiers alone
    /// (`#if defined(__CUDACC__)` / `__host__ __device__` / `#endif`, then the
    /// function): read as blank so that the qualifiers join the declaration
    /// after them; kept as written.
    SplitQualifiers,
    /// A variable's memory space alone between such lines (`#if
    /// defined(__CUDACC__)` / `__constant__` / `#endif`, then `static double
    /// t[] = {…};`, perhaps after other directives): read as blank; the
    /// variable after it is a device global ([`crate::index::globals_of`]),
    /// and the word is removed. Holds the word.
    SplitGlobal(String),
    /// A branch of an `#if` group whose branches split braces or parentheses
    /// (`#ifdef DUMP` / `for (…) {` / `#else` / `for (…) {` / `#endif`), with
    /// its directive lines: one configuration is parsed, the other branches
    /// are read as blank (error recovery) and kept as written (SY0005).
    InactiveBranch,
    /// A conditional group inside a launch's `<<<…>>>` (`<<<g, b` /
    /// `#ifdef DYN` / `, bytes` / `#endif` / `>>>`), which the grammar
    /// cannot read there: read as blank, with its directives and branches;
    /// the launch repeats it around its local-memory size
    /// ([`launch_config_branches`]).
    LaunchConfigDirective,
    /// The inside of a large brace-enclosed list of number literals (a data
    /// table, `float t[] = {0.5f, 1.5f, …}`, nested lists too): read as
    /// blank, since no rule changes a literal of it and its tree would cost
    /// some 40 bytes of memory per byte; kept as written. Holds the number
    /// of items at its top level (the bound of `t[]`).
    DataTable(usize),
    /// Of a long run of arithmetic on number literals of one type alone
    /// (`1.0f + 2.0f * (3.0f - …)`, an unrolled polynomial's folded
    /// constants): everything after its first literal, read as blank, for
    /// the reason of [`MaskKind::DataTable`] (its tree would be a node per
    /// few bytes, nested as deep as the run is long); kept as written. The
    /// parser reads the first literal alone, of the run's type.
    LiteralArithmetic,
    /// Of template arguments nested [`DEEP_TEMPLATE`] deep or deeper
    /// (`A<A<A<…>>>`, generated type lists): the arguments below the first
    /// [`KEPT_TEMPLATE_LEVELS`], read as blank (the parser reads
    /// `A<A<…A<>…>>`); tree-sitter's parser forks at every `A<`, and such a
    /// type cost it some 1,700 bytes of memory per byte, superlinear in
    /// time. Kept as written.
    DeepTemplate,
}

/// Template argument lists nested this deep are a [`MaskKind::DeepTemplate`].
pub const DEEP_TEMPLATE: usize = 64;
/// The levels of a [`MaskKind::DeepTemplate`] the parser still reads.
pub const KEPT_TEMPLATE_LEVELS: usize = 16;

/// A list of number literals this long (bytes inside its braces) or longer
/// is a [`MaskKind::DataTable`].
pub const DATA_TABLE_BYTES: usize = 4096;

/// The start of the mask (of `masks`, in order of their start) that ends
/// before `at` with only blanks between, the earliest if masks nest.
pub fn blank_before(masks: &[Mask], src: &str, at: usize) -> Option<usize> {
    let before = masks.partition_point(|m| m.range.start < at);
    let mut found = None;
    for m in masks[..before].iter().rev() {
        if m.range.end > at {
            continue;
        }
        if !src.get(m.range.end..at).is_some_and(|g| g.trim().is_empty()) {
            break;
        }
        found = Some(m.range.start);
    }
    found
}

#[derive(Debug, Clone)]
pub struct Mask {
    pub range: Range<usize>,
    pub kind: MaskKind,
}

/// CUDA qualifier words a "qualifier macro" may consist of; the memory
/// spaces of device globals too (`#define MANAGED __managed__`, used as
/// `MANAGED __device__ int flag;`).
const QUALIFIER_WORDS: &[&str] =
    &["__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__inline__", "inline", "static", "__managed__", "__constant__"];
const CUDA_QUALIFIERS: &[&str] = &["__host__", "__device__", "__global__", "__forceinline__", "__noinline__", "__managed__", "__constant__"];

/// CUDA's calling-convention macros ([`MaskKind::CallingConvention`]).
const CALLING_CONVENTIONS: &[&str] = &["CUDART_CB", "CUDARTAPI", "CUDA_CB", "CUDAAPI"];

/// The specifier macros of syclify's helper header that migrated code
/// declares functions with (`SYCLIFY_KERNEL void k(…)`): read as blanks
/// ([`MaskKind::Keyword`]) when migrated code is migrated again, where the
/// grammar would take the first for a type and the real type for an error,
/// which some contexts (stray `#else` lines above) do not recover from.
const OWN_SPECIFIERS: &[&str] = &["SYCLIFY_KERNEL", "SYCLIFY_FORCEINLINE", "SYCLIFY_NOINLINE", "SYCLIFY_EXTERNAL"];

/// The attribute macros syclify writes on a kernel lambda
/// (`[=](sycl::nd_item<3> item) SYCLIFY_REQD_WORK_GROUP_SIZE(1, 1, 256) {`):
/// with their arguments, read as blanks ([`MaskKind::Keyword`]) when
/// migrated code is migrated again, where the grammar has no place for a
/// call between a lambda's parameters and its body.
const OWN_LAMBDA_ATTRIBUTES: &[&str] = &["SYCLIFY_REQD_WORK_GROUP_SIZE", "SYCLIFY_LAUNCH_BOUNDS"];

/// A macro that stands for CUDA qualifiers, found by [`find_qualifier_macros`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualifierMacro {
    /// The qualifier words of its body (`__host__ __device__`); may be empty
    /// for a function-like macro that is only an occupancy hint.
    pub words: Vec<String>,
    /// `#define BOUNDS(t, b) __launch_bounds__(t, b)`: a use takes arguments.
    pub function_like: bool,
}

/// Finds macros that stand for qualifiers: object-like ones whose body is
/// only qualifier words, at least one of them a CUDA one (`#define HD
/// __host__ __device__`), and function-like ones whose every definition is
/// empty or qualifier words and `__launch_bounds__(…)` (`#define
/// BOUNDS(t, b) __launch_bounds__(t, b)`, with an empty `#else` twin), which
/// stand between a kernel's return type and its name. Returns name → macro.
pub fn find_qualifier_macros(text: &str) -> BTreeMap<String, QualifierMacro> {
    let mut out = BTreeMap::new();
    let mut function_like: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for (name, body) in macro_definitions(text) {
        if body.starts_with('(') {
            let words = body.find(')').and_then(|close| qualifier_body_words(&body[close + 1..]));
            let entry = function_like.entry(name).or_insert_with(|| Some(vec![]));
            match (entry.as_mut(), words) {
                (Some(all), Some(words)) => all.extend(words.into_iter().filter(|w| !all.contains(w)).collect::<Vec<_>>()),
                _ => *entry = None,
            }
            continue;
        }
        // qualifier words, with attributes between them (`inline
        // __attribute__((always_inline)) __device__`)
        if let Some(words) = qualifier_body_words(&body).filter(|w| !w.is_empty() && w.iter().any(|w| CUDA_QUALIFIERS.contains(&w.as_str()))) {
            out.insert(name, QualifierMacro { words, function_like: false });
        }
    }
    for (name, words) in function_like {
        if let Some(words) = words {
            out.insert(name, QualifierMacro { words, function_like: true });
        }
    }
    out
}

/// The qualifier words of a macro body made only of those, attributes
/// (`__attribute__((…))`, `__declspec(…)`) and `__launch_bounds__(…)`
/// (possibly nothing); None for any other body.
fn qualifier_body_words(body: &str) -> Option<Vec<String>> {
    let mut words = vec![];
    let mut rest = body.trim();
    while !rest.is_empty() {
        let n = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let word = &rest[..n];
        if matches!(word, "__launch_bounds__" | "__attribute__" | "__declspec") {
            let (_, end) = paren_group(rest, n)?;
            rest = rest[end..].trim_start();
        } else if QUALIFIER_WORDS.contains(&word) {
            words.push(word.to_string());
            rest = rest[n..].trim_start();
        } else {
            return None;
        }
    }
    Some(words)
}

/// `(name, body)` of every `#define`, with continuations joined; the body of
/// a function-like macro starts with its parameter list.
pub fn macro_definitions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        let Some(rest) = t.strip_prefix('#') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let mut full = rest.to_string();
        let mut cur = line;
        while cur.ends_with('\\') {
            full.pop();
            match lines.next() {
                Some(next) => {
                    full.push(' ');
                    full.push_str(next);
                    cur = next;
                }
                None => break,
            }
        }
        let rest = full.trim_start();
        let n = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if n > 0 {
            out.push((rest[..n].to_string(), rest[n..].to_string()));
        }
    }
    out
}

/// Returns the masked copy of `text` and the masks applied.
pub fn mask(text: &str, qualifier_macros: &BTreeMap<String, QualifierMacro>) -> (String, Vec<Mask>) {
    let b = text.as_bytes();
    let mut masks = Vec::new();
    let mut i = 0;
    let mut line_start = true; // only whitespace seen since the last newline
    let mut in_directive = false;
    let mut last_sig: u8 = 0; // last significant (non-space) byte outside comments
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                // a backslash before the newline (or its \r) continues the line
                let continued = (i > 0 && b[i - 1] == b'\\') || (i > 1 && b[i - 1] == b'\r' && b[i - 2] == b'\\');
                if !continued && in_directive {
                    in_directive = false;
                    // a directive's last byte (`#define T(i) table[i]`) is not
                    // what the code after it follows
                    last_sig = b';';
                }
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                // the grammar ends a macro body at a block comment, so the
                // lines continued after it would not parse
                if in_directive {
                    masks.push(Mask { range: start..i, kind: MaskKind::DirectiveComment });
                }
                continue;
            }
            b'#' if line_start => {
                in_directive = true;
            }
            // in a macro body, `a##b` reads as one name and `#x` as `x` (the
            // bodies are parsed on their own, from this masked text)
            b'#' if in_directive => {
                if b.get(i + 1) == Some(&b'#') {
                    masks.push(Mask { range: i..i + 2, kind: MaskKind::TokenPaste });
                    i += 2;
                } else {
                    masks.push(Mask { range: i..i + 1, kind: MaskKind::Stringize });
                    i += 1;
                }
                last_sig = b'a';
                continue;
            }
            b'"' | b'\'' => {
                // raw string literal R"delim( ... )delim"
                if c == b'"' && i > 0 && b[i - 1] == b'R' {
                    let open = text[i + 1..].find('(').map(|p| i + 1 + p);
                    if let Some(open) = open {
                        let delim = &text[i + 1..open];
                        let close = format!("){delim}\"");
                        i = text[open..].find(&close).map(|p| open + p + close.len()).unwrap_or(b.len());
                        last_sig = b'"';
                        line_start = false;
                        continue;
                    }
                }
                if c == b'\'' && digit_separator(b, i) {
                    i += 1;
                    continue;
                }
                // (an unterminated one ends at the end of its line, which
                // ends a directive: `#error can't`)
                let end = literal_end(b, i);
                i = if b.get(end) == Some(&b'\n') { end } else { end + 1 };
                last_sig = c;
                line_start = false;
                continue;
            }
            _ => {}
        }
        line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            if word == "__align__" {
                // in a macro body too (`typedef __align__(b) t Type;`)
                if let Some((args, end)) = paren_group(text, i) {
                    masks.push(Mask { range: start..end, kind: MaskKind::Align(args.trim().to_string()) });
                    i = end;
                }
            } else if word == "__launch_bounds__" && !in_directive {
                // CUDA 12's third argument (`__launch_bounds__(256, 2, 1)`:
                // at most this many blocks per cluster), which the grammar
                // does not know: `, 1` read as blank, removed with the rest
                if let Some((args, end)) = paren_group(text, i) {
                    let args_start = end - 1 - args.len();
                    let (mut depth, mut commas) = (0i32, 0);
                    for (k, ch) in args.bytes().enumerate() {
                        match ch {
                            b'(' | b'[' | b'{' => depth += 1,
                            b')' | b']' | b'}' => depth -= 1,
                            b',' if depth == 0 => {
                                commas += 1;
                                if commas == 2 {
                                    masks.push(Mask { range: args_start + k..end - 1, kind: MaskKind::Keyword });
                                    break;
                                }
                            }
                            _ => {}
                        }
                    }
                }
            } else if !in_directive && CALLING_CONVENTIONS.contains(&word) {
                masks.push(Mask { range: start..i, kind: MaskKind::CallingConvention });
            } else if word == "__restrict" || (!in_directive && OWN_SPECIFIERS.contains(&word)) {
                masks.push(Mask { range: start..i, kind: MaskKind::Keyword });
            } else if !in_directive && last_sig == b')' && OWN_LAMBDA_ATTRIBUTES.contains(&word) {
                // (after the lambda's `)` or the attribute before it)
                if let Some((_, end)) = paren_group(text, i) {
                    masks.push(Mask { range: start..end, kind: MaskKind::Keyword });
                    i = end;
                    continue;
                }
            } else if !in_directive {
                if (word == "__device__" || word == "__host__") && last_sig == b']' {
                    masks.push(Mask { range: start..i, kind: MaskKind::LambdaQualifier });
                    // keep last_sig as ']' so that `[] __host__ __device__` masks both
                    continue;
                } else if let Some(q) = qualifier_macros.get(word) {
                    if !q.function_like {
                        masks.push(Mask { range: start..i, kind: MaskKind::QualifierMacro(word.to_string()) });
                    } else if let Some(end) = qualifier_macro_use(text, last_sig, i, !q.words.is_empty()) {
                        masks.push(Mask { range: start..end, kind: MaskKind::QualifierMacro(word.to_string()) });
                        i = end;
                    }
                }
            }
            last_sig = b'a';
            continue;
        }
        last_sig = c;
        i += 1;
    }
    masks.extend(split_linkage(text));
    masks.extend(launch_config_directives(text));
    masks.extend(split_qualifiers(text));
    masks.extend(data_tables(text));
    masks.sort_by_key(|m| m.range.start);
    // a run of literal arithmetic where no other mask lies (inside a data
    // table it is hidden already)
    let mut reach = Vec::with_capacity(masks.len());
    for m in &masks {
        reach.push(reach.last().copied().unwrap_or(0).max(m.range.end));
    }
    let runs: Vec<Mask> = literal_arithmetic(text)
        .into_iter()
        .chain(deep_templates(text))
        .filter(|r| {
            // the masks that start before the run ends reach no further than its start
            let before = masks.partition_point(|m| m.range.start < r.range.end);
            before == 0 || reach[before - 1] <= r.range.start
        })
        .collect();
    if !runs.is_empty() {
        masks.extend(runs);
        masks.sort_by_key(|m| m.range.start);
    }
    let mut out = text.as_bytes().to_vec();
    for m in &masks {
        let fill = if m.kind == MaskKind::TokenPaste { b'_' } else { b' ' };
        for byte in &mut out[m.range.clone()] {
            if *byte != b'\n' {
                *byte = fill;
            }
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, so this stays UTF-8.
    (String::from_utf8(out).expect("masking keeps UTF-8"), masks)
}

/// The data tables of a text ([`MaskKind::DataTable`]): in one pass, each
/// `{` open so far is clean while everything inside it is number literals,
/// commas, blanks and clean nested lists; a clean one of
/// [`DATA_TABLE_BYTES`] or more is masked when it closes (its inner lists
/// with it). Comments, strings and any other token make the list they are
/// in, and so every list around it, unclean.
fn data_tables(text: &str) -> Vec<Mask> {
    struct Open {
        at: usize,
        clean: bool,
        /// top-level items: commas, and whether one has started since the last
        items: usize,
        started: bool,
    }
    let b = text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut out: Vec<Mask> = Vec::new();
    let dirty = |open: &mut Vec<Open>| {
        if let Some(o) = open.last_mut() {
            o.clean = false;
        }
    };
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                if let Some(o) = open.last_mut() {
                    o.started = true;
                }
                open.push(Open { at: i, clean: true, items: 0, started: false });
                i += 1;
            }
            b'}' => {
                if let Some(o) = open.pop() {
                    let items = o.items + usize::from(o.started);
                    if !o.clean {
                        dirty(&mut open);
                    } else if i - (o.at + 1) >= DATA_TABLE_BYTES {
                        // an inner table already masked lies inside this one
                        while out.last().is_some_and(|m| m.range.start > o.at) {
                            out.pop();
                        }
                        out.push(Mask { range: o.at + 1..i, kind: MaskKind::DataTable(items) });
                    }
                }
                i += 1;
            }
            b',' => {
                if let Some(o) = open.last_mut() {
                    o.items += 1;
                    o.started = false;
                }
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'0'..=b'9' | b'.' | b'+' | b'-' => {
                // a number literal, perhaps signed: `-1.5e-3f`, `0x1Fu`, `1'000`
                let start = i;
                while i < b.len() && matches!(b[i], b'+' | b'-' | b' ' | b'\t') {
                    i += 1;
                }
                let digits = i;
                let is_number = b.get(i).is_some_and(u8::is_ascii_digit) || (b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit));
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || matches!(b[i], b'.' | b'\'')
                        || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
                {
                    i += 1;
                }
                match open.last_mut() {
                    Some(o) if is_number && i > digits => o.started = true,
                    _ => dirty(&mut open),
                }
                i = i.max(start + 1);
            }
            _ => {
                dirty(&mut open);
                // skip a comment, string or character literal whole (its
                // braces are not the code's)
                i = token_end(text, i);
            }
        }
    }
    out
}

/// Where the token at `i` ends, for the one-pass scanners of literals
/// ([`data_tables`], [`literal_arithmetic`]): a comment, string or
/// character literal whole, a name whole, any other byte alone.
fn token_end(text: &str, i: usize) -> usize {
    let b = text.as_bytes();
    match (b[i], b.get(i + 1)) {
        (b'/', Some(b'/')) => text[i..].find('\n').map_or(b.len(), |n| i + n),
        (b'/', Some(b'*')) => text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2),
        (b'"' | b'\'', _) => (literal_end(b, i) + 1).min(b.len()),
        (c, _) if word_byte(c) => i + b[i..].iter().take_while(|c| word_byte(**c)).count(),
        _ => i + 1,
    }
}

fn word_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// The template argument lists of a text nested [`DEEP_TEMPLATE`] deep or
/// deeper ([`MaskKind::DeepTemplate`]): a chain of `name <` (blanks and
/// `::` between), then, after its innermost arguments, the `>` that closes
/// the level below the kept ones (before any `;`, `{` or `}`: else it was
/// no type). One pass, and each chain's arguments read once more.
fn deep_templates(text: &str) -> Vec<Mask> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // the `<` of the chain so far
    let mut chain: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || (b[j] == b':' && b.get(j + 1) == Some(&b':'))) {
                j += if b[j] == b':' { 2 } else { 1 };
            }
            let mut k = j;
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            // (the previous `<` and this name: only blanks between)
            let joined = chain.last().is_some_and(|&l| b[l + 1..i].iter().all(u8::is_ascii_whitespace));
            if k < b.len() && b[k] == b'<' && b.get(k + 1) != Some(&b'<') && b.get(k + 1) != Some(&b'=') {
                if !joined {
                    chain.clear();
                }
                chain.push(k);
                i = k + 1;
                continue;
            }
            // (a name not followed by `<` ends the chain)
            i = j;
        } else if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else {
            i += 1;
        }
        if chain.len() >= DEEP_TEMPLATE {
            // the `>` that closes level KEPT + 1, counting from the innermost
            let mut depth = chain.len();
            let mut j = chain[chain.len() - 1] + 1;
            while j < b.len() {
                match b[j] {
                    b'<' => depth += 1,
                    b'>' => {
                        depth -= 1;
                        if depth == KEPT_TEMPLATE_LEVELS {
                            out.push(Mask { range: chain[KEPT_TEMPLATE_LEVELS - 1] + 1..j + 1, kind: MaskKind::DeepTemplate });
                            break;
                        }
                    }
                    b';' | b'{' | b'}' => break,
                    _ => {}
                }
                j += 1;
            }
        }
        chain.clear();
    }
    out
}

/// The runs of literal arithmetic of a text ([`MaskKind::LiteralArithmetic`]),
/// in one pass: a run starts at a number literal and goes on through the
/// binary operators `+ - * /`, signs, parentheses it opens and closes, and
/// literals whose type (suffix) is the first one's; it ends at any other
/// token (a name, a comment, a string, a directive line: never inside one).
/// The part after the first literal, up to the last literal or `)` where
/// the parentheses balance, is masked when it is [`DATA_TABLE_BYTES`] long
/// or more.
fn literal_arithmetic(text: &str) -> Vec<Mask> {
    struct Run {
        first_end: usize,
        good_end: usize,
        depth: usize,
        expect_operand: bool,
        class: (bool, u8),
        uniform: bool,
    }
    // a literal's type: floating or not, and its suffix letters (`u`, `l`,
    // `ll`, `f`: a hexadecimal integer's `f` is a digit)
    fn class(lit: &[u8]) -> (bool, u8) {
        let hex = lit.len() > 1 && lit[0] == b'0' && matches!(lit[1], b'x' | b'X');
        let floating = if hex { lit.iter().any(|c| matches!(c, b'p' | b'P')) } else { lit.iter().any(|c| matches!(c, b'.' | b'e' | b'E')) };
        let suffix_letter = |c: &&u8| matches!(c.to_ascii_lowercase(), b'l' | b'u') || (c.eq_ignore_ascii_case(&b'f') && (floating || !hex));
        let suffix = lit.iter().rev().take_while(suffix_letter).fold(0u8, |acc, c| acc.wrapping_mul(7).wrapping_add(c.to_ascii_lowercase()));
        (floating, suffix)
    }
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut run: Option<Run> = None;
    let finish = |run: &mut Option<Run>, out: &mut Vec<Mask>| {
        if let Some(r) = run.take()
            && r.uniform
            && r.good_end >= r.first_end + DATA_TABLE_BYTES
        {
            out.push(Mask { range: r.first_end..r.good_end, kind: MaskKind::LiteralArithmetic });
        }
    };
    let mut line_start = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let at_line_start = std::mem::replace(&mut line_start, false);
        let number = c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit));
        if number {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || matches!(b[i], b'.' | b'\'')
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            let cl = class(&b[start..i]);
            match &mut run {
                Some(r) if r.expect_operand => {
                    r.uniform &= r.class == cl;
                    r.expect_operand = false;
                    if r.depth == 0 {
                        r.good_end = i;
                    }
                }
                _ => {
                    finish(&mut run, &mut out);
                    run = Some(Run { first_end: i, good_end: i, depth: 0, expect_operand: false, class: cl, uniform: true });
                }
            }
            continue;
        }
        match (c, &mut run) {
            (b'+' | b'-' | b'*' | b'/', Some(r)) if !(c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*'))) => {
                if !r.expect_operand {
                    r.expect_operand = true;
                } else if !matches!(c, b'+' | b'-') {
                    finish(&mut run, &mut out);
                }
                i += 1;
            }
            (b'(', Some(r)) if r.expect_operand => {
                r.depth += 1;
                i += 1;
            }
            (b')', Some(r)) if !r.expect_operand && r.depth > 0 => {
                r.depth -= 1;
                if r.depth == 0 {
                    r.good_end = i + 1;
                }
                i += 1;
            }
            _ => {
                finish(&mut run, &mut out);
                // skip a comment, string, character literal or directive
                // line whole; a name whole; any other token byte by byte
                i = if c == b'#' && at_line_start {
                    let mut j = i;
                    loop {
                        match text[j..].find('\n') {
                            Some(n) if text[..j + n].trim_end_matches('\r').ends_with('\\') => j += n + 1,
                            Some(n) => break j + n,
                            None => break b.len(),
                        }
                    }
                } else {
                    token_end(text, i)
                };
            }
        }
    }
    finish(&mut run, &mut out);
    out
}

/// The number of items of an initialiser list, the items of a data table
/// masked inside it ([`MaskKind::DataTable`]) counted too.
pub fn list_items(list: tree_sitter::Node, masks: &[Mask]) -> usize {
    let hidden: usize = masks
        .iter()
        .filter_map(|m| match m.kind {
            MaskKind::DataTable(n) if m.range.start == list.start_byte() + 1 => Some(n),
            _ => None,
        })
        .sum();
    crate::syntax::items(list).len() + hidden
}

/// Conditional groups between a launch's `<<<` and `>>>` (see
/// [`MaskKind::LaunchConfigDirective`]): from the `#if` line to the end of
/// the `#endif` line.
fn launch_config_directives(text: &str) -> Vec<Mask> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("<<<").map(|p| from + p) {
        let Some(close) = text[open..].find(">>>").map(|p| open + p) else { break };
        from = close + 3;
        let inner = &text[open + 3..close];
        if !inner.contains('#') {
            continue;
        }
        let mut start: Option<usize> = None;
        let mut pos = open + 3;
        for line in inner.split_inclusive('\n') {
            let t = line.trim_start();
            let word = t.strip_prefix('#').map(|r| r.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or(""));
            match word {
                Some("if" | "ifdef" | "ifndef") if start.is_none() => start = Some(pos + line.len() - t.len()),
                Some("endif") => {
                    if let Some(st) = start.take() {
                        out.push(Mask { range: st..pos + line.trim_end().len(), kind: MaskKind::LaunchConfigDirective });
                    }
                }
                _ => {}
            }
            pos += line.len();
        }
    }
    out
}

/// The branches of a masked launch-configuration group (see
/// [`MaskKind::LaunchConfigDirective`]): each directive line (`#ifdef X`,
/// `#else`, …, the `#endif` last, with an empty text) with the text it
/// governs. None when another conditional is nested in it.
pub fn launch_config_branches(group: &str) -> Option<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in group.lines() {
        let t = line.trim();
        if let Some(r) = t.strip_prefix('#') {
            let word = r.trim_start().split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" if !out.is_empty() => return None,
                "if" | "ifdef" | "ifndef" | "else" | "elif" | "elifdef" | "elifndef" | "endif" => {
                    out.push((t.to_string(), String::new()));
                    continue;
                }
                _ => {}
            }
        }
        let last = out.last_mut()?;
        last.1.push_str(t);
        last.1.push(' ');
    }
    Some(out)
}

/// `extern "C" {` and `}` each alone inside `#ifdef __cplusplus … #endif`
/// (or `#if defined(__cplusplus)`): C headers' idiom for C++ linkage, which
/// leaves each conditional with half a block.
fn split_linkage(text: &str) -> Vec<Mask> {
    let re = cached_regex!(
        r#"(?m)^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[ \t]*(?://[^\n]*)?\r?\n[ \t]*(extern[ \t]+"C"[ \t]*\{|\})[ \t]*(?://[^\n]*)?\r?\n[ \t]*#[ \t]*endif"#
    );
    re.captures_iter(text).filter_map(|c| c.get(1)).map(|m| Mask { range: m.range(), kind: MaskKind::SplitLinkage }).collect()
}

/// `#if …` / execution-space qualifiers alone / `#endif`: the qualifiers of
/// the function declared after the `#endif`, for the compilers that test
/// define. The two directive lines are masked.
fn split_qualifiers(text: &str) -> Vec<Mask> {
    let re = cached_regex!(
        r"(?m)^([ \t]*#[ \t]*if[^\n]*)\r?\n[ \t]*((?:(?:__host__|__device__|__forceinline__|__noinline__|inline|static)[ \t]*)+)\r?\n([ \t]*#[ \t]*endif[^\n]*)"
    );
    let mut out: Vec<Mask> = re
        .captures_iter(text)
        .filter(|c| c[2].contains("__host__") || c[2].contains("__device__"))
        .flat_map(|c| {
            let (a, b) = (c.get(1).expect("group"), c.get(3).expect("group"));
            [Mask { range: a.start()..a.end(), kind: MaskKind::SplitQualifiers }, Mask { range: b.start()..b.end(), kind: MaskKind::SplitQualifiers }]
        })
        .collect();
    // a variable's memory space: `__constant__`/`__managed__` alone
    let re = cached_regex!(r"(?m)^([ \t]*#[ \t]*if[^\n]*)\r?\n[ \t]*(__constant__|__managed__)[ \t]*\r?\n([ \t]*#[ \t]*endif[^\n]*)");
    for c in re.captures_iter(text) {
        let (a, w, b) = (c.get(1).expect("group"), c.get(2).expect("group"), c.get(3).expect("group"));
        out.push(Mask { range: a.start()..a.end(), kind: MaskKind::SplitQualifiers });
        out.push(Mask { range: w.start()..w.end(), kind: MaskKind::SplitGlobal(w.as_str().to_string()) });
        out.push(Mask { range: b.start()..b.end(), kind: MaskKind::SplitQualifiers });
    }
    out
}

/// The end of a function-like qualifier macro's use whose name ends at
/// `after_name`, when it stands where qualifiers do: after a word (the
/// return type, a qualifier) or a template's `>`, and before a name (the
/// function's, or more of its declaration); one holding qualifier words
/// may also start the declaration. `CHECK(x)` of an empty `#define
/// CHECK(x)` used as a statement is none.
fn qualifier_macro_use(text: &str, last_sig: u8, after_name: usize, has_words: bool) -> Option<usize> {
    if !(has_words || last_sig.is_ascii_alphanumeric() || last_sig == b'_' || last_sig == b'>') {
        return None;
    }
    let (_, end) = paren_group(text, after_name)?;
    let next = text[end..].trim_start().bytes().next()?;
    (next.is_ascii_alphabetic() || next == b'_').then_some(end)
}

/// `(…)` starting at or after `from` (after optional spaces): the inner text and the end offset.
pub fn paren_group(text: &str, from: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let open = skip_blanks(b, from);
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let close = matching_paren(b, open)?;
    Some((&text[open + 1..close], close + 1))
}

/// The offset of the quote that closes the string or character literal
/// opened at `open` (escapes skipped), or of the newline (or end) where an
/// unterminated one stops.
/// Is the `'` at `at` a digit separator (`1'000'000`, `0xFF'FF`): inside a
/// number, not a character literal's quote (`u8'a'`, `L'a'`)?
fn digit_separator(b: &[u8], at: usize) -> bool {
    let mut s = at;
    while s > 0 && (b[s - 1].is_ascii_alphanumeric() || b[s - 1] == b'_' || b[s - 1] == b'\'' || b[s - 1] == b'.') {
        s -= 1;
    }
    s < at && b[s].is_ascii_digit() && b.get(at + 1).is_some_and(|c| c.is_ascii_alphanumeric())
}

pub fn literal_end(b: &[u8], open: usize) -> usize {
    let q = b[open];
    let mut i = open + 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    i
}

/// The first offset at or after `i` that is not a space or a tab.
pub fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// The `)` matching the `(` at `open` (string and character literals skipped).
pub fn matching_paren(b: &[u8], open: usize) -> Option<usize> {
    if b.get(open) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'"' | b'\'' => i = literal_end(b, i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// [`matching_paren`] for every `(` of a text, found in one pass: for the
/// many macro uses of one text (an unclosed `(` reads to the text's end,
/// each time). A `(` the pass reads inside a literal is looked for alone.
pub struct Parens {
    /// each `(` outside literals, by offset, with its `)`
    opens: Vec<(usize, Option<usize>)>,
}

impl Parens {
    pub fn new(b: &[u8]) -> Self {
        let mut opens: Vec<(usize, Option<usize>)> = Vec::new();
        let mut stack = Vec::new();
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'(' => {
                    stack.push(opens.len());
                    opens.push((i, None));
                }
                b')' => {
                    if let Some(k) = stack.pop() {
                        opens[k].1 = Some(i);
                    }
                }
                b'"' | b'\'' => i = literal_end(b, i),
                _ => {}
            }
            i += 1;
        }
        Parens { opens }
    }

    /// As [`matching_paren`] (reading from `open` on: the same answer, where
    /// the pass was not inside a literal there).
    pub fn matching(&self, b: &[u8], open: usize) -> Option<usize> {
        match self.opens.binary_search_by_key(&open, |o| o.0) {
            Ok(k) => self.opens[k].1,
            Err(_) => matching_paren(b, open),
        }
    }
}

/// Is offset `p` inside a preprocessor directive (continuation lines too)?
/// (Reads back to the start of `p`'s line: for many offsets of one text,
/// [`Directives`].)
pub fn in_directive(s: &str, p: usize) -> bool {
    directive_start(s, p).is_some()
}

/// Which lines of a text are (part of) preprocessor directives, continuation
/// lines included: [`in_directive`] for many offsets of one text in time
/// linear in the text, whatever its lines' lengths (a 10 MB line with a
/// macro-like name every few bytes).
pub struct Directives {
    line_starts: Vec<usize>,
    /// each line's directive: the offset of its first line
    start: Vec<Option<usize>>,
}

impl Directives {
    pub fn new(s: &str) -> Self {
        let mut line_starts = vec![0];
        let mut start: Vec<Option<usize>> = Vec::new();
        // (did the line before end in `\\`)
        let mut continued = false;
        for line in s.split_inclusive('\n') {
            let at = line_starts.last().copied().unwrap_or(0);
            let own = line.trim_start().starts_with('#').then_some(at);
            start.push(own.or_else(|| start.last().copied().flatten().filter(|_| continued)));
            continued = line.trim_end_matches(['\n', '\r']).ends_with('\\');
            line_starts.push(at + line.len());
        }
        // (the empty line after a final newline, or of an empty text)
        if s.is_empty() || s.ends_with('\n') {
            start.push(start.last().copied().flatten().filter(|_| continued));
        } else {
            line_starts.pop();
        }
        Directives { line_starts, start }
    }

    /// Is offset `p` inside a directive? (as [`in_directive`])
    pub fn contains(&self, p: usize) -> bool {
        self.start_of(p).is_some()
    }

    /// The start of the directive offset `p` is in (as [`directive_start`]).
    pub fn start_of(&self, p: usize) -> Option<usize> {
        let line = self.line_starts.partition_point(|&s| s <= p).saturating_sub(1);
        self.start.get(line).copied().flatten()
    }
}

/// The start of the line of the directive that offset `p` is in
/// (continuation lines too).
pub fn directive_start(s: &str, p: usize) -> Option<usize> {
    let mut ls = s[..p].rfind('\n').map_or(0, |x| x + 1);
    loop {
        if s[ls..].trim_start().starts_with('#') {
            return Some(ls);
        }
        // the line before, if it ends with a continuation
        if ls == 0 || !s[..ls - 1].trim_end_matches('\r').ends_with('\\') {
            return None;
        }
        ls = s[..ls - 1].rfind('\n').map_or(0, |x| x + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_template_arguments_are_masked_below_the_kept_levels() {
        let n = 100;
        let text = format!("{}int{} x;\nbool y = a < b && c > d;\n", "A<".repeat(n), ">".repeat(n));
        let (masked, masks) = mask(&text, &BTreeMap::new());
        assert_eq!(masks.iter().filter(|m| m.kind == MaskKind::DeepTemplate).count(), 1, "{masks:?}");
        // the parser reads 16 levels, empty inside
        let kept = format!("{}{}{} x;", "A<".repeat(KEPT_TEMPLATE_LEVELS), " ".repeat(3 * (n - KEPT_TEMPLATE_LEVELS) + 3), ">".repeat(KEPT_TEMPLATE_LEVELS));
        assert!(masked.starts_with(&kept), "{masked}");
        assert!(masked.contains("bool y = a < b && c > d;"));
        // shallow ones are read
        let text = format!("{}int{} x;\n", "std::vector<".repeat(20), ">".repeat(20));
        assert!(mask(&text, &BTreeMap::new()).1.is_empty());
        let text = format!("template <class T> struct A {{}};\nvoid f() {{ {}int{} x; }}\n", "A<".repeat(n), ">".repeat(n));
        let parsed = crate::parse::parse_file_with(&text, &BTreeMap::new(), &Default::default(), &Default::default());
        assert!(!parsed.tree.root_node().has_error());
    }

    #[test]
    fn long_literal_arithmetic_is_masked_after_its_first_literal() {
        let long = "+2.5f*(1.0f-3.0f)".repeat(300);
        let ranges = |text: &str| literal_arithmetic(text).into_iter().map(|m| m.range).collect::<Vec<_>>();
        // the run after `= 1.0f`, up to its last `)`; the `;` and `x` stay
        let text = format!("a[threadIdx.x] = 1.0f{long};\nx = 1;\n");
        let at = text.find("1.0f").unwrap() + 4;
        assert_eq!(ranges(&text), vec![at..at + long.len()]);
        // a name, a comment or a string ends a run: `+ c` stays readable
        let text = format!("y = 1.0f{long} + c * 2.0f;");
        assert_eq!(ranges(&text), vec![8..8 + long.len()]);
        // literals of another type: the parser must see them (`1.0f + 2.0` is a double)
        assert!(ranges(&format!("y = 1.0f{long} + 2.0;")).is_empty());
        assert!(ranges(&format!("y = 1{}", "+2".repeat(3000))).len() == 1);
        assert!(ranges(&format!("y = 1{}u;", "+2".repeat(3000))).is_empty(), "an unsigned literal makes the run unsigned");
        // short runs, directive lines, unbalanced parentheses at the end
        assert!(ranges("y = 1.0f + 2.0f;").is_empty());
        assert!(ranges(&format!("#if 1{}\n#endif\n", "+2".repeat(3000))).is_empty());
        let text = format!("f(1.0f{}", "+(1.0f".repeat(1000));
        assert!(ranges(&text).is_empty(), "a run whose parentheses never close is not masked");
        // in a masked data table, only the table is masked
        let table = format!("float t[] = {{{}}};", "1.0f+2.0f, ".repeat(600));
        let (masked, masks) = mask(&table, &BTreeMap::new());
        assert_eq!(masks.len(), 1, "{:?}", masks.iter().map(|m| &m.kind).collect::<Vec<_>>());
        assert!(masked.starts_with("float t[] = {  "));
    }

    #[test]
    fn parens_answer_as_matching_paren_does() {
        for s in ["f(a, (b), g(\")\", ')'))", "F( G(x) ( ;\n)", "x = '(' + (a\n\"(\" ) )", "((((", "))((", "a(\"unclosed\n)"] {
            let b = s.as_bytes();
            let p = Parens::new(b);
            for i in 0..b.len() {
                assert_eq!(p.matching(b, i), matching_paren(b, i), "{s:?} at {i}");
            }
        }
    }

    #[test]
    fn directives_answer_as_in_directive_does() {
        for s in ["#define A(x) \\\n  x + \\\r\n  1\nint a = A(2);\n  # if B\nB x;\n#endif", "a \\\n#b\nc\n", "", "\n", "#x\\\n", "int x; // \\\n#y"] {
            let d = Directives::new(s);
            for (p, c) in s.char_indices().chain([(s.len(), ' ')]) {
                // (offsets at which code stands: not blank lines, which
                // `in_directive` reads on into the next line)
                if c.is_whitespace() && p < s.len() {
                    continue;
                }
                assert_eq!(d.start_of(p), directive_start(s, p), "{s:?} at {p}");
            }
        }
    }

    #[test]
    fn blank_before_finds_the_masks_just_before() {
        let src = "HD INLINE void f();\nGLOBAL x; void k();";
        let m = |r: std::ops::Range<usize>| Mask { range: r, kind: MaskKind::QualifierMacro(String::new()) };
        let masks = [m(0..2), m(3..9), m(20..26)];
        assert_eq!(blank_before(&masks, src, 10), Some(3));
        assert_eq!(blank_before(&masks, src, 3), Some(0));
        assert_eq!(blank_before(&masks, src, 0), None);
        // text between: none
        assert_eq!(blank_before(&masks, src, 29), None);
    }

    #[test]
    fn finds_qualifier_macros() {
        let m = find_qualifier_macros("#define HD __host__ __device__\n#define X 3\n#  define DEV __device__ \\\n  inline\n#define F(x) __device__ x\n");
        assert_eq!(m.keys().collect::<Vec<_>>(), vec!["DEV", "HD"]);
        let m = find_qualifier_macros(
            "#ifdef B\n#define LB(t, b) __launch_bounds__(t, (b))\n#else\n#define LB(t, b)\n#endif\n#define K(n) __global__ __launch_bounds__(n)\n#define C(x)\n#define C(x) check(x)\n",
        );
        assert_eq!(m.keys().collect::<Vec<_>>(), vec!["K", "LB"]);
        assert_eq!(m["K"], QualifierMacro { words: vec!["__global__".into()], function_like: true });
        assert!(m["LB"].words.is_empty());
    }

    #[test]
    fn masks_keep_offsets_and_skip_directives_comments_strings() {
        let mut macros = BTreeMap::new();
        macros.insert("HD".to_string(), QualifierMacro { words: vec!["__host__".to_string()], function_like: false });
        let src = "#ifdef HD\n// HD\nstruct __align__(16) S {};\nHD int f() { auto l = [] __device__ (int i) { return i; }; const char *s = \"HD\"; }\n";
        let (masked, masks) = mask(src, &macros);
        assert_eq!(masked.len(), src.len());
        assert!(masked.starts_with(&format!("#ifdef HD\n// HD\nstruct {} S {{}};\n   int f()", " ".repeat(13))));
        assert!(masked.contains("[]            (int i)"));
        assert!(masked.contains("\"HD\""));
        assert_eq!(masks.len(), 3);
        assert_eq!(masks[0].kind, MaskKind::Align("16".into()));
    }

    #[test]
    fn unterminated_quote_ends_with_its_directive_line_and_digit_separators_are_no_quotes() {
        let mut macros = BTreeMap::new();
        macros.insert("HD".to_string(), QualifierMacro { words: vec!["__host__".to_string()], function_like: false });
        let (masked, masks) = mask(
            "#error can't build
HD int f();
int n = 1'000'000; HD int g(); char c = u8'a'; HD int h();
",
            &macros,
        );
        assert_eq!(masks.len(), 3, "{masked}");
        assert!(masked.contains("\n   int f();"));
        // syclify's own specifiers in migrated code read as blanks
        let (masked, _) = mask("SYCLIFY_KERNEL void k(int *a) {}\n#define K SYCLIFY_KERNEL\n", &BTreeMap::new());
        assert!(masked.starts_with("               void k"));
        assert!(masked.contains("#define K SYCLIFY_KERNEL"));
        // and the attributes it writes on a kernel lambda, with their
        // arguments; not where no `)` comes before (a use of its own name)
        let text =
            "f([=](sycl::nd_item<3> it) SYCLIFY_REQD_WORK_GROUP_SIZE(1, 1, (N)) SYCLIFY_LAUNCH_BOUNDS(N, 2) { g(it); });\nint n = SYCLIFY_LAUNCH_BOUNDS(1);\n";
        let (masked, masks) = mask(text, &BTreeMap::new());
        assert_eq!(masks.len(), 2, "{masked}");
        assert!(masked.starts_with(&format!("f([=](sycl::nd_item<3> it) {} {{ g(it); }});", " ".repeat(text.find(" {").unwrap() - 27))));
        assert!(masked.ends_with("int n = SYCLIFY_LAUNCH_BOUNDS(1);\n"));
    }
}

//! A large file in parts: where its top-level declarations end, read from
//! its text alone, and each part as a small text of its own.
//!
//! A file of several megabytes (generated kernels, folded tables,
//! amalgamations) would hold its whole syntax tree (some 47 bytes a byte)
//! and its walk (21) in memory. Migrated in parts, it holds one part's at a
//! time: [`segments`] cuts the file between top-level declarations, and
//! each [`Segment`] is parsed, indexed and rewritten as a [`Compact`] text:
//! its own declarations (the *body*), after the file's earlier
//! declarations (not function definitions) that declare a name it uses, and
//! those that declare the names these use (the *prelude*: globals, types,
//! prototypes, macros, up to [`PRELUDE_BYTES`] and the nearest
//! [`DECLARATIONS_PER_NAME`] of one name, with the includes and
//! `using namespace` lines, so that lookups of a global's type or a
//! macro's value find them), inside the lines that open and close the
//! namespaces, `extern "C"` blocks and conditional groups it stands in.
//! Rules visit only the body's nodes; the rest is read.
//!
//! The scan is lexical (comments, strings, raw strings, character literals
//! and digit separators, directive lines with their continuations, bracket
//! depth, the conditional groups; inside a declaration a group's first
//! branch is followed; closers without openers are read past, as code that
//! does not parse, which each part's parse reports): anything it cannot
//! follow (a file-level conditional group that splits braces, a bracket
//! left open) and the file is not segmented ([`not_cut`] says why).
//! Text-level, linear, one pass.

use std::ops::Range;

/// A file longer than this is migrated in parts ([`segments`]), unless
/// `SYCLIFY_SEGMENT_BYTES` says otherwise.
pub const SEGMENT_THRESHOLD: usize = 2 << 20;
/// The body of a part holds top-level declarations up to about this many
/// bytes (more where one declaration is larger). Smaller parts are faster
/// too (a 4 MB file of kernels: 3.9 s in parts of 512 KB, 3.1 s of 256 KB,
/// 4.3 s whole), but each is parsed with the declarations it uses.
pub const SEGMENT_BYTES: usize = 256 << 10;
/// The earlier declarations a part is parsed with, at most.
pub const PRELUDE_BYTES: usize = 256 << 10;
/// A prelude takes at most this many declarations of one name, the
/// nearest before the part (a prototype and its definition, overloads,
/// the branches of a conditional: a few; a name redeclared by every one of
/// thousands of pasted copies would otherwise fill the prelude with them,
/// each parsed, and mended where it does not parse, once more per part).
pub const DECLARATIONS_PER_NAME: usize = 16;

/// The size of the parts a file of `len` bytes is cut in, or None where it
/// is migrated whole, and whether `SYCLIFY_SEGMENT_BYTES=N` set it: that
/// cuts every file longer than N in parts of N (tests: a whole corpus in
/// tiny parts must migrate as it does whole, but for what the parts
/// cannot see of each other).
fn part_size(len: usize) -> Option<(usize, bool)> {
    let (threshold, size, forced) = match std::env::var("SYCLIFY_SEGMENT_BYTES").ok().and_then(|v| v.parse::<usize>().ok()) {
        Some(n) => (n, n.max(1), true),
        None => (SEGMENT_THRESHOLD, SEGMENT_BYTES, false),
    };
    (len > threshold).then_some((size, forced))
}

/// The parts `text` is migrated in ([`segments`]), or None where it is
/// migrated whole: a file over [`SEGMENT_THRESHOLD`] is cut where the scan
/// can follow it, unless one part would hold more than half of the file
/// (a single statement or initializer that holds most of it, which no cut
/// can make smaller: cut, its tree would be as large, and it would be
/// parsed twice, for the index and for the rewrite). Under
/// `SYCLIFY_SEGMENT_BYTES` every part is kept (the tests cut fixtures at
/// every declaration).
pub fn parts_of(text: &str) -> Option<Vec<Segment>> {
    let (size, forced) = part_size(text.len())?;
    let parts = segments(text, size)?;
    let largest = parts.iter().map(|s| s.body.len()).max().unwrap_or(0);
    (forced || largest <= text.len() / 2).then_some(parts)
}

/// One part of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    /// Its own declarations: whole lines of the file.
    pub body: Range<usize>,
    /// What is parsed, in file order, not overlapping: the prelude, the
    /// lines that open what the body stands in, the body, the lines that
    /// close what is open at its end. Whole lines.
    pub pieces: Vec<Range<usize>>,
}

/// A part as a text of its own.
#[derive(Debug, Clone)]
pub struct Compact {
    pub text: String,
    /// Each piece: its range in the file and where it starts in `text`.
    pieces: Vec<(Range<usize>, usize)>,
    /// The body's range in `text`.
    pub body: Range<usize>,
}

impl Compact {
    pub fn of(file: &str, s: &Segment) -> Compact {
        let mut text = String::with_capacity(s.pieces.iter().map(|p| p.len() + 1).sum());
        let mut pieces = Vec::with_capacity(s.pieces.len());
        let mut body = 0..0;
        for p in &s.pieces {
            // (a piece that starts a line of the file, after one that ends
            // inside a line: on a line of its own, as in the file, for its
            // directives and its indentation)
            if !text.is_empty() && !text.ends_with('\n') && file.as_bytes().get(p.start.wrapping_sub(1)) == Some(&b'\n') {
                text.push('\n');
            }
            if *p == s.body {
                body = text.len()..text.len() + p.len();
            }
            pieces.push((p.clone(), text.len()));
            text.push_str(&file[p.clone()]);
        }
        Compact { text, pieces, body }
    }

    /// `r` (a range of `text`) in the file, when it lies in one piece (at
    /// a boundary between two pieces, the earlier one's end).
    pub fn to_file(&self, r: &Range<usize>) -> Option<Range<usize>> {
        // the last piece starting at or before r.start
        let i = self.pieces.partition_point(|(_, c)| *c <= r.start).checked_sub(1)?;
        let at = |i: usize| {
            let (f, c) = &self.pieces[i];
            (r.end <= c + f.len()).then(|| f.start + (r.start - c)..f.start + (r.end - c))
        };
        // an empty range at a boundary: the body's start, or the end of
        // the body before it, else the piece's own start (the head of a
        // function whose body is cut: what goes before the function)
        if r.is_empty() && i > 0 && self.pieces[i].1 == r.start && self.pieces[i - 1].1 == self.body.start {
            return at(i - 1);
        }
        at(i)
    }

    /// `r` (a range of `text`) in the file from its start to its end, where
    /// it spans pieces (a conditional group that holds other parts).
    pub fn span_to_file(&self, r: &Range<usize>) -> Option<Range<usize>> {
        let start = self.to_file(&(r.start..r.start))?.start;
        // (an end at a boundary: the start of the piece after, which the
        // range reaches through the parts between)
        let i = self.pieces.partition_point(|(_, c)| *c <= r.end).checked_sub(1)?;
        let (f, c) = &self.pieces[i];
        let end = f.start + (r.end - c).min(f.len());
        (start <= end).then_some(start..end)
    }
}

/// What a line or a bracket opened.
#[derive(Debug, Clone)]
enum Open {
    /// `namespace X {` / `extern "C" {`: the lines from the declaration's
    /// start through the `{`, as a part opens it.
    Block { opener: Range<usize> },
    /// Any other brace: no cut inside. `function`: a function's body.
    Brace { function: bool },
    /// A conditional group: its `#if` line and the `#elif`/`#else` lines.
    Cond { lines: Vec<Range<usize>> },
}

/// An opened block or group, with the one around it (the scan's stack, kept
/// as a tree so that a cut records what is open in one index).
struct Entry {
    open: Open,
    outer: Option<usize>,
    /// its closing line, once read
    closer: Range<usize>,
}

/// The parts of `text` of about `size` bytes each, or None where the file
/// is not cut (too small to need it, or a structure the scan cannot follow).
/// A function whose body is larger than [`function_part_size`] is cut
/// inside its body too.
pub fn segments(text: &str, size: usize) -> Option<Vec<Segment>> {
    segments_with(text, size, function_part_size(size))
}

/// The size of the parts a function's body larger than it is cut in:
/// `SYCLIFY_FUNCTION_PART_BYTES`, else [`SEGMENT_BYTES`] (or the parts'
/// size where larger).
pub fn function_part_size(size: usize) -> usize {
    std::env::var("SYCLIFY_FUNCTION_PART_BYTES").ok().and_then(|v| v.parse::<usize>().ok()).map_or(size.max(SEGMENT_BYTES), |n| n.max(1))
}

/// [`segments`], with functions' bodies larger than `fn_size` cut inside
/// in parts of about `fn_size`.
pub fn segments_with(text: &str, size: usize, fn_size: usize) -> Option<Vec<Segment>> {
    let Scan { cuts, chunks, entries, head_chunks, functions } = scan(text, fn_size).ok()?;
    if cuts.len() < 3 && functions.is_empty() {
        return None;
    }
    // group the chunks between cuts into bodies of about `size`
    let mut bodies: Vec<(usize, usize)> = Vec::new(); // (first cut, end cut)
    let mut start = 0;
    for k in 1..cuts.len() {
        // (chunk k-1 ends at cut k; the head stays whole in the first part)
        if (cuts[k].0 - cuts[start].0 >= size && k >= head_chunks) || k == cuts.len() - 1 {
            bodies.push((start, k));
            start = k;
        }
    }
    if bodies.len() < 2 && functions.is_empty() {
        return None;
    }
    let open_at = |top: Option<usize>| {
        let mut v = Vec::new();
        let mut e = top;
        while let Some(i) = e {
            v.push(i);
            e = entries[i].outer;
        }
        v
    };
    let mut out = Vec::with_capacity(bodies.len());
    // the declarations before each body that declare a name it uses, and
    // those that declare a name these use, up to PRELUDE_BYTES
    let mut declaring: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
    // and those that declare no name (includes, `using namespace`: what
    // file-level rules place things by and names are looked up through)
    let mut nameless: Vec<usize> = Vec::new();
    let mut next_chunk = 0;
    let mut next_function = 0;
    // (a prelude reads each without the comments it starts with)
    let ranges: Vec<Range<usize>> = chunks.iter().map(|c| after_leading_comments(text, c.0.clone())).collect();
    // the declarations read so far of the function a part starts in
    let mut locals: Option<(usize, Locals)> = None;
    for (a, b) in bodies {
        let body = cuts[a].0..cuts[b].0;
        while next_chunk < chunks.len() && chunks[next_chunk].0.end <= body.start {
            let (r, decl) = &chunks[next_chunk];
            if *decl {
                let names = declared_names(&text[r.clone()]);
                if names.is_empty() {
                    nameless.push(next_chunk);
                }
                for name in names {
                    declaring.entry(name).or_default().push(next_chunk);
                }
            }
            next_chunk += 1;
        }
        let mut chosen = prelude(text, &text[body.clone()], &ranges, &declaring, &nameless, true);
        let mut before: Vec<Range<usize>> = Vec::new();
        for e in open_at(cuts[a].1) {
            match &entries[e].open {
                Open::Block { opener } => before.push(opener.clone()),
                // (an `#else` read after the body's start is not an opener)
                Open::Cond { lines } => before.extend(lines.iter().filter(|l| l.start < body.start).cloned()),
                Open::Brace { .. } => return None,
            }
        }
        let mut after: Vec<Range<usize>> = Vec::new();
        for e in open_at(cuts[b].1) {
            match &entries[e].open {
                Open::Brace { .. } => return None,
                // (its `#else`/`#elif` lines after the body too: the group
                // keeps its shape, `#ifndef X` / `#else` / `#endif`)
                Open::Cond { lines } => after.extend(lines.iter().filter(|l| l.start >= body.end).cloned()),
                Open::Block { .. } => {}
            }
            after.push(entries[e].closer.clone());
        }
        before.extend(chosen.drain(..).map(|k| ranges[k].clone()));
        // the functions in the body whose bodies are cut inside: where each
        // part of the body starts and ends, and in which function
        while next_function < functions.len() && functions[next_function].close.end <= body.start {
            next_function += 1;
        }
        let mut inner: Vec<(usize, Option<usize>)> = vec![(body.start, None)];
        let mut k = next_function;
        while k < functions.len() && functions[k].open.start < body.end {
            let f = &functions[k];
            let mut last = f.open.end;
            for &e in &f.ends {
                if e - last >= fn_size && e < f.close.start {
                    inner.push((e, Some(k)));
                    last = e;
                }
            }
            k += 1;
        }
        inner.push((body.end, None));
        for w in inner.windows(2) {
            let ((from, in_f), (to, out_f)) = (w[0], w[1]);
            let part = from..to;
            let mut pieces = before.clone();
            if let Some(f) = in_f {
                pieces.push(functions[f].open.clone());
                if locals.as_ref().is_none_or(|(k, _)| *k != f) {
                    locals = Some((f, Locals::default()));
                }
                let (_, l) = locals.as_mut().unwrap();
                pieces.extend(l.prelude(text, &functions[f], from, &text[part.clone()]));
            }
            pieces.push(part.clone());
            if let Some(f) = out_f {
                pieces.push(functions[f].close.clone());
            }
            pieces.extend(after.iter().cloned());
            // in file order: equal or apart, or inside the body
            pieces.sort_by_key(|r| (r.start, r.end));
            let mut merged: Vec<Range<usize>> = Vec::with_capacity(pieces.len());
            for p in pieces {
                match merged.last_mut() {
                    Some(l) if p.start < l.end || (p.is_empty() && p.start == l.end) => l.end = l.end.max(p.end),
                    _ => merged.push(p),
                }
            }
            // the body stays one piece of its own
            if !merged.contains(&part) {
                return None;
            }
            out.push(Segment { body: part, pieces: merged });
        }
    }
    (out.len() >= 2).then_some(out)
}

/// The declarations among `ranges` (through `declaring`, by the names they
/// declare; the nearest [`DECLARATIONS_PER_NAME`] of each name) that
/// declare a name `body` uses, and those that declare the
/// names these use, up to [`PRELUDE_BYTES`]; with `nameless` first (up to
/// a quarter of it). Indices into `ranges`, in order.
fn prelude(
    text: &str,
    body: &str,
    ranges: &[Range<usize>],
    declaring: &std::collections::HashMap<&str, Vec<usize>>,
    nameless: &[usize],
    with_nameless: bool,
) -> Vec<usize> {
    let mut chosen: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut wanted: Vec<&str> = identifiers(body).filter(|w| seen.insert(w)).collect();
    wanted.reverse();
    let mut bytes = 0;
    // a declaration whose text another chosen one repeats adds nothing to
    // the parse or the facts (`#include <cstdio>` a hundred times in a
    // file that many programs were pasted into)
    let mut texts: std::collections::HashSet<&str> = std::collections::HashSet::new();
    // (the first of them, up to a quarter of the prelude)
    for &k in nameless.iter().filter(|_| with_nameless) {
        if ranges[k].is_empty() || !texts.insert(text[ranges[k].clone()].trim()) {
            continue;
        }
        if bytes + ranges[k].len() > PRELUDE_BYTES / 4 {
            break;
        }
        bytes += ranges[k].len();
        chosen.insert(k);
    }
    'fill: while let Some(w) = wanted.pop() {
        // the nearest first, up to DECLARATIONS_PER_NAME of them (and as
        // many again read past as repeats of one already taken)
        let mut taken = 0;
        for &k in declaring.get(w).map_or(&[][..], Vec::as_slice).iter().rev().take(2 * DECLARATIONS_PER_NAME) {
            if taken == DECLARATIONS_PER_NAME {
                break;
            }
            let r = &ranges[k];
            if chosen.contains(&k) {
                taken += 1;
                continue;
            }
            if r.is_empty() || !texts.insert(text[r.clone()].trim()) {
                continue;
            }
            taken += 1;
            if bytes + r.len() > PRELUDE_BYTES {
                break 'fill;
            }
            bytes += r.len();
            chosen.insert(k);
            let more: Vec<&str> = identifiers(&text[r.clone()]).filter(|w| seen.insert(w)).collect();
            wanted.extend(more.into_iter().rev());
        }
    }
    chosen.into_iter().collect()
}

/// The declarations of a function's body read so far: what the parts of
/// it after the first are parsed with ([`Locals::prelude`]).
#[derive(Default)]
struct Locals<'t> {
    ranges: Vec<Range<usize>>,
    declaring: std::collections::HashMap<&'t str, Vec<usize>>,
    /// how many of the function's statements are read, and where the next starts
    read: usize,
    start: Option<usize>,
}

impl<'t> Locals<'t> {
    /// The statements of `f`'s body before `from` (a part of it starts
    /// there) that declare a name `part` uses, and those that declare the
    /// names these use: local variables, types, macros ([`prelude`]).
    fn prelude(&mut self, text: &'t str, f: &Function, from: usize, part: &str) -> Vec<Range<usize>> {
        let mut start = self.start.unwrap_or(f.open.end);
        while let Some(&e) = f.ends.get(self.read).filter(|&&e| e <= from) {
            let s = &text[start..e];
            if is_local_declaration(s) || s.contains("#define") {
                let pointer = s.find('(').and_then(|p| pointer_declarator(&s[p..]));
                for name in declared_names(s).into_iter().chain(pointer) {
                    self.declaring.entry(name).or_default().push(self.ranges.len());
                }
                self.ranges.push(start..e);
            }
            start = e;
            self.read += 1;
        }
        self.start = Some(start);
        prelude(text, part, &self.ranges, &self.declaring, &[], false).into_iter().map(|k| self.ranges[k].clone()).collect()
    }
}

/// The name in `(*name)` or `(&name)` at the start of `s` (a declarator of
/// a pointer or a reference to a function or an array).
fn pointer_declarator(s: &str) -> Option<&str> {
    let r = s.strip_prefix('(')?.trim_start().strip_prefix(['*', '&'])?.trim_start();
    let end = r.bytes().position(|b| !is_word(b)).unwrap_or(r.len());
    (end > 0 && !r.as_bytes()[0].is_ascii_digit() && r[end..].trim_start().starts_with(')')).then(|| &r[..end])
}

/// Does the statement `s` (of a function's body, with what precedes it
/// since the last: blanks, comments, directives) read as a declaration, by
/// its first tokens: type words (`const`, `unsigned`, `std::vector<int>`,
/// `*`, `&`) and then a name before `=`, `;`, `(`, `[`, `{` or `,`
/// (`int i = 0;`, `__shared__ float t[32];`, `dim3 b(16);`, `using U = T;`,
/// `auto [a, b] = p;`)? Not `a = b;`, `f(x);`, `a.b = c;`, `return x;`.
fn is_local_declaration(s: &str) -> bool {
    const STATEMENTS: &[&str] = &[
        "return",
        "if",
        "for",
        "while",
        "do",
        "switch",
        "break",
        "continue",
        "goto",
        "case",
        "default",
        "else",
        "throw",
        "delete",
        "try",
        "co_return",
        "co_yield",
        "co_await",
        "asm",
        "__asm__",
        "__asm",
        "new",
        "this",
        "sizeof",
    ];
    let t = s.as_bytes();
    let mut i = 0;
    let mut line_start = true;
    // words at the top, and whether the last token joins the next (`::`)
    let mut words = 0;
    let mut angle = 0i32;
    let mut joined = false;
    while i < t.len() {
        let c = t[i];
        if line_start && c == b'#' {
            i = directive_end(t, i);
            continue;
        }
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
            b'/' if t.get(i + 1) == Some(&b'/') => {
                i = line_end(t, i);
                line_start = true;
                continue;
            }
            b'/' if t.get(i + 1) == Some(&b'*') => {
                i = s[i + 2..].find("*/").map_or(t.len(), |p| i + 2 + p + 2);
                continue;
            }
            _ => line_start = false,
        }
        if angle > 0 {
            match c {
                b'<' => angle += 1,
                b'>' => angle -= 1,
                b';' | b'{' | b'}' => return false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let end = word_end(t, i);
                let w = &s[i..end];
                if words == 0 && STATEMENTS.contains(&w) {
                    return false;
                }
                if !joined {
                    words += 1;
                }
                joined = false;
                i = end;
                // `auto [a, b] = …`
                if w == "auto" && t[crate::mask::skip_blanks(t, i).min(t.len() - 1)..].first() == Some(&b'[') {
                    return true;
                }
            }
            b':' if t.get(i + 1) == Some(&b':') => {
                joined = true;
                i += 2;
            }
            b'<' if words > 0 => {
                angle = 1;
                i += 1;
            }
            b'*' | b'&' => i += 1,
            // `void (*k)(float *) = …;`
            b'(' if words >= 1 && pointer_declarator(&s[i..]).is_some() => return true,
            b'=' | b';' | b'(' | b'[' | b'{' | b',' => return words >= 2,
            _ => return false,
        }
    }
    false
}

/// Why the scan gave up on a file ([`not_cut`]), and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotCut {
    pub at: usize,
    pub why: &'static str,
}

/// Why `text` is not cut in parts, where the scan cannot follow it
/// (`SYCLIFY_TIMING` says it: a large file migrated whole costs its whole
/// tree's memory).
pub fn not_cut(text: &str) -> Option<NotCut> {
    scan(text, function_part_size(SEGMENT_BYTES)).err()
}

struct Scan {
    /// Where parts may start (offsets of lines, the file's start first and
    /// its end last), each with the innermost entry open there.
    cuts: Vec<(usize, Option<usize>)>,
    /// The text between consecutive cuts, and whether it is prelude
    /// material: declarations ending in `;` (globals, types, prototypes) and
    /// directives other than conditionals; not a function's definition.
    chunks: Vec<(Range<usize>, bool)>,
    /// The chunks before the first function's definition, through the last
    /// of them that holds an `#include`: the file's head, which stays in
    /// the first part (where the SYCL includes go, read from its includes
    /// and what comes before them).
    head_chunks: usize,
    entries: Vec<Entry>,
    /// The top-level functions whose bodies are larger than a part, in
    /// file order: cut inside ([`segments`]).
    functions: Vec<Function>,
}

/// A top-level function's definition, as the scan reads it.
struct FnScan {
    start: usize,
    /// its body's `{`
    brace: usize,
    /// after each `;` or block `}` that ends a statement of its body (not
    /// inside a bracket or a conditional group, not before `else`)
    ends: Vec<usize>,
    /// the last such `;`, until the next token says whether it ends one
    candidate: Option<usize>,
    /// whether the statement being read starts with `if`, `for`, `while`,
    /// `switch`, `do`, `try` or `{` (its block's `}` may end it; not a
    /// class's or an initializer's); None between statements
    block_statement: Option<bool>,
}

/// A function whose body is cut in parts: each part after the first is
/// parsed inside its head (`open`, from the declaration's start through
/// the `{`), after the body's earlier declarations that declare a name it
/// uses, and each part but the last is closed by its `}` (`close`).
#[derive(Debug, Clone)]
struct Function {
    open: Range<usize>,
    close: Range<usize>,
    /// where its body's statements end (after their `;`)
    ends: Vec<usize>,
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `r` from the first line that holds more than blanks and comments
/// (whole lines: a comment before a declaration adds nothing to a
/// prelude's parse, and without it a declaration pasted under different
/// comments reads as the one text it is). Empty where nothing else is.
fn after_leading_comments(text: &str, r: Range<usize>) -> Range<usize> {
    let t = &text.as_bytes()[..r.end];
    let (mut i, mut line) = (r.start, r.start);
    while i < t.len() {
        match t[i] {
            b'\n' => {
                i += 1;
                line = i;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if t.get(i + 1) == Some(&b'/') => {
                i = line_end(t, i);
                line = i;
            }
            b'/' if t.get(i + 1) == Some(&b'*') => match text[i + 2..r.end].find("*/") {
                Some(p) => i += 2 + p + 2,
                None => return r,
            },
            _ => return line..r.end,
        }
    }
    // (nothing but blanks and comments)
    r.end..r.end
}

/// The end of the line holding `i` (after its newline), or the text's end.
fn line_end(t: &[u8], i: usize) -> usize {
    t[i..].iter().position(|&b| b == b'\n').map_or(t.len(), |p| i + p + 1)
}

/// Does a declaration whose text before its `{` is `head` define a function
/// (`void f(int a) const {`, `S::S() : a(1) {`, `auto f() -> int {`)?
/// Is `h` (trimmed) the head of a namespace or a linkage block, whose braces
/// hold declarations: `namespace a::b`, `inline namespace v1`, `namespace`,
/// `extern "C"`? Not `extern "C" __global__ void k(...)` (a function with C
/// linkage) nor `namespace_of(...)` (a function).
fn is_block_head(h: &str) -> bool {
    let words: Vec<&str> = h.split_whitespace().collect();
    match words.as_slice() {
        ["extern", lang] => matches!(*lang, "\"C\"" | "\"C++\""),
        ["namespace", rest @ ..] | ["inline", "namespace", rest @ ..] => {
            rest.len() <= 1 && rest.iter().all(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ':'))
        }
        _ => false,
    }
}

fn defines_function(head: &str) -> bool {
    let h = head.trim_end();
    // (its start for the keyword, its last 4 KB for the rest: `x{}{}{}…` at
    // the top would read the growing head at every brace)
    let mut from = h.len().saturating_sub(4096);
    while !h.is_char_boundary(from) {
        from += 1;
    }
    let (start, h) = (h, &h[from..]);
    // (`typedef struct __align__(16) {`, `struct alignas(8) S {`: a type;
    // a function returning `struct S` is read as one too, and the part
    // goes on to the next `;`)
    let starts_type = ["struct", "class", "union", "enum", "typedef"]
        .iter()
        .any(|k| start.strip_prefix(k).is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_')));
    !starts_type
        && h.contains('(')
        && !initializes(h)
        && (h.ends_with(')') || ["const", "override", "final", "noexcept", "mutable"].iter().any(|k| h.ends_with(k)) || h.contains("->"))
}

/// Whether a declaration's head (the text before its `{`) holds an `=` of
/// its own: `auto f = [](int a) {` initializes a variable. An `=` inside
/// parentheses or brackets (a default argument, `void f(int d = 5) {`), in
/// a `template <…>` clause (`template <class T = int>`), in a comparison
/// (`==`, `<=`, `>=`, `!=`: `enable_if_t<N == 1> f() {`) or in an operator's
/// name (`S &S::operator=(const S &o) {`, `operator+=`) is not one.
fn initializes(h: &str) -> bool {
    let t = h.as_bytes();
    let mut depth = 0usize;
    // the open `<` of `template <…>` clauses
    let mut angles = 0usize;
    let mut i = 0;
    while i < t.len() {
        let c = t[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            i = word_end(t, i);
            let word = &h[start..i];
            let j = after_blanks(t, i);
            if word == "template" && t.get(j) == Some(&b'<') {
                angles += 1;
                i = j + 1;
            } else if word == "operator" {
                // its symbol (`=`, `+=`, `==`, `()`, …) up to the `(` of its parameters
                i = j + t[j..].iter().take_while(|&&b| !b.is_ascii_alphanumeric() && b != b'_' && b != b'(' && !b.is_ascii_whitespace()).count();
                if t.get(i) == Some(&b'(') && t.get(i + 1) == Some(&b')') {
                    i += 2;
                }
            }
            continue;
        }
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'<' if angles > 0 => angles += 1,
            b'>' if angles > 0 => angles -= 1,
            b'=' if depth == 0 && angles == 0 => {
                let before = if i > 0 { t[i - 1] } else { b' ' };
                let after = t.get(i + 1).copied().unwrap_or(b' ');
                if after != b'=' && !matches!(before, b'=' | b'<' | b'>' | b'!') {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn scan(text: &str, fn_size: usize) -> Result<Scan, NotCut> {
    let t = text.as_bytes();
    let n = t.len();
    let mut entries: Vec<Entry> = Vec::new();
    // the innermost open entry, and how many open entries are plain braces
    let mut top: Option<usize> = None;
    let mut braces = 0usize;
    let mut parens: i64 = 0;
    // the open conditional groups, innermost last: one at the top (None:
    // its entry is on the stack), or one inside a declaration, with what was
    // open at its `#if` and at the end of its first branch
    #[allow(clippy::type_complexity)]
    let mut conds: Vec<Option<([Option<usize>; 2], [usize; 2], [i64; 2], bool)>> = Vec::new();
    // how many of them are inside a declaration (no part starts there)
    let mut inner = 0usize;
    let mut cuts: Vec<(usize, Option<usize>)> = vec![(0, None)];
    let mut chunks: Vec<(Range<usize>, bool)> = Vec::new();
    // the last significant token outside directives: `;`, `}`, a block's
    // `{`, or something else (b'x'); 0 at the start
    let mut last: u8 = 0;
    // a line start where a part may start, waiting for the next token
    let mut pending: Option<usize> = None;
    // where the current top-level declaration started
    let mut item_start: Option<usize> = None;
    // whether the chunk so far holds only prelude material, and anything
    let mut chunk_decl = true;
    let mut chunk_empty = true;
    let mut at_line_start = true;
    // an `#include` read before any function's definition: the head's end
    let mut head_end = 0usize;
    let mut in_head = true;
    let mut directives = 0;
    let mut guard_open = false;
    let mut want_code = false;
    // the top-level function whose body is open, and those large enough
    // to be cut inside
    let mut open_fn: Option<FnScan> = None;
    let mut functions: Vec<Function> = Vec::new();
    let mut i = 0;
    let mut cut = |at: usize, top: Option<usize>, chunk_decl: &mut bool, chunk_empty: &mut bool| {
        let prev = cuts.last().map_or(0, |c| c.0);
        if at > prev {
            chunks.push((prev..at, *chunk_decl && !*chunk_empty));
            cuts.push((at, top));
            *chunk_decl = true;
            *chunk_empty = true;
        }
    };
    while i < n {
        let b = t[i];
        if at_line_start {
            at_line_start = false;
            // a part may start here when the code before ended a declaration
            if pending.is_none() && braces == 0 && parens == 0 && matches!(last, 0 | b';' | b'}' | b'{') && item_start.is_none() && inner == 0 {
                pending = Some(i);
            }
            // a directive line (after blanks, and a byte-order mark: files
            // joined together keep theirs)
            let j = crate::mask::skip_blanks(t, i);
            let j = if t[j..].starts_with(BOM) { crate::mask::skip_blanks(t, j + BOM.len()) } else { j };
            if j < n && t[j] == b'#' {
                if let Some(p) = pending.take() {
                    cut(p, top, &mut chunk_decl, &mut chunk_empty);
                }
                let end = directive_end(t, j);
                // `extern "C" {` and its `}` each in a group of its own
                // (`#ifdef __cplusplus` / `extern "C" {` / `#endif`): the three
                // lines open or close the block as its one line would
                let linkage = if braces == 0 && parens == 0 && inner == 0 { linkage_lines(text, j, end) } else { None };
                let block = match linkage {
                    Some((Linkage::Opens, to)) => {
                        entries.push(Entry { open: Open::Block { opener: i..to }, outer: top, closer: 0..0 });
                        top = Some(entries.len() - 1);
                        Some((b'{', to))
                    }
                    Some((Linkage::Closes, to)) if let Some(e) = top.filter(|&e| matches!(entries[e].open, Open::Block { .. })) => {
                        entries[e].closer = i..to;
                        top = entries[e].outer;
                        Some((b'}', to))
                    }
                    _ => None,
                };
                if let Some((brace, to)) = block {
                    (last, item_start, chunk_decl, chunk_empty) = (brace, None, false, false);
                    (i, at_line_start) = (to, true);
                    directives += 1;
                    continue;
                }
                let mut k = crate::mask::skip_blanks(t, j + 1).min(end);
                let w0 = k;
                while k < end && t[k].is_ascii_alphabetic() {
                    k += 1;
                }
                let line = i..end;
                match &text[w0..k] {
                    // a group at the top: an entry (a part may stand in it);
                    // inside a declaration (a function's body, an argument
                    // list): its first branch is followed, as the
                    // preprocessor would one configuration (its branches may
                    // split braces: `#ifdef A` / `for (…) {` / `#else` / `for (…) {` / `#endif`)
                    "if" | "ifdef" | "ifndef" if braces == 0 && parens == 0 => {
                        entries.push(Entry { open: Open::Cond { lines: vec![line] }, outer: top, closer: 0..0 });
                        top = Some(entries.len() - 1);
                        conds.push(None);
                        chunk_decl = false;
                    }
                    "if" | "ifdef" | "ifndef" => {
                        conds.push(Some(([top, None], [braces, 0], [parens, 0], false)));
                        inner += 1;
                    }
                    "elif" | "else" | "elifdef" | "elifndef" => match conds.last_mut() {
                        Some(None) => match top.map(|e| &mut entries[e].open) {
                            Some(Open::Cond { lines }) => {
                                lines.push(line);
                                chunk_decl = false;
                            }
                            _ => return Err(NotCut { at: i, why: "an `#else` or `#elif` outside a conditional group it opened" }),
                        },
                        Some(Some((tops, bs, ps, ended))) => {
                            if !*ended {
                                (tops[1], bs[1], ps[1], *ended) = (top, braces, parens, true);
                            }
                            (top, braces, parens) = (tops[0], bs[0], ps[0]);
                        }
                        // (without its `#if`: no compiler takes it; the
                        // parse reports it, the scan reads past it)
                        None => {}
                    },
                    "endif" => match conds.pop() {
                        Some(None) => match top {
                            Some(e) if matches!(entries[e].open, Open::Cond { .. }) => {
                                entries[e].closer = line;
                                top = entries[e].outer;
                                chunk_decl = false;
                            }
                            _ => return Err(NotCut { at: i, why: "an `#endif` that closes a group opened inside a block" }),
                        },
                        Some(Some((tops, bs, ps, ended))) => {
                            inner -= 1;
                            if ended {
                                (top, braces, parens) = (tops[1], bs[1], ps[1]);
                            }
                        }
                        None => {}
                    },
                    "include" if in_head => head_end = end,
                    _ => {}
                }
                // an include guard (`#ifndef G` / `#define G`) or `#pragma
                // once` before any code: the head too; and a conditional
                // group closed before any code, with the code after it (the
                // head tells a guard from a group that is not one)
                let word = &text[w0..k];
                if in_head && item_start.is_none() && last == 0 {
                    let guard_line = match directives {
                        0 => word == "ifndef" || (word == "pragma" && text[k..end].trim() == "once"),
                        1 => word == "define" && guard_open,
                        _ => false,
                    };
                    if guard_line {
                        head_end = head_end.max(end);
                        guard_open = word == "ifndef";
                    }
                    if word == "endif" && top.is_none() {
                        head_end = head_end.max(end);
                        want_code = true;
                    }
                }
                directives += 1;
                chunk_empty = false;
                i = end;
                at_line_start = true;
                continue;
            }
        }
        match b {
            b'\n' => {
                at_line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0c' | b'\x0b' => i += 1,
            b'/' if t.get(i + 1) == Some(&b'/') => {
                // to the end of the line, continuations included
                let mut j = i + 2;
                loop {
                    match t[j..].iter().position(|&c| c == b'\n') {
                        None => {
                            j = n;
                            break;
                        }
                        Some(p) => {
                            let nl = j + p;
                            let cont = t[nl - 1] == b'\\' || (t[nl - 1] == b'\r' && t[nl - 2] == b'\\');
                            j = nl + 1;
                            if !cont {
                                at_line_start = true;
                                break;
                            }
                        }
                    }
                }
                i = j;
            }
            b'/' if t.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(n, |p| i + 2 + p + 2);
            }
            _ => {
                // a significant token: the pending cut is decided by it
                if let Some(p) = pending.take()
                    && !matches!(b, b';' | b',' | b')' | b'=' | b':' | b'.' | b'{' | b']' | b'>' | b'-')
                {
                    cut(p, top, &mut chunk_decl, &mut chunk_empty);
                }
                // a statement of a function's body ended at its `;` (or a
                // block's `}`): a part may start after it, but not before
                // `else` (nor `while`, `catch`: a `do` or `try` goes on)
                let word = if is_word(b) { &text[i..word_end(t, i)] } else { "" };
                if let Some(f) = open_fn.as_mut()
                    && let Some(end) = f.candidate.take()
                    && !matches!(word, "else" | "while" | "catch")
                {
                    f.block_statement = None;
                    // (through the end of its line, where only blanks or a
                    // comment follow: a rewrite that drops the statement's
                    // line finds its newline in its part)
                    let j = end + t[end..i].iter().take_while(|&&c| c == b' ' || c == b'\t' || c == b'\r').count();
                    let j = if t[j..i].starts_with(b"//") { j + t[j..i].iter().position(|&c| c == b'\n').unwrap_or(i - j) } else { j };
                    f.ends.push(if t.get(j) == Some(&b'\n') && j < i { j + 1 } else { end });
                }
                // a statement of its body starts: one that a block's `}` may end?
                if let Some(f) = open_fn.as_mut()
                    && braces == 1
                    && parens == 0
                    && f.block_statement.is_none()
                {
                    f.block_statement = Some(b == b'{' || matches!(word, "if" | "for" | "while" | "switch" | "do" | "try"));
                }
                chunk_empty = false;
                if want_code {
                    head_end = head_end.max(i + 1);
                    want_code = false;
                }
                let at_top = braces == 0 && parens == 0;
                if at_top && item_start.is_none() {
                    item_start = Some(i);
                }
                match b {
                    b'"' | b'\'' => {
                        i = literal_end(t, i);
                        last = b'x';
                    }
                    b'(' | b'[' => {
                        parens += 1;
                        last = b'x';
                        i += 1;
                    }
                    b')' | b']' => {
                        // (one without its `(` or `[`: the parse reports it,
                        // the scan reads past it)
                        parens = (parens - 1).max(0);
                        last = b'x';
                        i += 1;
                    }
                    b'{' => {
                        let head = &text[item_start.unwrap_or(i)..i];
                        let h = head.trim();
                        // a namespace or `extern "C"` block at the top, its
                        // `{` ending its line: a part may stand inside it
                        let block = at_top && is_block_head(h) && rest_is_blank(&text[i + 1..line_end(t, i)]);
                        if block {
                            let ls = text[..item_start.unwrap_or(i)].rfind('\n').map_or(0, |p| p + 1);
                            entries.push(Entry { open: Open::Block { opener: ls..line_end(t, i) }, outer: top, closer: 0..0 });
                            last = b'{';
                            item_start = None;
                            chunk_decl = false;
                        } else {
                            let function = at_top && defines_function(head);
                            if function {
                                open_fn = Some(FnScan { start: item_start.unwrap_or(i), brace: i, ends: Vec::new(), candidate: None, block_statement: None });
                            }
                            entries.push(Entry { open: Open::Brace { function }, outer: top, closer: 0..0 });
                            braces += 1;
                            last = b'x';
                        }
                        top = Some(entries.len() - 1);
                        i += 1;
                    }
                    b'}' => {
                        // (one without its `{`: the parse reports it, the
                        // scan reads past it)
                        let Some(e) = top else {
                            (last, item_start) = (b'}', None);
                            i += 1;
                            continue;
                        };
                        match entries[e].open {
                            Open::Block { .. } => {
                                // its line closes it (a `}` alone, or with a comment)
                                let ls = text[..i].rfind('\n').map_or(0, |p| p + 1);
                                let end = line_end(t, i);
                                if !text[ls..i].trim().is_empty() || !rest_is_blank(&text[i + 1..end]) {
                                    return Err(NotCut { at: i, why: "a namespace's or `extern \"C\"` block's `}` with code on its line" });
                                }
                                entries[e].closer = ls..end;
                                chunk_decl = false;
                            }
                            Open::Brace { function } => {
                                braces -= 1;
                                // (a block statement of a function's body ends here)
                                if braces == 1
                                    && parens == 0
                                    && inner == 0
                                    && let Some(f) = open_fn.as_mut().filter(|f| f.block_statement == Some(true))
                                {
                                    f.candidate = Some(i + 1);
                                }
                                // a function's definition is not prelude material
                                if function {
                                    chunk_decl = false;
                                    in_head = false;
                                    if let Some(f) = open_fn.take()
                                        && i - f.brace > fn_size
                                        && !f.ends.is_empty()
                                    {
                                        functions.push(Function { open: f.start..f.brace + 1, close: i..i + 1, ends: f.ends });
                                    }
                                }
                            }
                            Open::Cond { .. } => return Err(NotCut { at: i, why: "a `}` that closes a `{` opened before a conditional group it stands in" }),
                        }
                        top = entries[e].outer;
                        last = b'}';
                        // a definition ends here (a function's, a block's); a
                        // class's or an initializer's goes on to its `;`
                        // (`typedef struct {…}` / `Name;`)
                        let ends = match entries[e].open {
                            Open::Brace { function } => function,
                            _ => true,
                        };
                        if braces == 0 && parens == 0 && ends {
                            item_start = None;
                        }
                        i += 1;
                    }
                    b';' => {
                        last = b';';
                        if at_top {
                            item_start = None;
                        }
                        if braces == 1
                            && parens == 0
                            && inner == 0
                            && let Some(f) = open_fn.as_mut()
                        {
                            f.candidate = Some(i + 1);
                        }
                        i += 1;
                    }
                    b'R' | b'u' | b'U' | b'L' => {
                        // a raw string `R"d(…)d"` (with an encoding prefix)
                        i = raw_string_end(t, i).unwrap_or_else(|| word_end(t, i));
                        last = b'x';
                    }
                    _ if is_word(b) => {
                        i = word_end(t, i);
                        last = b'x';
                    }
                    _ => {
                        last = b'x';
                        i += 1;
                    }
                }
            }
        }
    }
    if top.is_some() || parens != 0 || !conds.is_empty() {
        return Err(NotCut { at: n, why: "a bracket or conditional group open at the end of the file" });
    }
    let prev = cuts.last().map_or(0, |c| c.0);
    if n > prev {
        chunks.push((prev..n, chunk_decl && !chunk_empty));
        cuts.push((n, None));
    }
    let head_chunks = chunks.partition_point(|(r, _)| r.start < head_end);
    Ok(Scan { cuts, chunks, entries, head_chunks, functions })
}

/// A UTF-8 byte-order mark.
const BOM: &[u8] = "\u{feff}".as_bytes();

/// What a group of [`linkage_lines`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Linkage {
    Opens,
    Closes,
}

/// The directive at `j` (its `#`, its line ending at `end`) and the two
/// lines after it, where they are the C headers' idiom for C linkage:
/// `#ifdef __cplusplus` (or `#if defined(__cplusplus)`, `#if __cplusplus`),
/// then `extern "C" {` or `}` alone on its line (a comment may follow),
/// then `#endif`. Where the third line ends.
fn linkage_lines(text: &str, j: usize, end: usize) -> Option<(Linkage, usize)> {
    let t = text.as_bytes();
    let cond: String = text[j + 1..end].split("//").next().unwrap_or("").chars().filter(|c| !c.is_whitespace()).collect();
    if !matches!(cond.as_str(), "ifdef__cplusplus" | "ifdefined(__cplusplus)" | "ifdefined__cplusplus" | "if__cplusplus") {
        return None;
    }
    if end >= t.len() {
        return None;
    }
    let second_end = line_end(t, end);
    let second = &text[end..second_end];
    let (what, rest) = if let Some(rest) = second.trim_start().strip_prefix('}') {
        (Linkage::Closes, rest)
    } else {
        let rest = second.trim_start().strip_prefix("extern")?.trim_start().strip_prefix("\"C\"")?.trim_start().strip_prefix('{')?;
        (Linkage::Opens, rest)
    };
    if !rest_is_blank(rest) {
        return None;
    }
    let k = crate::mask::skip_blanks(t, second_end);
    if !t[k..].starts_with(b"#") {
        return None;
    }
    let to = directive_end(t, k);
    let word = text[k + 1..to].trim_start();
    let w = word.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    (w == "endif").then_some((what, to))
}

/// The identifiers of `s` outside its comments and strings
/// ([`crate::syntax::identifier_tokens`]).
fn identifiers(s: &str) -> impl Iterator<Item = &str> {
    crate::syntax::identifier_tokens(s).map(|(_, w)| w)
}

/// Words a declaration's text holds before `=`, `;`, `(`, `,` … that
/// are not names it declares: keywords and built-in types
/// (`texture<float, 2> t;`, `bool operator==(…)`, `char b[sizeof(S)];`,
/// `__launch_bounds__(256)`).
const NOT_DECLARED: &[&str] = &[
    "alignas",
    "alignof",
    "auto",
    "bool",
    "char",
    "char16_t",
    "char32_t",
    "char8_t",
    "const",
    "constexpr",
    "decltype",
    "delete",
    "double",
    "explicit",
    "extern",
    "false",
    "float",
    "inline",
    "int",
    "long",
    "new",
    "noexcept",
    "nullptr",
    "operator",
    "requires",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "template",
    "this",
    "throw",
    "true",
    "typeid",
    "typename",
    "unsigned",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "__align__",
    "__attribute__",
    "__declspec",
    "__launch_bounds__",
];

/// The names a declaration (or a directive) declares, by its shape: a
/// macro's name, and at the top of the declaration (outside brackets) each
/// name followed by `=`, `;`, `[`, `(`, `,`, `{` or `:` (a variable, a
/// function, a class, a typedef's name after the class's `}`).
fn declared_names(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    // (`using namespace cub;` names a namespace to look names up in)
    if s.trim_start().starts_with("using namespace") {
        return out;
    }
    let t = s.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    let mut line_start = true;
    while i < t.len() {
        let c = t[i];
        if line_start && c == b'#' {
            // a directive: `#define NAME`, to the end of its line
            let end = directive_end(t, i);
            let mut words = identifiers(&s[i..end]);
            if words.next() == Some("define")
                && let Some(name) = words.next()
            {
                out.push(name);
            }
            i = end;
            line_start = true;
            continue;
        }
        match c {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            _ => line_start = false,
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'"' | b'\'' => {
                i = literal_end(t, i);
                continue;
            }
            b'/' if t.get(i + 1) == Some(&b'/') => {
                i = line_end(t, i);
                line_start = true;
                continue;
            }
            b'/' if t.get(i + 1) == Some(&b'*') => {
                i = s[i + 2..].find("*/").map_or(t.len(), |p| i + 2 + p + 2);
                continue;
            }
            _ if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                i = word_end(t, i);
                let word = &s[start..i];
                let j = after_blanks(t, i);
                let next = t.get(j).copied().unwrap_or(b';');
                // (not a qualifier, `std::vector<float> v;`, nor a keyword:
                // `texture<float, 2> t;`, `char b[sizeof(S)];`)
                let qualifier = next == b':' && t.get(j + 1) == Some(&b':');
                if depth == 0 && matches!(next, b'=' | b';' | b'[' | b'(' | b',' | b'{' | b':') && !qualifier && !NOT_DECLARED.contains(&word) {
                    out.push(word);
                } else if depth > 0 && (word == "using" || word == "typedef") {
                    // a member alias (`using BlockScanT = …;`, `typedef … T;`):
                    // the name before `=`, or the last before `;`
                    let end = s[i..].find(';').map_or(s.len(), |p| i + p);
                    let decl = &s[i..end];
                    let name = if word == "using" { decl.split('=').next().and_then(|n| identifiers(n).last()) } else { identifiers(decl).last() };
                    out.extend(name);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn rest_is_blank(s: &str) -> bool {
    let s = s.trim();
    s.is_empty() || s.starts_with("//") || s == ";"
}

/// The end of a directive starting at `j` (its `#`): after the newline of
/// its last line (continuations and block comments spanning lines included).
fn directive_end(t: &[u8], j: usize) -> usize {
    let n = t.len();
    let mut k = j;
    while k < n {
        match t[k] {
            b'\n' => {
                let cont = k > 0 && (t[k - 1] == b'\\' || (t[k - 1] == b'\r' && k > 1 && t[k - 2] == b'\\'));
                if !cont {
                    return k + 1;
                }
                k += 1;
            }
            b'/' if t.get(k + 1) == Some(&b'*') => {
                k = t[k + 2..].windows(2).position(|w| w == b"*/").map_or(n, |p| k + 2 + p + 2);
            }
            b'/' if t.get(k + 1) == Some(&b'/') => {
                // a line comment ends the directive with its line
                match t[k..].iter().position(|&c| c == b'\n') {
                    Some(p) => k += p,
                    None => return n,
                }
            }
            _ => k += 1,
        }
    }
    n
}

/// The first position from `i` on that is not white space (or the end).
fn after_blanks(t: &[u8], i: usize) -> usize {
    i + t[i..].iter().take_while(|b| b.is_ascii_whitespace()).count()
}

/// The end of the identifier or number at `i` (a number's digit
/// separators and decimal point included: `1'000.5f`).
fn word_end(t: &[u8], i: usize) -> usize {
    let number = t[i].is_ascii_digit();
    let mut j = i;
    while j < t.len() && (is_word(t[j]) || (number && matches!(t[j], b'\'' | b'.') && t.get(j + 1).is_some_and(|c| c.is_ascii_alphanumeric()))) {
        j += 1;
    }
    j.max(i + 1)
}

/// The end of a string or character literal at `i`, or of a digit
/// separator's quote (`1'000`: the `'` inside a number is skipped alone).
/// A literal never crosses a line: an unclosed one ends there.
fn literal_end(t: &[u8], i: usize) -> usize {
    // ([`crate::mask::literal_end`] stops at the closing quote)
    let e = crate::mask::literal_end(t, i).min(t.len());
    if t.get(e) == Some(&t[i]) { e + 1 } else { e }
}

/// The end of a raw string literal starting at `i` (its prefix), if one.
fn raw_string_end(t: &[u8], i: usize) -> Option<usize> {
    if i > 0 && is_word(t[i - 1]) {
        return None;
    }
    let mut j = i;
    for p in [&b"u8R\""[..], b"uR\"", b"UR\"", b"LR\"", b"R\""] {
        if t[i..].starts_with(p) {
            j = i + p.len();
            break;
        }
    }
    if j == i {
        return None;
    }
    let open = t[j..].iter().take(17).position(|&c| c == b'(')?;
    let delim = &t[j..j + open];
    if delim.iter().any(|c| matches!(c, b' ' | b')' | b'\\' | b'\n' | b'"')) {
        return None;
    }
    let body = j + open + 1;
    let mut close = Vec::with_capacity(delim.len() + 2);
    close.push(b')');
    close.extend_from_slice(delim);
    close.push(b'"');
    let end = t[body..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(text: &str, size: usize) -> Vec<String> {
        segments(text, size).unwrap_or_default().iter().map(|s| text[s.body.clone()].to_string()).collect()
    }

    #[test]
    fn a_file_held_by_one_construct_stays_whole() {
        if std::env::var_os("SYCLIFY_SEGMENT_BYTES").is_some() {
            return;
        }
        // over the threshold, many kernels: cut
        let kernel = "__global__ void k(float *a) { a[0] = 1.0f; }\n";
        let many = kernel.repeat(SEGMENT_THRESHOLD / kernel.len() + 1);
        assert!(parts_of(&many).is_some_and(|p| p.len() > 2));
        // over the threshold, one statement holding most of it: whole (a
        // part would be as large as the file, and parsed twice)
        let one = format!("int a;\nint b;\n__global__ void k(float *a) {{\n  a[0] = {}1.0f;\n}}\nint c;\n", "1.0f+".repeat(SEGMENT_THRESHOLD / 5));
        assert!(segments(&one, SEGMENT_BYTES).is_some());
        assert!(parts_of(&one).is_none());
        // under it: whole
        assert!(parts_of(&many[..SEGMENT_THRESHOLD / 2]).is_none());
    }

    #[test]
    fn a_function_head_with_an_equals_sign_of_its_own_is_an_initializer() {
        // definitions: the `=` is a default argument, a template's default,
        // a comparison or an operator's name
        for head in [
            "void f(int digits = 5)",
            "template <class T> static void print_values(const char *what, const std::vector<T> &v, int digits = 5)",
            "template <class T = int, int N = 4> __device__ T g(T a)",
            "template <class T = std::vector<int>> T h()",
            "std::enable_if_t<N == 1 && M != 2 && K <= 3 && L >= 4, int> e()",
            "S &S::operator=(const S &o)",
            "S &operator+=(S &a, const S &b)",
            "bool operator==(const S &a, const S &b) const",
            "auto call() -> decltype(x = 1)",
        ] {
            assert!(defines_function(head), "{head}");
        }
        // initializers
        for head in ["auto f = [](int a)", "auto g = [](int a = 1)", "static const auto k = [&](float x) mutable"] {
            assert!(!defines_function(head), "{head}");
        }
    }

    #[test]
    fn keywords_and_qualifiers_are_not_declared_names() {
        assert_eq!(declared_names("texture<float, 2> tex;\n"), ["tex"]);
        assert_eq!(declared_names("std::vector<float> v;\n"), ["v"]);
        assert_eq!(declared_names("int n = sizeof(S);\n"), ["n"]);
        assert_eq!(declared_names("bool operator==(const S &a, const S &b);\n"), Vec::<&str>::new());
    }

    #[test]
    fn a_prelude_reads_declarations_without_their_leading_comments() {
        let t = "// one\n\n/* two\n   lines */\n  #include <a.h> // kept\nint x;\n";
        let r = after_leading_comments(t, 0..t.len());
        assert_eq!(&t[r], "  #include <a.h> // kept\nint x;\n");
        let t = "/* a */ int y;\n";
        assert_eq!(after_leading_comments(t, 0..t.len()), 0..t.len());
        let t = "int z;\n// only a comment\n";
        assert!(after_leading_comments(t, 7..t.len()).is_empty());
    }

    #[test]
    fn a_prelude_takes_the_nearest_declarations_of_a_name_up_to_its_bound() {
        // a name declared by each of many pasted copies: the part using it
        // is parsed with the nearest few, not all of them
        let n = 3 * DECLARATIONS_PER_NAME;
        let mut t: String = (0..n).map(|i| format!("extern float table[{}];\n", i + 1)).collect();
        t.push_str("void use() { table[0] = 1; }\n");
        let parts = segments(&t, 1).unwrap();
        let last = parts.last().unwrap();
        let prelude: Vec<&str> = last.pieces.iter().filter(|r| **r != last.body).map(|r| t[r.clone()].trim()).collect();
        let nearest: Vec<String> = (n - DECLARATIONS_PER_NAME..n).map(|i| format!("extern float table[{}];", i + 1)).collect();
        assert_eq!(prelude.join("\n"), nearest.join("\n"));
    }

    #[test]
    fn a_function_with_a_default_argument_ends_its_chunk() {
        // (read as an initializer before, it ran on to the next `;`,
        // swallowing the functions after it into one declaration chunk:
        // prelude material for every later part)
        let t = "template <class T> void p(const T &v, int digits = 5) {\n  use(v, digits);\n}\nint main() {\n  return 0;\n}\nint g;\n";
        let scan = scan(t, usize::MAX).ok().unwrap();
        let decl: Vec<&str> = scan.chunks.iter().filter(|c| c.1).map(|c| t[c.0.clone()].trim()).collect();
        assert_eq!(decl, ["int g;"]);
    }

    #[test]
    fn cuts_between_top_level_declarations() {
        let t = "int a;\nvoid f() {\n  g(\"}\"); // }\n}\n/* { */\nvoid h() { }\n";
        assert_eq!(bodies(t, 1), vec!["int a;\n", "void f() {\n  g(\"}\"); // }\n}\n", "/* { */\nvoid h() { }\n"]);
    }

    #[test]
    fn parts_inside_a_namespace_and_a_guard_get_their_openers() {
        // (with the earlier declarations of the names it uses: `a`, and
        // `pair`, which `a`'s declaration uses)
        let t = "#ifndef G\n#define G\nnamespace n {\nstruct pair { int x; };\nint b;\npair a;\nvoid f() {}\nvoid g() { a.x = 1; }\n}  // n\n#endif\n";
        let s = segments(t, 1).unwrap();
        let g = s.iter().find(|s| &t[s.body.clone()] == "void g() { a.x = 1; }\n").unwrap();
        let c = Compact::of(t, g);
        assert_eq!(c.text, "#ifndef G\nnamespace n {\nstruct pair { int x; };\npair a;\nvoid g() { a.x = 1; }\n}  // n\n#endif\n");
        assert_eq!(&c.text[c.body.clone()], "void g() { a.x = 1; }\n");
        let at = c.body.start + 5;
        assert_eq!(c.to_file(&(at..at + 1)), Some(g.body.start + 5..g.body.start + 6));
    }

    #[test]
    fn a_declaration_goes_on_to_its_semicolon_and_the_head_stays_whole() {
        // `typedef struct {…}` / `Name;`; `struct __align__(16) {…}` is a type
        let t = "typedef struct __align__(16)\n{\n  int a;\n}\nfour_t;\nint b;\n";
        assert_eq!(bodies(t, 1), vec!["typedef struct __align__(16)\n{\n  int a;\n}\nfour_t;\n", "int b;\n"]);
        // the includes before the first function, and an include guard
        let t = "#ifndef G\n#define G\n#include <a.h>\nint x;\n#include <cuda.h>\nvoid f() {}\nvoid g() {}\n#endif\n";
        let b = bodies(t, 1);
        assert_eq!(b[0], "#ifndef G\n#define G\n#include <a.h>\nint x;\n#include <cuda.h>\n");
        // a group closed before any code, with the code after it (a default, not a guard)
        let t = "#ifndef N\n#define N 8\n#endif\nint a;\nvoid f() {}\nvoid g() {}\n";
        assert_eq!(bodies(t, 1)[0], "#ifndef N\n#define N 8\n#endif\nint a;\n");
    }

    #[test]
    fn a_group_keeps_its_else_and_a_range_reaches_through_the_parts() {
        let t = "int a;\n#ifndef X\nvoid f() {}\n#else\nvoid g() {}\n#endif\nint b;\n";
        let s = segments(t, 1).unwrap();
        let p = s.iter().find(|s| t[s.body.clone()].starts_with("#ifndef")).unwrap();
        let c = Compact::of(t, p);
        assert_eq!(c.text, "#ifndef X\n#else\n#endif\n");
        // the group from its `#ifndef` to its `#endif`, in the file
        let endif = c.text.find("#endif").unwrap();
        assert_eq!(c.span_to_file(&(c.body.start..endif)), Some(p.body.start..t.find("#endif").unwrap()));
        // an insertion at the body's start is the body's, not the prelude's end
        assert_eq!(c.to_file(&(c.body.start..c.body.start)), Some(p.body.start..p.body.start));
    }

    #[test]
    fn a_function_with_c_linkage_is_not_a_linkage_block() {
        // its body is one declaration: no part starts inside it
        let t = "extern \"C\" __global__ void k(int *p) {\n  extern __shared__ int s[];\n  p[0] = s[0];\n}\nint a;\nextern \"C\" {\nvoid f() {}\nvoid g() {}\n}\nvoid namespace_of() {\n  a = 1;\n}\n";
        let b = bodies(t, 1);
        assert!(b.iter().any(|x| x.starts_with("extern \"C\" __global__ void k(int *p) {\n  extern __shared__ int s[];\n  p[0] = s[0];\n}")), "{b:?}");
        assert!(b.iter().any(|x| x.starts_with("void namespace_of() {\n  a = 1;\n}")), "{b:?}");
        // a part inside the extern "C" block: f and g apart
        assert!(b.iter().any(|x| x.starts_with("void g() {}")), "{b:?}");
        assert!(super::is_block_head("extern \"C\"") && super::is_block_head("namespace a::b") && super::is_block_head("inline namespace v1"));
        assert!(!super::is_block_head("extern \"C\" __global__ void k(int *p)") && !super::is_block_head("namespace_of()"));
    }

    #[test]
    fn what_it_cannot_follow_is_not_cut() {
        // a conditional group that splits braces
        assert!(segments("#ifdef X\nvoid f() {\n#else\nvoid f(int) {\n#endif\n}\nint a;\n", 1).is_none());
        assert!(segments("int a = (1;\nint b;\n", 1).is_none());
        // and it says why, and where
        assert_eq!(not_cut("int a = (1;\nint b;\n").map(|n| n.why), Some("a bracket or conditional group open at the end of the file"));
    }

    #[test]
    fn c_linkage_split_over_two_groups_is_a_block() {
        // the C headers' idiom: a part inside it gets both groups
        let t = "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint a;\nvoid f() {}\nvoid g() { a = 1; }\n#ifdef __cplusplus\n}  // extern\n#endif\nint b;\n";
        let s = segments(t, 1).unwrap();
        let g = s.iter().find(|s| &t[s.body.clone()] == "void g() { a = 1; }\n").unwrap();
        let c = Compact::of(t, g);
        assert_eq!(c.text, "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint a;\nvoid g() { a = 1; }\n#ifdef __cplusplus\n}  // extern\n#endif\n");
        // the last part, after it, stands outside it
        let b = s.iter().find(|s| &t[s.body.clone()] == "int b;\n").unwrap();
        assert_eq!(Compact::of(t, b).text, "int b;\n");
        // `#if defined(__cplusplus)` too; not another condition
        assert_eq!(linkage_lines("#if defined(__cplusplus)\nextern \"C\" {\n#endif\n", 0, 25), Some((Linkage::Opens, 45)));
        assert_eq!(linkage_lines("#ifdef C_LINKAGE\nextern \"C\" {\n#endif\n", 0, 17), None);
        // a declaration inside the group: not the idiom, not followed
        assert!(segments("#ifdef __cplusplus\nextern \"C\" {\nint a;\n#endif\nint b;\n#ifdef __cplusplus\n}\n#endif\n", 1).is_none());
    }

    #[test]
    fn closers_without_openers_are_read_past() {
        // a `)`, `]` or `}` too many (code that does not parse: the parse
        // reports it in its part), an `#endif` or `#else` without its `#if`
        let t = "void f() { g(x]); }\nint a;\n}\nint b = c);\n#endif\nvoid h() {}\n";
        assert_eq!(bodies(t, 1), vec!["void f() { g(x]); }\n", "int a;\n", "}\n", "int b = c);\n", "#endif\n", "void h() {}\n"]);
        assert_eq!(not_cut(t), None);
        // a byte-order mark before a directive (files joined together):
        // a group a part may stand in
        let t = "int a;\n\u{feff}#ifdef X\nint b;\n#endif\nint c;\n";
        assert_eq!(bodies(t, 1), vec!["int a;\n", "\u{feff}#ifdef X\n", "int b;\n", "#endif\n", "int c;\n"]);
    }

    #[test]
    fn no_cut_inside_a_declaration_or_a_raw_string() {
        let t = "struct S {\n  int a;\n};\nconst char *s = R\"x(\n}\n;\n)x\";\nint b;\n";
        assert_eq!(bodies(t, 1), vec!["struct S {\n  int a;\n};\n", "const char *s = R\"x(\n}\n;\n)x\";\n", "int b;\n"]);
        // qualifiers split from their function by a conditional group
        let t = "int a;\n#ifdef X\n__device__\n#endif\nvoid f() {}\nint b;\n";
        assert!(bodies(t, 1).iter().any(|b| b.contains("__device__\n#endif\nvoid f()")));
    }

    #[test]
    fn a_large_function_is_cut_between_its_statements() {
        // after a `;` at the body's top (not before `else`, not inside a
        // bracket or a conditional group), each part after the first inside
        // the function's head, with the earlier local declarations it uses
        let t = "int g;\n__global__ void k(float *a) { int i = threadIdx.x; float s = 2.f; a[i] = s; if (i) a[0] = 1; else a[1] = 2; for (int j = 0; j < 2; j++) { a[j] = i; }\n#ifdef X\na[2] = 3; a[3] = 4;\n#endif\n a[4] = i; }\nint h;\n";
        let s = segments_with(t, 1 << 20, 1).unwrap();
        let texts: Vec<String> = s.iter().map(|p| Compact::of(t, p).text).collect();
        assert_eq!(
            texts,
            vec![
                "int g;\n__global__ void k(float *a) { int i = threadIdx.x;}",
                "__global__ void k(float *a) { float s = 2.f;}",
                "__global__ void k(float *a) { int i = threadIdx.x; float s = 2.f; a[i] = s;}",
                "__global__ void k(float *a) { int i = threadIdx.x; if (i) a[0] = 1; else a[1] = 2;}",
                "__global__ void k(float *a) { int i = threadIdx.x; for (int j = 0; j < 2; j++) { a[j] = i; }\n}",
                "__global__ void k(float *a) { int i = threadIdx.x;\n#ifdef X\na[2] = 3; a[3] = 4;\n#endif\n a[4] = i;}",
                "__global__ void k(float *a) { }\nint h;\n",
            ]
        );
        assert!(is_local_declaration(" const std::vector<int> *v = 0;") && is_local_declaration("\n#pragma x\n __shared__ float t[32];"));
        assert!(is_local_declaration(" void (*k)(float *) = &f;") && pointer_declarator("( *k)(float *)") == Some("k"));
        assert!(is_local_declaration(" auto [a, b] = p;") && is_local_declaration(" dim3 b(16, 16);") && is_local_declaration(" using U = T;"));
        assert!(
            !is_local_declaration(" a = b;") && !is_local_declaration(" f(x);") && !is_local_declaration(" a.b = c;") && !is_local_declaration(" return x;")
        );
        assert!(!is_local_declaration(" ns::f(x);") && !is_local_declaration(" *p = 1;") && !is_local_declaration(" i++;"));
    }
}

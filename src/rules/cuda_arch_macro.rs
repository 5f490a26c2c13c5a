//! `__CUDA_ARCH__` and `__CUDACC__` in preprocessor conditions.
//!
//! What it does: `#ifdef __CUDA_ARCH__` / `defined(__CUDA_ARCH__)` become
//! `__SYCL_DEVICE_ONLY__`; a version comparison (`__CUDA_ARCH__ >= 700`)
//! becomes a device-compilation test under the assumption that the SYCL
//! device is newer than any threshold (SY0102 says so); `__CUDACC__` becomes
//! `SYCL_LANGUAGE_VERSION` (defined by every SYCL compiler). A test of a
//! macro only a SYCL compiler defines (a hand-written SYCL branch beside the
//! CUDA one) becomes its value under nvcc, `0`, so the migrated code is what
//! nvcc compiled (SY0108). The `#if` line of `#if defined(__CUDACC__)` /
//! `__host__ __device__` / `#endif`, hidden from the parser, is read on its
//! own and migrated the same way.
//!
//! Why: `__CUDA_ARCH__` is defined only in the device pass of nvcc, as
//! `__SYCL_DEVICE_ONLY__` is in the device pass of a SYCL compiler.
//!
//! Example: `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700` →
//! `#if defined(__SYCL_DEVICE_ONLY__) && defined(__SYCL_DEVICE_ONLY__)`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "cuda-arch-macro";
const DEVICE: &str = "__SYCL_DEVICE_ONLY__";

/// Whether the SYCL tests of the file `src` are its own (read once a file:
/// [`super::WholeFile::sycl_tests_are_ours`]).
pub fn sycl_tests_are_ours(src: &str) -> bool {
    src.contains("<syclify/syclify.hpp>") || src.contains("// syclify: ") || (!crate::leftovers::has_cuda_constructs(src) && is_sycl_code(src))
}

pub fn run(ctx: &mut FileCtx) {
    // A file that already is syclify's output (migrated again: it includes our
    // header or holds our comments) has our own `SYCL_LANGUAGE_VERSION` and
    // `__SYCL_DEVICE_ONLY__` tests, and a file without CUDA is SYCL already:
    // those stay.
    // (found out where a SYCL test stands: the scan reads the whole file)
    for n in ctx.main_of(&["ERROR", "preproc_ifdef", "preproc_if", "preproc_elif"]) {
        // a conditional between parameters or arguments (`float rsm\n#ifdef
        // __CUDACC__\n, cudaStream_t s\n#endif`) is an ERROR of the list
        if crate::syntax::is_list_directive(n) && !ctx.in_error(n.parent().unwrap_or(n)) {
            match n.child(0).map(|d| d.kind_str()) {
                Some("#ifdef" | "#ifndef") => {
                    if let Some(name) = n.named_child(0).filter(|c| c.kind_str() == "identifier") {
                        ifdef(ctx, n, name);
                    }
                }
                Some("#if" | "#elif") => condition(ctx, n),
                _ => {}
            }
            continue;
        }
        if ctx.in_error(n) {
            continue;
        }
        directive(ctx, n);
    }
    // the `#if` line of `#if defined(__CUDACC__)` / `__host__ __device__` /
    // `#endif` is hidden from the parser (the qualifiers join the function
    // after it): read on its own, so that it is migrated like any other
    // (and a second migration, which sees it, finds nothing to change)
    let split: Vec<std::ops::Range<usize>> =
        ctx.parsed.masks.iter().filter(|m| m.kind == crate::mask::MaskKind::SplitQualifiers && ctx.owns(m.range.start)).map(|m| m.range.clone()).collect();
    let is_if = |r: &std::ops::Range<usize>| ctx.src[r.clone()].trim_start().trim_start_matches('#').trim_start().starts_with("if");
    let mut line_starts: Option<Vec<usize>> = None;
    for pair in split.windows(2) {
        if !is_if(&pair[0]) || is_if(&pair[1]) {
            continue;
        }
        // from the `#if` line to its `#endif`: a whole conditional
        let lines = line_starts.get_or_insert_with(|| crate::parse::line_starts(ctx.src));
        let tree = crate::parse::parse_range(ctx.src, pair[0].start..pair[1].end, lines);
        let found = crate::syntax::descendants(tree.root_node()).into_iter().find(|n| matches!(n.kind_str(), "preproc_ifdef" | "preproc_if"));
        if let Some(n) = found {
            directive(ctx, n);
        }
    }
    // the condition lines of conditionals parsed in one configuration
    for line in ctx.hidden_condition_lines() {
        let text = &ctx.src[line.clone()];
        if (text.contains("SYCL_LANGUAGE_VERSION") || text.contains("__SYCL_DEVICE_ONLY__")) && !ctx.file.sycl_tests_are_ours() {
            hidden_condition_line(ctx, line);
        }
    }
}

/// The condition line of a conditional that error recovery parsed in one
/// configuration (inside a declaration, or a statement the grammar cannot
/// read in both): no node holds it, so a SYCL compiler's macro is read as
/// written: `#ifdef M` → `#if 0` (`#ifndef M` → `#if 1`), `defined(M)`,
/// `defined M` and `M` → `0`.
fn hidden_condition_line(ctx: &mut FileCtx, line: std::ops::Range<usize>) {
    let text = &ctx.src[line.clone()];
    let words = crate::syntax::identifiers(text);
    let Some(first) = words.first() else { return };
    let mut edits: Vec<(std::ops::Range<usize>, &'static str, String)> = Vec::new();
    if matches!(first.1, "ifdef" | "ifndef") {
        if let Some((r, w)) = words.get(1).filter(|(_, w)| is_sycl_macro(w)) {
            let hash = text.find('#').unwrap_or(0);
            let rep = if first.1 == "ifndef" { "#if 1" } else { "#if 0" };
            edits.push((hash..r.end, rep, format!("#{} {w}", first.1)));
        }
    } else {
        let b = text.as_bytes();
        let back = |mut i: usize| {
            while i > 0 && b[i - 1].is_ascii_whitespace() {
                i -= 1;
            }
            i
        };
        for (k, (r, w)) in words.iter().enumerate() {
            if !is_sycl_macro(w) {
                continue;
            }
            let mut range = r.clone();
            // `defined(M)` / `defined M`: the whole test
            let mut at = back(r.start);
            let paren = at > 0 && b[at - 1] == b'(';
            if paren {
                at = back(at - 1);
            }
            if let Some((d, _)) = k.checked_sub(1).map(|j| &words[j]).filter(|(d, dw)| *dw == "defined" && d.end == at) {
                range.start = d.start;
                if paren {
                    let close = text[r.end..].find(')').map(|c| r.end + c + 1);
                    range.end = close.unwrap_or(r.end);
                }
            }
            edits.push((range.clone(), "0", text[range].to_string()));
        }
    }
    for (r, rep, original) in edits {
        let range = line.start + r.start..line.start + r.end;
        ctx.edits.replace_text(RULE, range.clone(), rep);
        disabled(ctx, range, &original, rep);
    }
}

/// A conditional directive (`#ifdef`, `#if`, `#elif`) of the code.
fn directive(ctx: &mut FileCtx, n: Node) {
    match n.kind_str() {
        "preproc_ifdef" => {
            if let Some(name) = n.field("name") {
                ifdef(ctx, n, name);
            }
        }
        "preproc_if" | "preproc_elif" => {
            if let Some(cond) = n.field("condition") {
                condition(ctx, cond);
            }
        }
        _ => {}
    }
}

/// `#ifdef NAME` / `#ifndef NAME` (`n` the directive, or its ERROR node
/// between parameters): a SYCL compiler's macro takes its value under nvcc,
/// CUDA's are renamed.
fn ifdef(ctx: &mut FileCtx, n: Node, name: Node) {
    if is_sycl_macro(ctx.text(name)) && !ctx.file.sycl_tests_are_ours() {
        sycl_ifdef(ctx, n, name);
    } else {
        rename(ctx, name);
    }
}

/// Does the file use SYCL itself (a SYCL source beside the CUDA ones)? A
/// file with neither CUDA nor SYCL code (a plain C++ header of the CUDA
/// program with a branch for some SYCL port of it: HeCBench's SDKBitMap.h
/// calls `.x()` on SYCL's `uchar4` there) is compiled as nvcc compiled it.
fn is_sycl_code(src: &str) -> bool {
    ["sycl::", "<sycl/", "<CL/sycl"].iter().any(|w| src.contains(w))
}

/// Macros only a SYCL compiler defines: undefined when nvcc compiled the original.
fn is_sycl_macro(name: &str) -> bool {
    matches!(name, "SYCL_LANGUAGE_VERSION" | "__SYCL_DEVICE_ONLY__")
}

/// `#ifdef SYCL_LANGUAGE_VERSION` → `#if 0` (`#ifndef` → `#if 1`): the branch
/// nvcc compiled stays the one compiled (SY0108).
fn sycl_ifdef(ctx: &mut FileCtx, n: Node, name: Node) {
    let negated = n.child(0).is_some_and(|d| d.kind_str() == "#ifndef");
    let original = ctx.text(n.child(0).unwrap_or(n)).to_string() + " " + ctx.text(name);
    let rep = if negated { "#if 1" } else { "#if 0" };
    ctx.edits.replace_text(RULE, n.start_byte()..name.end_byte(), rep);
    disabled(ctx, n.start_byte()..name.end_byte(), &original, rep);
}

fn disabled(ctx: &mut FileCtx, range: std::ops::Range<usize>, original: &str, rep: &str) {
    ctx.diag(
        Code::SyclBranchDisabled,
        range,
        RULE,
        format!("`{original}` became `{rep}`: nvcc did not define it, and the migrated code is what nvcc compiled"),
    );
    ctx.count(RULE);
}

fn rename(ctx: &mut FileCtx, name: Node) {
    match ctx.text(name) {
        "__CUDA_ARCH__" => ctx.edits.replace_text(RULE, name.byte_range(), DEVICE),
        "__CUDACC__" => ctx.edits.replace_text(RULE, name.byte_range(), "SYCL_LANGUAGE_VERSION"),
        _ => return,
    }
    ctx.count(RULE);
}

fn condition(ctx: &mut FileCtx, cond: Node) {
    // (the condition's own parent, None here, is its directive: neither a
    // `defined` nor a comparison, as the tests below ask)
    for (id, parent) in crate::syntax::descendants_with_parents(cond) {
        if id.kind_str() != "identifier" {
            continue;
        }
        match ctx.text(id) {
            "__CUDACC__" => rename(ctx, id),
            m if is_sycl_macro(m) && !ctx.file.sycl_tests_are_ours() => {
                // `defined(M)`, `defined M` and a bare `M` alike are 0 under nvcc.
                let target = parent.filter(|p| p.kind_str() == "preproc_defined").unwrap_or(id);
                let original = ctx.text(target).to_string();
                ctx.edits.replace_text(RULE, target.byte_range(), "0");
                disabled(ctx, target.byte_range(), &original, "0");
            }
            "__CUDA_ARCH__" => {
                if parent.is_some_and(|p| p.kind_str() == "preproc_defined") {
                    rename(ctx, id);
                    continue;
                }
                let cmp = parent.filter(|p| p.kind_str() == "binary_expression").and_then(|p| {
                    let op = p.field("operator").map(|o| o.kind_str())?;
                    matches!(op, ">=" | ">" | "<" | "<=" | "==" | "!=").then_some((p, op))
                });
                match cmp {
                    Some((p, op)) => {
                        let arch_left = p.field("left").is_some_and(|l| l.id() == id.id());
                        // With the device newer than any threshold, `ARCH >= N` holds on the
                        // device only; host passes see __CUDA_ARCH__ as 0.
                        let device_true = match (op, arch_left) {
                            (">=" | ">", true) | ("<=" | "<", false) => true,
                            ("<" | "<=", true) | (">=" | ">", false) => false,
                            ("!=", _) => false,
                            _ => true,
                        };
                        let rep = if device_true { format!("defined({DEVICE})") } else { format!("!defined({DEVICE})") };
                        let original = ctx.text(p).to_string();
                        ctx.edits.replace_text(RULE, p.byte_range(), &rep);
                        ctx.diag(
                            Code::CudaArchVersion,
                            p.byte_range(),
                            RULE,
                            format!("`{original}` became `{rep}`, assuming every SYCL device is newer than the tested architecture"),
                        );
                        ctx.count(RULE);
                    }
                    None => {
                        ctx.edits.replace_text(RULE, id.byte_range(), format!("defined({DEVICE})"));
                        ctx.count(RULE);
                    }
                }
            }
            _ => {}
        }
    }
}

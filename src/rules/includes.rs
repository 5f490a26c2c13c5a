//! Includes: CUDA headers, includes of migrated files, and the SYCL includes.
//!
//! What it does: includes of CUDA runtime headers are mapped by the header
//! table (`rules/*.yaml`; the runtime headers are removed); an include of a
//! migrated project file follows its new name (`"kernels.cuh"` →
//! `"kernels.dp.hpp"`); and a file whose migrated code uses SYCL gets
//! `#include <syclify/syclify.hpp>` and `#include <sycl/sycl.hpp>` (in that
//! order: the helper header sets SYCL up before including it) — in place
//! of its first CUDA runtime include, or before its first include, or after
//! its include guard. Other CUDA library headers get SY0402.
//!
//! Why: the migrated tree must compile with only a SYCL compiler and
//! `-I <out-root>/include`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "includes";
/// The helper header first: it configures the SYCL implementation before
/// including `<sycl/sycl.hpp>` (AdaptiveCpp's instant submission).
pub const SYCL_INCLUDES: &str = "#include <syclify/syclify.hpp>\n#include <sycl/sycl.hpp>\n";

const CUDA_LIBRARY_PREFIXES: &[&str] = &[
    "cuda",
    "cu",
    "thrust/",
    "cub/",
    "cooperative_groups",
    "device_",
    "sm_",
    "nvToolsExt",
    "nvtx",
    "math_constants",
    "vector_types",
    "texture_",
    "surface_",
    "crt/",
    "nvrtc",
    "nccl",
    "nvml",
];

pub fn run(ctx: &mut FileCtx) {
    let found = includes(ctx, true);
    // (a part of a file migrated in parts: the file's SYCL includes are
    // added once every part ran, [`add_sycl_includes`])
    if ctx.whole() {
        add_sycl_includes(ctx, &found);
    }
}

/// What the includes of a file tell of where the SYCL includes go.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    /// In place of the first CUDA runtime include (removed).
    anchor: Option<usize>,
    first_include: Option<usize>,
    /// `<syclify/syclify.hpp>` included outside any conditional.
    has_sycl_includes: bool,
}

/// Rewrites the includes (`rewrite`), and tells where the SYCL includes go.
pub fn includes(ctx: &mut FileCtx, rewrite: bool) -> Found {
    let mut anchor: Option<usize> = None; // where the SYCL includes go
    let mut first_include: Option<usize> = None;
    // the helper headers already included unconditionally (in the file's
    // earlier parts too)
    let written = &ctx.file.written_helpers;
    // `<syclify/syclify.hpp>` (the first of SYCL_INCLUDES) included outside
    // any conditional: syclify's own output migrated again has them
    let mut has_sycl_includes = false;
    let includes: Vec<Node> = ctx.main_of(&["preproc_include"]).into_iter().filter(|n| !ctx.in_error(*n)).collect();
    let guard = guard(ctx).map(|(g, _)| g);
    for inc in includes {
        let Some(path) = inc.field("path") else {
            continue;
        };
        let raw = ctx.text(path);
        let system = raw.starts_with('<');
        let name = raw.trim_matches(|c| c == '<' || c == '>' || c == '"');
        first_include.get_or_insert(inc.start_byte());
        let conditional = in_conditional(inc, guard);
        has_sycl_includes |= raw == "<syclify/syclify.hpp>" && !conditional;
        if let Some(rep) = ctx.project.mappings.header(name) {
            // (from its line's start where only blanks precede it)
            let line_start = ctx.src[..inc.start_byte()].rfind('\n').map(|p| p + 1).unwrap_or(0);
            let start = if ctx.src[line_start..inc.start_byte()].trim().is_empty() { line_start } else { inc.start_byte() };
            // (the SYCL includes go in place of the first runtime header)
            if rep.is_empty() && anchor.is_none() {
                anchor = Some(start);
            }
            if !rewrite {
                continue;
            }
            let range = start..inc.end_byte();
            // several headers of one library become one helper header: written once
            // (only where the include is not inside a conditional)
            if !rep.is_empty() && !conditional && !written.borrow_mut().insert(rep.clone()) {
                ctx.edits.delete(RULE, range);
                ctx.count(RULE);
                continue;
            }
            if rep.is_empty() {
                ctx.edits.delete(RULE, range);
            } else {
                ctx.edits.replace_text(RULE, path.byte_range(), format!("<{rep}>"));
            }
            ctx.count(RULE);
            continue;
        }
        if !rewrite {
            continue;
        }
        // a project file, found as the compiler finds it (a quoted include
        // beside the includer, from the in-root, then in the include
        // directories; `<helper_cuda.h>` in the include directories only)
        let dir = ctx.rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        let inc_name = crate::source::IncludeName { name, angle: system };
        let candidates = crate::project::include_candidates(dir, inc_name, ctx.project.include_dirs);
        if let Some(new_rel) = candidates.iter().find_map(|c| ctx.project.renames.get(c)) {
            let new_file = new_rel.rsplit('/').next().unwrap_or(new_rel);
            let new_name = match name.rsplit_once('/') {
                Some((d, _)) => format!("{d}/{new_file}"),
                None => new_file.to_string(),
            };
            if new_name != name {
                let written = if system { format!("<{new_name}>") } else { format!("\"{new_name}\"") };
                ctx.edits.replace_text(RULE, path.byte_range(), written);
                ctx.count(RULE);
            }
            continue;
        }
        // a project file outside the in-root (`"../common/util.cuh"`, or
        // `<helper_cuda.h>` through `-I../common`): read, never written
        if let Some(found) = ctx.project.outside_includes.get(&(ctx.rel.to_string(), name.to_string())) {
            let at = if found.found == name { String::new() } else { format!(" (`{}`)", found.found) };
            ctx.diag(
                Code::IncludeOutsideInRoot,
                inc.byte_range(),
                RULE,
                format!(
                    "`{name}`{at} is outside the in-root and holds CUDA code: not migrated; migrate its directory with the program, with an in-root that holds both: add `{}` to the paths and `--in-root {}` (and keep `-I` naming it)",
                    found.dir, found.in_root
                ),
            );
            continue;
        }
        if system && CUDA_LIBRARY_PREFIXES.iter().any(|p| name.starts_with(p)) {
            ctx.diag(Code::UnsupportedHeader, inc.byte_range(), RULE, format!("header `{name}` is not migrated; left as is"));
        }
    }
    Found { anchor, first_include, has_sycl_includes }
}

/// The SYCL includes, where a file needs them (`ctx.needs_sycl`), with what
/// goes with them; `found`: [`includes`] of the file (or its first part).
pub fn add_sycl_includes(ctx: &mut FileCtx, found: &Found) {
    let Found { anchor, first_include, has_sycl_includes } = *found;
    if !ctx.needs_sycl {
        return;
    }
    // CUDA's overloads beside the program's own (see FileCtx::using_helpers),
    // right after the helper header (unless a first migration wrote them)
    let usings: String = ctx
        .using_helpers
        .iter()
        .filter(|n| !ctx.file.text.contains(&format!("\nusing syclify::{n}; // CUDA's")))
        .map(|n| format!("using syclify::{n}; // CUDA's {n} overloads, beside the program's own (as under nvcc)\n"))
        .collect();
    if let Some(p) = (has_sycl_includes && !usings.is_empty()).then(|| ctx.src.find("#include <sycl/sycl.hpp>\n")).flatten() {
        ctx.edits.insert(RULE, p + "#include <sycl/sycl.hpp>\n".len(), usings.clone());
    }
    if has_sycl_includes {
        return;
    }
    let mut at = anchor.or(first_include).unwrap_or_else(|| after_guard(ctx));
    // SYCL's headers must come before any macro of the program: a
    // `#define T double` (directly, in a conditional, or in a project header
    // included above) would rewrite names inside them
    if let Some(h) = first_macro_hazard(ctx, at) {
        at = ctx.src[..h].rfind('\n').map(|p| p + 1).unwrap_or(0);
    }
    // a masked `#if` (qualifiers split from their function) still opens a
    // conditional: the includes go before it
    if let Some(m) = ctx.parsed.masks.iter().find(|m| m.kind == crate::mask::MaskKind::SplitQualifiers && m.range.start < at) {
        at = ctx.src[..m.range.start].rfind('\n').map(|p| p + 1).unwrap_or(0);
    }
    // never before a byte-order mark
    at = at.max(bom_len(ctx.src));
    // `#define CUDA_API_PER_THREAD_DEFAULT_STREAM` chose per-thread default
    // streams for the CUDA headers below it: the helper header is told so
    // before it is included
    let per_thread = ctx.main_of(&["preproc_def"]).into_iter().any(|d| d.field("name").is_some_and(|n| ctx.text(n) == "CUDA_API_PER_THREAD_DEFAULT_STREAM"));
    if per_thread {
        ctx.edits.insert_first(RULE, at, "#define SYCLIFY_PER_THREAD_DEFAULT_STREAM 1 // CUDA_API_PER_THREAD_DEFAULT_STREAM, below\n");
    }
    ctx.edits.insert_first(RULE, at, format!("{SYCL_INCLUDES}{usings}"));
    // a program that forms names by token pasting may form CUDA's vector type
    // names (`PASTE(uchar, 3)`), which CUDA declares globally and the helper
    // header in `syclify::types`: those names are made visible unqualified
    // (unless CUDA's own are there: AdaptiveCpp's CUDA backend includes
    // CUDA's vector_types.h, whose guard is `__VECTOR_TYPES_H__`)
    if let Some(m) = ctx.project.index.macros.pasting.iter().next() {
        ctx.edits.insert_first(
            RULE,
            at,
            format!(
                "#ifndef __VECTOR_TYPES_H__\nusing namespace syclify::types; // CUDA's vector type names, for names formed by token pasting (`{m}`)\n#endif\n"
            ),
        );
    }
}

/// Is `n` inside a preprocessor conditional other than the file's include
/// guard?
fn in_conditional(n: Node, guard: Option<Node>) -> bool {
    let mut p = n.parent();
    while let Some(a) = p {
        if matches!(a.kind_str(), "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif") && guard.is_none_or(|g| g.id() != a.id()) {
            return true;
        }
        p = a.parent();
    }
    false
}

/// The first directive before `at` that may define a macro SYCL's headers
/// would then see: a `#define`/`#undef`, a conditional (other than the include
/// guard), or an include of a project header (quoted, not a CUDA header).
fn first_macro_hazard(ctx: &FileCtx, at: usize) -> Option<usize> {
    let guard = guard(ctx);
    ctx.main_nodes()
        .iter()
        .filter(|n| n.start_byte() < at && !ctx.in_error(**n))
        .find(|n| match n.kind_str() {
            "preproc_def" | "preproc_function_def" => guard.is_none_or(|(_, d)| d.id() != n.id()),
            "preproc_if" | "preproc_ifdef" => guard.is_none_or(|(g, _)| g.id() != n.id()),
            "preproc_call" => n.field("directive").is_some_and(|d| ctx.text(d) == "#undef"),
            "preproc_include" => n.field("path").is_some_and(|p| {
                let raw = ctx.text(p);
                raw.starts_with('"') && ctx.project.mappings.header(raw.trim_matches('"')).is_none()
            }),
            _ => false,
        })
        .map(|n| n.start_byte())
}

/// The include guard: `#ifndef G` whose first item is `#define G`, as the file's first item after comments.
fn guard<'a>(ctx: &FileCtx<'a>) -> Option<(Node<'a>, Node<'a>)> {
    let top = syntax::named_children(ctx.root());
    let n = top.iter().copied().find(|n| n.kind_str() != "comment")?;
    if n.kind_str() != "preproc_ifdef" || !ctx.text(n).starts_with("#ifndef") {
        return None;
    }
    // a guard holds the whole file: `#ifndef CUDART_VERSION` / `#define
    // CUDART_VERSION 10020` / `#endif` followed by code is a default, not a guard
    if top.iter().any(|m| m.start_byte() >= n.end_byte() && m.kind_str() != "comment") {
        return None;
    }
    let name = n.field("name").map(|x| ctx.text(x));
    let first = syntax::items(n).into_iter().nth(1)?;
    (first.kind_str() == "preproc_def" && first.field("name").map(|x| ctx.text(x)) == name).then_some((n, first))
}

/// Where a translation unit that reaches SYCL only through its includes gets
/// the SYCL includes: before its first preprocessor directive (after leading
/// comments, blank lines and an include guard). Text-level, for files that
/// are not parsed (copied host sources) as much as for migrated ones.
pub fn sycl_first_anchor(text: &str) -> usize {
    let mut lines = Vec::new(); // (offset, trimmed line)
    let mut pos = bom_len(text);
    let text_after_bom = &text[pos..];
    for line in text_after_bom.split_inclusive('\n') {
        lines.push((pos, line.trim()));
        pos += line.len();
    }
    // the index of the first line at or after `i` that is not blank or comment
    let skip = |mut i: usize| {
        let mut in_block = false;
        while i < lines.len() {
            let t = lines[i].1;
            if in_block || t.starts_with("/*") {
                in_block = !t.contains("*/");
            } else if !(t.is_empty() || t.starts_with("//")) {
                break;
            }
            i += 1;
        }
        i
    };
    let mut i = skip(0);
    let word = |i: usize, d: &str| lines.get(i).and_then(|(_, t)| t.strip_prefix(d)).map(str::trim);
    if let Some(g) = word(i, "#ifndef").filter(|g| !g.is_empty()) {
        let j = skip(i + 1);
        if word(j, "#define") == Some(g) {
            i = skip(j + 1);
        }
    } else if word(i, "#pragma").is_some_and(|p| p == "once") {
        i = skip(i + 1);
    }
    lines.get(i).map_or(text.len(), |(o, _)| *o)
}

/// The length of a UTF-8 byte-order mark at the start of `text` (0 or 3).
fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 }
}

/// After an include guard's `#define` or `#pragma once`, else after leading
/// comments (before any other conditional: `#ifdef __CUDACC__ #define DEV
/// __device__` is not a guard).
fn after_guard(ctx: &FileCtx) -> usize {
    if let Some((_, define)) = guard(ctx) {
        return define.end_byte();
    }
    for n in syntax::named_children(ctx.root()) {
        match n.kind_str() {
            "comment" => continue,
            "preproc_call" if ctx.text(n).trim_start().starts_with("#pragma") && ctx.text(n).contains("once") => return n.end_byte(),
            // (at the start of its line: an indented first declaration
            // keeps its indentation, and a comment above it stays above it)
            _ => return ctx.src[..n.start_byte()].rfind('\n').map_or(0, |p| p + 1).max(bom_len(ctx.src)),
        }
    }
    0
}

//! CUDA kept in a branch that no configuration of the program compiles.
//!
//! What it does: a conditional branch that is compiled only where a macro
//! is defined that nothing in the program defines — the guard of a CUDA
//! header syclify does not replace that no file of the program includes
//! (`#ifdef CUSOLVERSP_H_` in a shared helper header, in a program that
//! never includes cuSOLVER's sparse header: `included_by` in
//! `rules/cuda_macros.yaml`),
//! or a macro of the program's own that no source `#define`s, no build file
//! mentions and no compilation database passes (`#ifdef CUDA_DRIVER_API`) —
//! is inactive in every build of the program. When it holds CUDA that
//! syclify does not migrate (`cusolverSpHandle_t`, `cuGetErrorName`), that
//! CUDA is kept as written and reported once, as warning SY0112 on the
//! conditional (which names the macro and the names), not as errors
//! (SY0010) at each use. Forms read: `#ifdef M`, `#if defined(M)`,
//! `#if defined M`, `#if M` (the first branch), `#ifndef M` (its `#else`).
//!
//! Why: canonical helper headers (helper_cuda.h) hold an overload per CUDA
//! library and API inside such guards; a program uses one or two. Reporting
//! the others' names as errors would fail every program that includes the
//! helper, for code its build never compiles.
//!
//! Example: `#ifdef CUDA_DRIVER_API` / `... cuGetErrorName(...)` / `#endif`
//! → kept; `warning: ... CUDA_DRIVER_API ... is defined nowhere ...
//! (`cuGetErrorName` kept as written) [SY0112]`.

use super::FileCtx;
use crate::syntax::NodeKind;
use std::ops::Range;
use tree_sitter::Node;

pub const RULE: &str = "inactive-branches";

pub fn run(ctx: &mut FileCtx) {
    // the headers the program part includes, by file name (read once, where
    // a guard of the table is tested)
    let included: std::cell::OnceCell<std::collections::BTreeSet<&str>> = std::cell::OnceCell::new();
    // (in a part of a file, also the conditionals that open before its body
    // and reach into it: what they hold here is theirs)
    for n in ctx.read_of(&["preproc_ifdef", "preproc_if"]) {
        if !ctx.in_body(n) && n.end_byte() <= ctx.body.start {
            continue;
        }
        if let Some(dead) = crate::index::dead_arch_branch(n, ctx.src).filter(|_| n.kind_str() == "preproc_if" && !ctx.in_error(n)) {
            arch_branch(ctx, n, dead);
            continue;
        }
        let Some((name, branch)) = tested_branch(ctx, n) else {
            continue;
        };
        let Some(why) = never_defined(ctx, name, &included) else {
            continue;
        };
        if ctx.in_error(n) {
            continue;
        }
        let directive = directive_line(ctx.src, n);
        let which = if n.child(0).is_some_and(|d| d.kind_str() == "#ifndef") { "its `#else` branch" } else { "this branch" };
        // (the names are those the leftover scan finds only in it:
        // `project::report_leftovers` completes the message)
        let said = format!("`{directive}`: {which} is compiled only where `{name}` is defined, {why}");
        ctx.inactive.push((n.start_byte()..branch.end, said));
    }
    // those of conditionals outside the body are reported by their own part
    if !ctx.whole() {
        let (mine, elsewhere): (Vec<_>, Vec<_>) = std::mem::take(&mut ctx.inactive).into_iter().partition(|(r, _)| ctx.owns(r.start));
        ctx.inactive = mine;
        ctx.inactive_elsewhere = elsewhere.into_iter().map(|(r, _)| r).collect();
    }
}

/// A branch of an `#if` on `__CUDA_ARCH__` alone that no migrated build
/// compiles (the host pass leaves it undefined, and the migration assumes
/// every SYCL device newer than any tested architecture: SY0102): the
/// `#else` of `#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600`, a
/// fallback for old GPUs. Its CUDA is kept and reported once, as a warning.
fn arch_branch(ctx: &mut FileCtx, n: Node, dead: crate::index::DeadBranch) {
    let Some(endif) = endif_start(n) else {
        return;
    };
    let alternative = n.field("alternative");
    let (branch, which) = match dead {
        crate::index::DeadBranch::Alternative => match alternative {
            Some(a) => (line_after(ctx.src, a.start_byte())..endif, "its `#else` branch"),
            None => return,
        },
        crate::index::DeadBranch::Consequence => {
            let Some(c) = n.field("condition") else { return };
            (line_after(ctx.src, c.end_byte())..alternative.map_or(endif, |a| a.start_byte()), "this branch")
        }
    };
    let directive = directive_line(ctx.src, n);
    let said = format!(
        "`{directive}`: {which} is compiled in no build of the migrated code: the host pass has no `__CUDA_ARCH__`, and the device pass is taken to be newer than any tested architecture (SY0102)"
    );
    if branch.start <= branch.end {
        ctx.inactive.push((n.start_byte()..branch.end, said));
    }
}

/// The macro a simple conditional tests and the branch compiled where it
/// is defined (the first branch; an `#ifndef`'s `#else`).
fn tested_branch<'a>(ctx: &FileCtx<'a>, n: Node<'a>) -> Option<(&'a str, Range<usize>)> {
    let negated = n.child(0).is_some_and(|d| d.kind_str() == "#ifndef");
    let tested = match n.kind_str() {
        "preproc_ifdef" => n.field("name")?,
        _ => {
            let c = n.field("condition")?;
            match c.kind_str() {
                "identifier" => c,
                "preproc_defined" => c.named_child(0).filter(|x| x.kind_str() == "identifier")?,
                _ => return None,
            }
        }
    };
    let endif = endif_start(n)?;
    let alternative = n.field("alternative");
    let branch = if negated {
        // the `#else` branch (an `#elif` decides more: not read)
        let alt = alternative.filter(|a| a.kind_str() == "preproc_else")?;
        line_after(ctx.src, alt.start_byte())..endif
    } else {
        line_after(ctx.src, tested.end_byte())..alternative.map_or(endif, |a| a.start_byte())
    };
    (branch.start <= branch.end).then_some((ctx.text(tested), branch))
}

/// Where a conditional group's `#endif` starts.
fn endif_start(n: Node) -> Option<usize> {
    (0..n.child_count()).rev().filter_map(|i| n.child(i)).find(|c| c.kind_str() == "#endif").map(|c| c.start_byte())
}

/// A conditional group's first line (`#if ...`), as written.
fn directive_line<'a>(src: &'a str, n: Node) -> &'a str {
    let start = n.start_byte();
    let end = src[start..].find('\n').map_or(src.len(), |p| start + p);
    src[start..end].trim_end()
}

/// The offset after the line holding `at`.
fn line_after(src: &str, at: usize) -> usize {
    src[at..].find('\n').map_or(src.len(), |p| at + p + 1)
}

/// Why `name` is defined in no build of the program, if it is not.
fn never_defined<'a>(ctx: &FileCtx<'a>, name: &str, included: &std::cell::OnceCell<std::collections::BTreeSet<&'a str>>) -> Option<String> {
    let p = &ctx.project;
    if let Some(r) = p.mappings.macros.get(name) {
        if !r.is_kept() {
            return None;
        }
        let included = included.get_or_init(|| {
            p.cluster_sources.iter().flat_map(|(_, text)| crate::source::includes(text)).map(|inc| inc.name.rsplit('/').next().unwrap_or(inc.name)).collect()
        });
        let any = r.included_by.iter().any(|h| included.contains(h.as_str()));
        return (!any).then(|| format!("the guard of {}, which no file of the program includes", r.defined_by));
    }
    // a program's own macro: not reserved (`_WIN32`, `__linux__` are the
    // compiler's), defined by no source, named by no build file
    let reserved = name.starts_with('_') || matches!(name, "NDEBUG" | "DEBUG" | "WIN32" | "unix" | "linux");
    if reserved || p.index.macros.names.contains(name) || p.configured.contains(name) {
        return None;
    }
    Some("which no file of the program defines and no build file or compilation database names".to_string())
}

//! Execution-space qualifiers.
//!
//! What it does: removes `__device__` and `__host__` from function
//! definitions and declarations; `__global__` on a function becomes
//! `SYCLIFY_KERNEL` (the helper header's `always_inline` attribute: the
//! kernel's body is inlined into each launch's kernel lambda, so that it is
//! optimised as the entry point CUDA compiles it as — work-group local memory
//! passed to it as pointers is then accessed as local memory, not through
//! generic pointers); `__forceinline__` becomes
//! `SYCLIFY_FORCEINLINE` (`inline` plus `always_inline` where the compiler
//! has it, from the helper header) and `__noinline__` becomes
//! `SYCLIFY_NOINLINE`; `__device__` on a lambda is removed; `__align__(n)`
//! becomes `alignas(n)`; `__grid_constant__` on a kernel parameter is
//! removed, and so is `register` (removed from C++17, which SYCL needs); a macro that only stands for qualifiers (`#define HD
//! __host__ __device__`) is emptied, and qualifiers inside other macro bodies
//! are removed too.
//!
//! Why: SYCL has a single-source model without execution-space qualifiers:
//! device code is whatever a kernel calls.
//!
//! Example: `__host__ __device__ __forceinline__ float sq(float x)` →
//! `SYCLIFY_FORCEINLINE float sq(float x)`; `__global__ void k(int *p)` →
//! `SYCLIFY_KERNEL void k(int *p, const sycl::nd_item<3> &item)` (the item is
//! the launch rule's).
//!
//! Device variables (`__constant__`, `__device__`, `__managed__`) are the
//! [`super::device_globals`] rule's.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::mask::MaskKind;
use crate::syntax;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "execution-space-qualifiers";

/// Replacement of a qualifier word (inside code or a macro body); None keeps it.
fn replacement(word: &str) -> Option<&'static str> {
    match word {
        "__global__" | "__device__" | "__host__" => Some(""),
        "__forceinline__" => Some("SYCLIFY_FORCEINLINE"),
        "__noinline__" => Some("SYCLIFY_NOINLINE"),
        _ => None,
    }
}

/// End of the whitespace after `at`.
pub fn skip_spaces(src: &str, at: usize) -> usize {
    at + src[at..].len() - src[at..].trim_start_matches([' ', '\t']).len()
}

pub fn run(ctx: &mut FileCtx) {
    for n in
        ctx.main_of(&["__global__", "__device__", "__host__", "__forceinline__", "__noinline__", "preproc_arg", "storage_class_specifier", "__grid_constant__"])
    {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "__global__" | "__device__" | "__host__" | "__forceinline__" | "__noinline__" => qualifier_token(ctx, n),
            "preproc_arg" => macro_body(ctx, n),
            // `register`: removed from C++17, which SYCL compilers build
            // (Clang rejects it; nvcc only warns)
            "storage_class_specifier" if ctx.text(n) == "register" => {
                let end = skip_spaces(ctx.src, n.end_byte());
                ctx.edits.delete(RULE, n.start_byte()..end);
                ctx.count(RULE);
            }
            // a kernel parameter in CUDA's read-only parameter space: a
            // SYCL kernel's captures are read-only copies already
            "__grid_constant__" => {
                let end = skip_spaces(ctx.src, n.end_byte());
                ctx.edits.delete(RULE, n.start_byte()..end);
                ctx.count(RULE);
            }
            _ => {}
        }
    }
    let masks: Vec<crate::mask::Mask> = ctx.parsed.masks.iter().filter(|m| ctx.owns(m.range.start)).cloned().collect();
    for m in masks {
        match &m.kind {
            MaskKind::Align(arg) => {
                if inside_static_shared(ctx, m.range.start) {
                    continue; // the whole declaration moves to the launch
                }
                // in a macro body it may stand in a typedef, where `alignas`
                // cannot: the GCC attribute (DPC++ and AdaptiveCpp are Clang)
                let rep =
                    if crate::mask::in_directive(ctx.src, m.range.start) { format!("__attribute__((aligned({arg})))") } else { format!("alignas({arg})") };
                ctx.edits.replace_text(RULE, m.range.clone(), rep);
                ctx.count(RULE);
            }
            MaskKind::LambdaQualifier => {
                let end = skip_spaces(ctx.src, m.range.end);
                ctx.edits.delete(RULE, m.range.start..end);
                ctx.diag(Code::ExtendedLambda, m.range.clone(), RULE, "`__device__`/`__host__` removed from a lambda");
                ctx.count(RULE);
            }
            MaskKind::MisplacedQualifier(_) | MaskKind::CallingConvention => {
                let end = skip_spaces(ctx.src, m.range.end);
                ctx.edits.delete(RULE, m.range.start..end);
                ctx.count(RULE);
            }
            MaskKind::QualifierMacro(_)
            | MaskKind::SplitLinkage
            | MaskKind::Unparsed
            | MaskKind::StatementEnd
            | MaskKind::TypeArgument
            | MaskKind::TokenPaste
            | MaskKind::Stringize
            | MaskKind::Keyword
            | MaskKind::SplitQualifiers
            | MaskKind::SplitGlobal(_)
            | MaskKind::InactiveBranch
            | MaskKind::LaunchConfigDirective
            | MaskKind::DirectiveComment
            | MaskKind::DirectiveParen
            | MaskKind::DataTable(_)
            | MaskKind::LiteralArithmetic
            | MaskKind::DeepTemplate => {}
        }
    }
}

fn inside_static_shared(ctx: &FileCtx, offset: usize) -> bool {
    let Some(n) = ctx.root().descendant_for_byte_range(offset, offset) else {
        return false;
    };
    let mut p = Some(n);
    while let Some(x) = p {
        if x.kind_str() == "declaration" {
            return crate::index::shared_declaration(x, ctx.src) == Some(false);
        }
        p = x.parent();
    }
    false
}

fn qualifier_token(ctx: &mut FileCtx, tok: Node) {
    let Some(parent) = tok.parent() else { return };
    let word = tok.kind_str();
    let is_function = parent.field("declarator").and_then(syntax::function_declarator).is_some();
    if !is_function && matches!(parent.kind_str(), "declaration" | "field_declaration") {
        return; // a device variable: the device_globals rule's
    }
    // a kernel keeps a mark: SYCLIFY_KERNEL (always_inline) makes its body
    // part of each launch's kernel lambda, compiled as CUDA compiles a
    // kernel, as the entry point (local memory it is passed stays local)
    let rep = if word == "__global__" && is_function { Some("SYCLIFY_KERNEL") } else { replacement(word) };
    let Some(rep) = rep else { return };
    if rep.is_empty() {
        let end = skip_spaces(ctx.src, tok.end_byte());
        ctx.edits.delete(RULE, tok.start_byte()..end);
    } else {
        ctx.edits.replace_text(RULE, tok.byte_range(), rep);
        ctx.needs_sycl = true;
    }
    ctx.count(RULE);
}

/// Qualifier words inside a macro body (e.g. `#define HD __host__ __device__`).
fn macro_body(ctx: &mut FileCtx, arg: Node) {
    let base = arg.start_byte();
    let body = ctx.text(arg);
    let mut changed = false;
    // a qualifier macro's memory spaces (`#define MANAGED __managed__`): the
    // device_globals rule migrates the declarations it stands before
    let qualifier_macro = arg
        .parent()
        .filter(|d| d.kind_str() == "preproc_def")
        .and_then(|d| d.field("name"))
        .is_some_and(|n| ctx.project.index.macros.qualifier.contains_key(ctx.text(n)));
    for (range, word) in syntax::identifiers(body) {
        let rep = match word {
            "__managed__" | "__constant__" if qualifier_macro => Some(""),
            _ => replacement(word),
        };
        let Some(rep) = rep else {
            continue;
        };
        let start = base + range.start;
        let end = if rep.is_empty() { skip_spaces(ctx.src, base + range.end) } else { base + range.end };
        ctx.edits.replace_text(RULE, start..end, rep);
        if !rep.is_empty() {
            ctx.needs_sycl = true;
        }
        ctx.count(RULE);
        changed = true;
    }
    if changed {
        let def = arg.parent();
        if let Some(def) = def.filter(|d| d.kind_str() == "preproc_def")
            && let Some(name) = def.field("name")
        {
            let name = ctx.text(name);
            if ctx.project.index.macros.qualifier.contains_key(name) {
                ctx.diag(Code::QualifierMacro, def.byte_range(), RULE, format!("macro `{name}` stood for CUDA qualifiers; it now expands to what SYCL needs"));
            }
        }
    }
}

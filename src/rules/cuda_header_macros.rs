//! CUDA's header guards and version macros: `#ifdef __DRIVER_TYPES_H__`,
//! `#ifdef CUBLAS_API_H_`, `#if CUDART_VERSION >= 11000`, `__NVCC__`.
//!
//! What it does: each macro of the table (`rules/cuda_macros.yaml`) becomes
//! the macro that replaces it — a header guard the macro of the helper
//! header that replaces that CUDA header (`__DRIVER_TYPES_H__` →
//! `SYCLIFY_CUDA_RUNTIME`, defined by `<syclify/syclify.hpp>`), a version
//! the version of the CUDA API syclify migrates from (`CUDART_VERSION` →
//! `SYCLIFY_CUDART_VERSION`, 12080). Guards are renamed in preprocessor
//! conditions only; versions also where code reads them (`printf("%d",
//! CUDART_VERSION)`). Each conditional that tests one gets a note (SY0111)
//! saying which branch is kept. A macro the program defines itself stays
//! the program's.
//!
//! Why: after migration CUDA's headers are gone. Left as written, a guard
//! would be undefined (the error-checking helpers inside `#ifdef
//! __DRIVER_TYPES_H__` vanish and every caller fails to compile) and a
//! version 0 (the oldest branch taken, silently).
//!
//! Example: `#if CUDART_VERSION >= 11000` → `#if SYCLIFY_CUDART_VERSION >=
//! 11000` (note: true, the branch is kept).

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "cuda-header-macros";

pub fn run(ctx: &mut FileCtx) {
    let all = &ctx.project.mappings.macros;
    if all.is_empty() {
        return;
    }
    // (guards of headers syclify does not replace stay as written: the
    // headers that define them stay too; see inactive_branches.rs)
    let macros: std::collections::BTreeMap<&str, &crate::mapping::MacroRule> = all.iter().filter(|(_, r)| !r.is_kept()).map(|(k, r)| (k.as_str(), r)).collect();
    let own = |ctx: &FileCtx, name: &str| ctx.project.index.macros.names.contains(name);
    // the tests, with their note: conditions of `#if`/`#elif`, `#ifdef` names
    for n in ctx.main_of(&["preproc_ifdef", "preproc_if", "preproc_elif"]) {
        let Some(cond) = n.field("name").or_else(|| n.field("condition")) else {
            continue;
        };
        let names: Vec<Node> = if cond.kind_str() == "identifier" { vec![cond] } else { crate::syntax::descendants(cond) };
        let tested: Vec<Node> = names.into_iter().filter(|id| id.kind_str() == "identifier" && macros.contains_key(ctx.text(*id))).collect();
        if tested.is_empty() || tested.iter().any(|id| own(ctx, ctx.text(*id))) || ctx.in_error(n) {
            continue;
        }
        for id in &tested {
            let rule = macros[ctx.text(*id)];
            ctx.edits.replace_text(RULE, id.byte_range(), &rule.sycl);
            ctx.count(RULE);
            // (a version is defined by the helper header: the file includes it)
            ctx.needs_sycl |= rule.value.is_some();
        }
        let note = branch_note(ctx, n, cond, &tested);
        let head = n.start_byte()..cond.end_byte();
        ctx.diag(Code::CudaHeaderMacro, head, RULE, note);
    }
    // the directive lines of a conditional that error recovery parsed in one
    // configuration (one inside a declaration or an argument list): no node
    // holds them, their words are renamed as written
    for line in ctx.hidden_condition_lines() {
        let text = &ctx.src[line.clone()];
        let words = crate::syntax::identifiers(text);
        // (`__CUDACC__` too, as rules/cuda_arch_macro.rs renames it)
        let compiler: Vec<std::ops::Range<usize>> = words.iter().filter(|(_, w)| *w == "__CUDACC__" && !own(ctx, w)).map(|(r, _)| r.clone()).collect();
        for r in compiler {
            ctx.edits.replace_text(RULE, line.start + r.start..line.start + r.end, "SYCL_LANGUAGE_VERSION");
            ctx.count(RULE);
        }
        let tested: Vec<(std::ops::Range<usize>, &str)> = words.into_iter().filter(|(_, w)| macros.contains_key(w) && !own(ctx, w)).collect();
        if tested.is_empty() {
            continue;
        }
        let mut became: Vec<String> = Vec::new();
        for (r, w) in &tested {
            let rule = macros[w];
            ctx.edits.replace_text(RULE, line.start + r.start..line.start + r.end, &rule.sycl);
            ctx.count(RULE);
            ctx.needs_sycl |= rule.value.is_some();
            let what = format!("`{}` became `{}`", rule.cuda, rule.sycl);
            if !became.contains(&what) {
                became.push(what);
            }
        }
        let directive = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let note = format!("`{directive}`: {}; the configuration the known macros select was parsed (SY0005)", became.join("; "));
        ctx.diag(Code::CudaHeaderMacro, line.start..line.start + text.trim_end().len(), RULE, note);
    }
    // versions read by code (`printf("%d", CUDART_VERSION)`, `#define V CUDART_VERSION`)
    for id in ctx.all_of(&["identifier"]) {
        let Some(rule) = macros.get(ctx.text(id)).filter(|r| r.value.is_some()).copied() else {
            continue;
        };
        if own(ctx, &rule.cuda) || in_condition(ctx, id) || ctx.in_error(id) {
            continue;
        }
        ctx.edits.replace_text(RULE, id.byte_range(), &rule.sycl);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// Is `id` in the condition of a conditional directive (the first loop's)?
/// Climbs only expression nodes: a condition is short.
fn in_condition<'a>(ctx: &FileCtx<'a>, id: Node<'a>) -> bool {
    let mut p = ctx.parent(id);
    while let Some(a) = p {
        match a.kind_str() {
            "preproc_if" | "preproc_elif" | "preproc_ifdef" => return true,
            "binary_expression" | "unary_expression" | "parenthesized_expression" | "preproc_defined" => p = ctx.parent(a),
            _ => return false,
        }
    }
    false
}

/// What the note says of conditional `n` testing `tested`: which branch a
/// version comparison keeps, or where a guard is defined.
fn branch_note(ctx: &FileCtx, n: Node, cond: Node, tested: &[Node]) -> String {
    let macros = &ctx.project.mappings.macros;
    let directive = ctx.src[n.start_byte()..cond.end_byte()].split_whitespace().collect::<Vec<_>>().join(" ");
    let mut became: Vec<String> = Vec::new();
    for id in tested {
        let r = &macros[ctx.text(*id)];
        let what = match r.value {
            Some(v) => format!("`{}` became `{}`, {v} ({}: the API version syclify migrates from)", r.cuda, r.sycl, r.defined_by),
            None if r.defined_by.contains('/') => {
                format!("`{}` became `{}`, which `<{}>` defines where it replaces CUDA's header", r.cuda, r.sycl, r.defined_by)
            }
            None => format!("`{}` became `{}`, which {} defines (as nvcc defined it)", r.cuda, r.sycl, r.defined_by),
        };
        if !became.contains(&what) {
            became.push(what);
        }
    }
    let negated = n.child(0).is_some_and(|d| d.kind_str() == "#ifndef");
    let verdict = match evaluate(ctx, cond, n.kind_str() == "preproc_ifdef") {
        Some(v) if v != negated => "this branch is compiled".to_string(),
        Some(_) => "this branch is not compiled".to_string(),
        None if tested.iter().any(|id| !always_defined(&macros[ctx.text(*id)])) => {
            "the branch is compiled where that header is included before it, as CUDA's was".to_string()
        }
        None => "the condition's other macros decide, as they did under nvcc".to_string(),
    };
    format!("`{directive}`: {}; {verdict}", became.join("; "))
}

/// The value of a condition where it depends only on numbers and versions
/// of the table (a guard's depends on the includes: `None`).
fn evaluate(ctx: &FileCtx, e: Node, ifdef: bool) -> Option<bool> {
    let macros = &ctx.project.mappings.macros;
    if ifdef {
        // `#ifdef V`: a version is always defined, a guard depends
        return macros.get(ctx.text(e)).filter(|r| always_defined(r)).map(|_| true);
    }
    value(ctx, e, macros).map(|v| v != 0)
}

/// Is the replacement defined wherever migrated code is compiled (a
/// version, which `<syclify/syclify.hpp>` defines for every file that
/// reads it; the SYCL compiler's own macro), rather than where a helper
/// header is included (a guard)?
fn always_defined(r: &crate::mapping::MacroRule) -> bool {
    !r.is_kept() && (r.value.is_some() || !r.defined_by.contains('/'))
}

fn value(ctx: &FileCtx, e: Node, macros: &std::collections::BTreeMap<String, crate::mapping::MacroRule>) -> Option<i64> {
    value_within(ctx, e, macros, 0)
}

fn value_within(ctx: &FileCtx, e: Node, macros: &std::collections::BTreeMap<String, crate::mapping::MacroRule>, depth: usize) -> Option<i64> {
    if depth > crate::syntax::EXPRESSION_DEPTH {
        return None;
    }
    let value = |ctx: &FileCtx, e: Node, macros: &std::collections::BTreeMap<String, crate::mapping::MacroRule>| value_within(ctx, e, macros, depth + 1);
    match e.kind_str() {
        "number_literal" => crate::syntax::integer_value(ctx.text(e)),
        "identifier" => macros.get(ctx.text(e)).and_then(|r| r.value),
        "preproc_defined" => {
            let id = e.named_child(0)?;
            macros.get(ctx.text(id)).filter(|r| always_defined(r)).map(|_| 1)
        }
        "parenthesized_expression" => value(ctx, e.named_child(0)?, macros),
        "unary_expression" => {
            let v = value(ctx, e.field("argument")?, macros)?;
            match ctx.text(e.field("operator")?) {
                "!" => Some((v == 0) as i64),
                "-" => Some(-v),
                _ => None,
            }
        }
        "binary_expression" => {
            let op = ctx.text(e.field("operator")?);
            let l = value(ctx, e.field("left")?, macros);
            let r = value(ctx, e.field("right")?, macros);
            // `a && b` is false where either is, `a || b` true where either is
            match (op, l, r) {
                ("&&", Some(0), _) | ("&&", _, Some(0)) => return Some(0),
                ("||", Some(x), _) | ("||", _, Some(x)) if x != 0 => return Some(1),
                _ => {}
            }
            let (l, r) = (l?, r?);
            Some(match op {
                "&&" => (l != 0 && r != 0) as i64,
                "||" => (l != 0 || r != 0) as i64,
                ">=" => (l >= r) as i64,
                ">" => (l > r) as i64,
                "<=" => (l <= r) as i64,
                "<" => (l < r) as i64,
                "==" => (l == r) as i64,
                "!=" => (l != r) as i64,
                "+" => l.checked_add(r)?,
                "-" => l.checked_sub(r)?,
                "*" => l.checked_mul(r)?,
                "/" => l.checked_div(r)?,
                "%" => l.checked_rem(r)?,
                "<<" => l.checked_shl(u32::try_from(r).ok()?)?,
                ">>" => l.checked_shr(u32::try_from(r).ok()?)?,
                _ => return None,
            })
        }
        _ => None,
    }
}

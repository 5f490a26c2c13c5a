//! `extern __shared__` (dynamic shared memory).
//!
//! What it does: `extern __shared__ float sdata[];` becomes
//! `float *sdata = reinterpret_cast<float *>(dyn_local_mem);`, where
//! `dyn_local_mem` is the function's dynamic local buffer parameter: one byte
//! buffer per launch, sized by the launch's third argument, allocated as a
//! 16-byte aligned `sycl::local_accessor`. Several `extern __shared__` arrays
//! (of any types, in one function or in several) all point at the start of
//! that one buffer, exactly as they alias in CUDA.
//!
//! Why: SYCL local memory is allocated by the command group; the kernel only
//! sees a pointer to it.
//!
//! One declared at namespace scope becomes a comment; each function that
//! uses it (not a local of the same name) takes the buffer and starts with
//! that declaration.
//!
//! Example: `extern __shared__ int ivals[];` → `int *ivals = reinterpret_cast<int *>(dyn_local_mem);`

use super::FileCtx;
use crate::index::shared_declaration;
use crate::rules::device_function_parameters::DYN_LOCAL;
use crate::rules::execution_space_qualifiers::skip_spaces;
use crate::syntax::NodeKind;
use crate::syntax::{self, declarator_name};

pub const RULE: &str = "extern-shared-memory";

pub fn run(ctx: &mut FileCtx) {
    // the namespace-scope declarations, read once when first needed (per
    // declaration, a walk of the file made the rule quadratic)
    let mut at_namespace_scope: Option<std::collections::HashSet<usize>> = None;
    for n in ctx.main_of(&["declaration"]) {
        if n.kind_str() != "declaration" || ctx.in_error(n) {
            continue;
        }
        if shared_declaration(n, ctx.src) != Some(true) {
            continue;
        }
        let Some(scope) = ctx.scope_at(n.start_byte()) else {
            let namespace_scope =
                at_namespace_scope.get_or_insert_with(|| crate::index::namespace_scope_declarations(ctx.root()).iter().map(|d| d.id()).collect());
            if namespace_scope.contains(&n.id()) {
                // at namespace scope: each function using it declares it (below)
                ctx.edits.replace_text(
                    RULE,
                    n.byte_range(),
                    format!("/* syclify: `{}` is declared by each function that uses it, from its dynamic local buffer */", ctx.text(n).replace("*/", "* /")),
                );
                ctx.count(RULE);
            }
            continue;
        };
        if ctx.project.index.needs_of(&scope.name).is_none() {
            continue;
        }
        for c in syntax::children(n) {
            let t = ctx.text(c);
            if (c.kind_str() == "storage_class_specifier" && t == "extern") || (c.kind_str() == "type_qualifier" && t == "__shared__") {
                let end = skip_spaces(ctx.src, c.end_byte());
                ctx.edits.delete(RULE, c.start_byte()..end);
            }
        }
        let Some(elem) = crate::index::element_type(n, ctx.src).map(|t| ctx.project.mappings.migrate_type_text(&t)) else {
            continue;
        };
        let mut c = n.walk();
        let decls: Vec<_> = n.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
        for d in decls {
            let Some((_, name)) = declarator_name(d, ctx.src) else {
                continue;
            };
            ctx.edits.replace_text(RULE, d.byte_range(), format!("*{name} = reinterpret_cast<{elem} *>({DYN_LOCAL})"));
            ctx.count(RULE);
        }
        ctx.needs_sycl = true;
    }
    namespace_scope_uses(ctx);
}

/// Functions of this file that use an `extern __shared__` array declared at
/// namespace scope (`extern __shared__ float sdata[];` before the kernels):
/// each declares it first thing from its dynamic local buffer, as a kernel's
/// own declaration becomes.
fn namespace_scope_uses(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    if index.extern_shared_globals.is_empty() {
        return;
    }
    for n in ctx.main_of(&["function_definition"]) {
        if n.kind_str() != "function_definition" || ctx.in_error(n) {
            continue;
        }
        let Some(body) = n.field("body").filter(|b| b.kind_str() == "compound_statement") else {
            continue;
        };
        let Some(scope) = ctx.scope_at(body.start_byte()) else {
            continue;
        };
        if !index.needs_of(&scope.name).is_some_and(|x| x.dynamic_local) {
            continue;
        }
        let mut used: Vec<&str> = Vec::new();
        for d in syntax::descendants(body) {
            let t = ctx.text(d);
            if d.kind_str() == "identifier" && index.extern_shared_globals.contains_key(t) && !used.contains(&t)
                // not a parameter or local of the same name
                && ctx.declaration_in_scope(d, t).is_none_or(|(decl, _)| decl.start_byte() < n.start_byte())
            {
                used.push(t);
            }
        }
        for name in used {
            let elem = &index.extern_shared_globals[name].elem_type;
            ctx.edits.insert(RULE, body.start_byte() + 1, format!(" {elem} *{name} = reinterpret_cast<{elem} *>({DYN_LOCAL});"));
            ctx.count(RULE);
        }
    }
}

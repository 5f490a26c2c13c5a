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
//! A class whose member functions declare one (the `SharedMemory<T>`
//! idiom of CUDA's samples) holds the buffer: see [`dynamic_local_classes`].
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
        // in a member function of a class that holds the buffer
        let class = crate::index::dynamic_local_class(ctx.parents(), n, ctx.src).map(|(_, name)| name);
        if class.is_some_and(|c| ctx.project.index.dynamic_local_classes.contains(c)) {
            declare_from_buffer(ctx, n);
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
        declare_from_buffer(ctx, n);
    }
    namespace_scope_uses(ctx);
    dynamic_local_classes(ctx);
}

/// `extern __shared__ T name[];` → `T *name = reinterpret_cast<T *>(dyn_local_mem);`
fn declare_from_buffer(ctx: &mut FileCtx, n: tree_sitter::Node) {
    for c in syntax::children(n) {
        let t = ctx.text(c);
        if (c.kind_str() == "storage_class_specifier" && t == "extern") || (c.kind_str() == "type_qualifier" && t == "__shared__") {
            let end = skip_spaces(ctx.src, c.end_byte());
            ctx.edits.delete(RULE, c.start_byte()..end);
        }
    }
    let Some(elem) = crate::index::element_type(n, ctx.src).map(|t| ctx.project.mappings.migrate_type_text(&t)) else {
        return;
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

/// The `SharedMemory<T>` idiom: a class whose member functions declare
/// `extern __shared__` arrays (`operator T *() { extern __shared__ int
/// s[]; return (T *)s; }`) holds the dynamic local buffer: it gains a
/// member and a constructor that takes it (each of its specialisations),
/// its members declare their arrays from it, and every construction in a
/// function passes that function's buffer (`SharedMemory<T>()` →
/// `SharedMemory<T>(dyn_local_mem)`), which the function receives as any
/// function using `extern __shared__` does.
fn dynamic_local_classes(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    if index.dynamic_local_classes.is_empty() {
        return;
    }
    let nl = if ctx.file.text.contains("\r\n") { "\r\n" } else { "\n" };
    for class in ctx.main_of(&["struct_specifier", "class_specifier"]) {
        let Some(body) = class.field("body").filter(|b| b.kind_str() == "field_declaration_list") else {
            continue;
        };
        let Some(name) = class.field("name") else { continue };
        let name = if name.kind_str() == "template_type" { name.field("name").unwrap_or(name) } else { name };
        let name = ctx.text(name).to_string();
        if !index.dynamic_local_classes.contains(&name) || ctx.in_error(class) {
            continue;
        }
        let members = format!(
            "public:{nl}  // syclify: the dynamic local buffer of the function that constructs it{nl}  unsigned char *{DYN_LOCAL};{nl}  explicit {name}(unsigned char *{DYN_LOCAL}) : {DYN_LOCAL}({DYN_LOCAL}) {{}}{nl}"
        );
        ctx.edits.insert(RULE, body.end_byte() - 1, members);
        ctx.count(RULE);
    }
    // constructions, in functions that take the buffer
    let takes_buffer = |ctx: &FileCtx, at: usize| ctx.scope_at(at).is_some_and(|s| index.needs_of(&s.name).is_some_and(|x| x.dynamic_local));
    for call in ctx.main_of(&["call_expression"]) {
        let Some((_, callee)) = syntax::callee_name(call, ctx.src) else { continue };
        let Some(args) = call.field("arguments") else { continue };
        if index.dynamic_local_classes.contains(callee) && syntax::items(args).is_empty() && !ctx.in_error(call) && takes_buffer(ctx, call.start_byte()) {
            ctx.edits.insert(RULE, args.start_byte() + 1, DYN_LOCAL);
            ctx.count(RULE);
        }
    }
    for decl in ctx.main_of(&["declaration"]) {
        let Some(t) = decl.field("type") else { continue };
        let t = if t.kind_str() == "template_type" { t.field("name").unwrap_or(t) } else { t };
        if !index.dynamic_local_classes.contains(ctx.text(t)) || ctx.in_error(decl) || !takes_buffer(ctx, decl.start_byte()) {
            continue;
        }
        let mut c = decl.walk();
        let plain: Vec<_> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).filter(|d| d.kind_str() == "identifier").collect();
        for d in plain {
            ctx.edits.insert(RULE, d.end_byte(), format!("({DYN_LOCAL})"));
            ctx.count(RULE);
        }
    }
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
        // (a body cut in parts: the names all its parts use, from the index)
        if ctx.is_split(n) {
            let facts = index.functions.get(&scope.name);
            used.extend(index.extern_shared_globals.keys().map(String::as_str).filter(|g| facts.is_some_and(|f| f.identifiers.contains(*g))));
        }
        for d in syntax::descendants(body).into_iter().filter(|_| !ctx.is_split(n)) {
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

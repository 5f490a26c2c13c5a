//! The extra parameters of kernels and device functions, and their call sites.
//!
//! What it does: every kernel receives `const sycl::nd_item<3> &item`; every
//! device function that uses thread builtins, barriers or `warpSize` —
//! directly or through any callee (the project index's call graph) —
//! receives it too. A function that declares static `__shared__` arrays, or
//! calls one that does, receives a pointer per array (`float (*tile)[33]`),
//! and one that uses `extern __shared__` memory receives the dynamic local
//! buffer (`unsigned char *dyn_local_mem`); one that reads a `__constant__`,
//! `__device__` or `__managed__` variable receives a pointer or reference of
//! the same name (`float *filter`, `unsigned int &counter`; see
//! [`super::device_globals`]), and one that calls `this_grid()` receives the
//! launch's grid barrier (`syclify::cg::grid_sync syclify_grid`; see
//! [`super::cooperative_groups`]). Every call site inside device code passes them
//! on. Declarations (prototypes) get the same parameters.
//!
//! The extra parameters go before the first parameter that has a default
//! argument (at the end when there is none), so that defaults keep working;
//! call sites insert them at the same position.
//!
//! Why: SYCL has no implicit thread builtins or group-local variables: the
//! `nd_item` and the local memory exist only inside the kernel lambda and are
//! passed down explicitly.
//!
//! Example: `__device__ int lane() { return threadIdx.x % 32; }` →
//! `int lane(const sycl::nd_item<3> &item) { ... }` and `lane()` → `lane(item)`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::index::{LocalRef, Needs, ProjectIndex, SharedArray};
use crate::syntax::NodeKind;
use crate::syntax::{self, callee_name, declarator_name};
use std::collections::BTreeSet;
use tree_sitter::Node;

pub const RULE: &str = "device-function-parameters";
/// Name of the dynamic local memory parameter.
pub const DYN_LOCAL: &str = "dyn_local_mem";
/// Name of the grid barrier parameter (`this_grid()` → `this_grid(item, syclify_grid)`).
pub const GRID: &str = "syclify_grid";

/// The declaration of a local-memory parameter named `name` for array `a`.
pub fn local_param_decl(a: &SharedArray, name: &str) -> String {
    match a.dims.len() {
        0 => format!("{} &{name}", a.elem_type),
        1 => format!("{} *{name}", a.elem_type),
        _ => format!("{} (*{name}){}", a.elem_type, a.dims[1..].iter().map(|d| format!("[{d}]")).collect::<String>()),
    }
}

/// The declaration of the parameter that stands for device global `g`
/// inside device code (same name, so the body is unchanged).
pub fn global_param_decl(g: &crate::index::GlobalSymbol) -> String {
    // not `const` for `__constant__` either: CUDA code may take a plain
    // pointer to one (`scores = &detector_scores;`)
    let elem = &g.elem_type;
    match g.kind {
        crate::index::GlobalKind::Texture => return format!("syclify::texture_view<{elem}> {}", g.name),
        crate::index::GlobalKind::Surface => return format!("syclify::surface_view<{elem}> {}", g.name),
        _ => {}
    }
    match g.dims.len() {
        0 => format!("{elem} &{}", g.name),
        1 => format!("{elem} *{}", g.name),
        _ => format!("{elem} (*{}){}", g.name, g.dims[1..].iter().map(|d| format!("[{d}]")).collect::<String>()),
    }
}

/// The extra parameter declarations of function `f`.
pub fn extra_params(index: &ProjectIndex, f: &str, needs: &Needs, item: &str) -> Vec<String> {
    let mut out = Vec::new();
    if needs.item {
        out.push(format!("const sycl::nd_item<3> &{item}"));
    }
    if needs.grid {
        out.push(format!("syclify::cg::grid_sync {GRID}"));
    }
    for l in &needs.locals {
        // a callee's array, typed as this function sees it (the launch reports what cannot be told)
        let a = index.local_array_in(f, l).ok().or_else(|| index.shared_array(l).cloned());
        if let Some(a) = a {
            out.push(local_param_decl(&a, &l.param_name(f)));
        }
    }
    if needs.dynamic_local {
        out.push(format!("unsigned char *{DYN_LOCAL}"));
    }
    for g in &needs.globals {
        // a variable template as `f` instantiates it (the launch reports what cannot be told)
        if let Some(sym) = index.global_in(f, g).or_else(|| index.globals.get(g).cloned()) {
            out.push(global_param_decl(&sym));
        }
    }
    out
}

/// The extra arguments a call to `callee_needs` passes from inside `caller`.
pub fn extra_args(callee_needs: &Needs, caller: &str, item: &str) -> Vec<String> {
    let mut out = Vec::new();
    if callee_needs.item {
        out.push(item.to_string());
    }
    if callee_needs.grid {
        out.push(GRID.to_string());
    }
    for l in &callee_needs.locals {
        out.push(LocalRef::param_name(l, caller));
    }
    if callee_needs.dynamic_local {
        out.push(DYN_LOCAL.to_string());
    }
    out.extend(callee_needs.globals.iter().cloned());
    out
}

/// Inserts `extra` (already joined with ", ") into a parameter or argument
/// list at position `at`.
pub fn insert_into_list(ctx: &mut FileCtx, rule: &'static str, list: Node, at: usize, extra: &str) {
    let items = syntax::items(list);
    let at = syntax::extra_position(&items, at);
    if items.len() == 1 && items[0].kind_str() == "parameter_declaration" && ctx.text(items[0]) == "void" {
        ctx.edits.replace_text(rule, items[0].byte_range(), extra);
    } else if at < items.len() && syntax::is_list_directive(items[at]) {
        // before a directive: after the item before it (`b, item\n#ifdef X\n, c`)
        match at.checked_sub(1) {
            Some(prev) => ctx.edits.insert(rule, items[prev].end_byte(), format!(", {extra}")),
            None => ctx.edits.insert(rule, list.start_byte() + 1, format!("{extra}, ")),
        }
    } else if at < items.len() {
        ctx.edits.insert(rule, items[at].start_byte(), format!("{extra}, "));
    } else if let Some(last) = items.last() {
        ctx.edits.insert(rule, last.end_byte(), format!(", {extra}"));
    } else {
        // `()`: insert before the closing parenthesis
        ctx.edits.insert(rule, list.end_byte() - 1, extra);
    }
}

pub fn run(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    let cub = crate::rules::cub::Collectives::of(ctx.read_of(crate::rules::cub::ALIAS_KINDS), ctx.src);
    let functors = ctx.functors();
    // each function definition's local type aliases, walked once (a large
    // function has thousands of calls)
    let alias_classes: std::cell::RefCell<std::collections::HashMap<usize, std::collections::BTreeMap<String, String>>> = Default::default();
    // the names of the file's type aliases of classes (those of any function
    // among them): a call of another name needs no look at its function
    let class_alias_names: BTreeSet<&str> = ctx
        .read_of(&["alias_declaration", "type_definition"])
        .into_iter()
        .chain(ctx.all_of(&["alias_declaration", "type_definition"]).into_iter().filter(|n| ctx.in_macro(n.start_byte())))
        .filter_map(syntax::type_alias)
        .filter(|(_, ty)| crate::index::aliased_class(ctx.text(*ty)).is_some())
        .map(|(alias, _)| ctx.text(alias))
        .collect();
    for n in ctx.main_of(&["function_declarator", "parameter_declaration", "declaration", "call_expression"]) {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "function_declarator" => {
                let Some((_, name)) = n.field("declarator").and_then(|d| declarator_name(d, ctx.src)) else {
                    continue;
                };
                let Some(needs) = index.needs_of(name) else {
                    continue;
                };
                let Some(facts) = index.functions.get(name) else {
                    continue;
                };
                // only declarations of functions, not calls parsed as declarators in bodies
                let Some(owner) = n.parent() else { continue };
                if !matches!(owner.kind_str(), "function_definition" | "declaration" | "field_declaration" | "pointer_declarator" | "reference_declarator") {
                    continue;
                }
                // a member function named like a kernel is not the kernel (a
                // `__global__` function cannot be a member)
                // (nor its out-of-class definition, `bool Graph::k(..) {..}`, nor
                // a host function of another namespace: CUDA requires
                // `__global__` on every declaration of a kernel)
                // (the declaration starts at its first word the parser read:
                // a qualifier macro before it is masked, `GLOBAL void k()`)
                let mut start = owner.start_byte();
                while let Some(m) = crate::mask::blank_before(&ctx.parsed.masks, ctx.src, start) {
                    start = m;
                }
                let head = &ctx.src[start..n.start_byte()];
                let says_global = head.contains("__global__")
                    || syntax::identifiers(head).iter().any(|(_, w)| index.macros.qualifier.get(*w).is_some_and(|q| q.words.iter().any(|x| x == "__global__")));
                if index.is_kernel(name) && (syntax::has_ancestor(ctx.parents(), n, &["field_declaration_list"]) || !says_global) {
                    continue;
                }
                let item = ctx.item_at(n.start_byte()).filter(|_| owner.kind_str() == "function_definition").unwrap_or_else(|| "item".to_string());
                let extra = extra_params(index, name, needs, &item).join(", ");
                if let Some(list) = n.field("parameters") {
                    insert_into_list(ctx, RULE, list, facts.required_params, &extra);
                    ctx.needs_sycl = true;
                    ctx.count(RULE);
                }
            }
            "parameter_declaration" => array_reference_parameter(ctx, n),
            "declaration" => construction(ctx, n),
            "call_expression" => {
                if n.child(1).is_some_and(|c| c.kind_str() == "kernel_call_syntax") {
                    continue; // launches are the kernel_launch rule's
                }
                // a free function, or a member function of the project called
                // through an object (`loader.load(p)`)
                let method = || syntax::method_callee_name(n, ctx.src).filter(|(_, m)| index.functions.get(*m).is_some_and(|f| f.is_method));
                // or a function object of the project called (`callable(a, b)`)
                let functor = || {
                    let f = n.field("function")?;
                    (functors.is_call(n, ctx.src, &|n, name| ctx.declaration_in_scope(n, name))
                        && index.functions.get("operator()").is_some_and(|f| f.is_method))
                    .then_some((f, "operator()"))
                };
                // a CUB collective constructed (`BlockReduce(temp)` where a
                // local alias shadows a function of that name): the cub rule's
                if cub.as_ref().is_some_and(|c| c.constructed(n, ctx.src).is_some()) {
                    continue;
                }
                // `Alias(args)` of a local `typedef Class<..> Alias;`: the class's constructor
                let aliased = || {
                    let (f, name) = callee_name(n, ctx.src).filter(|(_, name)| class_alias_names.contains(name))?;
                    let def = syntax::ancestor_of_kind(n, &["function_definition"])?;
                    let class = alias_classes
                        .borrow_mut()
                        .entry(def.id())
                        .or_insert_with(|| {
                            crate::index::local_alias_classes(
                                &ctx.main_nodes().subtree_of(def).map(|d| d.to_vec()).unwrap_or_else(|| syntax::descendants(def)),
                                ctx.src,
                            )
                        })
                        .get(name)
                        .cloned()?;
                    let (key, _) = index.functions.get_key_value(&class).filter(|(_, f)| f.is_constructor)?;
                    Some((f, key.as_str()))
                };
                let Some((_, callee)) = callee_name(n, ctx.src)
                    .filter(|(_, c)| index.functions.contains_key(*c))
                    .or_else(method)
                    .or_else(functor)
                    .or_else(aliased)
                    .or_else(|| callee_name(n, ctx.src))
                else {
                    continue;
                };
                let Some(needs) = index.needs_of(callee) else {
                    continue;
                };
                if index.is_kernel(callee) {
                    continue;
                }
                let Some(scope) = ctx.scope_at(n.start_byte()) else {
                    continue;
                };
                let caller = scope.name.clone();
                let item = scope.item.clone();
                if index.needs_of(&caller).is_none() {
                    // a host caller is not device code; but device code the call
                    // graph does not see as a caller (a constructor's member
                    // initializer) has nothing to pass
                    if scope.device && needs.any() {
                        ctx.diag(
                            Code::ExtraArgumentsUnavailable,
                            n.byte_range(),
                            RULE,
                            format!("`{callee}` needs {} but `{caller}` has none to pass here; left as is", needs.describe()),
                        );
                    }
                    continue;
                }
                // a constructor gets only the nd_item: what it cannot pass on
                let has = index.needs_of(&caller).cloned().unwrap_or_default();
                let missing = Needs {
                    item: needs.item && !has.item,
                    warp: false,
                    grid: needs.grid && !has.grid,
                    locals: needs.locals.iter().filter(|l| !has.locals.contains(l)).cloned().collect(),
                    dynamic_local: needs.dynamic_local && !has.dynamic_local,
                    globals: needs.globals.iter().filter(|g| !has.globals.contains(g)).cloned().collect(),
                };
                if missing.any() {
                    let what = missing.describe();
                    match unused_constructor(ctx, n, &caller) {
                        Some(arity) => ctx.diag(
                            Code::UnusedConstructorNotMigrated,
                            n.byte_range(),
                            RULE,
                            format!(
                                "`{callee}` needs {what}, which constructor `{caller}` is not given; no construction with {arity} uses it, so it was left as is"
                            ),
                        ),
                        None => ctx.diag(
                            Code::ExtraArgumentsUnavailable,
                            n.byte_range(),
                            RULE,
                            format!("`{callee}` needs {what} but `{caller}` has none to pass here; left as is"),
                        ),
                    }
                    continue;
                }
                let required = index.functions.get(callee).map(|f| f.required_params).unwrap_or(usize::MAX);
                let extra = extra_args(needs, &caller, &item).join(", ");
                if let Some(args) = n.field("arguments") {
                    insert_into_list(ctx, RULE, args, required, &extra);
                    ctx.count(RULE);
                }
            }
            _ => {}
        }
    }
    macro_body_calls(ctx);
}

/// Calls in the bodies of macros (parsed on their own: `#define LOOKUP(i)
/// lookup(i)`) of functions that take extra parameters: the call passes
/// them under the names every function that takes them gives them (`item`,
/// `dyn_local_mem`, a device global's own name), which is what the
/// functions where the macro expands have. Local memory owned by one
/// function has a name that depends on the caller: such a call is
/// reported, not rewritten.
fn macro_body_calls(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    let calls: Vec<Node> = ctx.all_of(&["call_expression"]).into_iter().filter(|n| ctx.in_macro(n.start_byte())).collect();
    for n in calls {
        if ctx.in_error(n) || n.child(1).is_some_and(|c| c.kind_str() == "kernel_call_syntax") {
            continue;
        }
        let Some((_, callee)) = callee_name(n, ctx.src) else { continue };
        let Some(needs) = index.needs_of(callee).cloned() else { continue };
        if index.is_kernel(callee) || !index.functions.get(callee).is_some_and(|f| f.is_device) {
            continue;
        }
        if needs.locals.iter().any(|l| !l.owner.is_empty()) {
            ctx.diag(
                Code::ExtraArgumentsUnavailable,
                n.byte_range(),
                RULE,
                format!("`{callee}` needs {}, whose names depend on the function where this macro expands; left as is", needs.describe()),
            );
            continue;
        }
        let required = index.functions.get(callee).map(|f| f.required_params).unwrap_or(usize::MAX);
        let extra = extra_args(&needs, callee, "item").join(", ");
        if let Some(args) = n.field("arguments") {
            insert_into_list(ctx, RULE, args, required, &extra);
            ctx.count(RULE);
        }
    }
}

/// When `call` stands in a constructor of `class` that no construction in
/// the project uses (by its number of arguments): that number, in words.
fn unused_constructor(ctx: &FileCtx, call: Node, class: &str) -> Option<String> {
    let def = syntax::ancestor_of_kind(call, &["function_definition"])?;
    let fd = syntax::function_declarator(def.field("declarator")?)?;
    let (_, name) = declarator_name(fd.field("declarator")?, ctx.src)?;
    if name != class || !ctx.project.index.functions.get(class).is_some_and(|f| f.is_constructor) {
        return None;
    }
    let params: Vec<Node> = fd.field("parameters").map(syntax::items).unwrap_or_default().into_iter().filter(|p| ctx.text(*p) != "void").collect();
    if params.iter().any(|p| p.kind_str() == "variadic_parameter_declaration" || ctx.text(*p) == "...") {
        return None;
    }
    let required = params.iter().filter(|p| p.kind_str() != "optional_parameter_declaration").count();
    let total = params.len();
    if ctx.project.index.constructs(class, required..=total) {
        return None;
    }
    Some(match (required, total) {
        (0, 0) => "no arguments".to_string(),
        (1, 1) => "1 argument".to_string(),
        (r, t) if r == t => format!("{r} arguments"),
        (r, t) => format!("{r} to {t} arguments"),
    })
}

/// A local variable of a class whose device constructor receives extra
/// parameters, constructed by name in device code (`const Local l(p);` →
/// `const Local l(p, item);`, `Local l;` → `Local l(item);`).
fn construction(ctx: &mut FileCtx, decl: Node) {
    let index = ctx.project.index;
    let Some(class) = crate::index::constructed_class(decl, ctx.src) else {
        return;
    };
    let Some(facts) = index.functions.get(class).filter(|f| f.is_constructor) else {
        return;
    };
    let Some(needs) = index.needs_of(class) else {
        return;
    };
    let Some(scope) = ctx.scope_at(decl.start_byte()) else {
        return;
    };
    if index.needs_of(&scope.name).is_none() {
        return; // host code, or device code with nothing to pass (the call branch reports it)
    }
    let extra = extra_args(needs, &scope.name, &scope.item).join(", ");
    let required = facts.required_params;
    let mut c = decl.walk();
    let declarators: Vec<Node> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
    for d in declarators {
        match d.kind_str() {
            "init_declarator" => {
                let Some(v) = d.field("value") else { continue };
                if matches!(v.kind_str(), "argument_list" | "initializer_list") {
                    insert_into_list(ctx, RULE, v, required, &extra);
                    ctx.count(RULE);
                }
            }
            // `Local l(p);` parsed as a function's declaration
            "function_declarator" => {
                if let Some(list) = d.field("parameters") {
                    insert_into_list(ctx, RULE, list, required, &extra);
                    ctx.count(RULE);
                }
            }
            "identifier" => {
                ctx.edits.insert(RULE, d.end_byte(), format!("({extra})"));
                ctx.count(RULE);
            }
            "array_declarator" => ctx.diag(
                Code::ExtraArgumentsUnavailable,
                d.byte_range(),
                RULE,
                format!("the constructor of `{class}` needs {}, which an array's elements cannot be given; left as is", needs.describe()),
            ),
            _ => {}
        }
    }
}

/// A device function's reference-to-array parameter (`T (&sh)[N]`) becomes a
/// pointer (`T *sh`; `T (&sh)[N][M]` → `T (*sh)[M]`): `__shared__` arrays
/// reach device functions as pointers to work-group local memory, which
/// cannot bind to a reference to an array; an array argument converts to
/// the pointer as before. Left alone where the function takes the array's
/// size (`sizeof`, a range `for`) or where `N` is a lone template parameter
/// that calls may deduce from the array.
fn array_reference_parameter(ctx: &mut FileCtx, param: Node) {
    let Some(outer) = param.field("declarator").filter(|d| d.kind_str() == "array_declarator") else {
        return;
    };
    // the innermost array declarator holds `(&name)` and the first size
    let mut inner = outer;
    while let Some(d) = inner.field("declarator").filter(|d| d.kind_str() == "array_declarator") {
        inner = d;
    }
    let Some(paren) = inner.field("declarator").filter(|d| d.kind_str() == "parenthesized_declarator") else {
        return;
    };
    let Some(name) = syntax::named_children(paren)
        .into_iter()
        .find(|c| c.kind_str() == "reference_declarator")
        .and_then(|r| syntax::named_children(r).into_iter().find(|c| c.kind_str() == "identifier"))
    else {
        return;
    };
    let Some(def) = syntax::ancestor_of_kind(param, &["function_definition"]) else {
        return;
    };
    if !ctx.in_device_code(def.start_byte()) {
        return;
    }
    let name_text = ctx.text(name).to_string();
    // (a body cut in parts: whether it takes the size is not known here)
    if ctx.is_split(def) {
        ctx.diag(
            Code::MappingWarning,
            param.byte_range(),
            RULE,
            format!("this function is so large that its body is migrated in parts (of some {} KB): reference-to-array parameter `{name_text}` is left as is; a `__shared__` array cannot bind to it in SYCL: make it a pointer (`T *{name_text}`) unless the function takes the array's size", ctx.body.len().div_ceil(1024)),
        );
        return;
    }
    let body = def.field("body").map(|b| ctx.text(b)).unwrap_or("");
    let takes_size = body.contains("sizeof") && syntax::contains_word(body, &name_text) || body.contains(&format!(": {name_text})"));
    // the function's template parameters and those of the class templates
    // around it (`ITEMS_PER_THREAD` of a `BlockLoad<T, ITEMS_PER_THREAD>`:
    // registers of a size fixed for the class, passed on as they are)
    let mut template_params = String::new();
    let mut up = def.parent();
    while let Some(a) = up {
        if a.kind_str() == "template_declaration"
            && let Some(ps) = a.field("parameters")
        {
            template_params.push_str(ctx.text(ps));
        }
        up = a.parent();
    }
    let size = inner.field("size").map(|s| ctx.text(s).to_string()).unwrap_or_default();
    let deducible = size.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && syntax::contains_word(&template_params, &size);
    if takes_size || deducible {
        return;
    }
    let rep = if inner.id() == outer.id() { format!("*{name_text}") } else { format!("(*{name_text})") };
    ctx.edits.replace_text(RULE, paren.start_byte()..inner.end_byte(), rep);
    ctx.count(RULE);
}

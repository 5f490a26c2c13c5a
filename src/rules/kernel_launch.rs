//! Kernel launches: `k<<<grid, block[, shmem[, stream]]>>>(args)`.
//!
//! What it does: replaces the launch with `syclify::launch(queue, cg)` — a
//! submit on the stream's in-order queue (`syclify::default_queue()` for no
//! stream or stream 0, else `syclify::queue_of(stream)`) that turns a failed
//! launch into the error `cudaGetLastError` reports, as in CUDA — whose
//! command group
//! - allocates the kernel's work-group local memory: one
//!   `syclify::local_array<T>` (a 16-byte aligned `sycl::local_accessor`, so
//!   the compiler may vectorize accesses as nvcc does) per static
//!   `__shared__` array the kernel needs
//!   (its own and its callees', typed through the call graph by
//!   [`crate::index::ProjectIndex::local_array_in`]; the kernel's template
//!   parameters come from the launch's template arguments, else are deduced
//!   from its arguments' types, `syclify::pointee_t<decltype(d_a)>` for a
//!   `T *` parameter), and the dynamic local buffer sized by the third launch
//!   argument when the kernel uses `extern __shared__`;
//! - evaluates on the host every argument that is not a plain name or literal
//!   (`auto k_arg1 = d_a + off;`), so nothing host-side runs in the kernel,
//!   and every plain name of a non-constant variable at namespace scope
//!   (`auto k_arg2 = N;`): the lambda's `[=]` does not capture a global, and
//!   device code would read its own, uninitialised copy of it;
//! - runs `parallel_for(syclify::launch_range(grid, block), ...)` — the
//!   `sycl::nd_range<3>(grid * block, block)`, checked against the device's
//!   work-group limits as CUDA checks a launch — with both ranges already in
//!   SYCL order (`dim3(x, y, z)` → `range<3>(z, y, x)`, an integer `n` →
//!   `range<3>(1, 1, n)`), calling the kernel with the `nd_item`, the
//!   local-memory pointers and the device globals it uses;
//! - marks the lambda with what is known at compile time: a constant block
//!   size (`SYCLIFY_REQD_WORK_GROUP_SIZE`, [`super::work_group_size`]), the kernel's
//!   `__launch_bounds__` for a 1-D block (`SYCLIFY_LAUNCH_BOUNDS`), and
//!   `[[sycl::reqd_sub_group_size(32)]]` for kernels that use warps.
//!
//! The launches whose arguments come packed (`cudaLaunchKernel`,
//! `cudaLaunchCooperativeKernel`: `void **args`) read them on the host in the
//! kernel's parameter types (`syclify::unpack_args`), and so does the kernel
//! of a graph kernel node: `params.func = (void *)k` (also `p.kernel.func`,
//! a designated `.func`, the first value of a braced `cudaKernelNodeParams`)
//! becomes a `syclify::kernel_node_fn` that unpacks the node's arguments
//! when the node is added and returns its launch ([`kernel_node`]).
//!
//! Launches inside macro bodies are migrated too (with line continuations).
//! A kernel named by a macro parameter: when the macro's uses in the file
//! (directly or through other macros) pass kernels that need local memory or
//! device globals, the launch chooses among a launch of each
//! ([`macro_dispatch`]); otherwise it is migrated for a kernel that needs
//! only the nd_item (SY0202 where a use passes one that needs more) — but
//! for a launch that gives a local-memory size, whose buffer is allocated
//! and passed where the kernel takes one (`syclify::call_with_local`:
//! decided by the compiler at each use, whatever the kernels' parameters).
//!
//! An argument list holding a conditional group that error recovery parsed
//! in one configuration (`d,` / `#ifdef USE_DOUBLE` / `2.0,` / `#else` /
//! `2.0f,` / `#endif` / `n`) is copied into the kernel call as written, with
//! the host-evaluated arguments by their names: every configuration compiles.
//!
//! Why: SYCL launches are command groups submitted to a queue; the global
//! size is in work-items, not in blocks.
//!
//! Example: `scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);` →
//! ```text
//! syclify::launch(syclify::default_queue(), [&](sycl::handler &cgh) {
//!   cgh.parallel_for(syclify::launch_range(sycl::range<3>(1, 1, (n + 255) / 256), sycl::range<3>(1, 1, 256)), [=](sycl::nd_item<3> item) SYCLIFY_REQD_WORK_GROUP_SIZE(1, 1, 256) {
//!     scale(d, 2.0f, n, item);
//!   });
//! });
//! ```

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::index::Needs;
use crate::rules::device_function_parameters::{DYN_LOCAL, GRID};
use crate::syntax::NodeKind;
use crate::syntax::{self, callee_name, descendants};
use std::collections::BTreeMap;
use tree_sitter::Node;

pub const RULE: &str = "kernel-launch";

/// Where a launch is written: in code, or in a macro body (where new lines
/// need continuations and the kernel may be a macro parameter).
struct View {
    /// Newline (with a continuation inside macros).
    nl: &'static str,
    indent: String,
    /// Parameter names when this is the body of a function-like macro.
    macro_params: Vec<String>,
}

impl View {
    /// Code (not a macro body) at `n`'s line, indented as that line is.
    fn at(ctx: &FileCtx, n: Node) -> View {
        let indent = ctx.src[ctx.line_start(n.start_byte())..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        View { nl: "\n", indent, macro_params: vec![] }
    }
}

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.main_of(&["call_expression"]) {
        if ctx.in_error(n) {
            continue;
        }
        let api = is_api_launch(ctx, n);
        if is_launch(n) || api {
            let view = View::at(ctx, n);
            if api {
                api_launch(ctx, &view, n);
            } else {
                launch(ctx, &view, n);
            }
        }
    }
    for n in ctx.main_of(&["assignment_expression", "initializer_pair", "init_declarator"]) {
        if let Some(kernel) = kernel_node_func(ctx, n).filter(|_| !ctx.in_error(n)) {
            kernel_node(ctx, &View::at(ctx, n), kernel);
        }
    }
    for n in ctx.main_of(&["function_definition"]) {
        if !ctx.in_error(n) && has_c_linkage(ctx, n) {
            module_launcher(ctx, n);
        }
    }
    for crate::rules::MacroBody { range, tree, .. } in ctx.macro_trees {
        let Some(arg) = ctx.root().descendant_for_byte_range(range.start, range.end).filter(|a| a.kind_str() == "preproc_arg") else {
            continue;
        };
        let macro_params: Vec<String> = arg
            .parent()
            .filter(|p| p.kind_str() == "preproc_function_def")
            .and_then(|p| p.field("parameters"))
            .map(|ps| syntax::named_children(ps).into_iter().map(|c| ctx.text(c).to_string()).collect())
            .unwrap_or_default();
        let view = View { nl: " \\\n", indent: "  ".into(), macro_params };
        let mname = arg.parent().and_then(|d| d.field("name")).map(|n| ctx.text(n).to_string()).unwrap_or_default();
        // a file migrated in parts: the macro's uses in other parts are not
        // read (the kernels they pass, what those kernels need)
        if !ctx.whole() && !view.macro_params.is_empty() && descendants(tree.root_node()).into_iter().any(is_launch) {
            ctx.diag(
                Code::MappingWarning,
                range.clone(),
                RULE,
                format!(
                    "this file is large and migrated in parts (of some {} KB of declarations each): the uses of launch macro `{mname}` outside this part are not read; check that the kernels they pass get what they need (local memory, device globals)",
                    ctx.body.len().div_ceil(1024)
                ),
            );
        }
        // the parameters that name kernels of launches migrated as usual
        let mut kernel_params = Vec::new();
        for n in descendants(tree.root_node()) {
            if is_launch(n) && !ctx.in_error(n) && !macro_dispatch(ctx, &view, n, &mname) {
                launch(ctx, &view, n);
                if let Some(pos) = callee_name(n, ctx.src).and_then(|(_, k)| view.macro_params.iter().position(|p| p == k)) {
                    kernel_params.push((pos, n.byte_range(), gives_local_size(ctx, n)));
                }
            }
        }
        if !kernel_params.is_empty() {
            check_macro_uses(ctx, &mname, &kernel_params);
        }
    }
}

/// Is `r` (a kernel a pointer takes) the initializer of a declaration typed
/// `auto`? (A few levels up: through `&`, casts, `?:` and parentheses.)
fn declared_auto(ctx: &FileCtx, r: Node) -> bool {
    let mut n = r;
    for _ in 0..8 {
        let Some(p) = n.parent() else { return false };
        match p.kind_str() {
            "init_declarator" => {
                return p.parent().and_then(|d| d.field("type")).is_some_and(|t| t.kind_str() == "placeholder_type_specifier" || ctx.text(t) == "auto");
            }
            "pointer_expression" | "cast_expression" | "conditional_expression" | "parenthesized_expression" => n = p,
            _ => return false,
        }
    }
    false
}

/// `k<int, 4>` → `k` and its template arguments; a plain name → itself.
fn split_instantiation(k: &str) -> (&str, Vec<String>) {
    match k.split_once('<') {
        Some((b, rest)) => (b.trim(), split_top_level(rest.trim_end().strip_suffix('>').unwrap_or(rest)).iter().map(|a| a.trim().to_string()).collect()),
        None => (k, Vec::new()),
    }
}

/// The runtime API's launches, whose arguments come packed (`void **args`).
pub const API_LAUNCHES: &[&str] = &["cudaLaunchKernel", "cudaLaunchCooperativeKernel"];

/// Is `call` one of [`API_LAUNCHES`] that this rule migrates? (Not where a
/// rule file maps it: the user's entry wins.)
pub fn is_api_launch(ctx: &FileCtx, call: Node) -> bool {
    callee_name(call, ctx.src).is_some_and(|(_, c)| API_LAUNCHES.contains(&c) && !ctx.project.mappings.functions.contains_key(c))
}

fn is_launch(n: Node) -> bool {
    n.kind_str() == "call_expression" && syntax::children(n).iter().any(|c| c.kind_str() == "kernel_call_syntax")
}

/// The kernels that uses of macro `mname` in this file pass as its argument
/// `pos`: written at a use in code, or passed on by another macro's body
/// (`#define call(k, g, b) call_s(k, g, b, 0)`) from that macro's uses.
/// None when one of them is not a plain name.
fn macro_kernel_args(ctx: &FileCtx, mname: &str, pos: usize, seen: &mut Vec<(String, usize)>) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    if seen.iter().any(|(m, p)| m == mname && *p == pos) {
        return Some(out);
    }
    seen.push((mname.to_string(), pos));
    let add = |out: &mut Vec<String>, a: &str| -> bool {
        let a = a.trim();
        if a.is_empty() || !a.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_') {
            return false;
        }
        if !out.iter().any(|x| x == a) {
            out.push(a.to_string());
        }
        true
    };
    for &n in ctx.calls_of(mname) {
        let args: Vec<Node> = n.field("arguments").map(syntax::named_children).unwrap_or_default();
        if let Some(a) = args.get(pos)
            && !add(&mut out, ctx.text(*a))
        {
            return None;
        }
    }
    for (other, body) in ctx.macro_definitions() {
        if !body.contains(mname) {
            continue;
        }
        let Some((params, after)) = body.starts_with('(').then(|| crate::mask::paren_group(body, 0)).flatten() else {
            continue;
        };
        let params: Vec<&str> = params.split(',').map(str::trim).collect();
        let body = &body[after..];
        for (r, w) in syntax::identifiers(body) {
            if w != mname {
                continue;
            }
            let Some((inner, _)) = crate::mask::paren_group(body, r.end) else {
                continue;
            };
            let Some(a) = split_top_level(inner).get(pos).map(|a| a.trim().to_string()) else {
                continue;
            };
            match params.iter().position(|p| *p == a) {
                Some(p2) => {
                    for k in macro_kernel_args(ctx, other, p2, seen)? {
                        add(&mut out, &k);
                    }
                }
                None => {
                    if !add(&mut out, &a) {
                        return None;
                    }
                }
            }
        }
    }
    Some(out)
}

/// `s` split at its commas outside brackets.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// A launch in macro `mname` whose kernel is a macro parameter (`k<<<g,
/// b>>>()`) where the kernels its uses pass need more than the nd_item
/// (local memory, device globals): like a launch through a kernel pointer
/// ([`pointer_launch`]), a choice among a launch of each by name, on which
/// function `k` names (decided by the compiler once the macro is expanded).
/// Only where those kernels take the same parameters: each choice is
/// compiled with every use's arguments.
/// Another kernel (from a use syclify did not see) launches nothing and
/// sets the error `cudaGetLastError` reports, as a launch of an invalid
/// device function does. False when the launch is migrated as usual.
fn macro_dispatch(ctx: &mut FileCtx, view: &View, call: Node, mname: &str) -> bool {
    let index = ctx.project.index;
    let Some(function) = call.field("function").filter(|f| f.kind_str() == "identifier") else {
        return false;
    };
    let k = ctx.text(function).to_string();
    let Some(pos) = view.macro_params.iter().position(|p| *p == k) else {
        return false;
    };
    let Some(kernels) = macro_kernel_args(ctx, mname, pos, &mut Vec::new()) else {
        return false;
    };
    let needs_more = |n: &str| index.needs.get(n).is_some_and(Needs::memory);
    if kernels.is_empty() || !kernels.iter().all(|n| index.is_kernel(n)) || !kernels.iter().any(|n| needs_more(n)) {
        return false;
    }
    // every choice is compiled with every use's arguments: the kernels must
    // take the same parameters (and be no templates)
    let signature = |n: &str| index.functions.get(n).map(|f| (f.params.clone(), f.template_params.is_empty()));
    let first = signature(&kernels[0]);
    if !first.as_ref().is_some_and(|(_, plain)| *plain) || kernels.iter().any(|n| signature(n) != first) {
        return false;
    }
    launch_choice(ctx, view, call, function, &format!("&{k}"), &kernels, "(void)syclify::detail::record(syclify::error_invalid_device_function)", |list| {
        format!("the kernel is macro parameter `{k}`: the launch chooses among {list}, the kernels this file's uses of `{mname}` pass")
    })
}

/// For a macro whose launches name the kernel through parameter `k` (at
/// `(position, launch range)`) and were migrated as usual: every kernel its
/// uses pass must need no local memory or device globals.
fn check_macro_uses(ctx: &mut FileCtx, mname: &str, kernel_params: &[(usize, std::ops::Range<usize>, bool)]) {
    let index = ctx.project.index;
    let message = |k: &str| {
        let what = index.needs.get(k).map(|n| Needs { item: false, ..n.clone() }.describe()).unwrap_or_default();
        format!("kernel `{k}` needs {what} but is launched through macro `{mname}`, whose launch cannot pass them")
    };
    for (pos, launch, gives_local) in kernel_params {
        // (dynamic local memory alone is passed by a launch that gives its size)
        let needs_more = |k: &str| index.needs.get(k).is_some_and(|n| n.memory() && !(*gives_local && n.locals.is_empty() && n.globals.is_empty() && !n.grid));
        let mut reported: Vec<String> = Vec::new();
        // at the uses in code
        let uses: Vec<Node> = ctx.calls_of(mname).to_vec();
        for n in uses {
            let args: Vec<Node> = n.field("arguments").map(syntax::named_children).unwrap_or_default();
            let Some(a) = args.get(*pos) else { continue };
            let kname = ctx.text(*a).split('<').next().unwrap_or("").trim().to_string();
            if needs_more(&kname) {
                ctx.diag(Code::LocalMemoryUnresolved, a.byte_range(), RULE, message(&kname));
                reported.push(kname);
            }
        }
        // passed on by other macros: at the launch
        for k in macro_kernel_args(ctx, mname, *pos, &mut Vec::new()).unwrap_or_default() {
            if needs_more(&k) && !reported.contains(&k) {
                ctx.diag(Code::LocalMemoryUnresolved, launch.clone(), RULE, message(&k));
                reported.push(k);
            }
        }
    }
}

/// Does the launch `call` give a local-memory size (a third configuration
/// argument other than `0`)?
fn gives_local_size(ctx: &FileCtx, call: Node) -> bool {
    let Some(config) = syntax::children(call).into_iter().find(|c| c.kind_str() == "kernel_call_syntax") else { return false };
    syntax::items(config).get(2).is_some_and(|s| !matches!(ctx.text(*s).trim(), "0" | "0u" | "0U"))
}

/// Is this a plain name or literal, safe to capture by value in the kernel lambda?
fn is_simple_arg(n: Node) -> bool {
    match n.kind_str() {
        // a function parameter pack, `args...`: captured by the lambda like a name
        "parameter_pack_expansion" => n.field("pattern").is_some_and(|p| p.kind_str() == "identifier"),
        k => matches!(k, "identifier" | "number_literal" | "string_literal" | "char_literal" | "true" | "false" | "null" | "nullptr" | "concatenated_string"),
    }
}

/// Is this expression evidently an integer (no calls, fields or unknown types)?
fn is_arithmetic(n: Node) -> bool {
    is_arithmetic_within(n, 0)
}

fn is_arithmetic_within(n: Node, depth: usize) -> bool {
    match n.kind_str() {
        "number_literal" | "char_literal" | "sizeof_expression" => true,
        "binary_expression" | "parenthesized_expression" | "unary_expression" | "conditional_expression" | "cast_expression"
            if depth < syntax::EXPRESSION_DEPTH =>
        {
            syntax::named_children(n)
                .into_iter()
                .filter(|c| c.kind_str() != "type_descriptor")
                .all(|c| is_arithmetic_within(c, depth + 1) || c.kind_str() == "identifier")
        }
        _ => false,
    }
}

/// The SYCL `range<3>` for a grid or block expression.
fn range_expr(ctx: &mut FileCtx, n: Node) -> Replacement {
    let abs = n.byte_range();
    match n.kind_str() {
        "identifier" if ctx.is_dim3_var(ctx.text(n), abs.start) => Replacement::new().source(abs),
        "identifier" if ctx.is_other_var(ctx.text(n), abs.start) => Replacement::new().text("sycl::range<3>(1, 1, ").source(abs).text(")"),
        "call_expression" if n.field("function").is_some_and(|f| ctx.text(f) == "dim3") => {
            let args: Vec<Node> = n.field("arguments").map(syntax::named_children).unwrap_or_default();
            if crate::rules::dim3::is_copy(ctx, &args) {
                return Replacement::new().source(args[0].byte_range());
            }
            crate::rules::dim3::reversed_range(args.iter().map(|a| a.byte_range()).collect())
        }
        _ if is_arithmetic(n) => Replacement::new().text("sycl::range<3>(1, 1, ").source(abs).text(")"),
        _ => Replacement::new().text("syclify::as_range3(").source(abs).text(")"),
    }
}

fn paren(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || is_parenthesized(s) { s.to_string() } else { format!("({s})") }
}

/// Is `s` one parenthesised group, `(...)`?
fn is_parenthesized(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('(').and_then(|r| r.strip_suffix(')')) else {
        return false;
    };
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

fn strip_cv(t: &str) -> String {
    t.split_whitespace().filter(|w| *w != "volatile" && *w != "const").collect::<Vec<_>>().join(" ")
}

fn launch(ctx: &mut FileCtx, view: &View, call: Node) {
    let index = ctx.project.index;
    let Some(function) = call.field("function") else {
        return;
    };
    let kname = callee_name(call, ctx.src).map(|(_, s)| s.to_string()).unwrap_or_else(|| ctx.text(function).to_string());
    // a pointer to a kernel (`void (*kernel)(...) = &copy;`), not a kernel
    if function.kind_str() == "identifier" && !index.is_kernel(&kname) && ctx.declared_in_scope(function, &kname) {
        pointer_launch(ctx, view, call, function, &kname);
        return;
    }
    if let Some(r) = render_launch(ctx, view, call, &kname) {
        ctx.edits.replace(RULE, call.byte_range(), r);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// A launch through a variable that points to a kernel (`kernel<<<g,
/// b>>>(args)` after `kernel = &copy;`): the kernels the enclosing function
/// assigns to it (`p = &k`, `p = k`, its initializer, either side of `?:`)
/// each have their own extra parameters, so the launch becomes a choice
/// among launches of each by name, on the pointer's value; the assignments
/// and comparisons (`p == &k`) cast the kernels to the pointer's type
/// (function pointers convert both ways with `reinterpret_cast`). With no
/// such assignment in sight the launch is SY0205.
fn pointer_launch(ctx: &mut FileCtx, view: &View, call: Node, function: Node, var: &str) {
    let Some(kernels) = pointer_targets(ctx, call, var) else {
        return;
    };
    // none of them (a null pointer): nothing runs, as a failed CUDA launch
    launch_choice(ctx, view, call, function, var, &kernels, "(void)0", |list| {
        format!("`{var}` points to a kernel: the launch chooses among {list} by the pointer's value")
    });
}

/// The kernels that the function around `call` assigns to pointer `var`
/// (each cast to the pointer's type where it takes them), or None (SY0205
/// reported) when it assigns none.
fn pointer_targets(ctx: &mut FileCtx, call: Node, var: &str) -> Option<Vec<String>> {
    let body = syntax::ancestor_of_kind(call, &["function_definition"]);
    // (a body cut in parts: its assignments elsewhere are not here)
    if body.is_some_and(|d| ctx.is_split(d)) {
        ctx.diag(
            Code::KernelPointerLaunch,
            call.byte_range(),
            RULE,
            format!("`{var}` is a pointer to a kernel, in a function so large that its body is migrated in parts (of some {} KB): the kernels it is assigned are not read, and a launch through it is not migrated; launch each kernel by name", ctx.body.len().div_ceil(1024)),
        );
        return None;
    }
    let mut refs: Vec<Node> = Vec::new();
    if let Some(body) = body {
        for n in syntax::descendants(body) {
            let value = match n.kind_str() {
                "assignment_expression" => n.field("left").filter(|l| ctx.text(*l) == var).and(n.field("right")),
                "init_declarator" => {
                    n.field("declarator").and_then(|d| syntax::declarator_name(d, ctx.src)).filter(|(_, name)| *name == var).and(n.field("value"))
                }
                "binary_expression" if matches!(n.field("operator").map(|o| ctx.text(o)), Some("==" | "!=")) => {
                    let (l, r) = (n.field("left"), n.field("right"));
                    match (l, r) {
                        (Some(l), Some(r)) if ctx.text(l) == var => Some(r),
                        (Some(l), Some(r)) if ctx.text(r) == var => Some(l),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some(v) = value {
                kernel_refs(ctx, v, &mut refs);
            }
        }
    }
    // each reference with the kernel it names (`&k` or `k`)
    let refs: Vec<(Node, String)> = refs.into_iter().map(|r| (r, ctx.text(r).trim_start_matches('&').trim().to_string())).collect();
    let mut kernels: Vec<String> = Vec::new();
    for (_, name) in &refs {
        if !kernels.contains(name) {
            kernels.push(name.clone());
        }
    }
    if kernels.is_empty() {
        ctx.diag(
            Code::KernelPointerLaunch,
            call.byte_range(),
            RULE,
            format!("`{var}` is a pointer to a kernel that this function does not assign: a launch through it is not migrated; launch each kernel by name"),
        );
        return None;
    }
    // the kernels, where the pointer takes them: cast to its type
    for (r, name) in refs {
        let range = r.byte_range();
        if ctx.edits.at(&range).any(|e| e.rule() == RULE) {
            continue; // another launch through the same pointer did it
        }
        // `auto k = kernel<T>;` deduces the kernel's own type (and cannot
        // name itself in its initializer): nothing to cast
        if declared_auto(ctx, r) {
            continue;
        }
        ctx.edits.replace_text(RULE, range, format!("reinterpret_cast<decltype({var})>(&{name})"));
    }
    Some(kernels)
}

/// Replaces the launch `call` with a choice among a launch of each of
/// `kernels` by name, on which function `function` (an expression: a
/// pointer, `&k`) points to; `none` when it is none of them; and reports it
/// (SY0206) at `at` with `describe` of the kernels' list. False when a
/// launch cannot be rendered (nothing is changed).
#[allow(clippy::too_many_arguments)]
fn launch_choice(
    ctx: &mut FileCtx,
    view: &View,
    call: Node,
    at: Node,
    function: &str,
    kernels: &[String],
    none: &str,
    describe: impl FnOnce(&str) -> String,
) -> bool {
    launch_choice_of(ctx, view, call, at, function, kernels, none, describe, "(void)", |ctx, k| render_launch(ctx, view, call, k))
}

/// [`launch_choice`] with each kernel's launch from `render`, cast by
/// `cast` (`(void)`, or nothing where the launch's value is the call's).
#[allow(clippy::too_many_arguments)]
fn launch_choice_of(
    ctx: &mut FileCtx,
    view: &View,
    call: Node,
    at: Node,
    function: &str,
    kernels: &[String],
    none: &str,
    describe: impl FnOnce(&str) -> String,
    cast: &str,
    render: impl Fn(&mut FileCtx, &str) -> Option<Replacement>,
) -> bool {
    let nl = view.nl;
    let mut out = Replacement::new();
    out.push_text("(");
    for k in kernels {
        let Some(r) = render(ctx, k) else { return false };
        out.push_text(&format!("reinterpret_cast<const void *>({function}) == reinterpret_cast<const void *>(&{k}) ? {cast}{nl}{}", view.indent));
        out.extend(r);
        out.push_text(&format!(" :{nl}{}", view.indent));
    }
    out.push_text(&format!("{none})"));
    ctx.edits.replace(RULE, call.byte_range(), out);
    let list = kernels.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
    ctx.diag(Code::KernelPointerDispatch, at.byte_range(), RULE, describe(&list));
    ctx.count(RULE);
    ctx.needs_sycl = true;
    true
}

/// The kernel names in `v` that a pointer takes (`&k`, `k`, inside `?:`
/// and parentheses): the nodes to cast.
fn kernel_refs<'t>(ctx: &FileCtx, v: Node<'t>, out: &mut Vec<Node<'t>>) {
    let index = ctx.project.index;
    match v.kind_str() {
        "identifier" if index.is_kernel(ctx.text(v)) => out.push(v),
        // `k<float>`, an instantiation of a kernel template
        "template_function" if v.field("name").is_some_and(|n| index.is_kernel(ctx.text(n))) => out.push(v),
        "pointer_expression"
            if v.field("argument").is_some_and(|a| a.kind_str() == "identifier" && index.is_kernel(ctx.text(a))) && ctx.text(v).starts_with('&') =>
        {
            out.push(v)
        }
        "conditional_expression" => {
            for field in ["consequence", "alternative"] {
                if let Some(c) = v.field(field) {
                    kernel_refs(ctx, c, out);
                }
            }
        }
        "parenthesized_expression" => {
            for c in syntax::named_children(v) {
                kernel_refs(ctx, c, out);
            }
        }
        // `(void *)k`, for a `void *` that `cudaLaunchKernel` takes
        "cast_expression" => {
            if let Some(c) = v.field("value") {
                kernel_refs(ctx, c, out);
            }
        }
        _ => {}
    }
}

/// The launch `call` of kernel `kname` (its own name, or one a pointer
/// takes), as the text that replaces the call.
fn render_launch(ctx: &mut FileCtx, view: &View, call: Node, kname: &str) -> Option<Replacement> {
    let index = ctx.project.index;
    let function = call.field("function")?;
    let config_node = syntax::children(call).into_iter().find(|c| c.kind_str() == "kernel_call_syntax").expect("is_launch");
    let config: Vec<Node> = syntax::items(config_node);
    let args: Vec<Node> = syntax::call_arguments(call);
    // a kernel a pointer takes may be an instantiation (`k<int, 4>`): its
    // template's facts, with those arguments
    let pointer_target = kname;
    let (kname, targs) = split_instantiation(kname);
    let kname = kname.to_string();
    let targs: Vec<String> = if function.kind_str() == "template_function" {
        function.field("arguments").map(syntax::named_children).unwrap_or_default().iter().map(|a| ctx.text(*a).to_string()).collect()
    } else {
        targs
    };
    let call_range = call.byte_range();
    if config.len() < 2 {
        return None;
    }
    // a conditional group inside `<<<…>>>` (read as blank): only one that
    // gives the local-memory size, `(directive line, size)` per branch
    // (the masks are in order of their start)
    let masks = &ctx.parsed.masks;
    let groups: Vec<std::ops::Range<usize>> = masks[masks.partition_point(|m| m.range.start < config_node.start_byte())..]
        .iter()
        .take_while(|m| m.range.start <= config_node.end_byte())
        .filter(|m| m.kind == crate::mask::MaskKind::LaunchConfigDirective && m.range.end <= config_node.end_byte())
        .map(|m| m.range.clone())
        .collect();
    let conditional_size: Option<Vec<(String, Option<String>)>> = if groups.is_empty() {
        None
    } else {
        let branches =
            (groups.len() == 1 && config.len() == 2).then(|| crate::mask::launch_config_branches(&ctx.src[groups[0].clone()])).flatten().and_then(|bs| {
                bs.into_iter()
                    .map(|(d, body)| {
                        let b = body.trim();
                        if b.is_empty() {
                            return Some((d, None));
                        }
                        let items = split_top_level(b.strip_prefix(',')?);
                        (items.len() == 1).then(|| (d, Some(items[0].trim().to_string())))
                    })
                    .collect::<Option<Vec<_>>>()
            });
        if branches.is_none() {
            // counted from the launch, not the file: a second migration,
            // which adds comments above, gives the same message
            let below = ctx.src[call_range.start..groups[0].start].matches('\n').count();
            let at = match below {
                0 => "on the launch's line".to_string(),
                1 => "one line below".to_string(),
                n => format!("{n} lines below"),
            };
            ctx.diag(
                Code::ConditionalLaunchConfig,
                call_range.clone(),
                RULE,
                format!("the conditional inside `<<<…>>>` ({at}) gives more than the local-memory size; the launch was left as is"),
            );
            return None;
        }
        branches
    };
    // arguments the grammar could not read (reported as SY0001): left as is,
    // and the leftover `<<<` says so
    if args.iter().any(|a| a.has_error() && !syntax::is_list_directive(*a)) {
        return None;
    }
    let is_macro_param = view.macro_params.contains(&kname);
    let facts = index.functions.get(&kname).filter(|f| f.is_kernel);
    // a macro parameter's kernel, launched with a local-memory size: the
    // buffer is allocated and passed where the kernel takes one
    // (`syclify::call_with_local`, decided by the compiler at each use)
    let probe_local = facts.is_none() && is_macro_param && gives_local_size(ctx, call);
    let needs = match facts {
        Some(_) => index.needs.get(&kname).cloned().unwrap_or_default(),
        None => {
            if probe_local {
                ctx.diag(
                    Code::MacroLaunchKernel,
                    call_range.clone(),
                    RULE,
                    format!(
                        "the kernel is macro parameter `{kname}`; migrated for a kernel without static local memory or device globals, its dynamic local memory passed where the kernel takes it"
                    ),
                );
                Needs { item: true, dynamic_local: true, ..Default::default() }
            } else if is_macro_param {
                ctx.diag(
                    Code::MacroLaunchKernel,
                    call_range.clone(),
                    RULE,
                    format!("the kernel is macro parameter `{kname}`; migrated for a kernel without local memory"),
                );
                Needs { item: true, ..Default::default() }
            } else {
                ctx.diag(
                    Code::UnknownKernel,
                    call_range.clone(),
                    RULE,
                    format!("kernel `{kname}` is not defined in the migrated sources; migrated assuming it needs no local memory"),
                );
                Needs { item: true, ..Default::default() }
            }
        }
    };
    let required = facts.map(|f| f.required_params).unwrap_or(usize::MAX);
    let mut tmap = BTreeMap::new();
    if let Some(f) = facts {
        for (p, a) in f.template_params.iter().zip(&targs) {
            tmap.insert(p.clone(), a.clone());
        }
    }

    let nl = view.nl;
    let i0 = view.indent.clone();
    let i1 = format!("{i0}  ");
    let i2 = format!("{i0}    ");
    let mut r = Replacement::new();
    // queue
    r.push_text("syclify::launch(");
    // configuration arguments the launch does not keep (a default stream, a
    // shared-memory size the kernel does not use) are dropped with their edits
    let mut dropped = Vec::new();
    push_queue(ctx, &mut r, config.get(3).copied());
    if let Some(shmem) = config.get(2).filter(|_| !needs.dynamic_local) {
        dropped.push(shmem.byte_range());
    }
    r.push_text(&format!(", [&](sycl::handler &cgh) {{{nl}"));

    // arguments evaluated on the host (first: local memory sizes may depend on their types)
    let item = if args.iter().any(|a| syntax::contains_word(ctx.text(*a), "item")) { "item_ct1" } else { "item" };
    // directive lines between the arguments (`d\n#ifdef X\n, c\n#endif`) are
    // repeated where the arguments go: around their host evaluation and in
    // the kernel call; `directives[k]` are those before argument k
    let mut directives: Vec<Vec<String>> = vec![Vec::new()];
    let mut real: Vec<Node> = Vec::new();
    for a in &args {
        if syntax::is_list_directive(*a) {
            directives.last_mut().expect("one entry per argument, plus one").push(syntax::list_directive_text(*a, ctx.src).to_string());
        } else {
            real.push(*a);
            directives.push(Vec::new());
        }
    }
    let first_directive = directives.iter().position(|d| !d.is_empty()).unwrap_or(real.len());
    let args = real;
    // a variable at namespace scope (`int N;` beside main, or declared in a
    // header) is not captured by the kernel lambda's `[=]`: device code would
    // read its own, uninitialised copy of the global. CUDA passes its value:
    // read it on the host, as for any expression
    let host_globals: Vec<usize> = args
        .iter()
        .filter(|a| {
            let name = ctx.text(**a);
            // (a macro is a constant or the launch macro's `__VA_ARGS__`)
            a.kind_str() == "identifier"
                && !name.starts_with("__")
                && !ctx.project.index.macros.names.contains(name)
                && match ctx.declaration_in_scope(**a, name) {
                    // (declared outside the function that launches, and not
                    // a constant, which device code reads as its value)
                    Some((decl, _)) => {
                        let constant =
                            syntax::named_children(decl).iter().any(|c| c.kind_str() == "type_qualifier" && matches!(ctx.text(*c), "const" | "constexpr"));
                        !constant && ctx.scope_at(a.start_byte()).is_none_or(|f| !f.range.contains(&decl.start_byte()))
                    }
                    // (not found: declared in a header, or a local the lookup
                    // does not see — those the function's declarations name)
                    None => !ctx.declared_in_function(name, a.start_byte()),
                }
        })
        .map(|a| a.id())
        .collect();
    let hoisted = |a: &Node| !is_simple_arg(*a) || view.macro_params.iter().any(|p| p == ctx.text(*a)) || host_globals.contains(&a.id());
    // the directives matter on the host only around an argument evaluated there
    let host_directives = args.iter().skip(first_directive).any(hoisted);
    let mut call_args: Vec<Replacement> = Vec::new();
    let mut arg_names: Vec<String> = Vec::new();
    // text of a conditional group inside the argument list that the parse
    // did not read (a configuration was parsed; the other branches are kept
    // as written, SY0005): the kernel call keeps the list as written
    let list = call.field("arguments").map(|l| l.start_byte() + 1..l.end_byte().saturating_sub(1));
    let hidden_list = list.clone().filter(|l| ctx.hidden_branch_in(l.clone()));
    let host_evaluated: Vec<bool> = args.iter().map(hoisted).collect();
    for (i, a) in args.iter().enumerate() {
        for d in directives[i].iter().filter(|_| host_directives) {
            r.push_text(&format!("{d}{nl}"));
        }
        // a macro parameter may expand to any expression: evaluate it on the host too
        if !host_evaluated[i] {
            call_args.push(Replacement::new().source(a.byte_range()));
            arg_names.push(ctx.text(*a).to_string());
        } else {
            let name = format!("{kname}_arg{i}");
            r.push_text(&format!("{i1}auto {name} = "));
            r.push_source(a.byte_range());
            r.push_text(&format!(";{nl}"));
            call_args.push(Replacement::new().text(&name));
            arg_names.push(name);
        }
    }
    for d in directives[args.len()].iter().filter(|_| host_directives) {
        r.push_text(&format!("{d}{nl}"));
    }
    // template parameters the launch does not give: deduced from the arguments' types as C++ does
    if let Some(f) = facts {
        for p in f.template_params.iter().skip(targs.len()) {
            let deduced = f.params.iter().enumerate().find(|(j, ps)| ps.base == *p && *j < arg_names.len()).map(|(j, ps)| {
                let mut t = format!("decltype({})", arg_names[j]);
                if ps.ptr == 0 {
                    t = format!("std::decay_t<{t}>");
                }
                for _ in 0..ps.ptr {
                    t = format!("syclify::pointee_t<{t}>");
                }
                t
            });
            if let Some(t) = deduced {
                tmap.insert(p.clone(), t);
            }
        }
    }

    // local memory
    let unbound: Vec<String> = facts.map(|f| f.template_params.iter().filter(|p| !tmap.contains_key(*p)).cloned().collect()).unwrap_or_default();
    let mut accessors = Vec::new();
    let site = Site { kname: &kname, tmap: &tmap, unbound: &unbound, call_range: call_range.clone(), item, nl, i1: &i1 };
    let mut local_args = static_locals(ctx, &mut r, &needs, &site);
    if needs.dynamic_local {
        let acc = format!("{DYN_LOCAL}_acc");
        if let Some(branches) = &conditional_size {
            // the group again, around the allocation (size 0 where no branch gives one)
            let mut has_else = false;
            for (d, size) in branches {
                let word = d.trim_start_matches('#').trim_start();
                if word.starts_with("endif") && !has_else {
                    r.push_text(&format!("#else{nl}{i1}auto {acc} = syclify::dynamic_local_memory(0, cgh);{nl}"));
                }
                has_else |= word.starts_with("else");
                r.push_text(&format!("{d}{nl}"));
                if !word.starts_with("endif") {
                    r.push_text(&format!("{i1}auto {acc} = syclify::dynamic_local_memory({}, cgh);{nl}", size.as_deref().unwrap_or("0")));
                }
            }
        } else {
            r.push_text(&format!("{i1}auto {acc} = syclify::dynamic_local_memory("));
            match config.get(2) {
                Some(s) => r.push_source(s.byte_range()),
                None => {
                    r.push_text("0");
                    ctx.diag(
                        Code::DynamicLocalMemoryWithoutSize,
                        call_range.clone(),
                        RULE,
                        format!("kernel `{kname}` uses `extern __shared__` memory but this launch gives no size"),
                    );
                }
            }
            r.push_text(&format!(", cgh);{nl}"));
        }
        local_args.push(format!("syclify::local_bytes({acc})"));
        accessors.push(acc);
    }

    // device globals: their device allocation, passed as the parameter of the same name
    local_args.extend(global_args(ctx, &mut r, &needs, &site));

    // nd_range
    let grid = range_expr(ctx, config[0]);
    let block = range_expr(ctx, config[1]);
    if needs.grid {
        grid_launch_note(ctx, &call_range, &kname);
    }
    push_parallel_for(&mut r, &needs, false, grid, block, &accessors, &site);
    if needs.warp {
        r.push_text(" [[sycl::reqd_sub_group_size(32)]]");
    }
    if let Some(zyx) = crate::rules::work_group_size::required(ctx, config[1]) {
        r.push_text(&format!(" SYCLIFY_REQD_WORK_GROUP_SIZE({zyx})"));
    }
    // `__launch_bounds__` of the kernel, where its arguments mean the same
    // here (not the kernel's template parameters, not macros of another file)
    if let Some(f) = facts
        && let Some((args, file)) = &f.launch_bounds
        && (file == ctx.rel || args.iter().all(|a| crate::rules::work_group_size::integer_literal(a)))
        && !args.iter().any(|a| f.template_params.iter().any(|p| syntax::contains_word(a, p)))
        && crate::rules::work_group_size::is_linear(ctx, config[1])
    {
        r.push_text(&format!(" SYCLIFY_LAUNCH_BOUNDS({})", args.join(", ")));
    }
    r.push_text(&format!(" {{{nl}{i2}"));
    // kernel call
    let mut callee = Replacement::new();
    if function.kind_str() == "identifier" && ctx.text(function) != pointer_target {
        // a pointer's launch of one of the kernels it may hold
        callee.push_text(pointer_target);
    } else {
        callee.push_source(function.byte_range());
    }
    if !probe_local {
        r.extend(callee.clone());
        r.push_text("(");
    }
    let mut extras: Vec<String> = vec![item.to_string()];
    if needs.grid {
        extras.push(GRID.to_string());
    }
    extras.extend(local_args);
    // the extra arguments go where the kernel's parameters got them: never
    // after a directive (see syntax::extra_position)
    let at = required.min(call_args.len()).min(first_directive);
    if probe_local {
        // `syclify::call_with_local([&](auto... e) -> decltype(k(args, e...)) { return k(args, e...); }, item, buffer)`
        let mut kcall = callee;
        kcall.push_text("(");
        for (i, a) in call_args.iter().enumerate() {
            if i > 0 {
                kcall.push_text(", ");
            }
            kcall.extend(a.clone());
        }
        kcall.push_text(if call_args.is_empty() { "syclify_extra...)" } else { ", syclify_extra...)" });
        r.push_text("syclify::call_with_local([&](auto... syclify_extra) -> decltype(");
        r.extend(kcall.clone());
        r.push_text(") { return ");
        r.extend(kcall);
        r.push_text(&format!("; }}, {})", extras.join(", ")));
        r.push_text(&format!(";{nl}{i1}}});{nl}{i0}}})"));
        for d in dropped {
            r.push_discard(d);
        }
        return Some(r);
    }
    if let Some(list) = hidden_list {
        // the list as written (its edits with it), the host-evaluated
        // arguments by their names, the extra arguments after argument `at`
        let extras = extras.join(", ");
        let mut pos = list.start;
        if at == 0 {
            r.push_text(&extras);
            if !args.is_empty() {
                r.push_text(", ");
            }
        }
        for (i, a) in args.iter().enumerate() {
            if host_evaluated[i] {
                r.push_source(pos..a.start_byte());
                r.push_text(&arg_names[i]);
                r.push_discard(a.byte_range());
                pos = a.end_byte();
            }
            if at > 0 && i + 1 == at {
                r.push_source(pos..a.end_byte().max(pos));
                r.push_text(&format!(", {extras}"));
                pos = a.end_byte().max(pos);
            }
        }
        r.push_source(pos..list.end);
        r.push_text(&format!(");{nl}{i1}}});{nl}{i0}}})"));
        for d in dropped {
            r.push_discard(d);
        }
        return Some(r);
    }
    let mut all: Vec<(Vec<String>, Replacement)> = Vec::new();
    for (i, a) in call_args.into_iter().enumerate() {
        if i == at {
            all.extend(extras.drain(..).map(|e| (Vec::new(), Replacement::new().text(e))));
        }
        all.push((directives[i].clone(), a));
    }
    all.extend(extras.drain(..).map(|e| (Vec::new(), Replacement::new().text(e))));
    for (i, (ds, a)) in all.into_iter().enumerate() {
        // a directive stands on its own line; the comma stays with the
        // argument after it, inside the conditional
        for d in &ds {
            r.push_text(&format!("{nl}{d}{nl}{i2}"));
        }
        if i > 0 {
            r.push_text(", ");
        }
        r.extend(a);
    }
    for d in &directives[args.len()] {
        r.push_text(&format!("{nl}{d}{nl}{i2}"));
    }
    r.push_text(&format!(");{nl}{i1}}});{nl}{i0}}})"));
    for d in dropped {
        r.push_discard(d);
    }
    Some(r)
}

/// The queue of a launch on `stream`: `syclify::queue_of(stream)`, or the
/// default queue for none or a default stream, whose argument is dropped
/// with its edits.
fn push_queue(ctx: &FileCtx, r: &mut Replacement, stream: Option<Node>) {
    match stream {
        Some(s) if !matches!(ctx.text(s), "0" | "NULL" | "nullptr" | "cudaStreamLegacy" | "cudaStreamPerThread" | "0x0") => {
            r.push_text("syclify::queue_of(");
            r.push_source(s.byte_range());
            r.push_text(")");
        }
        Some(s) => {
            r.push_discard(s.byte_range());
            r.push_text("syclify::default_queue()");
        }
        None => r.push_text("syclify::default_queue()"),
    }
}

/// A launch's command group as its allocations are written: the kernel, the
/// launch's template arguments (and the parameters it leaves unbound), where
/// to report, the nd_item's name, the newline and the indentation of the
/// command group's lines.
struct Site<'s> {
    kname: &'s str,
    tmap: &'s BTreeMap<String, String>,
    unbound: &'s [String],
    call_range: std::ops::Range<usize>,
    /// The name of the kernel lambda's nd_item.
    item: &'s str,
    nl: &'s str,
    i1: &'s str,
}

/// The static local arrays a launch allocates in its command group
/// (written to `r`): the kernel's arguments for them.
fn static_locals(ctx: &mut FileCtx, r: &mut Replacement, needs: &Needs, site: &Site) -> Vec<String> {
    let index = ctx.project.index;
    let Site { kname, tmap, unbound, call_range, nl, i1, .. } = site;
    let kname = *kname;
    let mut local_args = Vec::new();
    for l in &needs.locals {
        let Some(a) = index.shared_array(l) else {
            continue;
        };
        let (a2, unresolved) = match index.local_array_in(kname, l) {
            Ok(a2) => {
                let a2 = a2.substituted(tmap);
                let p = a2.mentions(unbound);
                (a2, p)
            }
            Err(p) => (a.clone(), Some(p)),
        };
        if let Some(p) = unresolved {
            ctx.diag(
                Code::LocalMemoryUnresolved,
                call_range.clone(),
                RULE,
                format!("`__shared__` array `{}` of `{}` depends on template parameter `{p}`, which this launch does not give", a.name, a.owner),
            );
        }
        let acc = format!("{}_acc", l.param_name(kname));
        let count = match a2.dims.as_slice() {
            [] => "1".to_string(),
            [d] if is_parenthesized(d) => d[1..d.len() - 1].to_string(),
            [d] => d.clone(),
            ds => ds.iter().map(|d| paren(d)).collect::<Vec<_>>().join(" * "),
        };
        // braces: `acc(N, cgh)` could parse as a function declaration
        r.push_text(&format!("{i1}syclify::local_array<{}> {acc}{{{count}, cgh}};{nl}", strip_cv(&a2.elem_type)));
        local_args.push(match a2.dims.len() {
            0 => format!("{acc}[0]"),
            1 => format!("syclify::local_ptr({acc})"),
            _ => format!(
                "reinterpret_cast<{} (*){}>(syclify::local_ptr({acc}))",
                a2.elem_type,
                a2.dims[1..].iter().map(|d| format!("[{d}]")).collect::<String>()
            ),
        });
    }
    local_args
}

/// The device globals a launch passes (their pointers taken in the command
/// group, written to `r`): the kernel's arguments for them.
fn global_args(ctx: &mut FileCtx, r: &mut Replacement, needs: &Needs, site: &Site) -> Vec<String> {
    let index = ctx.project.index;
    let Site { kname, tmap, unbound, call_range, nl, i1, .. } = site;
    let kname = *kname;
    let mut out = Vec::new();
    for g in &needs.globals {
        // a texture or surface reference: its object now, by value
        if index.globals.get(g).is_some_and(|s| s.kind.is_reference()) {
            r.push_text(&format!("{i1}auto {g}_view = {g}.view();{nl}"));
            out.push(format!("{g}_view"));
            continue;
        }
        // a variable template: the instantiation the kernel uses, in the launch's types
        let targs = match index.global_args_in(kname, g) {
            Ok(a) if a.is_empty() => String::new(),
            Ok(a) => {
                let a: Vec<String> = a.iter().map(|x| crate::index::substitute_words(x, tmap)).collect();
                if let Some(p) = a.iter().find_map(|x| crate::index::mentions_any(x, unbound)) {
                    ctx.diag(
                        Code::GlobalVariableNotMigrated,
                        call_range.clone(),
                        RULE,
                        format!("variable template `{g}` as `{kname}` uses it depends on template parameter `{p}`, which this launch does not give"),
                    );
                }
                format!("<{}>", a.join(", "))
            }
            Err(p) => {
                ctx.diag(
                    Code::GlobalVariableNotMigrated,
                    call_range.clone(),
                    RULE,
                    format!("the template arguments of variable template `{g}` in `{kname}` depend on template parameter `{p}`, which its calls do not give"),
                );
                String::new()
            }
        };
        r.push_text(&format!("{i1}auto {g}_ptr = {g}{targs}.get_ptr();{nl}"));
        out.push(format!("*{g}_ptr"));
    }

    out
}

/// `cgh.parallel_for(range, [=](sycl::nd_item<3> item)` for `grid` and
/// `block`. A kernel that reaches `this_grid()` gets its grid barrier first
/// (`syclify::cg::grid_sync_for`), at any launch: CUDA 13 gives a `<<<>>>`
/// launch a valid grid group too (measured on an H200). A `cooperative`
/// launch is refused where its work-groups, with the dynamic local memory of
/// `accessors`, do not all fit at once by the occupancy model — which, as
/// `cudaOccupancyMaxActiveBlocks…` is told, counts the dynamic local memory
/// only; another is not (its kernel may use the grid group for ranks alone).
fn push_parallel_for(r: &mut Replacement, needs: &Needs, cooperative: bool, grid: Replacement, block: Replacement, accessors: &[String], site: &Site) {
    let (item, nl, i1) = (site.item, site.nl, site.i1);
    if needs.grid {
        r.push_text(&format!("{i1}auto syclify_range = syclify::launch_range("));
        r.extend(grid);
        r.push_text(", ");
        r.extend(block);
        let check = if cooperative { "" } else { ", false" };
        r.push_text(&format!(
            ");{nl}{i1}auto {GRID} = syclify::cg::grid_sync_for(syclify_range, syclify::cg::local_bytes({}){check});{nl}",
            accessors.join(", ")
        ));
        r.push_text(&format!("{i1}cgh.parallel_for(syclify_range, [=](sycl::nd_item<3> {item})"));
    } else {
        r.push_text(&format!("{i1}cgh.parallel_for(syclify::launch_range("));
        r.extend(grid);
        r.push_text(", ");
        r.extend(block);
        r.push_text(&format!("), [=](sycl::nd_item<3> {item})"));
    }
}

/// `cudaLaunchKernel(func, grid, block, args[, shmem[, stream]])` and
/// `cudaLaunchCooperativeKernel` (same arguments): a launch like `<<<>>>`'s
/// whose kernel arguments are read on the host from `args` (one pointer per
/// parameter, `syclify::unpack_args<N>(&kernel, args)`: the types are the
/// kernel's own) and whose value is the launch's status. `func` names the
/// kernel (through casts: `(void *)k`, `reinterpret_cast<const void *>(&k)`,
/// `k<float>`), or is a pointer the function assigns kernels to (a choice,
/// as for `<<<>>>`). A kernel that reaches `this_grid()` gets its grid
/// barrier at any launch, as for `<<<>>>`.
fn api_launch(ctx: &mut FileCtx, view: &View, call: Node) {
    let index = ctx.project.index;
    let args = syntax::call_arguments(call);
    let name = callee_name(call, ctx.src).map(|(_, c)| c.to_string()).unwrap_or_default();
    if args.len() < 4 || args.iter().any(|a| a.has_error() || syntax::is_list_directive(*a)) {
        ctx.diag(Code::UnsupportedApi, call.byte_range(), RULE, format!("`{name}` with these arguments is not migrated; the call was left as is"));
        return;
    }
    let function = strip_kernel_casts(ctx, args[0]);
    let (kname, targs) = kernel_name(ctx, function).unwrap_or_else(|| (ctx.text(function).to_string(), Vec::new()));
    let simple = kname.rsplit("::").next().unwrap_or(&kname).to_string();
    if !index.is_kernel(&simple) {
        if function.kind_str() == "identifier" && ctx.declared_in_scope(function, &kname) {
            let Some(kernels) = pointer_targets(ctx, call, &kname) else {
                return;
            };
            let shown = ctx.text(args[0]).to_string();
            launch_choice_of(
                ctx,
                view,
                call,
                args[0],
                &shown,
                &kernels,
                "syclify::error_invalid_device_function",
                |list| format!("`{kname}` points to a kernel: `{name}` chooses among {list} by the pointer's value"),
                "",
                |ctx, k| {
                    let (base, targs) = split_instantiation(k);
                    render_packed(ctx, view, Packed::Call(call), base, k, &targs)
                },
            );
            return;
        }
        ctx.diag(
            Code::UnknownKernel,
            call.byte_range(),
            RULE,
            format!(
                "`{name}`: kernel `{kname}` is not defined in the migrated sources, so the types of its packed arguments are unknown; the call was left as is"
            ),
        );
        return;
    }
    let callee = ctx.text(function).to_string();
    if let Some(r) = render_packed(ctx, view, Packed::Call(call), &simple, &callee, &targs) {
        ctx.edits.replace(RULE, call.byte_range(), r);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// The types whose first member, `func`, names the kernel of a graph kernel
/// node (`cudaKernelNodeParams p = {(void *)k, ...}`).
const KERNEL_NODE_PARAMS: &[&str] = &["cudaKernelNodeParams", "cudaKernelNodeParamsV2"];

/// The value that names a graph kernel node's kernel, if `n` gives one: an
/// assignment to a `func` member (`p.func = (void *)k`,
/// `params.kernel.func = ...`), a designated `.func = ...`, or the first
/// value of a braced `cudaKernelNodeParams` initializer.
fn kernel_node_func<'t>(ctx: &FileCtx<'t>, n: Node<'t>) -> Option<NodeFunc<'t>> {
    // `params.kernel.func = ...` (cudaGraphNodeParams) is a kernel node's
    // whatever the value
    let mut of_node_params = false;
    let value = match n.kind_str() {
        "assignment_expression" => {
            let left = n.field("left")?;
            if left.kind_str() != "field_expression" || left.field("field").map(|f| ctx.text(f)) != Some("func") || ctx.text(n.field("operator")?) != "=" {
                return None;
            }
            of_node_params =
                left.field("argument").is_some_and(|a| a.kind_str() == "field_expression" && a.field("field").is_some_and(|f| ctx.text(f) == "kernel"));
            n.field("right")?
        }
        "initializer_pair" => {
            let d = n.field("designator")?;
            if ctx.text(d).trim_start_matches('.').trim() != "func" {
                return None;
            }
            n.field("value")?
        }
        _ => {
            let ty = n.parent()?.field("type")?;
            let ty = ctx.text(ty).trim_start_matches("struct").trim();
            if !KERNEL_NODE_PARAMS.contains(&ty) {
                return None;
            }
            let list = n.field("value").filter(|v| v.kind_str() == "initializer_list")?;
            let first = syntax::named_children(list).into_iter().next()?;
            if first.kind_str() == "initializer_pair" {
                return None; // designated: handled as an initializer_pair
            }
            first
        }
    };
    // only what names a function through a cast, or a kernel by name
    let inner = strip_kernel_casts(ctx, value);
    let kernel = known_kernel(ctx, inner);
    (kernel.is_some() || of_node_params || inner.id() != value.id()).then_some(NodeFunc { value, function: inner, kernel })
}

/// The value a graph kernel node's kernel is set from, the expression inside
/// its casts, and the kernel that names, if it is one of the migrated sources'
/// (its simple name and template arguments).
struct NodeFunc<'t> {
    value: Node<'t>,
    function: Node<'t>,
    kernel: Option<(String, Vec<String>)>,
}

/// The kernel of the migrated sources that a (cast-stripped) expression
/// names: its simple name (`k` of `ns::k`) and its template arguments.
fn known_kernel(ctx: &FileCtx, function: Node) -> Option<(String, Vec<String>)> {
    let (kname, targs) = kernel_name(ctx, function)?;
    let simple = kname.rsplit("::").next().unwrap_or(&kname).to_string();
    ctx.project.index.is_kernel(&simple).then_some((simple, targs))
}

/// The kernel a (cast-stripped) expression names and its template arguments.
fn kernel_name(ctx: &FileCtx, function: Node) -> Option<(String, Vec<String>)> {
    match function.kind_str() {
        "template_function" => Some((
            function.field("name").map(|n| ctx.text(n).to_string())?,
            function.field("arguments").map(syntax::named_children).unwrap_or_default().iter().map(|a| ctx.text(*a).to_string()).collect(),
        )),
        "identifier" | "qualified_identifier" => Some((ctx.text(function).to_string(), Vec::new())),
        _ => None,
    }
}

/// `params.func = (void *)k` for a graph kernel node: the kernel becomes a
/// `syclify::kernel_node_fn` that reads the node's packed arguments when the
/// node is added (in the kernel's parameter types, as for
/// `cudaLaunchKernel`) and returns its launch, which cudaGraphLaunch submits
/// with the node's grid, block and dynamic local memory.
fn kernel_node(ctx: &mut FileCtx, view: &View, NodeFunc { value, function, kernel }: NodeFunc) {
    let Some((simple, targs)) = kernel else {
        ctx.diag(
            Code::UnsupportedApi,
            value.byte_range(),
            RULE,
            format!(
                "the kernel of a graph kernel node must be named where it is set (`params.func = (void *)kernel`); `{}` is not a kernel of the migrated sources, so the value was left as is",
                ctx.text(value)
            ),
        );
        return;
    };
    let callee = ctx.text(function).to_string();
    if let Some(r) = render_packed(ctx, view, Packed::Node(value), &simple, &callee, &targs) {
        ctx.edits.replace(RULE, value.byte_range(), r);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// Is definition `def` inside `extern "C"` (`extern "C" __global__ void
/// k(...) {...}`, or in an `extern "C" { ... }` block)?
fn has_c_linkage<'t>(ctx: &FileCtx<'t>, def: Node<'t>) -> bool {
    crate::index::has_c_linkage(&*ctx.nodes_main, def, ctx.src)
}

/// A kernel declared `extern "C"` is what CUDA's driver API loads from a
/// module by name (`cuModuleGetFunction(&f, m, "k")`): after its definition
/// goes its launcher, `syclify_kernel_k`, exported with C linkage from the
/// module's shared library. It is a `syclify::kernel_node_fn`, as for a graph
/// kernel node: it reads the arguments `cuLaunchKernel` packs (kernelParams,
/// or the buffer in `extra`) in the kernel's parameter types and returns the
/// launch, which cuLaunchKernel submits with its grid, block, dynamic local
/// memory and stream.
fn module_launcher(ctx: &mut FileCtx, def: Node) {
    let Some((_, name)) = def.field("declarator").and_then(|d| syntax::declarator_name(d, ctx.src)) else {
        return;
    };
    let name = name.to_string();
    let index = ctx.project.index;
    if !index.functions.get(&name).is_some_and(|f| f.is_kernel && f.template_params.is_empty()) {
        return;
    }
    let view = View { nl: "\n", indent: String::new(), macro_params: vec![] };
    if let Some(r) = render_packed(ctx, &view, Packed::Module(def), &name, &name, &[]) {
        // (the lambda initialises a variable of its own: GCC takes the
        // locals of a lambda in an `extern "C"` declaration for extern ones)
        let mut out = Replacement::new();
        out.push_text(&format!(
            "\n// `{name}`'s launcher, for CUDA's driver API (cuModuleGetFunction(&f, module, \"{name}\"), cuLaunchKernel)\nstatic const syclify::kernel_node_fn syclify_launch_{name} = "
        ));
        out.extend(r);
        out.push_text(&format!(";\nextern \"C\" SYCLIFY_MODULE_EXPORT const syclify::kernel_node_fn syclify_kernel_{name} = syclify_launch_{name};"));
        ctx.edits.replace(RULE, def.end_byte()..def.end_byte(), out);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// The kernel expression inside `func`'s casts (`(void *)k`, `(void *)&k`,
/// `reinterpret_cast<const void *>(k<float>)`).
fn strip_kernel_casts<'t>(ctx: &FileCtx, mut n: Node<'t>) -> Node<'t> {
    for _ in 0..syntax::EXPRESSION_DEPTH {
        let inner = match n.kind_str() {
            "cast_expression" => n.field("value"),
            "parenthesized_expression" => syntax::named_children(n).into_iter().next(),
            "pointer_expression" if ctx.text(n).starts_with('&') => n.field("argument"),
            "call_expression"
                if n.field("function").is_some_and(|f| {
                    f.kind_str() == "template_function"
                        && f.field("name").is_some_and(|x| matches!(ctx.text(x), "reinterpret_cast" | "static_cast" | "const_cast"))
                }) =>
            {
                syntax::call_arguments(n).into_iter().next()
            }
            _ => None,
        };
        match inner {
            Some(i) => n = i,
            None => break,
        }
    }
    n
}

/// Where a launch with packed arguments is written.
#[derive(Clone, Copy)]
enum Packed<'t> {
    /// `cudaLaunchKernel(func, grid, block, args[, shmem[, stream]])` (or
    /// the cooperative one): the launch, whose value is its status.
    Call(Node<'t>),
    /// The value naming a graph kernel node's kernel: a
    /// `syclify::kernel_node_fn` that reads the node's arguments
    /// (`syclify_p`, a `kernel_node_params`) and returns its launch.
    Node(Node<'t>),
    /// The definition of a kernel declared `extern "C"`: the same
    /// `kernel_node_fn`, its launcher for the driver API (written after it).
    Module(Node<'t>),
}

/// The launch of kernel `kname` (called as `callee`, with template
/// arguments `targs`) whose arguments come packed, one pointer per
/// parameter (`syclify::unpack_args<N>(&kernel, args)`: the types are the
/// kernel's own).
fn render_packed(ctx: &mut FileCtx, view: &View, at: Packed, kname: &str, callee: &str, targs: &[String]) -> Option<Replacement> {
    let index = ctx.project.index;
    let (call_range, args) = match at {
        Packed::Call(call) => (call.byte_range(), syntax::call_arguments(call)),
        Packed::Node(value) | Packed::Module(value) => (value.byte_range(), Vec::new()),
    };
    let facts = index.functions.get(kname).filter(|f| f.is_kernel)?;
    let needs = index.needs.get(kname).cloned().unwrap_or_default();
    let mut tmap = BTreeMap::new();
    for (p, a) in facts.template_params.iter().zip(targs) {
        tmap.insert(p.clone(), a.clone());
    }
    let unbound: Vec<String> = facts.template_params.iter().filter(|p| !tmap.contains_key(*p)).cloned().collect();
    if let Some(p) = unbound.first() {
        ctx.diag(
            Code::UnsupportedApi,
            call_range.clone(),
            RULE,
            format!("kernel `{kname}` is a template and this launch does not give its template parameter `{p}`; the call was left as is"),
        );
        return None;
    }
    let count = facts.params.len();
    let nl = view.nl;
    let i0 = view.indent.clone();
    // a kernel node's command group is two lambdas deeper
    let (i1, i2) = match at {
        Packed::Call(_) => (format!("{i0}  "), format!("{i0}    ")),
        Packed::Node(_) | Packed::Module(_) => (format!("{i0}      "), format!("{i0}        ")),
    };
    // the packed arguments, read on the host in the kernel's parameter types
    // (the extra parameters go before the first with a default argument)
    let at_param = facts.required_params.min(count);
    let item = "item";
    let extra_count = crate::rules::device_function_parameters::extra_args(&needs, kname, item).len();
    let positions = if at_param == count { String::new() } else { format!(", {at_param}, {extra_count}") };
    let unpack = format!("auto syclify_args = syclify::unpack_args<{count}{positions}>(&{callee}, ");
    let mut r = Replacement::new();
    match at {
        Packed::Call(_) => {
            r.push_text("syclify::launch_status(");
            push_queue(ctx, &mut r, args.get(5).copied());
            r.push_text(&format!(", [&](sycl::handler &cgh) {{{nl}{i1}{unpack}"));
            r.push_source(args[3].byte_range());
            r.push_text(&format!(");{nl}"));
        }
        Packed::Node(_) | Packed::Module(_) => {
            // the arguments are read when the node is added (or the kernel
            // launched), as CUDA does
            r.push_text(&format!(
                "syclify::kernel_node_fn([](const syclify::kernel_node_params &syclify_p) -> syclify::graph_op {{{nl}{i0}  {unpack}syclify_p);{nl}{i0}  return [=](sycl::queue &syclify_q) {{{nl}{i0}    syclify::launch(syclify_q, [&](sycl::handler &cgh) {{{nl}"
            ));
        }
    }
    let mut accessors = Vec::new();
    let site = Site { kname, tmap: &tmap, unbound: &unbound, call_range: call_range.clone(), item, nl, i1: &i1 };
    let mut local_args = static_locals(ctx, &mut r, &needs, &site);
    if needs.dynamic_local {
        let acc = format!("{DYN_LOCAL}_acc");
        r.push_text(&format!("{i1}auto {acc} = syclify::dynamic_local_memory("));
        match (at, args.get(4)) {
            (Packed::Node(_) | Packed::Module(_), _) => r.push_text("syclify_p.sharedMemBytes"),
            (_, Some(s)) => r.push_source(s.byte_range()),
            (_, None) => r.push_text("0"),
        }
        r.push_text(&format!(", cgh);{nl}"));
        local_args.push(format!("syclify::local_bytes({acc})"));
        accessors.push(acc);
    } else if let Some(s) = args.get(4) {
        r.push_discard(s.byte_range());
    }
    local_args.extend(global_args(ctx, &mut r, &needs, &site));
    let cooperative = matches!(at, Packed::Call(call) if callee_name(call, ctx.src).is_some_and(|(_, c)| c == "cudaLaunchCooperativeKernel"));
    if needs.grid && !cooperative {
        grid_launch_note(ctx, &call_range, kname);
    }
    let (grid, block) = match at {
        Packed::Call(_) => (range_expr(ctx, args[1]), range_expr(ctx, args[2])),
        Packed::Node(_) | Packed::Module(_) => {
            let (mut g, mut b) = (Replacement::new(), Replacement::new());
            g.push_text("syclify_p.gridDim");
            b.push_text("syclify_p.blockDim");
            (g, b)
        }
    };
    push_parallel_for(&mut r, &needs, cooperative, grid, block, &accessors, &site);
    if needs.warp {
        r.push_text(" [[sycl::reqd_sub_group_size(32)]]");
    }
    r.push_text(&format!(" {{{nl}{i2}{callee}("));
    let mut all: Vec<String> = (0..count).map(|i| format!("std::get<{i}>(syclify_args)")).collect();
    let mut extras = vec![item.to_string()];
    if needs.grid {
        extras.push(GRID.to_string());
    }
    extras.extend(local_args);
    debug_assert_eq!(extras.len(), extra_count);
    all.splice(at_param..at_param, extras);
    r.push_text(&all.join(", "));
    match at {
        Packed::Call(_) => {
            r.push_text(&format!(");{nl}{i1}}});{nl}{i0}}})"));
            // the kernel and `args` are read above; the rest of the call goes
            r.push_discard(args[0].byte_range());
        }
        Packed::Node(value) => {
            r.push_text(&format!(");{nl}{i1}}});{nl}{i0}    }});{nl}{i0}  }};{nl}{i0}}})"));
            r.push_discard(value.byte_range());
        }
        Packed::Module(_) => r.push_text(&format!(");{nl}{i1}}});{nl}{i0}    }});{nl}{i0}  }};{nl}{i0}}})")),
    }
    Some(r)
}

/// The note at a launch that is not cooperative of a kernel that syncs its grid.
fn grid_launch_note(ctx: &mut FileCtx, at: &std::ops::Range<usize>, kname: &str) {
    ctx.diag(
        Code::MappingNote,
        at.clone(),
        RULE,
        format!(
            "kernel `{kname}` reaches `this_grid()` but this launch is not cooperative: CUDA does not promise that its blocks run at once, and neither does the migrated launch (it passes the grid barrier unchecked: a `sync()` on a grid that does not fit reports `cudaErrorCooperativeLaunchTooLarge` after 5 s instead of hanging); use `cudaLaunchCooperativeKernel` where the kernel syncs the grid"
        ),
    );
}

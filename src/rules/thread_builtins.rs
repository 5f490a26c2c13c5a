//! Thread builtins: `threadIdx`, `blockIdx`, `blockDim`, `gridDim`, `warpSize`.
//!
//! What it does: maps each member to the `sycl::nd_item<3>` query with the
//! x/z swap (CUDA `x` is SYCL dimension 2, `z` is dimension 0), in function
//! bodies and in macro bodies (where the item is named `item`, the name every
//! migrated device function gives it unless it already uses that name):
//!
//! | CUDA | SYCL |
//! |---|---|
//! | `threadIdx.x/y/z` | `item.get_local_id(2/1/0)` |
//! | `blockIdx.x/y/z` | `item.get_group(2/1/0)` |
//! | `blockDim.x/y/z` | `item.get_local_range(2/1/0)` |
//! | `gridDim.x/y/z` | `item.get_group_range(2/1/0)` |
//! | `warpSize` | `item.get_sub_group().get_local_range()[0]` |
//!
//! Why: SYCL linearises ids with the right-most dimension fastest, CUDA with
//! `x` fastest; mapping `x` to dimension 2 keeps neighbouring work-items on
//! neighbouring addresses (coalescing) and the same linear order.
//!
//! `blockIdx.x * blockDim.x + threadIdx.x` (either order of either
//! operation) is `item.get_global_id(2)`, and `blockDim.x * gridDim.x`
//! `item.get_global_range(2)`: the same values (SYCL 2020 nd-ranges have no
//! offset), and in 32 bits the same wrap-around.
//!
//! Width: CUDA's builtins are `unsigned int`, SYCL's queries `size_t`. Where
//! the difference can change a result or a type (arithmetic, `auto`,
//! overloads, templates, a comparison with a 64-bit or unknown operand) the
//! query is cast, `static_cast<unsigned>(item.get_local_id(2))`: the program
//! computes what it computed under CUDA, wrap-around included, and index
//! arithmetic stays in 32 bits as nvcc compiles it (64-bit multiplications
//! cost an n-body kernel 12 % on an H100). The cast is left out where the
//! value alone counts and is below 2^31 either way: an array index, the
//! initial value of a variable of a declared type (not `auto`), the value
//! returned from a function of such a type, a cast to an
//! arithmetic type, the right side of `=` (and of `+=`, `-=`, `*=`, `&=`,
//! `|=`, `^=` to an integer variable: the low bits are the same), a
//! comparison with another builtin or with a 32-bit or floating operand, and
//! the left side of `/`, `%`, `&` or `>>` by a non-negative literal or a
//! builtin where the whole stands in one of those places.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::index::BUILTIN_VARS;
use crate::syntax::Parents;
use crate::syntax::{self, Arith, NodeKind};
use std::ops::Range;
use tree_sitter::Node;

pub const RULE: &str = "thread-builtins";

/// The SYCL expression for `var.member` with item `item`.
pub fn builtin(var: &str, member: &str, item: &str) -> Option<String> {
    let dim = dimension(member)?;
    let query = match var {
        "threadIdx" => "get_local_id",
        "blockIdx" => "get_group",
        "blockDim" => "get_local_range",
        "gridDim" => "get_group_range",
        _ => return None,
    };
    Some(format!("{item}.{query}({dim})"))
}

/// The SYCL dimension of member `x`/`y`/`z` (x is the fastest, dimension 2).
fn dimension(member: &str) -> Option<usize> {
    match member {
        "x" => Some(2),
        "y" => Some(1),
        "z" => Some(0),
        _ => None,
    }
}

pub fn warp_size(item: &str) -> String {
    format!("{item}.get_sub_group().get_local_range()[0]")
}

/// Is the builtin-named identifier `n` a variable of the user's own (declared
/// here or in a scope around it)? Only in the main tree: a macro body has no
/// scope of its own.
fn user_variable(ctx: &FileCtx, n: tree_sitter::Node) -> bool {
    if ctx.in_macro(n.start_byte()) {
        return false;
    }
    let is_declarator = ctx.parents().parent_of(n).is_some_and(|p| p.field("declarator").is_some_and(|d| d.id() == n.id()));
    is_declarator || ctx.declared_in_scope(n, ctx.text(n))
}

/// `n` (parentheses aside) as a builtin use `var.member` that is CUDA's
/// (not a variable of the user's named like one): (var, member).
fn as_builtin<'a>(ctx: &FileCtx<'a>, n: Node<'a>) -> Option<(&'a str, &'a str)> {
    let n = syntax::strip_parens(n);
    if n.kind_str() != "field_expression" {
        return None;
    }
    let (arg, field) = (n.field("argument")?, n.field("field")?);
    let var = ctx.text(arg);
    (arg.kind_str() == "identifier" && BUILTIN_VARS.contains(&var) && !user_variable(ctx, arg)).then_some((var, ctx.text(field)))
}

/// `e` as `blockIdx.d * blockDim.d + threadIdx.d` (in any order) or
/// `blockDim.d * gridDim.d`: the query of the whole and its dimension.
fn global_idiom<'a>(ctx: &FileCtx<'a>, e: Node<'a>) -> Option<(&'static str, usize)> {
    let op = ctx.text(e.field("operator")?);
    let (l, r) = (syntax::strip_parens(e.field("left")?), syntax::strip_parens(e.field("right")?));
    let product = |p: Node<'a>| -> Option<[(&'a str, &'a str); 2]> {
        (p.kind_str() == "binary_expression" && p.field("operator").is_some_and(|o| ctx.text(o) == "*"))
            .then(|| Some([as_builtin(ctx, p.field("left")?)?, as_builtin(ctx, p.field("right")?)?]))?
    };
    let same = |a: &str, b: &str, want: [&str; 2]| (a == want[0] && b == want[1]) || (a == want[1] && b == want[0]);
    let (query, member) = match op {
        "+" => {
            let (t, p) = match (as_builtin(ctx, l), as_builtin(ctx, r)) {
                (Some(t), None) => (t, product(r)?),
                (None, Some(t)) => (t, product(l)?),
                _ => return None,
            };
            let [(a, am), (b, bm)] = p;
            (t.0 == "threadIdx" && am == t.1 && bm == t.1 && same(a, b, ["blockIdx", "blockDim"])).then_some(("get_global_id", t.1))?
        }
        "*" => {
            let [(a, am), (b, bm)] = [as_builtin(ctx, l)?, as_builtin(ctx, r)?];
            (am == bm && same(a, b, ["blockDim", "gridDim"])).then_some(("get_global_range", am))?
        }
        _ => return None,
    };
    Some((query, dimension(member)?))
}

/// Whether `e` stands where only its value counts, the same whether it is
/// CUDA's `unsigned int` or SYCL's `size_t` (builtin values are below 2^31):
/// see the module's documentation.
fn width_irrelevant<'a>(ctx: &FileCtx<'a>, e: Node<'a>) -> bool {
    let mut child = e;
    let mut parent = ctx.parents().parent_of(e);
    while let Some(p) = parent.filter(|p| p.kind_str() == "parenthesized_expression") {
        child = p;
        parent = ctx.parents().parent_of(p);
    }
    let Some(p) = parent else { return false };
    let is = |f: &str| p.field(f).is_some_and(|x| x.id() == child.id());
    let op = || p.field("operator").map_or("", |o| ctx.text(o));
    // a type that deduces nothing from the value (`int`, `float`, `T`; not `auto`)
    let converts = |t: Option<Node>| t.is_some_and(|t| !matches!(t.kind_str(), "placeholder_type_specifier" | "decltype") && ctx.text(t) != "auto");
    let non_negative = |n: Node<'a>| {
        let n = syntax::strip_parens(n);
        as_builtin(ctx, n).is_some() || (n.kind_str() == "number_literal" && !ctx.text(n).contains(['.', 'e', 'E', 'p', 'P']))
    };
    match p.kind_str() {
        "subscript_argument_list" => true,
        // its value converted to a type (`int v = threadIdx.x`, `(float)blockDim.x`)
        "init_declarator" if is("value") => ctx.parents().parent_of(p).is_some_and(|d| d.kind_str() == "declaration" && converts(d.field("type"))),
        // returned from a function of a declared type (not a lambda's, nor `auto`)
        "return_statement" => syntax::ancestor_of_kind_in(ctx.parents(), p, &["function_definition", "lambda_expression"])
            .is_some_and(|f| f.kind_str() == "function_definition" && converts(f.field("type"))),
        "cast_expression" => syntax::arith_of_type(p.field("type").map_or("", |t| ctx.text(t))).is_some(),
        "assignment_expression" if is("right") => match op() {
            "=" => true,
            // modulo 2^32 or 2^64, the low bits are the same
            "+=" | "-=" | "*=" | "&=" | "|=" | "^=" => p
                .field("left")
                .is_some_and(|l| matches!(syntax::arith_type_with(l, ctx.src, &|n, name| ctx.declaration_in_scope(n, name)), Some(Arith::Int(_)))),
            _ => false,
        },
        // `threadIdx.x % 32`, `blockDim.x / 2`: below 2^31 either way, as the builtin is
        "binary_expression" if is("left") && matches!(op(), "/" | "%" | "&" | ">>") && p.field("right").is_some_and(non_negative) => width_irrelevant(ctx, p),
        "binary_expression" if matches!(op(), "<" | ">" | "<=" | ">=" | "==" | "!=") => {
            let other = if is("left") { p.field("right") } else { p.field("left") };
            other.is_some_and(|o| {
                as_builtin(ctx, o).is_some()
                    || global_idiom(ctx, syntax::strip_parens(o)).is_some()
                    || matches!(
                        syntax::arith_type_with(o, ctx.src, &|n, name| ctx.declaration_in_scope(n, name)),
                        Some(Arith::Int(32) | Arith::Float | Arith::Double)
                    )
            })
        }
        _ => false,
    }
}

/// `query` in CUDA's width where `e` needs it.
fn in_cuda_width<'a>(ctx: &FileCtx<'a>, e: Node<'a>, query: String) -> String {
    if width_irrelevant(ctx, e) { query } else { format!("static_cast<unsigned>({query})") }
}

pub fn run(ctx: &mut FileCtx) {
    // `blockIdx.x * blockDim.x + threadIdx.x` and `blockDim.x * gridDim.x`,
    // replaced whole; the builtins inside them are not replaced again
    let mut whole: Vec<Range<usize>> = Vec::new();
    for e in ctx.all_of(&["binary_expression"]) {
        if ctx.in_error(e) || whole.last().is_some_and(|w| w.start <= e.start_byte() && e.end_byte() <= w.end) {
            continue;
        }
        let Some((query, dim)) = global_idiom(ctx, e) else { continue };
        // (a comment or directive inside it would go with it: the builtins are
        // replaced one by one; read only for the idiom, whose operands are
        // builtins, never for every binary expression: a chain of n terms
        // would read its text n times)
        if ["//", "/*", "#"].iter().any(|c| ctx.text(e).contains(c)) {
            continue;
        }
        let Some(item) = ctx.item_at(e.start_byte()) else { continue };
        let rep = in_cuda_width(ctx, e, format!("{item}.{query}({dim})"));
        ctx.edits.replace_text(RULE, e.byte_range(), rep);
        ctx.count(RULE);
        whole.push(e.byte_range());
    }
    // (apart: sorted, the last that starts at or before a node is the only
    // one that may hold it; macro bodies' come after the main tree's)
    whole.sort_by_key(|w| w.start);
    let in_whole = |n: Node| {
        let i = whole.partition_point(|w| w.start <= n.start_byte());
        i > 0 && n.end_byte() <= whole[i - 1].end
    };
    for n in ctx.all_of(&["field_expression", "identifier"]) {
        if ctx.in_error(n) || in_whole(n) {
            continue;
        }
        match n.kind_str() {
            "field_expression" => {
                let Some((var, member)) = as_builtin(ctx, n) else {
                    continue;
                };
                let Some(item) = ctx.item_at(n.start_byte()) else {
                    ctx.diag(
                        Code::BuiltinOutsideDeviceCode,
                        n.byte_range(),
                        RULE,
                        format!("`{}` where no nd_item can be passed (outside a function, or in a constructor) was left as is", ctx.text(n)),
                    );
                    continue;
                };
                match builtin(var, member, &item) {
                    Some(rep) => {
                        // CUDA's builtins are `unsigned int`, SYCL's queries `size_t`: keep
                        // the type where printf's format expects it
                        let rep = if crate::rules::dim3::is_printf_argument(ctx, n) {
                            format!("static_cast<unsigned int>({rep})")
                        } else {
                            in_cuda_width(ctx, n, rep)
                        };
                        ctx.edits.replace_text(RULE, n.byte_range(), rep);
                        ctx.count(RULE);
                    }
                    None => ctx.diag(Code::BareBuiltin, n.byte_range(), RULE, format!("`{}` has no SYCL equivalent; left as is", ctx.text(n))),
                }
            }
            "identifier" => {
                let t = ctx.text(n);
                let parent_is_field =
                    || ctx.parents().parent_of(n).is_some_and(|p| p.kind_str() == "field_expression" && p.field("argument").is_some_and(|a| a.id() == n.id()));
                if (t == "warpSize" || BUILTIN_VARS.contains(&t)) && user_variable(ctx, n) {
                    continue;
                }
                if t == "warpSize" && ctx.project.index.macros.names.contains("warpSize") {
                    continue; // the project's own `#define warpSize 32`
                }
                if t == "warpSize" && crate::syntax::has_ancestor(ctx.parents(), n, &["optional_parameter_declaration"]) {
                    // a default argument cannot name the nd_item parameter: the
                    // sub-group size warp code is compiled for
                    ctx.edits.replace_text(RULE, n.byte_range(), "syclify::warp_size");
                    ctx.count(RULE);
                    ctx.needs_sycl = true;
                } else if t == "warpSize" {
                    match ctx.item_at(n.start_byte()) {
                        Some(item) => {
                            ctx.edits.replace_text(RULE, n.byte_range(), warp_size(&item));
                            ctx.count(RULE);
                        }
                        None => ctx.diag(
                            Code::BuiltinOutsideDeviceCode,
                            n.byte_range(),
                            RULE,
                            "`warpSize` where no nd_item can be passed (outside a function, or in a constructor) was left as is",
                        ),
                    }
                } else if ctx.project.index.macros.builtin_users.contains(t)
                    && !ctx.in_macro(n.start_byte())
                    && ctx.scope_at(n.start_byte()).is_some_and(|s| s.constructor)
                {
                    // a macro standing for builtins (`#define TX threadIdx.x`),
                    // used in a constructor: its expansion names an `item` that
                    // a constructor cannot receive
                    ctx.diag(
                        Code::BuiltinOutsideDeviceCode,
                        n.byte_range(),
                        RULE,
                        format!("`{t}` expands to thread builtins in a constructor, where no nd_item can be passed; left as is"),
                    );
                } else if BUILTIN_VARS.contains(&t) && !parent_is_field() {
                    // the same value member by member, which migrates
                    let fixes = if ctx.in_macro(n.start_byte()) {
                        Vec::new()
                    } else {
                        // the declared type where it initialises a `dim3` or
                        // `uint3` (which migrate differently), else the builtin's
                        let declared = ctx
                            .parents()
                            .parent_of(n)
                            .filter(|p| p.kind_str() == "init_declarator" && p.field("value").is_some_and(|v| v.id() == n.id()))
                            .and_then(|p| ctx.parents().parent_of(p)?.field("type"))
                            .map(|ty| ctx.text(ty));
                        let ty = match declared {
                            Some("dim3") => "dim3",
                            Some("uint3") => "make_uint3",
                            _ if matches!(t, "threadIdx" | "blockIdx") => "make_uint3",
                            _ => "dim3",
                        };
                        let whole = format!("{ty}({t}.x, {t}.y, {t}.z)");
                        vec![crate::diagnostics::Fix { title: format!("Write `{t}` member by member: `{whole}`"), edits: vec![(n.byte_range(), whole)] }]
                    };
                    ctx.diag_fixed(Code::BareBuiltin, n.byte_range(), RULE, format!("`{t}` used as a whole value has no SYCL equivalent; left as is"), fixes);
                }
            }
            _ => {}
        }
    }
}

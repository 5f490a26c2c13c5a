//! `dim3`: host and device variables, temporaries and member access.
//!
//! What it does: the type `dim3` becomes `sycl::range<3>` with its
//! components reversed (`dim3 grid(nx, ny)` → `sycl::range<3> grid(1, ny,
//! nx)`; `dim3 g;` → `sycl::range<3> g(1, 1, 1)`, since CUDA's default is 1
//! in every dimension), temporaries `dim3(x, y, z)` become
//! `sycl::range<3>(z, y, x)`, and `.x/.y/.z` on a `dim3` variable become
//! `[2]/[1]/[0]` (cast back to `unsigned int` where passed to printf, whose
//! format expects CUDA's type).
//!
//! Why: SYCL orders dimensions with the fastest-varying one last; the launch
//! builds `nd_range<3>(grid * block, block)` from these ranges directly.
//!
//! Example: `dim3 block(16, 8); int n = block.x * block.y;` →
//! `sycl::range<3> block(1, 8, 16); int n = block[2] * block[1];`

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::syntax;
use crate::syntax::NodeKind;
use std::ops::Range;
use tree_sitter::Node;

pub const RULE: &str = "dim3";

/// `sycl::range<3>(z, y, x)` from the ranges of up to three CUDA components.
pub fn reversed_range(args: Vec<Range<usize>>) -> Replacement {
    let mut r = Replacement::new().text("sycl::range<3>(");
    reversed_components(&mut r, &args);
    r.text(")")
}

fn reversed_components(r: &mut Replacement, args: &[Range<usize>]) {
    for i in (0..3).rev() {
        match args.get(i) {
            Some(a) => r.push_source(a.clone()),
            None => r.push_text("1"),
        }
        if i > 0 {
            r.push_text(", ");
        }
    }
}

fn member_index(m: &str) -> Option<&'static str> {
    match m {
        "x" => Some("2"),
        "y" => Some("1"),
        "z" => Some("0"),
        _ => None,
    }
}

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.all_of(&["type_identifier", "call_expression", "assignment_expression", "field_expression"]) {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "type_identifier" if ctx.text(n) == "dim3" => {
                ctx.edits.replace_text(RULE, n.byte_range(), "sycl::range<3>");
                ctx.count(RULE);
                ctx.needs_sycl = true;
                if let Some(decl) = n.parent().filter(|p| p.kind_str() == "declaration" && p.field("type").is_some_and(|t| t.id() == n.id())) {
                    declaration(ctx, decl);
                }
            }
            "call_expression" => {
                let is_dim3 = n.field("function").is_some_and(|f| f.kind_str() == "identifier" && ctx.text(f) == "dim3");
                if !is_dim3 || n.parent().is_some_and(|p| p.kind_str() == "kernel_call_syntax") {
                    continue;
                }
                // the grid or block of `cudaLaunchKernel(f, dim3(..), ...)`: the launch writes it
                if n.parent().and_then(|l| l.parent()).is_some_and(|c| c.kind_str() == "call_expression" && crate::rules::kernel_launch::is_api_launch(ctx, c))
                {
                    continue;
                }
                let args: Vec<Node> = n.field("arguments").map(syntax::named_children).unwrap_or_default();
                if args.len() > 3 {
                    ctx.diag(Code::UnknownDim3Form, n.byte_range(), RULE, "`dim3` with more than three components left as is");
                    continue;
                }
                let rep = if is_copy(ctx, &args) {
                    // `dim3(grid)` of a dim3 variable is a copy, not `dim3(grid, 1, 1)`
                    Replacement::new().text("sycl::range<3>(").source(args[0].byte_range()).text(")")
                } else {
                    reversed_range(args.iter().map(|a| a.byte_range()).collect())
                };
                ctx.edits.replace(RULE, n.byte_range(), rep);
                ctx.count(RULE);
                ctx.needs_sycl = true;
            }
            // `grid = make_uint3(n, 1, 1);`, `block = threads;` (a uint3 or an
            // integer): dim3's converting constructor, as in a declaration
            "assignment_expression" => {
                let (Some(left), Some(right), Some(op)) = (n.field("left"), n.field("right"), n.field("operator")) else {
                    continue;
                };
                let dim3_target = match left.kind_str() {
                    "identifier" => ctx.is_dim3_var(ctx.text(left), left.start_byte()),
                    _ => is_launch_dims_member(ctx, left),
                };
                if ctx.text(op) != "=" || !dim3_target {
                    continue;
                }
                if convert_value(ctx, right) {
                    ctx.count(RULE);
                    ctx.needs_sycl = true;
                }
            }
            "field_expression" => {
                let (Some(arg), Some(field)) = (n.field("argument"), n.field("field")) else {
                    continue;
                };
                let dim3_value = match arg.kind_str() {
                    "identifier" => ctx.is_dim3_var(ctx.text(arg), n.start_byte()),
                    _ => is_launch_dims_member(ctx, arg),
                };
                if !dim3_value {
                    continue;
                }
                if n.field("operator").is_some_and(|o| ctx.text(o) != ".") {
                    continue;
                }
                let Some(idx) = member_index(ctx.text(field)) else {
                    continue;
                };
                // dim3 members are `unsigned int`, range elements `size_t`: keep
                // the type where it is passed to a printf-like (variadic) function
                let rep = if is_printf_argument(ctx, n) {
                    Replacement::new().text("static_cast<unsigned int>(").source(arg.byte_range()).text(format!("[{idx}])"))
                } else {
                    Replacement::new().source(arg.byte_range()).text(format!("[{idx}]"))
                };
                ctx.edits.replace(RULE, n.byte_range(), rep);
                ctx.count(RULE);
            }
            _ => {}
        }
    }
}

/// `p.gridDim` / `p.blockDim` (`p->…`, `params.kernel.gridDim`): the dim3
/// members of a graph kernel node's parameters (`cudaKernelNodeParams`),
/// ranges in the migrated `syclify::kernel_node_params`. (Host code: in a
/// kernel, `gridDim` alone is the built-in.)
fn is_launch_dims_member(ctx: &FileCtx, n: Node) -> bool {
    n.kind_str() == "field_expression" && n.field("field").is_some_and(|f| matches!(ctx.text(f), "gridDim" | "blockDim"))
}

/// A value given to a `dim3` by `=` that is not itself a `dim3` (a uint3,
/// `make_uint3(x, y, z)`, an integer) goes through `syclify::as_range3`,
/// CUDA's converting constructors (inserted around it, so the value's own
/// rewrites stay); nothing where it already is a `dim3`. Whether it converted.
fn convert_value(ctx: &mut FileCtx, value: Node) -> bool {
    let is_dim3_call = value.kind_str() == "call_expression" && value.field("function").is_some_and(|f| ctx.text(f) == "dim3");
    let is_dim3_var = value.kind_str() == "identifier" && ctx.is_dim3_var(ctx.text(value), value.start_byte());
    if is_dim3_call || is_dim3_var {
        return false;
    }
    ctx.edits.insert(RULE, value.start_byte(), "syclify::as_range3(");
    ctx.edits.insert(RULE, value.end_byte(), ")");
    true
}

/// Is `dim3(args)` a copy of another `dim3` (one argument, a `dim3` variable)?
pub fn is_copy(ctx: &FileCtx, args: &[Node]) -> bool {
    args.len() == 1 && args[0].kind_str() == "identifier" && ctx.is_dim3_var(ctx.text(args[0]), args[0].start_byte())
}

/// Is `n` an argument of `printf`, `fprintf`, `sprintf` or `snprintf`?
pub fn is_printf_argument(ctx: &FileCtx, n: Node) -> bool {
    let Some(call) = n.parent().filter(|p| p.kind_str() == "argument_list").and_then(|l| l.parent()) else {
        return false;
    };
    matches!(syntax::callee_name(call, ctx.src).map(|(_, s)| s), Some("printf" | "fprintf" | "sprintf" | "snprintf"))
}

fn declaration(ctx: &mut FileCtx, decl: Node) {
    let mut c = decl.walk();
    let declarators: Vec<Node> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
    for d in declarators {
        match d.kind_str() {
            "identifier" => ctx.edits.insert(RULE, d.end_byte(), "(1, 1, 1)"),
            // `dim3 block(TILE, ROWS);` parses as a function declaration (the most
            // vexing parse): inside a function body it is a variable.
            "function_declarator" if syntax::has_ancestor(ctx.parents(), decl, &["compound_statement"]) => {
                let Some(params) = d.field("parameters") else {
                    continue;
                };
                let args = syntax::items(params);
                if args.len() == 1 && ctx.is_dim3_var(ctx.text(args[0]), args[0].start_byte()) {
                    continue;
                }
                if args.len() > 3 {
                    continue;
                }
                let mut r = Replacement::new().text("(");
                reversed_components(&mut r, &args.iter().map(|a| a.byte_range()).collect::<Vec<_>>());
                ctx.edits.replace(RULE, params.byte_range(), r.text(")"));
            }
            "init_declarator" => {
                let Some(value) = d.field("value") else {
                    continue;
                };
                match value.kind_str() {
                    "argument_list" | "initializer_list" => {
                        let args = syntax::items(value);
                        if args.len() == 1 && args[0].kind_str() == "identifier" && ctx.is_dim3_var(ctx.text(args[0]), args[0].start_byte()) {
                            continue; // copy of another dim3
                        }
                        if args.len() > 3 {
                            ctx.diag(Code::UnknownDim3Form, value.byte_range(), RULE, "`dim3` with more than three components left as is");
                            continue;
                        }
                        let (open, close) = if value.kind_str() == "argument_list" { ("(", ")") } else { ("{", "}") };
                        let mut r = Replacement::new().text(open);
                        reversed_components(&mut r, &args.iter().map(|a| a.byte_range()).collect::<Vec<_>>());
                        ctx.edits.replace(RULE, value.byte_range(), r.text(close));
                    }
                    _ => {
                        convert_value(ctx, value);
                    }
                }
            }
            _ => {}
        }
    }
}

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
//! The SYCL queries return `size_t` where CUDA's builtins are `unsigned int`;
//! arithmetic that relies on 32-bit unsigned wrap-around needs a look.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::index::BUILTIN_VARS;
use crate::syntax::NodeKind;

pub const RULE: &str = "thread-builtins";

/// The SYCL expression for `var.member` with item `item`.
pub fn builtin(var: &str, member: &str, item: &str) -> Option<String> {
    let dim = match member {
        "x" => 2,
        "y" => 1,
        "z" => 0,
        _ => return None,
    };
    let query = match var {
        "threadIdx" => "get_local_id",
        "blockIdx" => "get_group",
        "blockDim" => "get_local_range",
        "gridDim" => "get_group_range",
        _ => return None,
    };
    Some(format!("{item}.{query}({dim})"))
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
    let is_declarator = n.parent().is_some_and(|p| p.field("declarator").is_some_and(|d| d.id() == n.id()));
    is_declarator || ctx.declared_in_scope(n, ctx.text(n))
}

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.all_of(&["field_expression", "identifier"]) {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "field_expression" => {
                let (Some(arg), Some(field)) = (n.field("argument"), n.field("field")) else {
                    continue;
                };
                if arg.kind_str() != "identifier" || !BUILTIN_VARS.contains(&ctx.text(arg)) || user_variable(ctx, arg) {
                    continue;
                }
                let Some(item) = ctx.item_at(n.start_byte()) else {
                    ctx.diag(
                        Code::BuiltinOutsideDeviceCode,
                        n.byte_range(),
                        RULE,
                        format!("`{}` where no nd_item can be passed (outside a function, or in a constructor) was left as is", ctx.text(n)),
                    );
                    continue;
                };
                match builtin(ctx.text(arg), ctx.text(field), &item) {
                    Some(rep) => {
                        // CUDA's builtins are `unsigned int`, SYCL's queries `size_t`: keep
                        // the type where printf's format expects it
                        let rep = if crate::rules::dim3::is_printf_argument(ctx, n) { format!("static_cast<unsigned int>({rep})") } else { rep };
                        ctx.edits.replace_text(RULE, n.byte_range(), rep);
                        ctx.count(RULE);
                    }
                    None => ctx.diag(Code::BareBuiltin, n.byte_range(), RULE, format!("`{}` has no SYCL equivalent; left as is", ctx.text(n))),
                }
            }
            "identifier" => {
                let t = ctx.text(n);
                let parent_is_field =
                    || n.parent().is_some_and(|p| p.kind_str() == "field_expression" && p.field("argument").is_some_and(|a| a.id() == n.id()));
                if (t == "warpSize" || BUILTIN_VARS.contains(&t)) && user_variable(ctx, n) {
                    continue;
                }
                if t == "warpSize" && ctx.project.index.macros.names.contains("warpSize") {
                    continue; // the project's own `#define warpSize 32`
                }
                if t == "warpSize" && crate::syntax::has_ancestor(n, &["optional_parameter_declaration"]) {
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
                    ctx.diag(Code::BareBuiltin, n.byte_range(), RULE, format!("`{t}` used as a whole value has no SYCL equivalent; left as is"));
                }
            }
            _ => {}
        }
    }
}

//! The work-group size of launches whose block size is a constant.
//!
//! What it does: a launch whose block size is a compile-time constant —
//! integer literals, `sizeof`, object-like macros that stand for such
//! expressions, `const`/`constexpr` integer variables initialized by them,
//! integer parameters of a template around the launch (`template <int
//! TILE>`), arithmetic of these, or a `dim3` variable declared from them in the same
//! function and never written afterwards — gets
//! `SYCLIFY_REQD_WORK_GROUP_SIZE(z, y, x)` on its kernel lambda: SYCL 2020's
//! `[[sycl::reqd_work_group_size(z, y, x)]]` where the compiler knows the
//! attribute (the helper header tests `__has_cpp_attribute`), nothing where
//! it would only warn. The block's own expressions are used (a macro stays a
//! macro, so a build that defines it differently stays consistent).
//!
//! Why: CUDA compilers know a kernel's block size when the launch spells it;
//! SYCL compilers only when told. DPC++ uses the attribute to size registers
//! and fold work-group queries (`.reqntid` in PTX). AdaptiveCpp's multipass
//! compiler does not know it and would warn at every launch (an error under
//! `-Werror`), hence the macro. Each launch is its own SYCL kernel (a lambda
//! at the launch), so the attribute holds exactly for the launch that
//! carries it: a kernel launched elsewhere with another size is not
//! constrained.
//!
//! `__launch_bounds__` of the kernel travels to its launches the same way
//! (`SYCLIFY_LAUNCH_BOUNDS`, see `launch_bounds.rs`) when the block is
//! one-dimensional ([`is_linear`]).
//!
//! Example: `k<<<n / 256, dim3(16, 16)>>>(…)` → `cgh.parallel_for(…, [=](sycl::nd_item<3> item) SYCLIFY_REQD_WORK_GROUP_SIZE(1, 16, 16) { … })`.

use super::FileCtx;
use crate::syntax::{self, NodeKind};
use tree_sitter::Node;

/// Nested macros and variables followed before giving up.
const MAX_DEPTH: usize = 8;

/// The attribute's arguments (`z, y, x`) for a launch's block expression,
/// when every dimension is a compile-time constant.
pub fn required(ctx: &FileCtx, block: Node) -> Option<String> {
    let dims = block_dims(ctx, block)?;
    let mut zyx: Vec<String> = dims.into_iter().rev().collect();
    while zyx.len() < 3 {
        zyx.insert(0, "1".to_string());
    }
    Some(zyx.join(", "))
}

/// Is a launch's block one-dimensional: an integer expression (not a `dim3`
/// variable, or a call whose type is unknown), or `dim3(n)`?
pub fn is_linear(ctx: &FileCtx, block: Node) -> bool {
    let block = syntax::strip_parens(block);
    match block.kind_str() {
        "call_expression" if block.field("function").is_some_and(|f| ctx.text(f) == "dim3") => {
            block.field("arguments").is_some_and(|a| syntax::named_children(a).len() == 1)
        }
        "identifier" => {
            let name = ctx.text(block);
            match ctx.declaration_in_scope(block, name) {
                Some((decl, _)) => decl.field("type").is_some_and(|t| is_integer_type(ctx.text(t))),
                None => constant(ctx, block, 0),
            }
        }
        "number_literal" | "binary_expression" | "unary_expression" | "conditional_expression" | "sizeof_expression" => {
            !syntax::named_children(block).iter().any(|c| c.kind_str() == "identifier" && ctx.is_dim3_var(ctx.text(*c), c.start_byte()))
        }
        _ => false,
    }
}

/// The block's dimensions (x first) as source text, when all are constant.
fn block_dims(ctx: &FileCtx, block: Node) -> Option<Vec<String>> {
    let block = syntax::strip_parens(block);
    match block.kind_str() {
        "call_expression" if block.field("function").is_some_and(|f| ctx.text(f) == "dim3") => dim3_args(ctx, block.field("arguments")?),
        "identifier" if ctx.is_dim3_var(ctx.text(block), block.start_byte()) => constant_dim3_var(ctx, block),
        _ if constant(ctx, block, 0) => Some(vec![syntax::one_line(ctx.text(block))]),
        _ => None,
    }
}

/// The arguments of `dim3(…)`/`dim3 v(…)`/`dim3 v{…}`, when 1 to 3 and constant.
fn dim3_args(ctx: &FileCtx, list: Node) -> Option<Vec<String>> {
    let args = syntax::named_children(list);
    if args.is_empty() || args.len() > 3 || !args.iter().all(|a| constant(ctx, *a, 0)) {
        return None;
    }
    Some(args.iter().map(|a| syntax::one_line(ctx.text(*a))).collect())
}

/// A `dim3` variable declared from constants in the function of the launch,
/// and afterwards only read (`v.x` in an expression) or launched with.
fn constant_dim3_var(ctx: &FileCtx, var: Node) -> Option<Vec<String>> {
    let name = ctx.text(var);
    let (decl, declarator) = ctx.declaration_in_scope(var, name)?;
    let function = syntax::ancestor_of_kind(decl, &["function_definition"])?;
    let dims = match declarator.kind_str() {
        "init_declarator" => {
            let value = declarator.field("value")?;
            match value.kind_str() {
                "argument_list" | "initializer_list" => dim3_args(ctx, value)?,
                "call_expression" if value.field("function").is_some_and(|f| ctx.text(f) == "dim3") => dim3_args(ctx, value.field("arguments")?)?,
                _ if constant(ctx, value, 0) => vec![syntax::one_line(ctx.text(value))],
                _ => return None,
            }
        }
        // `dim3 block(TILE, TILE);` parses as a function declaration (the
        // most vexing parse): its "parameter types" are the names
        "function_declarator" => {
            let items = syntax::items(declarator.field("parameters")?);
            if items.is_empty() || items.len() > 3 {
                return None;
            }
            let mut dims = Vec::new();
            for p in items {
                let name = ctx.text(p).trim();
                if !(p.kind_str() == "parameter_declaration"
                    && !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && constant_name(ctx, p, name, 0))
                {
                    return None;
                }
                dims.push(name.to_string());
            }
            dims
        }
        _ => return None,
    };
    let declared_at = syntax::declarator_name(declarator, ctx.src)?.0.id();
    // (a body cut in parts: its uses in every part, from the index)
    if ctx.is_split(function) {
        let scope = ctx.scope_at(var.start_byte())?;
        let facts = ctx.project.index.functions.get(&scope.name)?;
        return (!facts.dim3_changed.contains(name)).then_some(dims);
    }
    let nodes = ctx.main_nodes();
    let body = nodes.subtree_of(function)?;
    let only_read =
        body.iter().filter(|n| n.kind_str() == "identifier" && n.id() != declared_at && ctx.text(**n) == name).all(|n| syntax::is_read_only_use(*n));
    only_read.then_some(dims)
}

/// Is `n` a compile-time integer constant expression?
fn constant(ctx: &FileCtx, n: Node, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    match n.kind_str() {
        "number_literal" => integer_literal(ctx.text(n)),
        "sizeof_expression" => true,
        "parenthesized_expression" | "binary_expression" | "unary_expression" | "conditional_expression" => {
            let children = syntax::named_children(n);
            !children.is_empty() && children.iter().all(|c| constant(ctx, *c, depth + 1))
        }
        "identifier" => constant_name(ctx, n, ctx.text(n), depth),
        _ => false,
    }
}

/// A name in a constant expression: a `const`/`constexpr` integer variable
/// with a constant initializer, an integer template parameter of a
/// template around it (`template <int TILE>`: a constant in each
/// instantiation, which the attribute names as the launch does), or
/// (declared nowhere around) an object-like macro of the project whose
/// body is a constant expression.
fn constant_name(ctx: &FileCtx, n: Node, name: &str, depth: usize) -> bool {
    if let Some((decl, declarator)) = ctx.declaration_in_scope(n, name) {
        let is_const = syntax::children(decl).iter().any(|c| c.kind_str() == "type_qualifier" && matches!(ctx.text(*c), "const" | "constexpr"));
        let integral = decl.field("type").is_some_and(|t| is_integer_type(ctx.text(t)));
        return is_const && integral && declarator.kind_str() == "init_declarator" && declarator.field("value").is_some_and(|v| constant(ctx, v, depth + 1));
    }
    template_parameter(ctx, n.byte_range(), name) || constant_macro(ctx, name, depth)
}

/// Is `name` an integer non-type parameter of a template around the node
/// at `at`? (Its ancestors from the walk's links: a launch inside a
/// template is a few levels below it.)
fn template_parameter(ctx: &FileCtx, at: std::ops::Range<usize>, name: &str) -> bool {
    let mut up = ctx.root().descendant_for_byte_range(at.start, at.end);
    while let Some(p) = up.and_then(|n| syntax::ancestor_of_kind_in(ctx.parents(), n, &["template_declaration"])) {
        if let Some(params) = p.field("parameters") {
            let declares = syntax::named_children(params).into_iter().any(|d| {
                matches!(d.kind_str(), "parameter_declaration" | "optional_parameter_declaration")
                    && d.field("declarator").is_some_and(|x| ctx.text(x) == name)
                    && d.field("type").is_some_and(|t| is_integer_type(ctx.text(t)))
            });
            if declares {
                return true;
            }
        }
        up = Some(p);
    }
    false
}

/// An integer type (`int`, `unsigned long`, `size_t`, `std::uint32_t`, …),
/// as the width rule reads types.
fn is_integer_type(t: &str) -> bool {
    let t = t.trim();
    matches!(syntax::arith_of_type(t.strip_prefix("std::").unwrap_or(t)), Some(syntax::Arith::Int(_)))
}

/// An object-like macro defined once (or always alike) and never `#undef`d,
/// whose body is an integer constant expression.
fn constant_macro(ctx: &FileCtx, name: &str, depth: usize) -> bool {
    let macros = &ctx.project.index.macros;
    if depth > MAX_DEPTH || macros.undefined.contains(name) || macros.conflicting.contains(name) {
        return false;
    }
    let Some(body) = macros.values.get(name) else {
        return false;
    };
    let comments = cached_regex!(r"(?s)//[^\n]*|/\*.*?\*/");
    let body = comments.replace_all(body, " ");
    let tokens = cached_regex!(r"0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+[uUlL]*|[A-Za-z_]\w*|\S");
    let mut any = false;
    for t in tokens.find_iter(&body) {
        let t = t.as_str();
        any = true;
        let c = t.as_bytes()[0];
        let ok = if c.is_ascii_digit() {
            integer_literal(t)
        } else if c.is_ascii_alphabetic() || c == b'_' {
            constant_macro(ctx, t, depth + 1)
        } else {
            "()+-*/%<>&|^~!?:=".contains(t)
        };
        if !ok {
            return false;
        }
    }
    any
}

/// `256`, `0x100`, `256u`: an integer literal (not `1.5`, `1e3`, `2.f`).
pub fn integer_literal(t: &str) -> bool {
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit() || b == b'\'');
    }
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'\'')
}

#[cfg(test)]
mod tests {
    use super::integer_literal;

    #[test]
    fn integer_literals() {
        for t in ["256", "0x100", "256u", "1024UL", "1'024"] {
            assert!(integer_literal(t), "{t}");
        }
        for t in ["1.5", "1e3", "2.f", "0x", "", "256f"] {
            assert!(!integer_literal(t), "{t}");
        }
    }
}

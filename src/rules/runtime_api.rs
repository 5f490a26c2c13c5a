//! CUDA runtime API calls, types and enumerators, driven by the mapping
//! tables (`rules/*.yaml`, `--rule-file`).
//!
//! What it does: a call of a mapped function is replaced by its template:
//! the `statement` template when the call's value is unused (direct SYCL:
//! `cudaMemcpy(d, h, n, k);` → `syclify::default_queue().memcpy(d, h,
//! n).wait();`), the `expression` template when the value is used (a helper
//! that returns an error code: `CHECK(cudaMalloc(&d, n))` →
//! `CHECK(syclify::malloc_device(&d, n))`). Mapped types and enumerators are
//! renamed. An unmapped `cuda*` call or name gets SY0401 and is left as is.
//! A call of a name the program defines itself is the program's and stays
//! as written; where CUDA's function of that name is a helper of the same
//! name (`max`: `syclify::max`), the file gets `using syclify::max;` so that
//! CUDA's overloads stay visible beside the program's (helper_math.h's
//! `max(int2, int2)` beside CUDA's `max(float, float)`), as under nvcc.
//!
//! Why: most of the runtime API has a one-to-one SYCL counterpart on an
//! in-order queue; the error-code form keeps the original error handling
//! working.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::mapping::{TemplatePiece, parse_template};
use crate::syntax::NodeKind;
use crate::syntax::{self, callee_name};
use tree_sitter::Node;

pub const RULE: &str = "runtime-api";
pub const DEFAULT_QUEUE: &str = "syclify::default_queue()";

fn looks_like_cuda_api(name: &str) -> bool {
    name.strip_prefix("cuda").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The name (`texture`, `surface`) of the texture or surface reference type
/// `n` is in: `n` itself where it is that name (`texture<float, 1> t;`), or
/// the reference's name where `n` is one of its arguments
/// (`cudaReadModeElementType`, which then names an enumerator). A few
/// parents up, not more.
fn texture_reference<'t>(ctx: &FileCtx<'t>, n: Node<'t>) -> Option<Node<'t>> {
    // (CUDA's are global: `gfx::texture<T>` is another library's)
    let reference = |tt: Node<'t>| {
        (tt.kind_str() == "template_type" && ctx.parent(tt).is_none_or(|q| q.kind_str() != "qualified_identifier"))
            .then(|| tt.field("name"))
            .flatten()
            .filter(|name| matches!(ctx.text(*name), "texture" | "surface"))
    };
    let p = ctx.parent(n)?;
    if let Some(name) = reference(p).filter(|name| name.id() == n.id()) {
        return Some(name);
    }
    // an argument: type_descriptor or expression, in the template_argument_list
    let list = if p.kind_str() == "template_argument_list" { p } else { ctx.parent(p).filter(|g| g.kind_str() == "template_argument_list")? };
    reference(ctx.parent(list)?)
}

/// `cuCtxCreate`, `cuMemAlloc`: a name of CUDA's driver API (unless the
/// program defines a function of that name).
fn looks_like_driver_api(name: &str) -> bool {
    name.strip_prefix("cu").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()) && r.len() > 2)
}

/// Is `n` inside an argument that a mapped call's templates drop (e.g. the
/// cache preference of `cudaFuncSetCacheConfig`, which becomes a no-op)?
fn in_dropped_argument<'t>(ctx: &FileCtx<'t>, n: Node<'t>) -> bool {
    let mut cur = n;
    while let Some(p) = ctx.parent(cur) {
        if p.kind_str() == "argument_list" {
            let Some(call) = ctx.parent(p).filter(|c| c.kind_str() == "call_expression") else {
                return false;
            };
            let Some((_, name)) = callee_name(call, ctx.src) else {
                return false;
            };
            let Some(rule) = ctx.project.mappings.functions.get(name) else {
                return false;
            };
            let Some(index) = syntax::named_children(p).iter().position(|a| a.start_byte() <= n.start_byte() && n.end_byte() <= a.end_byte()) else {
                return false;
            };
            let uses = |t: &Option<String>| {
                t.as_deref().and_then(|t| parse_template(t).ok()).is_some_and(|pieces| {
                    pieces.iter().any(|p| matches!(p, TemplatePiece::Arg(i) | TemplatePiece::Deref(i) | TemplatePiece::AddressOf(i) | TemplatePiece::Optional(i) if *i == index))
                })
            };
            return !uses(&rule.statement) && !uses(&rule.expression);
        }
        if p.kind_str() == "call_expression" || p.kind_str().ends_with("statement") {
            return false;
        }
        cur = p;
    }
    false
}

/// CUDA device intrinsics: `__name` (not a GCC/Clang builtin) and `atomicName`.
fn looks_like_cuda_intrinsic(name: &str) -> bool {
    // `__word__` names are attributes and compiler keywords (`__aligned__`)
    let dunder = name.starts_with("__")
        && !(name.len() > 4 && name.ends_with("__"))
        && !["__builtin", "__sync_", "__atomic_", "__assert", "__VA_"].iter().any(|p| name.starts_with(p));
    let atomic = name.strip_prefix("atomic").is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()));
    dunder || atomic
}

/// The object an address argument points to: `&p`, `(void **)&p`, `reinterpret_cast<void **>(&p)` → `p`.
fn deref_target<'a>(mut n: Node<'a>, src: &str) -> Option<Node<'a>> {
    loop {
        match n.kind_str() {
            "parenthesized_expression" => n = syntax::named_children(n).into_iter().next()?,
            "cast_expression" => n = n.field("value")?,
            "pointer_expression" if n.field("operator").is_some_and(|o| &src[o.byte_range()] == "&") => {
                return n.field("argument");
            }
            "call_expression" => {
                let (_, name) = callee_name(n, src)?;
                if !name.ends_with("_cast") {
                    return None;
                }
                let args = syntax::named_children(n.field("arguments")?);
                if args.len() != 1 {
                    return None;
                }
                n = args[0];
            }
            _ => return None,
        }
    }
}

/// `declaration`: the lookup of a name in scope (the file's index of its
/// scopes), for the types of arguments.
fn render<'m, 'a>(
    pieces: &[TemplatePiece],
    args: &[Node<'a>],
    src: &str,
    param: &dyn Fn(usize) -> Option<(&'m str, bool)>,
    declaration: &syntax::DeclarationAt<'_, 'a>,
    float_unknown: bool,
) -> Option<Replacement> {
    let mut r = Replacement::new();
    let mut used = vec![false; args.len()];
    for p in pieces {
        match p {
            TemplatePiece::Text(t) => r.push_text(t),
            TemplatePiece::Arg(i) => {
                let a = *args.get(*i)?;
                match param(*i).and_then(|(ty, exact)| converted_argument(a, src, ty, exact, declaration, float_unknown)) {
                    Some(Converted::Literal(t)) => {
                        r.push_text(&t);
                        r.push_discard(a.byte_range());
                    }
                    Some(Converted::Cast(ty)) => {
                        r.push_text(&format!("static_cast<{ty}>("));
                        r.push_source(a.byte_range());
                        r.push_text(")");
                    }
                    None => r.push_source(a.byte_range()),
                }
                used[*i] = true;
            }
            TemplatePiece::Deref(i) => {
                r.push_source(deref_target(*args.get(*i)?, src)?.byte_range());
                used[*i] = true;
            }
            TemplatePiece::AddressOf(i) => {
                let a = *args.get(*i)?;
                let inner = if a.kind_str() == "parenthesized_expression" { syntax::named_children(a).into_iter().next()? } else { a };
                match inner.kind_str() {
                    "pointer_expression" if inner.field("operator").is_some_and(|o| &src[o.byte_range()] == "*") => {
                        r.push_source(inner.field("argument")?.byte_range())
                    }
                    _ => {
                        r.push_text("&(");
                        r.push_source(a.byte_range());
                        r.push_text(")");
                    }
                }
                used[*i] = true;
            }
            TemplatePiece::Optional(i) => {
                if let Some(a) = args.get(*i) {
                    r.push_text(", ");
                    r.push_source(a.byte_range());
                    used[*i] = true;
                }
            }
            TemplatePiece::Queue => r.push_text(DEFAULT_QUEUE),
        }
    }
    // arguments the template drops (e.g. cudaMemcpy's direction): their own
    // rewrites go with them
    for (a, u) in args.iter().zip(used) {
        if !u {
            r.push_discard(a.byte_range());
        }
    }
    Some(r)
}

enum Converted {
    /// The literal respelled in the parameter's type (`2` → `2.0f`).
    Literal(String),
    /// The argument cast to the parameter's type.
    Cast(String),
}

/// An argument of a function whose SYCL counterpart does not convert as
/// CUDA's prototype does ([`crate::mapping::Mappings::parameter_type`]),
/// where it is evidently of another type than the parameter: the conversion
/// CUDA made implicitly. `exact`: the parameter type is declared in the
/// table (a bit cast needs the exact type), not a C math function's.
/// `float_unknown`: an argument of unknown type to a `float` parameter is
/// cast too (a macro's parameter: `sqrtf(x)` takes an `int` as CUDA's
/// prototype converts it, `sycl::sqrt` has no `int` overload).
fn converted_argument<'a>(
    a: Node<'a>,
    src: &str,
    param: &str,
    exact: bool,
    declaration: &syntax::DeclarationAt<'_, 'a>,
    float_unknown: bool,
) -> Option<Converted> {
    use syntax::Arith;
    let want = syntax::arith_of_type(param)?;
    let Some(have) = syntax::arith_type_with(a, src, declaration) else {
        return (float_unknown && want == Arith::Float).then(|| Converted::Cast(param.to_string()));
    };
    // (a float where a C math function's double is expected computes in
    // float on both sides: CUDA has float overloads of `sqrt`)
    let same = match (have, want) {
        // integers of any width convert implicitly to a math function's
        // integer parameter; a bit cast needs the exact width
        (Arith::Int(h), Arith::Int(w)) => h == w || !exact,
        _ => have == want,
    };
    if same || (want == Arith::Double && have == Arith::Float && !exact) {
        return None;
    }
    let t = syntax::text(a, src);
    let decimal = t.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E' || b == b'-' || b == b'+');
    if a.kind_str() == "number_literal" && decimal && !matches!(want, Arith::Int(_)) {
        let body = if t.contains(['.', 'e', 'E']) { t.to_string() } else { format!("{t}.0") };
        return Some(Converted::Literal(if want == Arith::Float { format!("{body}f") } else { body }));
    }
    Some(Converted::Cast(param.to_string()))
}

/// Is this argument evidently a scalar: a literal, a vector's member
/// (`a.x`), or a parameter of the enclosing function declared with a
/// built-in arithmetic type?
fn is_scalar_arg<'t>(ctx: &FileCtx<'t>, a: Node<'t>) -> bool {
    match a.kind_str() {
        "number_literal" | "char_literal" => true,
        "field_expression" => a.field("field").is_some_and(|x| matches!(ctx.text(x), "x" | "y" | "z" | "w")),
        "identifier" => {
            let name = ctx.text(a);
            let mut p = ctx.parent(a);
            while let Some(n) = p {
                if n.kind_str() == "function_definition" {
                    let params = n.field("declarator").and_then(syntax::function_declarator).and_then(|fd| fd.field("parameters"));
                    return params.is_some_and(|ps| {
                        syntax::named_children(ps).into_iter().any(|p| {
                            p.field("declarator").is_some_and(|d| d.kind_str() == "identifier" && ctx.text(d) == name)
                                && p.field("type").is_some_and(|t| {
                                    matches!(t.kind_str(), "primitive_type" | "sized_type_specifier")
                                        || matches!(ctx.text(t), "uint" | "size_t" | "ushort" | "uchar")
                                })
                        })
                    });
                }
                p = ctx.parent(n);
            }
            false
        }
        _ => false,
    }
}

pub fn run(ctx: &mut FileCtx) {
    let mappings = ctx.project.mappings;
    // the names this file defines by their shape (macros, types, functions,
    // variables: also inside macro bodies, `cudaError_t cudaStatus = call;`),
    // read once where a name that looks like the API is about to be reported
    for n in ctx.all_of(&["call_expression", "type_identifier", "identifier"]) {
        // (most names are none that this rule reads: told from their text first)
        if n.kind_str() != "call_expression" && !may_concern(mappings, n, ctx.text(n)) {
            continue;
        }
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "call_expression" => {
                let Some((name_node, name)) = callee_name(n, ctx.src) else {
                    continue;
                };
                // `std::exp(x)` / `::expf(x)` in device code: the C++ library's
                // math, which SYCL devices do not have (AdaptiveCpp leaves
                // `expf` an undefined symbol), is mapped like `exp(x)`; the C
                // library's own (`::nan("")`) also where a helper computes it
                let std_math = n.field("function").is_some_and(|f| {
                    let scope = f.field("scope");
                    f.kind_str() == "qualified_identifier"
                        && f.field("name").is_some_and(|x| x.id() == name_node.id())
                        && scope.is_none_or(|s| ctx.text(s) == "std")
                        && mappings.functions.get(name).is_some_and(|r| {
                            r.device && r.expression.as_deref().is_some_and(|e| e.starts_with("sycl::") || (scope.is_none() && e.starts_with("syclify::")))
                        })
                        && (ctx.in_device_code(n.start_byte()) || ctx.in_device_macro(n.start_byte()))
                });
                if !std_math && n.field("function").is_some_and(|f| f.id() != name_node.id()) {
                    continue; // qualified or templated: not a runtime call
                }
                if crate::syntax::is_declaration_read_as_comparison(ctx.parents(), n) {
                    continue; // a variable named like the API, being declared
                }
                // a project macro of the same name (`#define max(a, b) ...`) is
                // what this call expands to: mapping it would hand the macro
                // `sycl::max(...)` to rewrite
                if ctx.project.index.macros.names.contains(name) {
                    continue;
                }
                // a function the project defines itself (its own `min`) is not
                // CUDA's — unless no declaration of it takes this many arguments
                // (helper_math.h's `make_float2(float s)` beside CUDA's two-argument one)
                // — or every overload of it takes a CUDA vector type and this call
                // passes a vector's member (helper_math.h's `min(int2 a, int2 b)`
                // calling CUDA's `min(a.x, b.x)`)
                if let Some(f) = ctx.project.index.functions.get(name).filter(|_| !name.starts_with("__")) {
                    let args = syntax::call_arguments(n);
                    let vector_overloads_only = !f.first_params.is_empty() && f.first_params.iter().all(|p| mappings.types.contains_key(p.as_str()));
                    if f.accepts(args.len()) && !(vector_overloads_only && args.first().is_some_and(|a| is_scalar_arg(ctx, *a))) {
                        // CUDA's own overloads (a helper of the same name
                        // in syclify::) stay visible beside the program's
                        // (one the mapping only forwards to, taking as many
                        // arguments as the call passes)
                        let same_helper = |r: &crate::mapping::FunctionRule| {
                            !r.device
                                && r.expression
                                    .as_deref()
                                    .and_then(crate::mapping::forwarding)
                                    .is_some_and(|(f, n)| f == format!("syclify::{name}") && n == args.len())
                        };
                        if mappings.functions.get(name).is_some_and(same_helper) {
                            ctx.using_helpers.insert(name.to_string());
                            ctx.needs_sycl = true;
                        }
                        continue;
                    }
                }
                // device-only mappings apply in device code, in the bodies of
                // macros that device code expands (`#define hbar (1.0f /
                // acosf(-1.f))`; where host code uses them too, it computes
                // with SYCL's math, which the host has), and in any macro body
                // to names that exist only in device code (`__mul24`)
                let device_ok = |r: &&crate::mapping::FunctionRule| {
                    !r.device
                        || ctx.in_device_code(n.start_byte())
                        || (name.starts_with("__") && ctx.in_macro(n.start_byte()))
                        || ctx.in_device_macro(n.start_byte())
                };
                let rule = mappings.functions.get(name).filter(device_ok);
                let Some(rule) = rule else {
                    if mappings.types.contains_key(name) {
                        continue; // a constructor call: the type is renamed below
                    }
                    let unknown_intrinsic =
                        looks_like_cuda_intrinsic(name) && !ctx.project.index.functions.contains_key(name) && !mappings.functions.contains_key(name);
                    // a structural rule (barriers, warp operations, fences...) already rewrote it
                    let rewritten = ctx.edits.at(&n.byte_range()).next().is_some();
                    // (a branch no build compiles: its CUDA is reported once, SY0112)
                    if rewritten || ctx.in_inactive_branch(n.start_byte()) {
                        continue;
                    }
                    if let Some(why) = mappings.why_unsupported(name).filter(|_| !ctx.project.index.functions.contains_key(name)) {
                        ctx.diag(Code::UnsupportedApi, n.byte_range(), RULE, format!("`{name}` is not migrated: {why}; the call was left as is"));
                    } else if looks_like_cuda_api(name) || unknown_intrinsic || (looks_like_driver_api(name) && !ctx.project.index.functions.contains_key(name))
                    {
                        ctx.diag(Code::UnsupportedApi, n.byte_range(), RULE, format!("`{name}` is not migrated; the call was left as is"));
                    }
                    continue;
                };
                let args: Vec<Node> = syntax::call_arguments(n);
                let unused = ctx.parent(n).is_some_and(|p| p.kind_str() == "expression_statement");
                if let Some(var) = memset_of_host_variable(ctx, n, name, &args) {
                    ctx.diag(
                        Code::MappingWarning,
                        n.byte_range(),
                        RULE,
                        format!("`{name}` on the address of host variable `{var}`: CUDA refuses it (`cudaErrorInvalidValue`) unless the GPU can access pageable host memory, and SYCL does not allow it; the migrated code sets nothing and returns that error"),
                    );
                    let rep = if unused { "static_cast<void>(syclify::error_invalid_value)" } else { "syclify::error_invalid_value" };
                    ctx.edits.replace_text(RULE, n.byte_range(), rep);
                    ctx.count(RULE);
                    ctx.needs_sycl = true;
                    continue;
                }
                let param = |i: usize| mappings.parameter_type(name, i);
                // a float function of the C library in a device macro's body
                // (`sqrtf(x)`): its arguments' types are the expansion's
                let float_unknown = rule.device && name.ends_with('f') && !ctx.in_device_code(n.start_byte()) && ctx.in_device_macro(n.start_byte());
                let none = |_: usize| None;
                let stmt = rule
                    .statement
                    .as_deref()
                    .filter(|_| unused)
                    .and_then(|t| render(&parse_template(t).ok()?, &args, ctx.src, &none, &|n, name| ctx.declaration_in_scope(n, name), false));
                let rep = stmt.or_else(|| {
                    rule.expression
                        .as_deref()
                        .and_then(|t| render(&parse_template(t).ok()?, &args, ctx.src, &param, &|n, name| ctx.declaration_in_scope(n, name), float_unknown))
                });
                match rep {
                    Some(rep) => {
                        ctx.edits.replace(RULE, n.byte_range(), rep);
                        ctx.count(RULE);
                        ctx.needs_sycl = true;
                        if let Some(note) = &rule.note {
                            ctx.diag(Code::MappingNote, n.byte_range(), RULE, format!("`{name}`: {note}"));
                        }
                        if let Some(warn) = &rule.warn {
                            ctx.diag(Code::MappingWarning, n.byte_range(), RULE, format!("`{name}`: {warn}"));
                        }
                        if let Some(w) = &rule.warn_when
                            && args.get(w.argument).is_some_and(|a| syntax::identifiers(ctx.text(*a)).iter().any(|(_, x)| *x == w.names))
                        {
                            ctx.diag(Code::MappingWarning, n.byte_range(), RULE, format!("`{name}` with `{}`: {}", w.names, w.warn));
                        }
                    }
                    None => {
                        // a template that only forwards the arguments in order to one
                        // function (`syclify::blas::gemm({0}, ..., {13})`): the call
                        // keeps its arguments whatever their form (a macro that expands
                        // to all of them), only the callee is renamed
                        let forward = rule.expression.as_deref().and_then(crate::mapping::forwarding_target).filter(|_| rule.statement.is_none());
                        match (forward, n.field("function")) {
                            (Some(target), Some(callee)) => {
                                ctx.edits.replace_text(RULE, callee.byte_range(), target);
                                ctx.count(RULE);
                                ctx.needs_sycl = true;
                            }
                            _ => ctx.diag(
                                Code::UnsupportedApi,
                                n.byte_range(),
                                RULE,
                                format!("`{name}` is used in a form the mapping does not cover (arguments or value); left as is"),
                            ),
                        }
                    }
                }
            }
            "type_identifier" | "identifier" => {
                let t = ctx.text(n);
                match if n.kind_str() == "identifier" { math_name_through_macro(ctx, n, t) } else { MathThroughMacro::No } {
                    MathThroughMacro::Rewrite => {
                        ctx.edits.replace_text(RULE, n.byte_range(), format!("syclify::cmath::{t}"));
                        ctx.count(RULE);
                        ctx.needs_sycl = true;
                        continue;
                    }
                    MathThroughMacro::Mixed => {
                        ctx.diag(
                            Code::UnsupportedApi,
                            n.byte_range(),
                            RULE,
                            format!("`{t}` forms a C math function name for device code in a macro that also uses it otherwise (`#`); not migrated: a SYCL device has no C library"),
                        );
                        continue;
                    }
                    MathThroughMacro::No => {}
                }
                // a texture or surface reference's type (`texture<float, 1,
                // cudaReadModeElementType>`, removed in CUDA 12): the helper's
                // (`syclify::texture_ref<…>`); its arguments are mapped below.
                // A namespace-scope declaration of one is written by
                // device-globals, which these edits inside it go with.
                if matches!(t, "texture" | "surface")
                    && let Some(r) = texture_reference(ctx, n).filter(|r| r.id() == n.id())
                {
                    let inactive = ctx.in_inactive_branch(n.start_byte());
                    if !inactive && !ctx.file.defined_names().contains(t) && !ctx.project.declared_elsewhere(ctx.rel, t) {
                        ctx.edits.replace_text(RULE, r.byte_range(), format!("syclify::{t}_ref"));
                        ctx.count(RULE);
                        ctx.needs_sycl = true;
                    }
                    continue;
                }
                // (most names are none of these: the syntactic tests below
                // climb the tree, so they run only for names that could be)
                if !could_be_api(mappings, n, t) {
                    continue;
                }
                // an identifier names a type only where no variable could stand:
                // `sizeof(float4)` parses as an expression, and so does a type
                // passed to a macro (`DEFINE_ALIGN(short4, 8)`)
                let is_callee = ctx.parent(n).is_some_and(|p| p.kind_str() == "call_expression" && p.field("function").is_some_and(|f| f.id() == n.id()));
                // in a macro body a vector type name is a type wherever it stands
                // (`#define VEC float4`, `#define CAST(p) ((float4 *)(p))`)
                // a type called like a function is a functional cast or a
                // constructor call (`__nv_bfloat162(a, b)`, `__nv_fp8_e4m3(x)`)
                let constructed = is_callee && !mappings.functions.contains_key(t) && !ctx.project.index.functions.contains_key(t);
                let type_position = n.kind_str() == "type_identifier"
                    || constructed
                    || (ctx.in_macro(n.start_byte()) && !is_callee && !ctx.project.index.functions.contains_key(t))
                    // `(half)(x)`: a C cast that reads as a call of a parenthesized name
                    || (ctx.parent(n).is_some_and(|p| {
                        p.kind_str() == "parenthesized_expression"
                            && p.named_child_count() == 1
                            && ctx.parent(p).is_some_and(|g| g.kind_str() == "call_expression" && g.field("function").is_some_and(|f| f.id() == p.id()))
                    }) && !ctx.declared_in_scope(n, t))
                    || (misparsed_template_argument(ctx, n) && !ctx.declared_in_scope(n, t))
                    || ctx.parent(n).is_some_and(|p| {
                        p.kind_str() == "sizeof_expression"
                            || (p.kind_str() == "parenthesized_expression" && ctx.parent(p).is_some_and(|g| g.kind_str() == "sizeof_expression"))
                            || (p.kind_str() == "argument_list"
                                && ctx.parent(p)
                                    .and_then(|c| c.field("function"))
                                    .is_some_and(|f| ctx.project.index.macros.names.contains(ctx.text(f))))
                    });
                // (not where the program defines a macro of that name itself:
                // its own `#define CUDART_INF_F ...` stays the program's)
                let own_macro = ctx.project.index.macros.names.contains(t);
                let rep = if type_position { mappings.types.get(t) } else { None }
                    // (a plain call of a function the table maps is the call's:
                    // `cudaCreateChannelDesc(32, ...)`, not `...<float>()`)
                    .or_else(|| {
                        // (nor the project's own function of that name: its `tex2D(...)`)
                        let own_function = ctx.project.index.functions.contains_key(t);
                        if n.kind_str() == "identifier" && !own_macro && !own_function && (!is_callee || !mappings.functions.contains_key(t)) {
                            mappings.enums.get(t)
                        } else {
                            None
                        }
                    })
                    // an enumerator as a texture reference's argument parses
                    // as a type (`texture<float, 2, cudaReadModeElementType>`)
                    .or_else(|| {
                        (n.kind_str() == "type_identifier" && t.starts_with("cuda") && mappings.enums.contains_key(t) && texture_reference(ctx, n).is_some())
                            .then(|| mappings.enums.get(t))
                            .flatten()
                    });
                // the code's own type of that name (`typedef struct {..} double4;`
                // where CUDA is not there) is not CUDA's
                let declared_here = ctx.parent(n).is_some_and(|p| {
                    let field = |f: &str| p.field(f).is_some_and(|x| x.id() == n.id());
                    (p.kind_str() == "type_definition" && field("declarator"))
                        || (matches!(p.kind_str(), "struct_specifier" | "class_specifier" | "union_specifier") && field("name") && p.field("body").is_some())
                        || (p.kind_str() == "enumerator" && field("name"))
                });
                // a name qualified by a scope (`sycl::half`, `my::float4`) is
                // that scope's, not CUDA's global one: an output of syclify
                // migrated again keeps its `sycl::half`
                let scoped = n
                    .parent()
                    .is_some_and(|p| p.kind_str() == "qualified_identifier" && p.field("scope").is_some() && p.field("name").is_some_and(|x| x.id() == n.id()));
                if declared_here || scoped {
                    continue;
                }
                if let Some(rep) = rep {
                    ctx.edits.replace_text(RULE, n.byte_range(), rep);
                    ctx.count(RULE);
                    ctx.needs_sycl = true;
                    continue;
                }
                // a device intrinsic named, not called (`#define fast_sin __sinf`):
                // the function its mapping forwards to, when there is one
                let named = n.kind_str() == "identifier" || (n.kind_str() == "type_identifier" && ctx.in_macro(n.start_byte()));
                // (not the project's own macro or function of that name: `#define __mul24(a, b) ...`)
                if named && !is_callee && t.starts_with("__") && !ctx.project.index.functions.contains_key(t) && !ctx.project.index.macros.names.contains(t) {
                    let target = mappings.functions.get(t).and_then(|r| r.expression.as_deref()).and_then(crate::mapping::forwarding_target);
                    if let Some(target) = target {
                        ctx.edits.replace_text(RULE, n.byte_range(), &target);
                        ctx.count(RULE);
                        ctx.needs_sycl = true;
                        continue;
                    }
                }
                // a math_constants.h constant the table does not know
                if t.starts_with("CUDART_") && t != "CUDART_VERSION" && !own_macro && !in_dropped_argument(ctx, n) {
                    ctx.diag(Code::UnsupportedApi, n.byte_range(), RULE, format!("`{t}` (math_constants.h) is not migrated; left as is"));
                    continue;
                }
                // (a type without a migration that a table says why of:
                // `CUtexref`, `cusolverSpHandle_t`)
                let driver_type = n.kind_str() == "type_identifier" && mappings.why_unsupported(t).is_some();
                if !(t.starts_with("cuda") || driver_type) || in_dropped_argument(ctx, n) {
                    continue;
                }
                let in_launch_config = ctx.parent(n).is_some_and(|p| p.kind_str() == "kernel_call_syntax");
                // the program's own variable named like the API (`cudaError_t cudaStatus;`)
                let own_variable = ctx.is_other_var(t, n.start_byte());
                if (looks_like_cuda_api(t) || driver_type) && !is_callee && !in_launch_config && !own_variable && !mappings.functions.contains_key(t) {
                    // a name the program defines (`#define cudaCheck(x) ...`, its
                    // own `cudaGridSize()`, a variable in a macro body) is the
                    // program's, in this file or another of its part
                    let program_defines = own_macro
                        || ctx.project.index.functions.contains_key(t)
                        || ctx.file.defined_names().contains(t)
                        || ctx.project.declared_elsewhere(ctx.rel, t);
                    let inactive = ctx.in_inactive_branch(n.start_byte());
                    if !program_defines && !inactive {
                        let why = mappings.why_unsupported(t).map(|w| format!(": {w}")).unwrap_or_default();
                        ctx.diag(Code::UnsupportedApi, n.byte_range(), RULE, format!("`{t}` is not migrated{why}; left as is"));
                    }
                }
            }
            _ => {}
        }
    }
    unparsed_type_names(ctx);
}

/// `cudaMemset(&x, …)`/`cudaMemsetAsync(&x, …)` in host code where `x` is
/// a variable of the enclosing block (memtest's `unsigned err = 0; …
/// cudaMemset(&err, 0, sizeof(unsigned));`): host stack memory, which CUDA
/// refuses with `cudaErrorInvalidValue`, setting nothing (unless the GPU can
/// access pageable memory: HMM), while a SYCL `memset` on it is undefined
/// (AdaptiveCpp reports a failed operation).
/// Returns the variable's name.
fn memset_of_host_variable<'t>(ctx: &FileCtx<'t>, call: Node<'t>, name: &str, args: &[Node<'t>]) -> Option<String> {
    if !matches!(name, "cudaMemset" | "cudaMemsetAsync") || ctx.in_device_code(call.start_byte()) || ctx.in_macro(call.start_byte()) {
        return None;
    }
    let dst = *args.first()?;
    if dst.kind_str() != "pointer_expression" || dst.field("operator").is_none_or(|o| ctx.text(o) != "&") {
        return None;
    }
    let var = dst.field("argument").filter(|a| a.kind_str() == "identifier")?;
    let name = ctx.text(var);
    let (decl, _) = ctx.declaration_in_scope(var, name)?;
    // a declaration in a block (not a parameter, not `extern`: the global it names may be device memory)
    // (one lookup for a rare call: memset of an address taken in place)
    let in_block = decl.kind_str() == "declaration" && decl.parent().is_some_and(|p| p.kind_str() == "compound_statement");
    let external = syntax::named_children(decl).iter().any(|c| c.kind_str() == "storage_class_specifier" && ctx.text(*c) == "extern");
    (in_block && !external).then(|| name.to_string())
}

/// Whether a type or variable name `n` (text `t`) could name a CUDA type,
/// enumerator or other API name the mapping tables know.
fn could_be_api(mappings: &crate::mapping::Mappings, n: Node, t: &str) -> bool {
    // (the prefixes first: most names have none, and are in no table)
    t.starts_with("__")
        || t.starts_with("CUDART_")
        || t.starts_with("cuda")
        || mappings.type_or_enum(t)
        || ((t.starts_with("CU") || t.starts_with("cusolver") || t.starts_with("nccl")) && n.kind_str() == "type_identifier")
}

/// Whether [`run`] does anything with name `n` (text `t`): a C math name
/// (through a macro), a texture or surface reference's type, or a name
/// [`could_be_api`].
fn may_concern(mappings: &crate::mapping::Mappings, n: Node, t: &str) -> bool {
    matches!(t, "texture" | "surface") || could_be_api(mappings, n, t) || (is_cmath_name(t) && n.kind_str() == "identifier")
}

/// Whether `t` is a C math function's name of [`CMATH_FAMILIES`]: a
/// family's `name`, `namef` or `namel`.
fn is_cmath_name(t: &str) -> bool {
    static STARTS: std::sync::OnceLock<crate::mapping::NameStarts> = std::sync::OnceLock::new();
    if !STARTS.get_or_init(|| CMATH_FAMILIES.iter().copied().collect()).may_hold(t) {
        return false;
    }
    [t, t.strip_suffix('f').unwrap_or(t), t.strip_suffix('l').unwrap_or(t)].iter().any(|f| CMATH_FAMILIES.binary_search(f).is_ok())
}

/// The C library's math families `syclify::cmath` declares under their C
/// names (each as `name`, `namef` and `namel`: `runtime-headers/syclify/syclify.hpp`, section 9).
/// Sorted: looked up by binary search.
const CMATH_FAMILIES: &[&str] = &[
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "erf",
    "erfc",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "fdim",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "frexp",
    "hypot",
    "ilogb",
    "ldexp",
    "lgamma",
    "log",
    "log10",
    "log1p",
    "log2",
    "logb",
    "lrint",
    "lround",
    "modf",
    "nearbyint",
    "nextafter",
    "pow",
    "remainder",
    "rint",
    "round",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
    "tgamma",
    "trunc",
];

/// Is identifier `n` (text `t`) a C math name handed, in device code or a
/// device macro's body, to a function-like macro of the project that forms
/// a function name from it — by pasting a suffix (`#define MATHFN(x)
/// x##f`, then `MATHFN(log)(v)`, `#define LOG MATHFN(log)`) or by calling it
/// (`#define APPLY(f, v) f(v)`)? The name reaches the device only after
/// preprocessing, where no mapping sees it; `syclify::cmath::log` pastes to
/// `syclify::cmath::logf`, C's function computed with SYCL's builtins. Only
/// where every use of the parameter in the body is pasted onto or called
/// (never stringized, never pasted after another token).
fn math_name_through_macro<'t>(ctx: &FileCtx<'t>, n: Node<'t>, t: &str) -> MathThroughMacro {
    // (asked of every identifier: the sorted table first, then the project's names)
    if !is_cmath_name(t) {
        return MathThroughMacro::No;
    }
    // (not the program's own function or macro of that name: its `sqrt` is its own)
    if ctx.project.index.functions.contains_key(t) || ctx.project.index.macros.names.contains(t) {
        return MathThroughMacro::No;
    }
    let Some(args) = ctx.parent(n).filter(|p| p.kind_str() == "argument_list") else {
        return MathThroughMacro::No;
    };
    let Some(callee) = ctx.parent(args).filter(|c| c.kind_str() == "call_expression").and_then(|c| c.field("function")) else {
        return MathThroughMacro::No;
    };
    let Some((params, body)) = ctx.project.index.macros.functions.get(ctx.text(callee)) else {
        return MathThroughMacro::No;
    };
    let Some(index) = syntax::named_children(args).iter().position(|a| a.id() == n.id()) else {
        return MathThroughMacro::No;
    };
    let Some(param) = params.get(index) else {
        return MathThroughMacro::No;
    };
    let uses: Vec<std::ops::Range<usize>> = syntax::identifiers(body).into_iter().filter(|(_, w)| *w == param.as_str()).map(|(at, _)| at).collect();
    let forms_name = |at: std::ops::Range<usize>| {
        let before = body[..at.start].trim_end();
        let after = body[at.end..].trim_start();
        !before.ends_with('#') && (after.starts_with("##") || after.starts_with('('))
    };
    let forming = uses.iter().filter(|at| forms_name((*at).clone())).count();
    if forming == 0 || !(ctx.in_device_code(n.start_byte()) || ctx.in_device_macro(n.start_byte())) {
        return MathThroughMacro::No;
    }
    if forming == uses.len() { MathThroughMacro::Rewrite } else { MathThroughMacro::Mixed }
}

/// What [`math_name_through_macro`] found.
#[derive(PartialEq)]
enum MathThroughMacro {
    No,
    /// every use of the parameter forms a function name: rewritten
    Rewrite,
    /// some use forms a function name and another does not (`#x`): the
    /// name cannot be rewritten for one without changing the other
    Mixed,
}

/// Is identifier `n` the template argument of a declaration the parser read
/// as comparisons: `std::vector<half> a(n), b(n), c(n);` reads as
/// `(std::vector < half) > (a(n), b(n), c(n))` — `n` is the right operand of
/// a `<` that is itself the left operand of a `>`.
fn misparsed_template_argument<'t>(ctx: &FileCtx<'t>, n: Node<'t>) -> bool {
    let op = |b: Node, o: &str| b.kind_str() == "binary_expression" && b.field("operator").is_some_and(|x| x.kind_str() == o);
    let Some(p) = ctx.parent(n).filter(|p| op(*p, "<") && p.field("right").is_some_and(|r| r.id() == n.id())) else {
        return false;
    };
    ctx.parent(p).is_some_and(|g| op(g, ">") && g.field("left").is_some_and(|l| l.id() == p.id()))
}

/// Type names inside text the parser did not read: macro uses hidden by
/// error recovery ([`crate::mask::MaskKind::Unparsed`]: `DEFINE_ALIGN(short4,
/// 8)` keeps its shape with the type migrated) and the branches of a
/// conditional parsed in another configuration
/// ([`crate::mask::MaskKind::InactiveBranch`], SY0005: `#ifdef USE_STREAM` /
/// `cudaStream_t s,` / `#endif` in a parameter list), there with the
/// enumerators too (`cudaMemcpyHostToDevice`). Other CUDA in such text is
/// left: reported by the leftover scan, or by SY0005 in a branch.
fn unparsed_type_names(ctx: &mut FileCtx) {
    use crate::mask::MaskKind;
    let mappings = ctx.project.mappings;
    let ranges: Vec<(std::ops::Range<usize>, bool)> = ctx
        .parsed
        .masks
        .iter()
        .filter(|m| {
            matches!(m.kind, MaskKind::Unparsed | MaskKind::InactiveBranch) && ctx.owns(m.range.start) && !crate::mask::in_directive(ctx.src, m.range.start)
        })
        .map(|m| (m.range.clone(), m.kind == MaskKind::InactiveBranch))
        .collect();
    for (r, branch) in ranges {
        let text = &ctx.src[r.clone()];
        for (w, name) in crate::syntax::identifiers(text) {
            let before = text[..w.start].trim_end();
            if before.ends_with("::") || before.ends_with('.') || before.ends_with("->") {
                continue;
            }
            if let Some(rep) = mappings.types.get(name).or_else(|| mappings.enums.get(name).filter(|_| branch)) {
                ctx.edits.replace_text(RULE, r.start + w.start..r.start + w.end, rep);
                ctx.count(RULE);
                ctx.needs_sycl = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cmath_families_are_sorted_for_their_binary_search() {
        assert!(super::CMATH_FAMILIES.windows(2).all(|w| w[0] < w[1]));
    }

    /// `CMATH_FAMILIES` and the helper header's `syclify::cmath` name the
    /// same families: a name rewritten to `syclify::cmath::` is declared there.
    #[test]
    fn cmath_families_match_the_helper_header() {
        let header = crate::helpers::HELPER_HEADER;
        let start = header.find("namespace cmath {").expect("syclify::cmath in the helper header");
        let section = &header[start..start + header[start..].find("} // namespace cmath").expect("end of syclify::cmath")];
        // each family once: its macro line, or the form taking a `double`
        let declared: std::collections::BTreeSet<&str> = section
            .lines()
            .filter_map(|l| {
                let macro_form = l.strip_prefix("SYCLIFY_CMATH_1(").or_else(|| l.strip_prefix("SYCLIFY_CMATH_2("));
                let double_form = || {
                    let (head, params) = l.strip_prefix("inline ")?.split_once('(')?;
                    params.starts_with("double ").then(|| head.rsplit(' ').next()).flatten()
                };
                macro_form.and_then(|r| r.split(',').next()).or_else(double_form)
            })
            .collect();
        let listed: std::collections::BTreeSet<&str> = super::CMATH_FAMILIES.iter().copied().collect();
        assert_eq!(declared, listed);
    }
}

//! Static `__shared__` variables.
//!
//! What it does: removes the declaration of every static `__shared__`
//! variable (1-D, multi-dimensional or scalar) from kernels and device
//! functions. The variable becomes work-group local memory: each launch
//! allocates a `syclify::local_array<T>` (a 16-byte aligned
//! `sycl::local_accessor`) in its command group (see
//! [`super::kernel_launch`]) and the kernel receives a pointer with the same
//! name and a type that keeps the body's indexing unchanged (`float
//! tile[32][33]` → parameter `float (*tile)[33]`; a scalar `int n` →
//! `int &n`), passed down to device functions that declare their own (see
//! [`super::device_function_parameters`]).
//!
//! Why: SYCL has no group-local variables in kernel scope; local memory is
//! allocated per work-group by the command group.
//!
//! A `__shared__` variable declared at namespace scope (CUDA allows it: one
//! per block, seen by every function of the file) is removed too; every
//! kernel that uses it, directly or through device functions, allocates it
//! and passes it down under its own name.
//!
//! A variable of an unnamed struct or union type (CUB's `__shared__ union {
//! typename BlockScanT::TempStorage scan; … } temp_storage;`) gets the name
//! the index gave its type (`k_temp_storage_t<T, N>`, a template over the
//! kernel's template parameters), defined before the kernel, so the launch
//! can allocate it.
//!
//! In a function, an array's declaration is replaced by the statement that
//! its pointer is 16-byte aligned (`tile = syclify::assume_local_aligned(tile);`,
//! true of every `local_array`): nvcc knows a `__shared__` array's
//! alignment, and the SYCL compiler then may load neighbouring elements at
//! once too (`ld.shared.v4`). Said at the launch only, the assumption was
//! lost where a kernel's loop bound is a parameter (a templated tiled
//! SGEMM ran 1.25-1.29x nvcc's time; with it, 1.00).
//!
//! Example: `__shared__ float tile[TILE][TILE + 1];` becomes
//! `tile = syclify::assume_local_aligned(tile);` in the kernel, whose
//! signature gains `float (*tile)[TILE + 1]`.

use super::FileCtx;
use crate::index::shared_declaration;
use crate::syntax::NodeKind;

pub const RULE: &str = "static-shared-memory";

/// The range of a statement together with its line, when it is alone on it
/// (`line_starts`: the text's, [`FileCtx::line_starts`]).
pub fn statement_line_range(src: &str, line_starts: &[usize], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let line = line_starts.partition_point(|&s| s <= range.start).saturating_sub(1);
    let line_start = line_starts.get(line).copied().unwrap_or(0);
    let before_blank = src[line_start..range.start].trim().is_empty();
    // (after the first newline at or after the end)
    let line_end = line_starts.get(line_starts.partition_point(|&s| s <= range.end)).copied().unwrap_or(src.len());
    let after_blank = src[range.end..line_end].trim().is_empty();
    if before_blank && after_blank { line_start..line_end } else { range }
}

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.main_of(&["declaration"]) {
        if n.kind_str() != "declaration" || ctx.in_error(n) {
            continue;
        }
        if shared_declaration(n, ctx.src) != Some(false) {
            continue;
        }
        match ctx.scope_at(n.start_byte()) {
            Some(scope) if ctx.project.index.needs_of(&scope.name).is_none() => continue,
            Some(_) => {}
            // at namespace scope: every kernel that uses it allocates it
            None if !namespace_scope(ctx.parents(), n) => continue,
            None => {}
        }
        // an unnamed class type (`__shared__ union { A::TempStorage a; … } t;`,
        // CUB's idiom) has no name the launch and the parameter could write:
        // the index named it (`k_t_t<T, N>`), defined here before the function
        if let Some(t) = n.field("type").filter(|t| {
            matches!(t.kind_str(), "struct_specifier" | "union_specifier" | "class_specifier") && t.field("name").is_none() && t.field("body").is_some()
        }) && !hoist_unnamed_type(ctx, n)
        {
            ctx.diag(
                crate::diagnostics::Code::LocalMemoryUnresolved,
                t.byte_range(),
                RULE,
                "a `__shared__` variable of an unnamed class type cannot be allocated at the launch, which must name its type: give the type a name at namespace scope".to_string(),
            );
        }
        // the declaration moves to the launch, which writes its (migrated)
        // type itself: edits inside it (`float4` → `syclify::float4`) go with it
        let range = statement_line_range(ctx.src, ctx.line_starts(), n.byte_range());
        let mut with = crate::edit::Replacement::new();
        // in a function, an array's pointer is said to be 16-byte aligned
        // where the array was declared, as nvcc knows a `__shared__`
        // array's alignment: the compiler may then load neighbouring
        // elements at once (PTX `ld.shared.v4`); said only at the launch,
        // the assumption was lost where the kernel's loop bound is a
        // parameter (a templated tiled SGEMM: 1.25-1.29x nvcc's time)
        // (not in a lambda's body, which may capture the kernel's pointer
        // by copy, and could not assign it)
        let in_lambda = crate::syntax::ancestor_of_kind_in(ctx.parents(), n, &["function_definition", "lambda_expression"])
            .is_some_and(|a| a.kind_str() == "lambda_expression");
        if ctx.scope_at(n.start_byte()).is_some() && !in_lambda {
            // (a line of its own where the declaration had one, with its indentation)
            let src = ctx.src;
            let (lead, end) = if range != n.byte_range() { (&src[range.start..n.start_byte()], "\n") } else { ("", " ") };
            for name in array_names(ctx, n) {
                with.push_text(&format!("{lead}{name} = syclify::assume_local_aligned({name});{end}"));
            }
        }
        with.push_discard(n.byte_range());
        ctx.edits.replace(RULE, range, with);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

/// The names of the arrays a `__shared__` declaration declares (not its
/// scalars, which become references).
fn array_names(ctx: &FileCtx, decl: tree_sitter::Node) -> Vec<String> {
    let mut c = decl.walk();
    decl.children_by_field_id(crate::syntax::declarator_field(), &mut c)
        .filter(|d| d.kind_str() == "array_declarator")
        .filter_map(|d| crate::syntax::declarator_name(d, ctx.src).map(|(_, name)| name.to_string()))
        .collect()
}

/// Defines the named type of each declarator of the `__shared__`
/// declaration `decl` of an unnamed class type before its function
/// ([`crate::index::unnamed_shared_type`]; the definition as the index
/// read it, the function's type aliases and constants inlined, its types
/// migrated). False where the function is not a plain function definition
/// at namespace scope (a member, a lambda) or the index lacks the type.
fn hoist_unnamed_type(ctx: &mut FileCtx, decl: tree_sitter::Node) -> bool {
    // (climbs from a rare declaration)
    let Some(def) = crate::syntax::ancestor_of_kind(decl, &["function_definition", "lambda_expression"]).filter(|d| d.kind_str() == "function_definition")
    else {
        return false;
    };
    let Some(scope) = ctx.scope_at(decl.start_byte()) else { return false };
    let Some(facts) = ctx.project.index.functions.get(&scope.name) else { return false };
    let outer = def.parent().filter(|p| p.kind_str() == "template_declaration").unwrap_or(def);
    if outer.parent().is_some_and(|p| !matches!(p.kind_str(), "translation_unit" | "declaration_list")) {
        return false;
    }
    let mut c = decl.walk();
    let declarators: Vec<_> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
    let mut text = String::from("// syclify: the unnamed type of a `__shared__` variable, named for the launch that allocates it\n");
    for d in declarators {
        let Some((_, var)) = crate::syntax::declarator_name(d, ctx.src) else { return false };
        let Some((name, _)) = crate::index::unnamed_shared_type(ctx.parents(), def, decl, &scope.name, var, ctx.src) else { return false };
        let Some((_, definition)) = facts.shared_types.iter().find(|(n, _)| *n == name) else { return false };
        text.push_str(&ctx.project.mappings.migrate_type_text(definition));
        text.push('\n');
    }
    ctx.edits.insert(RULE, outer.start_byte(), text);
    true
}

/// Is `decl` at namespace scope (not in a function or a class)?
fn namespace_scope<'t>(parents: &dyn crate::syntax::Parents<'t>, decl: tree_sitter::Node<'t>) -> bool {
    !crate::syntax::has_ancestor(parents, decl, &["function_definition", "field_declaration_list", "lambda_expression"])
}

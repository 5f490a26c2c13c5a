//! Device global variables: `__constant__`, `__device__`, `__managed__`.
//!
//! What it does: the declaration becomes a helper-owned device allocation,
//! `syclify::symbol<T>` (`__constant__ float filter[5] = {...};` →
//! `syclify::symbol<float[5]> filter({...});`; `__managed__` becomes
//! `syclify::managed_symbol<T>`, in shared USM). The first use allocates it
//! on the default queue's device and copies the static initialiser (or
//! zeroes it, as CUDA does). Kernels and device functions that read it get a
//! parameter of the same name (see [`super::device_function_parameters`]) and
//! each launch passes `*filter.get_ptr()` (not `const` for `__constant__`
//! ones: CUDA code may take a plain pointer to them). A `__constant__` or
//! `__managed__` alone inside an `#if` before the declaration counts
//! ([`crate::mask::MaskKind::SplitGlobal`]). Host code reaches it through `cudaMemcpyToSymbol/FromSymbol(Async)`
//! and `cudaGetSymbolAddress` (mapping table), and reads a `__managed__`
//! variable directly as `(*flag.get_ptr())`. A variable template
//! (`template <class T> __constant__ T mask[5];`) becomes a template of
//! symbols: a function using `mask<T>` gets one parameter `mask` typed for
//! that instantiation ([`crate::index::ProjectIndex::global_in`], following
//! the call graph as for `__shared__` arrays), its uses lose the `<T>`, and
//! the launch passes `mask<float>` in the launch's types. SY0104 for a
//! `__managed__` template and for a function using two instantiations.
//!
//! Why: SYCL 2020 has no device globals (DPC++'s `device_global` is an
//! extension); explicit allocations passed like local memory work everywhere.
//!
//! Texture and surface references (`texture<float, 2> tex;`, removed in
//! CUDA 12) are device globals too: the declaration becomes
//! `static syclify::texture_ref<float, 2> tex;` (a host object holding
//! CUDA's `textureReference` fields and the binding the bind calls set), a
//! kernel reading it gains `syclify::texture_view<float, 2> tex`, by value,
//! and each launch passes `tex.view()`, the texture object of the
//! reference's state at that moment; the fetches (`tex2D(tex, x, y)`) have
//! overloads for views. In a file with an `extern "C"` kernel (a module the
//! driver API loads) each gets an exported accessor,
//! `syclify_texref_tex()`, which `cuModuleGetTexRef(&r, module, "tex")`
//! finds (`syclify_surfref_…` for surfaces).
//!
//! Example: `__device__ unsigned int counter;` → `syclify::symbol<unsigned int> counter;`,
//! and a kernel using it gains `unsigned int &counter`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::index::{GlobalKind, global_kind, globals_of, namespace_scope_declarations, split_global};
use crate::syntax::NodeKind;

pub const RULE: &str = "device-globals";

pub fn run(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    for decl in namespace_scope_declarations(ctx.root()) {
        if ctx.in_error(decl) || !ctx.in_body(decl) {
            continue;
        }
        let symbols = globals_of(ctx.parents(), decl, ctx.src, &ctx.parsed.masks, &index.macros);
        let Some(first) = symbols.first() else {
            continue;
        };
        if first.kind.is_reference() {
            // (a file defining its own `texture` class has none: the index says)
            if index.globals.get(&first.name).is_some_and(|g| g.kind == first.kind) {
                texture_reference(ctx, decl, &symbols);
            }
            continue;
        }
        if first.templated() && first.kind == GlobalKind::Managed {
            ctx.diag(
                Code::GlobalVariableNotMigrated,
                decl.byte_range(),
                RULE,
                format!("templated `__managed__` variable `{}` is not migrated; it was left as is", first.name),
            );
            continue;
        }
        // keep `static`/`extern`, replace the CUDA qualifiers, type and declarators
        let mut keep = Vec::new();
        for c in crate::syntax::children(decl) {
            if c.kind_str() == "storage_class_specifier" {
                keep.push(ctx.text(c).to_string());
            }
        }
        let class = match first.kind {
            GlobalKind::Managed => "syclify::managed_symbol",
            _ => "syclify::symbol",
        };
        let mut r = Replacement::new();
        // the type is written again, migrated (`float2` → `syclify::float2`):
        // the edits of other rules inside it go with it
        if let Some(t) = decl.field("type") {
            r.push_discard(t.byte_range());
        }
        let mut c = decl.walk();
        let declarators: Vec<_> = decl.children_by_field_id(crate::syntax::declarator_field(), &mut c).collect();
        for (i, (sym, d)) in symbols.iter().zip(&declarators).enumerate() {
            if i > 0 {
                r.push_text(" ");
            }
            for k in &keep {
                r.push_text(k);
                r.push_text(" ");
            }
            // `T v[] = {a, b, c}`: the bound comes from the initialiser (a
            // symbol holds a complete type)
            let mut sym = sym.clone();
            sym.elem_type = ctx.project.mappings.migrate_type_text(&sym.elem_type);
            let list = d.field("value").filter(|v| v.kind_str() == "initializer_list");
            if let (Some(first_dim), Some(list)) = (sym.dims.first_mut().filter(|x| x.trim().is_empty()), list) {
                *first_dim = crate::mask::list_items(list, &ctx.parsed.masks).to_string();
            }
            r.push_text(&format!("{class}<{}> {}", sym.full_type(), sym.name));
            if let Some(value) = d.field("value") {
                r.push_text("(");
                r.push_source(value.byte_range());
                r.push_text(")");
            }
            r.push_text(";");
        }
        // the declaration's own `;` is part of its range
        ctx.edits.replace(RULE, decl.byte_range(), r);
        // `__constant__` alone in an `#if` before it
        if global_kind(decl, ctx.src).is_none()
            && let Some((_, word)) = split_global(decl, ctx.src, &ctx.parsed.masks)
        {
            ctx.edits.delete(RULE, word);
        }
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
    // a variable template in device code (`mask<T>[j]`): the function's
    // parameter of the same name stands for the one instantiation it uses
    for n in ctx.main_of(&["template_function"]) {
        if n.kind_str() != "template_function" || ctx.in_error(n) || n.parent().is_some_and(|p| p.kind_str() == "call_expression") {
            continue;
        }
        let (Some(name), Some(args)) = (n.field("name"), n.field("arguments")) else {
            continue;
        };
        let g = ctx.text(name);
        if !index.globals.get(g).is_some_and(|s| s.templated()) || !ctx.in_device_code(n.start_byte()) {
            continue;
        }
        let Some(scope) = ctx.scope_at(n.start_byte()) else {
            continue;
        };
        if !index.needs_of(&scope.name).is_some_and(|x| x.globals.iter().any(|y| y == g)) {
            continue;
        }
        let written: Vec<String> = crate::syntax::items(args).into_iter().map(|c| ctx.text(c).to_string()).collect();
        let first = index.functions.get(&scope.name).and_then(|f| f.template_uses.get(g));
        if first.is_some_and(|f| *f != written) {
            let fname = scope.name.clone();
            ctx.diag(
                Code::GlobalVariableNotMigrated,
                n.byte_range(),
                RULE,
                format!(
                    "`{fname}` uses variable template `{g}` with two template argument lists (`<{}>` and `<{}>`); its one parameter `{g}` stands for the first",
                    first.map(|f| f.join(", ")).unwrap_or_default(),
                    written.join(", ")
                ),
            );
            continue;
        }
        ctx.edits.delete(RULE, args.byte_range());
        ctx.count(RULE);
    }
    // host code reading a managed variable directly
    for n in ctx.main_of(&["identifier"]) {
        if n.kind_str() != "identifier" || ctx.in_error(n) {
            continue;
        }
        let name = ctx.text(n);
        let Some(g) = index.globals.get(name) else {
            continue;
        };
        if g.kind != GlobalKind::Managed || g.templated() || ctx.in_device_code(n.start_byte()) || ctx.scope_at(n.start_byte()).is_none() {
            continue;
        }
        // a local declaration of the same name, not a use
        if n.parent().is_some_and(|p| p.field("declarator").is_some_and(|d| d.id() == n.id())) {
            continue;
        }
        // as an argument of a symbol API the object itself is meant
        let in_symbol_api = n
            .parent()
            .filter(|p| p.kind_str() == "argument_list")
            .and_then(|l| l.parent())
            .and_then(|call| crate::syntax::callee_name(call, ctx.src))
            .is_some_and(|(_, c)| c.contains("Symbol"));
        if in_symbol_api {
            continue;
        }
        ctx.edits.replace_text(RULE, n.byte_range(), format!("(*{name}.get_ptr())"));
        ctx.count(RULE);
    }
}

/// A texture or surface reference's declaration `decl`, declaring `symbols`:
/// `static` where it has no storage class (CUDA gives each translation unit
/// its own), and in a module's file the accessors the driver API finds by
/// name.
fn texture_reference(ctx: &mut FileCtx, decl: tree_sitter::Node, symbols: &[crate::index::GlobalSymbol]) {
    // (the type itself is runtime-api's: `syclify::texture_ref`, its arguments mapped)
    if !crate::syntax::children(decl).iter().any(|c| c.kind_str() == "storage_class_specifier") {
        ctx.edits.insert(RULE, decl.start_byte(), "static ");
    }
    if module_file(ctx) {
        let (base, prefix, call) = match symbols[0].kind {
            GlobalKind::Texture => ("syclify::texture_reference", "syclify_texref_", "cuModuleGetTexRef"),
            _ => ("syclify::surface_reference", "syclify_surfref_", "cuModuleGetSurfRef"),
        };
        let mut out = String::new();
        for s in symbols {
            let n = &s.name;
            out.push_str(&format!(
                "\n// `{n}` for CUDA's driver API ({call}(&r, module, \"{n}\"))\nextern \"C\" SYCLIFY_MODULE_EXPORT {base} *{prefix}{n}() {{ return &{n}; }}"
            ));
        }
        ctx.edits.insert(RULE, decl.end_byte(), &out);
    }
    ctx.count(RULE);
    ctx.needs_sycl = true;
}

/// Does the file define a kernel declared `extern "C"` (a module the driver
/// API loads, [`super::kernel_launch`]'s launchers)? From the index: a part
/// of a large file may hold the reference and not the kernel.
fn module_file(ctx: &FileCtx) -> bool {
    ctx.project.index.module_files.contains(ctx.rel)
}

//! Library namespaces: `cub::BlockReduce` → `syclify::cub::BlockReduce`.
//!
//! What it does: a qualifier that names a CUDA library's namespace listed in
//! the `namespaces:` tables (`rules/cub.yaml`) becomes the SYCL side's
//! namespace when the name under it is one the table lists as a member;
//! `using namespace cub;` becomes `using namespace syclify::cub;`. A name the
//! table does not list (`cub::DeviceSegmentedReduce`) is left as is with an error
//! (SY0405): it will not compile against the SYCL side.
//!
//! Why: the helper headers (`syclify/cub.hpp`) give the library's names the
//! library's own spelling and semantics in their own namespace, so the code
//! around a call (template arguments, `typename X::TempStorage`, operators
//! such as `cub::Max()`) stays as the user wrote it.
//!
//! Example: `typedef cub::BlockReduce<float, 256> BR;` →
//! `typedef syclify::cub::BlockReduce<float, 256> BR;`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "library-namespaces";

pub fn run(ctx: &mut FileCtx) {
    if ctx.project.mappings.namespaces.is_empty() {
        return;
    }
    for n in ctx.all_of(&["namespace_identifier", "identifier"]) {
        let (name_node, qualified) = match n.kind_str() {
            "namespace_identifier" => (n, true),
            // `using namespace cub;`
            "identifier" if ctx.project.mappings.namespaces.contains_key(ctx.text(n)) && n.parent().is_some_and(|p| p.kind_str() == "using_declaration") => {
                (n, false)
            }
            _ => continue,
        };
        if ctx.in_error(n) {
            continue;
        }
        let Some(ns) = ctx.project.mappings.namespaces.get(ctx.text(name_node)) else {
            continue;
        };
        let sycl = ns.sycl.clone();
        if !qualified {
            ctx.edits.replace_text(RULE, n.byte_range(), &sycl);
            ctx.count(RULE);
            continue;
        }
        let Some(parent) = n.parent().filter(|p| p.kind_str() == "qualified_identifier" && p.field("scope") == Some(n)) else {
            continue;
        };
        // `a::cub::X`: another namespace of that name, not the library's —
        // unless `a` is a library namespace that lists it (`nvcuda::wmma::X`):
        // then only the member is checked, the outer qualifier is migrated
        let outer = parent.parent().filter(|g| g.kind_str() == "qualified_identifier").and_then(|g| g.field("scope"));
        let nested = outer.is_some();
        if outer.is_some_and(|o| !ctx.project.mappings.namespaces.get(ctx.text(o)).is_some_and(|o| o.members.iter().any(|m| m == ctx.text(name_node)))) {
            continue;
        }
        // a library's own namespace named like another library's top-level
        // one that is renamed (`thrust::cuda::par`: Thrust's, not libcu++'s
        // `cuda`, which becomes `syclify::cuda`) is the outer library's
        if nested && sycl != ctx.text(name_node) {
            continue;
        }
        let Some(member) = parent.field("name").and_then(|m| member_name(m, ctx.src)) else {
            continue;
        };
        if ns.members.iter().any(|m| m == member) {
            // a namespace listed only for its members' check (`wmma`) is kept
            if sycl != ctx.text(name_node) && !nested {
                ctx.edits.replace_text(RULE, n.byte_range(), &sycl);
                ctx.count(RULE);
            }
        } else {
            let cuda = ctx.text(name_node).to_string();
            ctx.diag(Code::UnsupportedLibraryName, parent.byte_range(), RULE, format!("`{cuda}::{member}` has no SYCL counterpart in syclify yet: left as is"));
        }
    }
}

/// The first name under a qualifier: `BlockReduce` in `BlockReduce<T, 256>`,
/// `DeviceReduce` in `DeviceReduce::Sum`, `BlockReduce` in
/// `BlockReduce<T, 256>::TempStorage`.
fn member_name<'a>(n: Node, src: &'a str) -> Option<&'a str> {
    match n.kind_str() {
        "identifier" | "type_identifier" | "namespace_identifier" | "field_identifier" => Some(crate::syntax::text(n, src)),
        "template_type" | "template_function" => member_name(n.field("name")?, src),
        "qualified_identifier" => member_name(n.field("scope")?, src),
        _ => None,
    }
}

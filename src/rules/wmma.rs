//! CUDA's warp matrix functions: `wmma::mma_sync(d, a, b, c)` →
//! `wmma::mma_sync(item, d, a, b, c)`.
//!
//! What it does: a call of `fill_fragment`, `load_matrix_sync`,
//! `store_matrix_sync` or `mma_sync` — qualified (`wmma::`, `nvcuda::wmma::`)
//! or unqualified under `using namespace nvcuda::wmma;` — receives the
//! kernel's nd_item as its first argument. The index counts such a call as a
//! use of the nd_item and of the sub-group, so the function receives one and
//! its kernel is launched with a 32-wide sub-group. The namespace
//! (`nvcuda` → `syclify::nvcuda`) and the header (`mma.h` →
//! `syclify/wmma.hpp`) are data (`rules/wmma.yaml`); the fragments and
//! functions are `runtime-headers/syclify/wmma.hpp`.
//!
//! A file that reads a fragment's elements (`frag.x[i]`,
//! `frag.num_elements`) gets `#define SYCLIFY_WMMA_PORTABLE 1` before its
//! first `#include` and note SY0403: joint_matrix has no per-work-item
//! array, so such a file uses the helper's portable sub-group fragments even
//! where the implementation has joint_matrix.
//!
//! Why: a SYCL joint_matrix operation, like any sub-group operation, needs
//! the sub-group, which only the nd_item gives.
//!
//! Example: `wmma::load_matrix_sync(a_frag, a + k, lda);` →
//! `wmma::load_matrix_sync(item, a_frag, a + k, lda);`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use crate::syntax::{self, text};
use tree_sitter::Node;

pub const RULE: &str = "wmma";

/// wmma's functions that work on a warp's fragments (they need the nd_item).
pub const FUNCTIONS: &[&str] = &["fill_fragment", "load_matrix_sync", "store_matrix_sync", "mma_sync"];

/// What one file says about wmma: whether its functions may be named
/// unqualified.
pub struct Wmma {
    unqualified: bool,
}

impl Wmma {
    /// None for a file that never names `wmma`.
    pub fn of(src: &str) -> Option<Wmma> {
        if !src.contains("wmma") {
            return None;
        }
        let compact: String = src.split_whitespace().collect();
        let unqualified = compact.contains("usingnamespacenvcuda::wmma;") || compact.contains("usingnamespacewmma;");
        Some(Wmma { unqualified })
    }

    /// Is `call` one of wmma's fragment functions?
    pub fn is_call(&self, call: Node, src: &str) -> bool {
        let Some(f) = call.field("function") else {
            return false;
        };
        let Some((_, name)) = syntax::callee_name(call, src) else {
            return false;
        };
        if !FUNCTIONS.contains(&name) {
            return false;
        }
        match f.kind_str() {
            "identifier" => self.unqualified,
            "qualified_identifier" => {
                let compact: String = text(f, src).split_whitespace().collect();
                compact.strip_suffix(name).is_some_and(|q| q.ends_with("wmma::"))
            }
            _ => false,
        }
    }
}

pub fn run(ctx: &mut FileCtx) {
    let Some(wmma) = Wmma::of(ctx.src) else {
        return;
    };
    let mut fragments: Vec<&str> = Vec::new();
    // (read where the rules do not visit too: in a function whose body is
    // cut in parts, the locals declared in an earlier part)
    let kinds = ["declaration", "parameter_declaration"];
    for n in ctx.read_of(&kinds).into_iter().chain(ctx.all_of(&kinds).into_iter().filter(|n| ctx.in_macro(n.start_byte()))) {
        // locals and parameters (`fragment<...> &acc` of a __device__ function)
        if matches!(n.kind_str(), "declaration" | "parameter_declaration") && !ctx.in_error(n) && declares_fragment(n, ctx.src) {
            let mut c = n.walk();
            for d in n.children_by_field_id(crate::syntax::declarator_field(), &mut c) {
                if let Some((_, name)) = syntax::declarator_name(d, ctx.src) {
                    fragments.push(name);
                }
            }
        }
    }
    let mut elementwise = None;
    for n in ctx.all_of(&["field_expression", "call_expression"]) {
        if ctx.in_error(n) {
            continue;
        }
        if n.kind_str() == "field_expression" && elementwise.is_none() {
            let field = n.field("field").map(|f| text(f, ctx.src));
            let object = n.field("argument").map(|a| text(a, ctx.src));
            if matches!(field, Some("x" | "num_elements")) && object.is_some_and(|o| fragments.contains(&o)) {
                elementwise = Some(n.byte_range());
            }
        }
        if n.kind_str() != "call_expression" || !ctx.in_device_code(n.start_byte()) || !wmma.is_call(n, ctx.src) {
            continue;
        }
        let Some(args) = n.field("arguments") else {
            continue;
        };
        let Some(item) = ctx.item_at(args.start_byte()) else {
            ctx.diag(Code::BuiltinOutsideDeviceCode, n.byte_range(), RULE, "a wmma function is called where no nd_item can be passed: left as is".to_string());
            continue;
        };
        let sep = if syntax::items(args).is_empty() { "" } else { ", " };
        ctx.edits.insert(RULE, args.start_byte() + 1, format!("{item}{sep}"));
        ctx.count(RULE);
    }
    // (in a file migrated in parts, each part that reads them: the same
    // insertion, applied once)
    if let Some(at) = elementwise {
        // before the first `#include` at file level (not one under `#if`), else at the top
        // (once: a file migrated before, and migrated again, has it)
        let defined = syntax::named_children(ctx.root())
            .into_iter()
            .any(|n| n.kind_str() == "preproc_def" && n.field("name").is_some_and(|m| text(m, ctx.src) == "SYCLIFY_WMMA_PORTABLE"));
        if !defined {
            let first_include = syntax::named_children(ctx.root()).into_iter().find(|n| n.kind_str() == "preproc_include").map_or(0, |n| n.start_byte());
            ctx.edits.insert(RULE, first_include, "#define SYCLIFY_WMMA_PORTABLE 1 // the fragments' elements are read: see syclify/wmma.hpp\n");
        }
        ctx.diag(
            Code::MappingNote,
            at,
            RULE,
            "a wmma fragment's elements are read (`.x[]`, `num_elements`): joint_matrix has no per-work-item array, so this file uses syclify's portable sub-group fragments (no tensor cores) even where the SYCL implementation has joint_matrix; the loop written with joint_matrix_apply would use them",
        );
    }
}

/// Does a declaration declare wmma fragments (`wmma::fragment<...> f;`,
/// `auto f = wmma::fragment<...>();`, a parameter `wmma::fragment<...> &f`)?
fn declares_fragment(decl: Node, src: &str) -> bool {
    let t = text(decl, src);
    t.contains("fragment") && (t.contains("fragment<") || t.contains("fragment <"))
}

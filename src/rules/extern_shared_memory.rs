//! `extern __shared__` (dynamic shared memory).
//!
//! What it does: `extern __shared__ float sdata[];` becomes
//! `float *sdata = reinterpret_cast<float *>(dyn_local_mem);`, where
//! `dyn_local_mem` is the function's dynamic local buffer parameter: one byte
//! buffer per launch, sized by the launch's third argument, allocated as a
//! 16-byte aligned `sycl::local_accessor`. Several `extern __shared__` arrays
//! (of any types, in one function or in several) all point at the start of
//! that one buffer, exactly as they alias in CUDA.
//!
//! Why: SYCL local memory is allocated by the command group; the kernel only
//! sees a pointer to it.
//!
//! Example: `extern __shared__ int ivals[];` → `int *ivals = reinterpret_cast<int *>(dyn_local_mem);`

use super::FileCtx;
use crate::index::shared_declaration;
use crate::rules::device_function_parameters::DYN_LOCAL;
use crate::rules::execution_space_qualifiers::skip_spaces;
use crate::syntax::{self, declarator_name};

pub const RULE: &str = "extern-shared-memory";

pub fn run(ctx: &mut FileCtx) {
    for &n in ctx.main_nodes().iter() {
        if n.kind() != "declaration" || ctx.in_error(n) {
            continue;
        }
        if shared_declaration(n, ctx.src) != Some(true) {
            continue;
        }
        let Some(scope) = ctx.scope_at(n.start_byte()) else {
            continue;
        };
        if ctx.project.index.needs_of(&scope.name).is_none() {
            continue;
        }
        for c in syntax::children(n) {
            let t = ctx.text(c);
            if (c.kind() == "storage_class_specifier" && t == "extern") || (c.kind() == "type_qualifier" && t == "__shared__") {
                let end = skip_spaces(ctx.src, c.end_byte());
                ctx.edits.delete(RULE, c.start_byte()..end);
            }
        }
        let Some(elem) = crate::index::element_type(n, ctx.src).map(|t| ctx.project.mappings.migrate_type_text(&t)) else {
            continue;
        };
        let mut c = n.walk();
        let decls: Vec<_> = n.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let Some((_, name)) = declarator_name(d, ctx.src) else {
                continue;
            };
            ctx.edits.replace_text(RULE, d.byte_range(), format!("*{name} = reinterpret_cast<{elem} *>({DYN_LOCAL})"));
            ctx.count(RULE);
        }
        ctx.needs_sycl = true;
    }
}

//! `SYCL_EXTERNAL` on device code shared between translation units.
//!
//! What it does: a kernel or device function that is declared apart from its
//! definition (a prototype, typically in a header, and the definition in a
//! `.cu` file) gets `SYCL_EXTERNAL` on every declaration and on the
//! definition (as `SYCLIFY_EXTERNAL`, which the helper header defines as
//! `SYCL_EXTERNAL` where the implementation has it). `static`, `inline` and
//! template functions are left alone.
//!
//! Why: CUDA launches a kernel defined in another translation unit through
//! its entry point; in SYCL the kernel is an ordinary function called from a
//! lambda in the launching file, which is a cross-unit device call. SYCL 2020
//! requires such functions to be marked `SYCL_EXTERNAL` (and the device code of
//! the units to be linked: DPC++ does this by default; AdaptiveCpp needs its
//! generic target or relocatable device code).
//!
//! Example: `__global__ void step(float *a);` in `heat.cuh` →
//! `SYCLIFY_EXTERNAL void step(float *a, const sycl::nd_item<3> &item);`

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use crate::syntax::{self, declarator_name};

pub const RULE: &str = "sycl-external";

pub fn run(ctx: &mut FileCtx) {
    let index = ctx.project.index;
    for n in ctx.main_of(&["function_definition", "declaration"]) {
        if !matches!(n.kind_str(), "function_definition" | "declaration") || ctx.in_error(n) {
            continue;
        }
        let Some(fd) = n.field("declarator").and_then(syntax::function_declarator) else {
            continue;
        };
        let Some((_, name)) = fd.field("declarator").and_then(|d| declarator_name(d, ctx.src)) else {
            continue;
        };
        if n.kind_str() == "declaration" && syntax::has_ancestor(ctx.parents(), n, &["compound_statement"]) {
            continue; // `dim3 block(A, B);` and other local declarations
        }
        if index.needs_sycl_external(name) {
            ctx.edits.insert(RULE, n.start_byte(), "SYCLIFY_EXTERNAL ");
            ctx.count(RULE);
            ctx.needs_sycl = true;
            if n.kind_str() == "function_definition" && index.declared_elsewhere(name) {
                let what = if index.is_kernel(name) { "kernel" } else { "device function" };
                ctx.diag(
                    Code::CrossUnitDeviceCode,
                    fd.byte_range(),
                    RULE,
                    format!("{what} `{name}` is declared for other translation units (SYCL_EXTERNAL): AdaptiveCpp's multipass targets need the units that call it built as one"),
                );
            }
        }
    }
}

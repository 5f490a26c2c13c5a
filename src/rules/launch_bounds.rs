//! `__launch_bounds__`.
//!
//! What it does: removes `__launch_bounds__(maxThreads[, minBlocks[, maxBlocksPerCluster]])`
//! from kernels, with a note (SY0101), and from macro bodies (`#define
//! BOUNDS(t, b) __launch_bounds__(t, b)`, whose uses stand between a
//! kernel's return type and its name: those are kept, the macro now
//! expands to nothing). The index keeps the hint of a kernel written
//! directly on it; the kernel's launches with a one-dimensional block then
//! carry it as `SYCLIFY_LAUNCH_BOUNDS(maxThreads[, minBlocks])`
//! (`kernel_launch.rs`), where its arguments mean the same (integer
//! literals, or a launch in the kernel's file; not the kernel's template
//! parameters).
//!
//! Why: it is an occupancy hint. SYCL 2020's `reqd_work_group_size` means
//! something else (one exact size, required; written where a launch's block
//! is a constant, `work_group_size.rs`), and DPC++'s equivalents
//! (`intel::max_work_group_size`, `intel::min_work_groups_per_cu`) are
//! extensions that AdaptiveCpp rejects: the helper header's macro names them
//! only where the compiler has them. `max_work_group_size` bounds each
//! dimension, not the product, hence one-dimensional blocks only.
//!
//! Example: `__global__ void __launch_bounds__(256) k()` → `void k()`, and
//! `k<<<g, 256>>>()` → `[=](sycl::nd_item<3> item) … SYCLIFY_LAUNCH_BOUNDS(256) { … }`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::rules::execution_space_qualifiers::skip_spaces;
use crate::syntax;
use crate::syntax::NodeKind;
use tree_sitter::Node;

pub const RULE: &str = "launch-bounds";

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.main_of(&["preproc_arg", "launch_bounds"]) {
        if n.kind_str() == "preproc_arg" && !ctx.in_error(n) {
            macro_body(ctx, n);
        }
        if n.kind_str() != "launch_bounds" || ctx.in_error(n) {
            continue;
        }
        let end = skip_spaces(ctx.src, n.end_byte());
        let text = ctx.text(n).to_string();
        ctx.edits.delete(RULE, n.start_byte()..end);
        ctx.diag(Code::LaunchBoundsDropped, n.byte_range(), RULE, format!("`{text}` removed from the kernel: an occupancy hint with no portable SYCL equivalent (kept for DPC++ at launches with a one-dimensional block, as SYCLIFY_LAUNCH_BOUNDS)"));
        ctx.count(RULE);
    }
}

/// `__launch_bounds__(…)` inside a macro body.
fn macro_body(ctx: &mut FileCtx, arg: Node) {
    let base = arg.start_byte();
    let body = ctx.text(arg).to_string();
    for (range, word) in syntax::identifiers(&body) {
        if word != "__launch_bounds__" {
            continue;
        }
        let Some((_, hint_end)) = crate::mask::paren_group(&body, range.end) else {
            continue;
        };
        let mut start = base + range.start;
        let mut end = skip_spaces(ctx.src, base + hint_end);
        if body[..range.start].trim().is_empty() && body[hint_end..].trim().is_empty() {
            // the whole body: leave no trailing blank
            start = ctx.src[..base].trim_end_matches([' ', '\t']).len();
            end = base + hint_end;
        }
        ctx.edits.delete(RULE, start..end);
        ctx.diag(
            Code::LaunchBoundsDropped,
            start..base + hint_end,
            RULE,
            format!("`{}` removed from a macro body: an occupancy hint with no portable SYCL equivalent", &body[range.start..hint_end]),
        );
        ctx.count(RULE);
    }
}

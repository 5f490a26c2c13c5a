//! `__launch_bounds__`.
//!
//! What it does: removes `__launch_bounds__(maxThreads[, minBlocks[, maxBlocksPerCluster]])`
//! from kernels, with a note (SY0101).
//!
//! Why: it is an occupancy hint. SYCL 2020's `reqd_work_group_size` means
//! something else (one exact size, required), and `max_work_group_size` is a
//! DPC++ extension that AdaptiveCpp rejects; dropping the hint keeps the
//! output portable and correct for every launch the original allowed.
//!
//! Example: `__global__ void __launch_bounds__(256) k()` → `void k()`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::rules::execution_space_qualifiers::skip_spaces;

pub const RULE: &str = "launch-bounds";

pub fn run(ctx: &mut FileCtx) {
    for &n in ctx.main_nodes().iter() {
        if n.kind() != "launch_bounds" || ctx.in_error(n) {
            continue;
        }
        let end = skip_spaces(ctx.src, n.end_byte());
        let text = ctx.text(n).to_string();
        ctx.edits.delete(RULE, n.start_byte()..end);
        ctx.diag(Code::LaunchBoundsDropped, n.byte_range(), RULE, format!("`{text}` removed: an occupancy hint with no portable SYCL equivalent"));
        ctx.count(RULE);
    }
}

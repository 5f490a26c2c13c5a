//! Cooperative groups: `cooperative_groups::` → `syclify::cg::`.
//!
//! What it does: the namespace `cooperative_groups` becomes the helper
//! header's `syclify::cg` (so `namespace cg = cooperative_groups;`,
//! `cg::thread_block`, `cg::tiled_partition<16>(block)`, `cg::reduce(tile, v,
//! cg::plus<int>())` keep their spelling), and `this_thread_block()` /
//! `coalesced_threads()` receive the `nd_item`. `this_grid()` receives the
//! `nd_item` and the launch's grid barrier (`this_grid(item, syclify_grid)`:
//! the function gains the parameter, see [`super::device_function_parameters`],
//! and each launch of a kernel that reaches it passes a barrier, a
//! cooperative launch's checked for co-residency, see
//! [`super::kernel_launch`]). Multi-device groups (`this_multi_grid()`) get
//! SY0701.
//!
//! Why: a thread block is a SYCL work-group and a tile of up to 32 threads a
//! segment of a sub-group; the helpers implement the CG member functions on
//! them with CUDA's semantics. SYCL 2020 has no grid-wide barrier: the
//! helper's `grid_group::sync()` is one in device memory, correct when every
//! work-group of the launch runs at once, which a cooperative launch checks
//! and the occupancy query of such a kernel promises (and a watchdog reports
//! instead of hanging where neither held).
//!
//! Example: `cg::thread_block b = cg::this_thread_block();` →
//! `cg::thread_block b = cg::this_thread_block(item);`;
//! `cg::grid_group g = cg::this_grid();` → `cg::grid_group g = cg::this_grid(item, syclify_grid);`

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;
use crate::syntax::callee_name;

pub const RULE: &str = "cooperative-groups";

/// CG functions that need the nd_item (and sub-groups of 32).
pub const CG_ITEM_FUNCTIONS: &[&str] = &["this_thread_block", "coalesced_threads"];

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.all_of(&["namespace_identifier", "identifier", "call_expression"]) {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind_str() {
            "namespace_identifier" | "identifier" if ctx.text(n) == "cooperative_groups" => {
                ctx.edits.replace_text(RULE, n.byte_range(), "syclify::cg");
                ctx.count(RULE);
                ctx.needs_sycl = true;
            }
            "call_expression" => {
                let Some((_, name)) = callee_name(n, ctx.src) else {
                    continue;
                };
                if name == "this_multi_grid" {
                    ctx.diag(
                        Code::GridGroup,
                        n.byte_range(),
                        RULE,
                        "`this_multi_grid()`: groups spanning several devices (deprecated since CUDA 11.3) have no SYCL equivalent; left as is".to_string(),
                    );
                    continue;
                }
                let grid = name == "this_grid";
                if !grid && !CG_ITEM_FUNCTIONS.contains(&name) {
                    continue;
                }
                let Some(item) = ctx.item_at(n.start_byte()) else {
                    continue;
                };
                let Some(args) = n.field("arguments") else {
                    continue;
                };
                // CUDA's take no arguments: one with an argument is migrated
                // code already (`this_thread_block(item)`)
                if args.named_child_count() > 0 {
                    continue;
                }
                let extra = if grid { format!("{item}, {}", super::device_function_parameters::GRID) } else { item };
                super::device_function_parameters::insert_into_list(ctx, RULE, args, 0, &extra);
                ctx.count(RULE);
                ctx.needs_sycl = true;
            }
            _ => {}
        }
    }
}

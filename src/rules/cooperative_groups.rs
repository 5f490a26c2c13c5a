//! Cooperative groups: `cooperative_groups::` → `syclify::cg::`.
//!
//! What it does: the namespace `cooperative_groups` becomes the helper
//! header's `syclify::cg` (so `namespace cg = cooperative_groups;`,
//! `cg::thread_block`, `cg::tiled_partition<16>(block)`, `cg::reduce(tile, v,
//! cg::plus<int>())` keep their spelling), and `this_thread_block()` /
//! `coalesced_threads()` receive the `nd_item`. Grid-wide groups
//! (`this_grid()`) have no SYCL 2020 equivalent and get SY0701.
//!
//! Why: a thread block is a SYCL work-group and a tile of up to 32 threads a
//! segment of a sub-group; the helpers implement the CG member functions on
//! them with CUDA's semantics.
//!
//! Example: `cg::thread_block b = cg::this_thread_block();` →
//! `cg::thread_block b = cg::this_thread_block(item);`

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
                if name == "this_grid" || name == "this_multi_grid" {
                    ctx.diag(
                        Code::GridGroup,
                        n.byte_range(),
                        RULE,
                        format!("`{name}()`: grid-wide groups and their sync() have no SYCL 2020 equivalent; left as is"),
                    );
                    continue;
                }
                if !CG_ITEM_FUNCTIONS.contains(&name) {
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
                super::device_function_parameters::insert_into_list(ctx, RULE, args, 0, &item);
                ctx.count(RULE);
                ctx.needs_sycl = true;
            }
            _ => {}
        }
    }
}

//! Warp votes and masks: `__all_sync`, `__any_sync`, `__ballot_sync` (and the
//! legacy `__all`/`__any`/`__ballot`), `__activemask`, `__match_any_sync`,
//! `__match_all_sync`, and the warp reductions `__reduce_add/min/max/and/or/xor_sync`.
//!
//! What it does: with the full mask, `__all_sync`/`__any_sync` map to
//! `sycl::all_of_group`/`sycl::any_of_group` on the sub-group. Everything else
//! goes to the helper header (`syclify::ballot/all/any/activemask/match_any/
//! match_all/reduce_*_sync`), which uses the hardware vote/match instructions on NVIDIA —
//! so `__activemask()` reports the lanes really active, also in divergent
//! branches — and a portable fallback elsewhere; where that fallback assumes
//! converged lanes, note SY0601/SY0602 says so.
//!
//! Why: SYCL 2020 has no ballot returning a bit mask, no active mask and no
//! match; masks are not part of its group algorithms.
//!
//! Example: `unsigned b = __ballot_sync(0xffffffff, x > 0);` →
//! `unsigned b = syclify::ballot(item, 0xffffffff, x > 0);`

use super::FileCtx;
use super::warp_shuffle::{call_args, is_full_mask_in, split_mask};
use crate::diagnostics::Code;
use crate::edit::Replacement;

pub const RULE: &str = "warp-vote";

pub fn run(ctx: &mut FileCtx) {
    for (n, name) in ctx.calls() {
        let (helper, synced) = match name {
            "__all_sync" => ("all", true),
            "__any_sync" => ("any", true),
            "__ballot_sync" => ("ballot", true),
            "__match_any_sync" => ("match_any", true),
            "__match_all_sync" => ("match_all", true),
            "__all" => ("all", false),
            "__any" => ("any", false),
            "__ballot" => ("ballot", false),
            "__activemask" => ("activemask", false),
            "__reduce_add_sync" => ("reduce_add_sync", true),
            "__reduce_min_sync" => ("reduce_min_sync", true),
            "__reduce_max_sync" => ("reduce_max_sync", true),
            "__reduce_and_sync" => ("reduce_and_sync", true),
            "__reduce_or_sync" => ("reduce_or_sync", true),
            "__reduce_xor_sync" => ("reduce_xor_sync", true),
            _ => continue,
        };
        let Some(item) = ctx.item_at(n.start_byte()) else {
            continue;
        };
        let (mask, rest) = split_mask(call_args(n), synced);
        let full = mask.is_none_or(|m| is_full_mask_in(ctx, ctx.text(m)));
        let mut r = Replacement::new();
        if full && matches!(helper, "all" | "any") && rest.len() == 1 {
            let algo = if helper == "all" { "sycl::all_of_group" } else { "sycl::any_of_group" };
            r.push_text(&format!("{algo}({item}.get_sub_group(), "));
            r.push_source(rest[0].byte_range());
            r.push_text(")");
        } else {
            r.push_text(&format!("syclify::{helper}({item}"));
            if helper != "activemask" {
                r.push_text(", ");
                match mask {
                    Some(m) => r.push_source(m.byte_range()),
                    None => r.push_text("0xffffffffu"),
                }
            }
            for a in &rest {
                r.push_text(", ");
                r.push_source(a.byte_range());
            }
            r.push_text(")");
            if helper == "activemask" {
                ctx.diag(
                    Code::ActiveMask,
                    n.byte_range(),
                    RULE,
                    "`__activemask()`: exact on NVIDIA (hardware activemask); the portable fallback reports every lane of the sub-group",
                );
            } else if !full {
                ctx.diag(Code::WarpMask, n.byte_range(), RULE, format!("`{name}` with member mask `{}`: exact on NVIDIA (hardware vote/match); elsewhere the fallback assumes every lane of the sub-group reaches this call", ctx.text(mask.expect("a partial mask exists"))));
            }
        }
        ctx.edits.replace(RULE, n.byte_range(), r);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

//! Warp shuffles: `__shfl_sync`, `__shfl_up_sync`, `__shfl_down_sync`,
//! `__shfl_xor_sync`, and the legacy unsynchronised `__shfl*` forms.
//!
//! What it does: with the full member mask and the full width (none, 32 or
//! `warpSize`), where no lane's source can leave the warp, a shuffle maps
//! straight to the SYCL 2020 group algorithm on the sub-group:
//!
//! | CUDA | SYCL |
//! |---|---|
//! | `__shfl_sync(FULL, v, 5)` (a literal lane below 32) | `sycl::select_from_group(sg, v, 5)` |
//! | `__shfl_xor_sync(FULL, v, 16)` (a literal mask below 32) | `sycl::permute_group_by_xor(sg, v, 16)` |
//!
//! Every other shuffle — `__shfl_up_sync`/`__shfl_down_sync` by a non-zero
//! delta, a computed source lane or lane mask, any other mask or width —
//! goes to the helper header's `syclify::shfl*`, which keep CUDA's semantics
//! at the edges (a lane whose source leaves its segment gets its own value;
//! `__shfl_sync` reads lane `src % width`), where SYCL's `shift_group_left`
//! and `shift_group_right` leave that value unspecified (scans and segmented
//! reductions read every lane's result). On NVIDIA the helpers are the
//! hardware's `shfl.sync`, the instruction the SYCL algorithms compile to; a
//! partial mask also gets note SY0601, which says what the portable fallback
//! assumes. The legacy forms are the full-mask
//! ones. Kernels using shuffles are launched with a required sub-group size
//! of 32.
//!
//! Why: SYCL group algorithms have no mask and no width.
//!
//! Example: `v += __shfl_down_sync(0xffffffff, v, 16);` →
//! `v += syclify::shfl_down(item, 0xffffffff, v, 16);`

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::syntax;
use tree_sitter::Node;

pub const RULE: &str = "warp-shuffle";

/// Every warp-level function name the index must know (they need the nd_item
/// and a sub-group of 32).
pub const WARP_FUNCTIONS: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__shfl",
    "__shfl_up",
    "__shfl_down",
    "__shfl_xor",
    "__all_sync",
    "__any_sync",
    "__ballot_sync",
    "__all",
    "__any",
    "__ballot",
    "__activemask",
    "__match_any_sync",
    "__match_all_sync",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
    "__syncwarp",
];

/// Is this mask expression the full warp (`0xffffffff`, `~0`, `-1`, or an
/// object-like macro that stands for one of them)?
pub fn is_full_mask_in(ctx: &FileCtx, text: &str) -> bool {
    let t = text.trim();
    match ctx.project.index.macros.values.get(t) {
        Some(v) => is_full_mask(v),
        None => is_full_mask(t),
    }
}

fn is_full_mask(text: &str) -> bool {
    let t: String = text.chars().filter(|c| !c.is_whitespace() && *c != '(' && *c != ')').collect::<String>().to_ascii_lowercase();
    let t = t.trim_end_matches(['u', 'l']);
    matches!(t, "0xffffffff" | "~0" | "-1" | "4294967295" | "~0x0" | "0xffffffffffffffff")
}

/// The value of an integer literal argument (or an object-like macro that
/// stands for one).
fn literal(ctx: &FileCtx, a: Node) -> Option<i64> {
    let t = ctx.text(a).trim();
    let t = ctx.project.index.macros.values.get(t).map_or(t, |v| v.trim());
    syntax::integer_value(t.trim_start_matches('(').trim_end_matches(')'))
}

/// Is this width the full warp (absent, 32 or `warpSize`)?
fn is_full_width(text: Option<&str>) -> bool {
    match text {
        None => true,
        Some(t) => matches!(t.trim(), "32" | "warpSize"),
    }
}

/// The call's arguments, without comments.
pub fn call_args(n: Node) -> Vec<Node> {
    syntax::call_arguments(n)
}

/// The member mask (first argument of a `_sync` form) and the other arguments.
pub fn split_mask(args: Vec<Node>, synced: bool) -> (Option<Node>, Vec<Node>) {
    if synced {
        let mut it = args.into_iter();
        (it.next(), it.collect())
    } else {
        (None, args)
    }
}

pub fn run(ctx: &mut FileCtx) {
    for (n, name) in ctx.calls() {
        let (kind, synced) = match name {
            "__shfl_sync" => ("shfl", true),
            "__shfl_up_sync" => ("shfl_up", true),
            "__shfl_down_sync" => ("shfl_down", true),
            "__shfl_xor_sync" => ("shfl_xor", true),
            "__shfl" => ("shfl", false),
            "__shfl_up" => ("shfl_up", false),
            "__shfl_down" => ("shfl_down", false),
            "__shfl_xor" => ("shfl_xor", false),
            _ => continue,
        };
        // the program's own function of that name (an overload of the legacy
        // `__shfl_down` for float4): its calls are its own
        if ctx.project.index.functions.get(name).is_some_and(|f| f.accepts(call_args(n).len())) {
            continue;
        }
        let Some(item) = ctx.item_at(n.start_byte()) else {
            continue;
        };
        let (mask, rest) = split_mask(call_args(n), synced);
        if (synced && mask.is_none()) || rest.len() < 2 || rest.len() > 3 {
            continue;
        }
        let full_mask = mask.is_none_or(|m| is_full_mask_in(ctx, ctx.text(m)));
        let full_width = is_full_width(rest.get(2).map(|w| ctx.text(*w)));
        // SYCL's algorithms leave a source lane outside the sub-group
        // unspecified, where CUDA defines it (up/down: the caller's own
        // value; `__shfl_sync`: `src % 32`; xor: the caller's own value): the
        // SYCL algorithm only where no lane's source can leave the warp
        let in_warp = |a: Node| literal(ctx, a).is_some_and(|v| (0..32).contains(&v));
        let exact_in_sycl = match kind {
            "shfl" | "shfl_xor" => in_warp(rest[1]),
            // (a shift by 0 is every lane's own value)
            _ => literal(ctx, rest[1]) == Some(0),
        };
        let rep = if full_mask && full_width && exact_in_sycl {
            let algo = match kind {
                "shfl" => "sycl::select_from_group",
                "shfl_up" => "sycl::shift_group_right",
                "shfl_down" => "sycl::shift_group_left",
                _ => "sycl::permute_group_by_xor",
            };
            let mut r = Replacement::new().text(format!("{algo}({item}.get_sub_group(), "));
            r.push_source(rest[0].byte_range());
            r.push_text(", ");
            r.push_source(rest[1].byte_range());
            r.text(")")
        } else {
            let mut r = Replacement::new().text(format!("syclify::{kind}({item}, "));
            match mask {
                Some(m) => r.push_source(m.byte_range()),
                None => r.push_text("0xffffffffu"),
            }
            for a in &rest {
                r.push_text(", ");
                r.push_source(a.byte_range());
            }
            if !full_mask {
                ctx.diag(Code::WarpMask, n.byte_range(), RULE, format!("`{name}` with member mask `{}`: exact on NVIDIA (hardware shfl.sync); elsewhere the fallback assumes every lane of the sub-group reaches this call", ctx.text(mask.expect("a partial mask exists"))));
            }
            r.text(")")
        };
        ctx.edits.replace(RULE, n.byte_range(), rep);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

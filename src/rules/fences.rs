//! Memory fences and the warp barrier: `__threadfence_block`,
//! `__threadfence`, `__threadfence_system`, `__syncwarp`.
//!
//! What it does:
//!
//! | CUDA | SYCL |
//! |---|---|
//! | `__threadfence_block()` | `syclify::threadfence<sycl::memory_scope::work_group>()` |
//! | `__threadfence()` | `syclify::threadfence<sycl::memory_scope::device>()` |
//! | `__threadfence_system()` | `syclify::threadfence<sycl::memory_scope::system>()` |
//! | `__syncwarp()`, `__syncwarp(mask)` | `syclify::syncwarp(item)`, `syclify::syncwarp(item, mask)` |
//!
//! `syclify::threadfence` is `sycl::atomic_fence(acq_rel, scope)` (the NVVM
//! membar instructions on NVIDIA, so it also builds with AdaptiveCpp 24,
//! which lacks `atomic_fence`). `syclify::syncwarp` is the hardware
//! `bar.warp.sync` on NVIDIA (masks are exact) and a sub-group barrier
//! elsewhere.
//!
//! Why: CUDA fences order memory at a scope; SYCL's `atomic_fence` takes the
//! same scope explicitly.

use super::FileCtx;
use super::warp_shuffle::call_args;
use crate::edit::Replacement;

pub const RULE: &str = "fences";

pub fn run(ctx: &mut FileCtx) {
    for (n, name) in ctx.calls() {
        let scope = match name {
            "__threadfence_block" => "work_group",
            "__threadfence" => "device",
            "__threadfence_system" => "system",
            "__syncwarp" => {
                let Some(item) = ctx.item_at(n.start_byte()) else {
                    continue;
                };
                let mut r = Replacement::new().text(format!("syclify::syncwarp({item}"));
                if let Some(m) = call_args(n).first() {
                    r.push_text(", ");
                    r.push_source(m.byte_range());
                }
                ctx.edits.replace(RULE, n.byte_range(), r.text(")"));
                ctx.count(RULE);
                ctx.needs_sycl = true;
                continue;
            }
            _ => continue,
        };
        ctx.edits.replace_text(RULE, n.byte_range(), format!("syclify::threadfence<sycl::memory_scope::{scope}>()"));
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

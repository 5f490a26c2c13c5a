//! Block barriers: `__syncthreads` and `__syncthreads_count/_and/_or`.
//!
//! What it does: `__syncthreads()` → `sycl::group_barrier(item.get_group())`;
//! `__syncthreads_count(p)`, `__syncthreads_and(p)` and `__syncthreads_or(p)`
//! → the helper header's `syclify::syncthreads_count/and/or(item, p)`, which
//! are a barrier followed by `reduce_over_group`/`all_of_group`/`any_of_group`
//! (CUDA's versions are barriers too). Inside macro bodies the item is `item`.
//!
//! Why: a work-group barrier is SYCL's `__syncthreads`; its default fence
//! scope (work-group) orders both local and global memory, as CUDA does.
//!
//! Example: `if (__syncthreads_or(x > 0))` → `if (syclify::syncthreads_or(item, x > 0))`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::edit::Replacement;
use crate::syntax;

pub const RULE: &str = "syncthreads";

pub fn run(ctx: &mut FileCtx) {
    for (n, name) in ctx.calls() {
        if !name.starts_with("__syncthreads") {
            continue;
        }
        let Some(item) = ctx.item_at(n.start_byte()) else {
            ctx.diag(
                Code::BuiltinOutsideDeviceCode,
                n.byte_range(),
                RULE,
                format!("`{name}` where no nd_item can be passed (outside a function, or in a constructor) was left as is"),
            );
            continue;
        };
        let args: Vec<_> = syntax::call_arguments(n);
        let helper = match name {
            "__syncthreads" => {
                ctx.edits.replace_text(RULE, n.byte_range(), format!("sycl::group_barrier({item}.get_group())"));
                ctx.count(RULE);
                ctx.needs_sycl = true;
                continue;
            }
            "__syncthreads_count" => "count",
            "__syncthreads_and" => "and",
            "__syncthreads_or" => "or",
            _ => continue,
        };
        let [pred] = args.as_slice() else { continue };
        let rep = Replacement::new().text(format!("syclify::syncthreads_{helper}({item}, ")).source(pred.byte_range()).text(")");
        ctx.edits.replace(RULE, n.byte_range(), rep);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

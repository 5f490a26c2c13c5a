//! Device `printf` and `assert`.
//!
//! What it does: `printf(...)` inside a kernel or `__device__` function
//! becomes `SYCLIFY_PRINTF(...)` (helper header): DPC++'s
//! `sycl::ext::oneapi::experimental::printf` with the format string in the
//! constant address space, and plain `printf` on AdaptiveCpp (its CUDA and HIP
//! targets print from kernels) and on the host. Thread builtins and `dim3`
//! members passed to printf are cast back to CUDA's `unsigned int` (SYCL's
//! queries are `size_t`), so `%u`/`%d` still match (see
//! [`super::thread_builtins`]). `assert(c)` in device code becomes
//! `SYCLIFY_ASSERT(c)`: `assert` where the implementation supports it in
//! kernels (DPC++), a CUDA-style message and a trap on AdaptiveCpp's CUDA
//! target, which cannot link the C library's `__assert_fail`.
//!
//! Why: SYCL 2020 has no printf in kernels; `sycl::stream` would need a
//! stream object threaded through every device function.
//!
//! Example: `printf("block %d\n", blockIdx.x);` in a kernel →
//! `SYCLIFY_PRINTF("block %d\n", static_cast<unsigned int>(item.get_group(2)));`

use super::FileCtx;
use crate::syntax::NodeKind;
use crate::syntax::callee_name;

pub const RULE: &str = "device-printf";

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.main_of(&["call_expression"]) {
        if n.kind_str() != "call_expression" || ctx.in_error(n) {
            continue;
        }
        let Some((callee, name)) = callee_name(n, ctx.src) else {
            continue;
        };
        let rep = match name {
            "printf" => "SYCLIFY_PRINTF",
            "assert" => "SYCLIFY_ASSERT",
            _ => continue,
        };
        if !ctx.in_device_code(n.start_byte()) {
            continue;
        }
        let start = n.field("function").map(|f| f.start_byte()).unwrap_or(callee.start_byte());
        ctx.edits.replace_text(RULE, start..callee.end_byte(), rep);
        ctx.count(RULE);
        ctx.needs_sycl = true;
    }
}

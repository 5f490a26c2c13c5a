//! Inline assembly in device code.
//!
//! What it does: each `asm(...)` / `asm volatile(...)` statement inside a
//! kernel, a `__device__` function or the body of a macro that device code
//! expands is kept as written and reported (warning SY0406, with a comment
//! above it in the migrated code). Inline assembly in host code is the host
//! compiler's and is left alone.
//!
//! Why: device-code inline assembly is PTX, NVIDIA's virtual instruction
//! set. SYCL has no portable form of it and syclify does not translate PTX;
//! kept silently it would fail to compile on every target but NVIDIA's, and
//! in AdaptiveCpp's host pass even there. The user has to guard it
//! (`#if defined(__NVPTX__)`) with a portable fallback, or rewrite it.
//!
//! Example: `asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));` in a
//! kernel → kept; `warning: inline PTX ... kept as written [SY0406]`.

use super::FileCtx;
use crate::diagnostics::Code;
use crate::syntax::NodeKind;

pub const RULE: &str = "inline-asm";

pub fn run(ctx: &mut FileCtx) {
    for n in ctx.main_of(&["gnu_asm_expression", "preproc_arg"]) {
        if ctx.in_error(n) {
            continue;
        }
        let at = n.start_byte();
        if n.kind_str() == "preproc_arg" {
            // a macro body, read as text (alone, `asm volatile(...)` without
            // its `;` does not parse as a statement)
            let name = ctx.parent(n).and_then(|d| d.field("name")).map(|m| ctx.text(m).to_string());
            let device = name.is_some_and(|m| ctx.project.index.device_macros.contains(&m));
            if device && !ctx.in_inactive_branch(at) {
                let body = ctx.text(n).to_string();
                for (range, word) in crate::syntax::identifiers(&body) {
                    if matches!(word, "asm" | "__asm__" | "__asm") {
                        report(ctx, at + range.start..at + range.end);
                    }
                }
            }
            continue;
        }
        // a branch no build compiles is reported with the branch (SY0112)
        if ctx.in_device_code(at) && !ctx.in_inactive_branch(at) {
            report(ctx, n.byte_range());
        }
    }
}

fn report(ctx: &mut FileCtx, range: std::ops::Range<usize>) {
    ctx.diag(
        Code::InlineAsm,
        range,
        RULE,
        "inline PTX (`asm`) in device code is kept as written: it compiles only for NVIDIA GPUs, in the device compilation; guard it with `#if defined(__NVPTX__)` and a portable fallback, or rewrite it in SYCL",
    );
}

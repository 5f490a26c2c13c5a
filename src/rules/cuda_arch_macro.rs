//! `__CUDA_ARCH__` and `__CUDACC__` in preprocessor conditions.
//!
//! What it does: `#ifdef __CUDA_ARCH__` / `defined(__CUDA_ARCH__)` become
//! `__SYCL_DEVICE_ONLY__`; a version comparison (`__CUDA_ARCH__ >= 700`)
//! becomes a device-compilation test under the assumption that the SYCL
//! device is newer than any threshold (SY0102 says so); `__CUDACC__` becomes
//! `SYCL_LANGUAGE_VERSION` (defined by every SYCL compiler).
//!
//! Why: `__CUDA_ARCH__` is defined only in the device pass of nvcc, as
//! `__SYCL_DEVICE_ONLY__` is in the device pass of a SYCL compiler.
//!
//! Example: `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700` →
//! `#if defined(__SYCL_DEVICE_ONLY__) && defined(__SYCL_DEVICE_ONLY__)`.

use super::FileCtx;
use crate::diagnostics::Code;
use tree_sitter::Node;

pub const RULE: &str = "cuda-arch-macro";
const DEVICE: &str = "__SYCL_DEVICE_ONLY__";

pub fn run(ctx: &mut FileCtx) {
    for &n in ctx.main_nodes().iter() {
        if ctx.in_error(n) {
            continue;
        }
        match n.kind() {
            "preproc_ifdef" => {
                if let Some(name) = n.child_by_field_name("name") {
                    rename(ctx, name);
                }
            }
            "preproc_if" | "preproc_elif" => {
                if let Some(cond) = n.child_by_field_name("condition") {
                    condition(ctx, cond);
                }
            }
            _ => {}
        }
    }
}

fn rename(ctx: &mut FileCtx, name: Node) {
    match ctx.text(name) {
        "__CUDA_ARCH__" => ctx.edits.replace_text(RULE, name.byte_range(), DEVICE),
        "__CUDACC__" => ctx.edits.replace_text(RULE, name.byte_range(), "SYCL_LANGUAGE_VERSION"),
        _ => return,
    }
    ctx.count(RULE);
}

fn condition(ctx: &mut FileCtx, cond: Node) {
    for id in crate::syntax::descendants(cond) {
        if id.kind() != "identifier" {
            continue;
        }
        let parent = id.parent();
        match ctx.text(id) {
            "__CUDACC__" => rename(ctx, id),
            "__CUDA_ARCH__" => {
                if parent.is_some_and(|p| p.kind() == "preproc_defined") {
                    rename(ctx, id);
                    continue;
                }
                let cmp = parent.filter(|p| p.kind() == "binary_expression").and_then(|p| {
                    let op = p.child_by_field_name("operator").map(|o| o.kind())?;
                    matches!(op, ">=" | ">" | "<" | "<=" | "==" | "!=").then_some((p, op))
                });
                match cmp {
                    Some((p, op)) => {
                        let arch_left = p.child_by_field_name("left").is_some_and(|l| l.id() == id.id());
                        // With the device newer than any threshold, `ARCH >= N` holds on the
                        // device only; host passes see __CUDA_ARCH__ as 0.
                        let device_true = match (op, arch_left) {
                            (">=" | ">", true) | ("<=" | "<", false) => true,
                            ("<" | "<=", true) | (">=" | ">", false) => false,
                            ("!=", _) => false,
                            _ => true,
                        };
                        let rep = if device_true { format!("defined({DEVICE})") } else { format!("!defined({DEVICE})") };
                        let original = ctx.text(p).to_string();
                        ctx.edits.replace_text(RULE, p.byte_range(), &rep);
                        ctx.diag(
                            Code::CudaArchVersion,
                            p.byte_range(),
                            RULE,
                            format!("`{original}` became `{rep}`, assuming every SYCL device is newer than the tested architecture"),
                        );
                        ctx.count(RULE);
                    }
                    None => {
                        ctx.edits.replace_text(RULE, id.byte_range(), format!("defined({DEVICE})"));
                        ctx.count(RULE);
                    }
                }
            }
            _ => {}
        }
    }
}

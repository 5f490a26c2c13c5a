//! Panics caught per file: a bug of syclify's on one file costs that file,
//! not the run. [`catch`] runs a step of one file's migration (its parse,
//! its index facts, its rewrite) and turns a panic into an error message
//! with the place it happened; the project reports the file as failed
//! (SY0006) and migrates every other file.
//!
//! While a step runs under [`catch`], the panic hook records the message
//! instead of printing it (the report says it once, with the file's name);
//! a panic anywhere else is printed as Rust prints it.

use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::sync::{Once, OnceLock};

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let msg = payload_message(info.payload());
                let at = info.location().map(|l| format!(" (at {}:{}:{})", l.file(), l.line(), l.column())).unwrap_or_default();
                LAST.with(|l| *l.borrow_mut() = Some(format!("{msg}{at}")));
            } else {
                default(info);
            }
        }));
    });
}

fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Runs `f`; a panic in it is returned as its message and place.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    let was = CATCHING.with(|c| c.replace(true));
    LAST.with(|l| l.borrow_mut().take());
    let r = std::panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    r.map_err(|payload| LAST.with(|l| l.borrow_mut().take()).unwrap_or_else(|| payload_message(payload.as_ref())))
}

/// A test hook: `SYCLIFY_INJECT_PANIC=STEP:SUFFIX` makes step `STEP`
/// (`parse`, `index` or `rewrite`) panic on files whose in-root-relative path
/// ends with `SUFFIX`, so the tests can show what a bug in a rule does to a
/// run. Read once per process.
pub fn injected_panic(step: &str, rel: &str) {
    static SPEC: OnceLock<Option<(String, String)>> = OnceLock::new();
    let spec = SPEC.get_or_init(|| {
        let v = std::env::var("SYCLIFY_INJECT_PANIC").ok()?;
        let (s, suffix) = v.split_once(':')?;
        Some((s.to_string(), suffix.to_string()))
    });
    if let Some((s, suffix)) = spec
        && s == step
        && rel.ends_with(suffix.as_str())
    {
        panic!("injected panic (SYCLIFY_INJECT_PANIC) in the {step} step of {rel}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_its_message_and_place() {
        let r: Result<(), String> = super::catch(|| panic!("bad {}", 42));
        let e = r.unwrap_err();
        assert!(e.starts_with("bad 42 (at src/guard.rs:"), "{e}");
        assert_eq!(super::catch(|| 7), Ok(7));
    }
}

//! Generative: a program of deep and long structures built from the
//! fuzzer's bytes (`syclify::properties::deep_program`: operator chains,
//! ternaries, parentheses, member chains, template arguments, tables,
//! blocks, `#if` groups and lambdas nested and repeated thousands of
//! times), not a mutation of a fixture; every property checked. Run with
//! libFuzzer's `-timeout`: an input that takes too long is a pass that is
//! not linear in depth. `SYCLIFY_FUZZ_DUMP=DIR` writes the program, to keep
//! as a regression project (`fuzz/regressions/migrate_cuda/NAME/main.cu`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static MAPPINGS: OnceLock<syclify::mapping::Mappings> = OnceLock::new();

fuzz_target!(|choices: &[u8]| {
    let program = syclify::properties::deep_program(choices, 256 << 10);
    if let Some(dir) = std::env::var_os("SYCLIFY_FUZZ_DUMP") {
        std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(std::path::Path::new(&dir).join("main.cu"), &program)).expect("SYCLIFY_FUZZ_DUMP is writable");
    }
    let files = vec![("main.cu".to_string(), program.into_bytes())];
    let mappings = MAPPINGS.get_or_init(syclify::mapping::Mappings::builtin);
    if let Err(e) = syclify::properties::check(&files, mappings) {
        panic!("{e}");
    }
});

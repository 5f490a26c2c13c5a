//! Arbitrary bytes as one source file through the whole pipeline (load,
//! parse, index, rewrite, emit to memory), every property of
//! `syclify::properties` checked. The first byte picks the file's kind.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static MAPPINGS: OnceLock<syclify::mapping::Mappings> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    let Some(files) = syclify::properties::bytes_project(data) else { return };
    let mappings = MAPPINGS.get_or_init(syclify::mapping::Mappings::builtin);
    if let Err(e) = syclify::properties::check(&files, mappings) {
        panic!("{e}");
    }
});

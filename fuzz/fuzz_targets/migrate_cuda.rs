//! Structure-aware: one of the project's own CUDA fixtures (`fixtures/`),
//! changed at the level of its tokens (inserted `<<<`, `__shared__`,
//! braces, directives, macros; deletions, swaps, truncation), as `main.cu`
//! beside a mutated header `k.cuh` that the vocabulary can include; every
//! property of `syclify::properties` checked.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use syclify::properties::{Mutation, mutate};

#[derive(Arbitrary, Debug)]
enum Op {
    Insert(u16, u8),
    Delete(u16),
    Duplicate(u16, u8),
    Swap(u16, u16),
    Truncate(u16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    main: u16,
    main_ops: Vec<Op>,
    header: Option<u16>,
    header_ops: Vec<Op>,
}

fn mutations(ops: &[Op]) -> Vec<Mutation> {
    ops.iter()
        .map(|op| match *op {
            Op::Insert(at, word) => Mutation::Insert { at: at.into(), word: word.into() },
            Op::Delete(at) => Mutation::Delete { at: at.into() },
            Op::Duplicate(at, len) => Mutation::Duplicate { at: at.into(), len: len.into() },
            Op::Swap(at, other) => Mutation::Swap { at: at.into(), other: other.into() },
            Op::Truncate(at) => Mutation::Truncate { at: at.into() },
        })
        .collect()
}

/// The CUDA sources under `fixtures/`, in path order: the directory
/// `SYCLIFY_FIXTURES` names (a built target run on another machine), else
/// this checkout's.
fn seeds() -> &'static [String] {
    static SEEDS: OnceLock<Vec<String>> = OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = std::env::var_os("SYCLIFY_FIXTURES")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures"));
        let s = syclify::properties::cuda_sources(&dir, u64::MAX);
        assert!(!s.is_empty(), "no CUDA fixtures under fixtures/");
        s
    })
}

static MAPPINGS: OnceLock<syclify::mapping::Mappings> = OnceLock::new();

fuzz_target!(|input: Input| {
    let seeds = seeds();
    let pick = |i: u16| &seeds[i as usize % seeds.len()];
    let mut files = vec![("main.cu".to_string(), mutate(pick(input.main), &mutations(&input.main_ops)).into_bytes())];
    if let Some(h) = input.header {
        files.push(("k.cuh".to_string(), mutate(pick(h), &mutations(&input.header_ops)).into_bytes()));
    }
    // triage: `SYCLIFY_FUZZ_DUMP=DIR target ARTIFACT` writes the project an
    // input stands for into DIR, to migrate with `syclify migrate`
    if let Some(dir) = std::env::var_os("SYCLIFY_FUZZ_DUMP") {
        for (name, bytes) in &files {
            std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(std::path::Path::new(&dir).join(name), bytes)).expect("SYCLIFY_FUZZ_DUMP is writable");
        }
    }
    let mappings = MAPPINGS.get_or_init(syclify::mapping::Mappings::builtin);
    if let Err(e) = syclify::properties::check(&files, mappings) {
        panic!("{e}");
    }
});

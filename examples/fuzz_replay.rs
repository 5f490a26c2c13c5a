//! Replays inputs of the `migrate_bytes` fuzz target (crash artifacts,
//! corpus entries, regressions) through `syclify::properties::check` on
//! the stable toolchain, without building the fuzz crate:
//!
//!     cargo run --release --example fuzz_replay -- fuzz/artifacts/migrate_bytes/*
//!
//! Prints each input's time and result; exits 1 when one breaks a property.

fn main() {
    let mappings = syclify::mapping::Mappings::builtin();
    let mut broken = 0;
    for p in std::env::args().skip(1) {
        let bytes = match std::fs::read(&p) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{p}: {e}");
                broken += 1;
                continue;
            }
        };
        // as the target reads it: the first byte picks the file's kind
        let Some(files) = syclify::properties::bytes_project(&bytes) else { continue };
        let t = std::time::Instant::now();
        let r = syclify::properties::check(&files, &mappings);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        match r {
            Ok(seen) => println!("{p}: ok ({ms:.1} ms, {} migrated, {} conflicts)", seen.files_migrated, seen.conflicts),
            Err(e) => {
                println!("{p}: BROKEN ({ms:.1} ms): {e}");
                broken += 1;
            }
        }
    }
    std::process::exit(if broken > 0 { 1 } else { 0 });
}

//! Migrates programs of deep and long structures (`properties::deep_program`)
//! made from pseudo-random bytes, and prints the slowest per kilobyte: a
//! quick hunt, on stable and without libFuzzer, for a pass that is not linear
//! in depth (the `migrate_deep` fuzz target's question).
//!
//!     cargo run --release --example deep_probe -- [PROGRAMS] [SEED] [BUDGET_KB]
//!
//! A program worth keeping is written to `target/deep_probe_slowest.cu`.

fn main() {
    let mut args = std::env::args().skip(1);
    let programs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let mut seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let budget: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(256) << 10;
    let mappings = syclify::mapping::Mappings::builtin();
    let mut slowest: Option<(f64, String)> = None;
    let mut total = 0.0;
    for _ in 0..programs {
        let len = 4 + (seed % 60) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (seed >> 56) as u8
            })
            .collect();
        let program = syclify::properties::deep_program(&bytes, budget);
        let t = std::time::Instant::now();
        let m = syclify::project::migrate_in_memory(vec![("main.cu".to_string(), program.clone().into_bytes())], &mappings);
        let secs = t.elapsed().as_secs_f64();
        assert!(!m.files.is_empty());
        total += secs;
        // (a small program's time is the fixed cost of a migration)
        let per_kb = secs / (program.len() as f64 / 1024.0);
        if program.len() >= 16 << 10 && slowest.as_ref().is_none_or(|(s, _)| per_kb > *s) {
            slowest = Some((per_kb, program));
        }
    }
    let Some((per_kb, program)) = slowest else {
        println!("{programs} programs in {total:.2} s; none of 16 KB or more");
        return;
    };
    println!("{programs} programs in {total:.2} s; slowest {:.2} ms per KB ({} KB)", per_kb * 1e3, program.len() / 1024);
    std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/target/deep_probe_slowest.cu"), program).expect("target/ is writable");
}

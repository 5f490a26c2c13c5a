//! The properties every migration keeps, whatever its input — checked on
//! arbitrary inputs by the fuzz targets (`fuzz/`) and on a few hundred
//! generated ones by the property tests (`tests/properties.rs`):
//!
//! 1. **no panic**: a panic caught per file (SY0006) is a violation, and one
//!    outside the guards unwinds to the caller (the fuzzer reports it);
//! 2. **text kept as text**: an input that is UTF-8 gives UTF-8 output, and
//!    the output of one that is not holds no byte outside UTF-8 that the
//!    input lacks (the bytes are written back as they were read; a rewrite
//!    may replace a token holding some, as a comment quoting it may repeat
//!    them);
//! 3. **no silent overlap**: edits that overlap, and any edit the edit
//!    engine could not render, are reported (SY0009) — [`crate::edit::apply`]
//!    checks what it rendered on every run; here they are counted;
//! 4. **deterministic**: migrating again, on one thread, gives the same bytes
//!    and the same diagnostics;
//! 5. **a fixed point**: migrating the migrated output again changes nothing
//!    (for files migrated without a warning: code left as is for a human is
//!    CUDA still, and is met again).
//!
//! A hang is the fuzzer's to catch (its per-input `-timeout`); the tests
//! measure no time. [`mutate`] makes structure-aware inputs: a CUDA source
//! changed at the level of its tokens.

use crate::diagnostics::Code;
use crate::mapping::Mappings;
use crate::project::{self, Migration, Status};

/// What one input exercised (for the fuzzer's figures).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Exercised {
    pub files_migrated: usize,
    pub conflicts: usize,
}

/// Every file a migration emits with its bytes, and each input's
/// diagnostics as `(file, code, range, message)`.
type Emitted = (Vec<(String, Vec<u8>)>, Vec<(String, &'static str, std::ops::Range<usize>, String)>);

fn emitted(m: &Migration) -> Emitted {
    let files = crate::emit::outputs(m).into_iter().map(|(rel, b)| (rel, b.into_owned())).collect();
    let diags = m.files.iter().flat_map(|f| f.diagnostics.iter().map(|d| (f.rel.clone(), d.code.code(), d.range.clone(), d.message.clone()))).collect();
    (files, diags)
}

/// Checks every property on one project given in memory; the first one
/// broken is the error, saying which and where.
pub fn check(files: &[(String, Vec<u8>)], mappings: &Mappings) -> Result<Exercised, String> {
    let m = project::migrate_in_memory(files.to_vec(), mappings);
    let mut seen = Exercised::default();
    for f in &m.files {
        if let Some(d) = f.diagnostics.iter().find(|d| d.code == Code::InternalError) {
            return Err(format!("no panic: {}: {}", f.rel, d.message));
        }
        seen.conflicts += f.diagnostics.iter().filter(|d| d.code == Code::EditConflict).count();
        if f.status == Status::Migrated {
            seen.files_migrated += 1;
        }
    }
    let first = emitted(&m);
    // 2. text kept as text
    for f in &m.files {
        let (Some(out_rel), Some(input)) = (&f.out_rel, files.iter().find(|(rel, _)| *rel == f.rel).map(|(_, b)| b)) else { continue };
        let Some((_, out)) = first.0.iter().find(|(rel, _)| rel == out_rel) else {
            return Err(format!("text kept: {} has an output name {out_rel} but no output", f.rel));
        };
        let stray = |b: &[u8]| -> Vec<u8> { b.utf8_chunks().flat_map(|c| c.invalid().iter().copied()).collect() };
        let (stray_in, stray_out) = (stray(input), stray(out));
        if stray_in.is_empty() && !stray_out.is_empty() {
            return Err(format!("text kept: {} is UTF-8, its output {out_rel} is not", f.rel));
        }
        if let Some(b) = stray_out.iter().find(|b| !stray_in.contains(b)) {
            return Err(format!("text kept: the output {out_rel} holds a byte 0x{b:02x} outside UTF-8 that {} does not", f.rel));
        }
    }
    // 3. no silent overlap: checked by `edit::apply` on every run (SY0009
    // for any edit it did not render), counted above
    // 4. deterministic, whatever the thread count
    static ONE_THREAD: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    let pool = ONE_THREAD.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(1).build().ok()).as_ref().ok_or("a one-thread pool could not be made")?;
    let again = pool.install(|| project::migrate_in_memory(files.to_vec(), mappings));
    let second = emitted(&again);
    if first != second {
        return Err(format!("deterministic: a second migration (one thread) differs: {}", first_difference(&first, &second)));
    }
    // 5. a fixed point: the output, migrated again, is unchanged
    // (of the files migrated cleanly: code left as is for a human, with a
    // warning, is met again, and its comment tells more each time)
    let migrated_names: Vec<&str> =
        m.files.iter().filter(|f| f.status != Status::Failed && !f.diagnostics.iter().any(|d| d.needs_human())).filter_map(|f| f.out_rel.as_deref()).collect();
    // (every output of the project's files, migrated or copied, as a user
    // would migrate the out-root again; not the helper headers: syclify's own)
    let project_outputs: Vec<&str> = m.files.iter().filter_map(|f| f.out_rel.as_deref()).collect();
    let outputs: Vec<(String, Vec<u8>)> = first.0.iter().filter(|(rel, _)| project_outputs.contains(&rel.as_str())).cloned().collect();
    let third = project::migrate_in_memory(outputs, mappings);
    let (out3, _) = emitted(&third);
    for (rel, bytes) in &first.0 {
        if !migrated_names.contains(&rel.as_str()) {
            continue;
        }
        let f = third.files.iter().find(|f| &f.rel == rel);
        if f.is_some_and(|f| f.status == Status::Failed) {
            return Err(format!("fixed point: the output {rel}, migrated again, failed: {:?}", f.map(|f| &f.diagnostics)));
        }
        let renamed = project::output_rel(rel, f.is_some_and(|f| f.status == Status::Migrated));
        match out3.iter().find(|(r, _)| *r == renamed) {
            Some((_, b)) if b == bytes => {}
            Some((_, b)) => {
                return Err(format!("fixed point: the output {rel}, migrated again, changes:\n{}", first_changed_line(bytes, b)));
            }
            None => return Err(format!("fixed point: the output {rel}, migrated again, gives no output")),
        }
    }
    Ok(seen)
}

fn first_difference(a: &Emitted, b: &Emitted) -> String {
    for ((ra, ba), (rb, bb)) in a.0.iter().zip(&b.0) {
        if ra != rb {
            return format!("files {ra} and {rb}");
        }
        if ba != bb {
            return format!("{ra}:\n{}", first_changed_line(ba, bb));
        }
    }
    if a.0.len() != b.0.len() {
        return format!("{} files, then {}", a.0.len(), b.0.len());
    }
    match a.1.iter().zip(&b.1).find(|(x, y)| x != y) {
        Some((x, y)) => format!("diagnostic {x:?}, then {y:?}"),
        None => format!("{} diagnostics, then {}", a.1.len(), b.1.len()),
    }
}

fn first_changed_line(a: &[u8], b: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let mut lines = a.lines().zip(b.lines()).enumerate();
    match lines.find(|(_, (x, y))| x != y) {
        Some((n, (x, y))) => format!("line {}: {x:?}\n      now: {y:?}", n + 1),
        None => format!("{} lines, then {}", a.lines().count(), b.lines().count()),
    }
}

/// The file names the `migrate_bytes` fuzz target's first byte picks among.
pub const BYTES_NAMES: [&str; 4] = ["fuzz.cu", "fuzz.cuh", "fuzz.cpp", "fuzz.h"];

/// An input of the `migrate_bytes` fuzz target as the project it stands for
/// (also how its crash files, regressions and seeds are replayed): the first
/// byte picks the file's kind, the rest is the file. None when empty.
pub fn bytes_project(data: &[u8]) -> Option<Vec<(String, Vec<u8>)>> {
    let (&kind, text) = data.split_first()?;
    Some(vec![(BYTES_NAMES[kind as usize % BYTES_NAMES.len()].to_string(), text.to_vec())])
}

/// The CUDA sources (`.cu`, `.cuh`) under `dir` shorter than `below` bytes,
/// in path order: the seeds of the structure-aware fuzzing.
pub fn cuda_sources(dir: &std::path::Path, below: u64) -> Vec<String> {
    let mut paths = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "cu" || x == "cuh") && e.metadata().is_ok_and(|m| m.len() < below) {
                paths.push(p);
            }
        }
    }
    paths.sort();
    paths.iter().filter_map(|p| std::fs::read_to_string(p).ok()).collect()
}

/// The tokens a CUDA mutation inserts: the constructs syclify rewrites, and
/// what breaks a parse (unbalanced brackets, directives, quotes, comments).
pub const VOCABULARY: &[&str] = &[
    "<<<",
    ">>>",
    "<<<1, 1>>>",
    "__shared__",
    "extern __shared__ float s[];",
    "__global__",
    "__device__",
    "__host__",
    "__constant__",
    "__syncthreads();",
    "threadIdx.x",
    "blockIdx.y",
    "blockDim.x",
    "gridDim.z",
    "warpSize",
    "__shfl_down_sync(0xffffffff, v, 1)",
    "__ballot_sync(~0u, p)",
    "atomicAdd(&x, 1)",
    "cudaMalloc(&p, n)",
    "cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);",
    "cudaFree(p);",
    "cudaDeviceSynchronize();",
    "dim3 g(1, 2);",
    "__launch_bounds__(256)",
    "template <typename T>",
    "#if 1\n",
    "#if 0\n",
    "#ifdef X\n",
    "#else\n",
    "#endif\n",
    "#define M(x) (x)\n",
    "#define N 256\n",
    "#include \"k.cuh\"\n",
    "#include <cuda_runtime.h>\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    "\"",
    "'",
    "/*",
    "*/",
    "//",
    "\n",
    "\\\n",
    "k",
    "T",
    "float",
    "int",
    "x",
    "::",
    "->",
    ".",
    "*",
    "&",
    "=",
    "0",
    "1.0f",
    "static",
    "const",
    "struct S {",
    "namespace n {",
    "extern \"C\"",
    "\u{e9}",
    "\t",
];

/// One token-level change to a source.
#[derive(Debug, Clone, Copy)]
pub enum Mutation {
    /// Insert [`VOCABULARY`]`[word % len]` before token `at % count`.
    Insert { at: usize, word: usize },
    /// Delete token `at`.
    Delete { at: usize },
    /// Copy tokens `at..at + len` to just after them.
    Duplicate { at: usize, len: usize },
    /// Swap token `at` with token `other`.
    Swap { at: usize, other: usize },
    /// Cut the source after token `at`.
    Truncate { at: usize },
}

/// Splits a source into tokens: identifiers and numbers, runs of
/// whitespace, and single other characters (`<<<` is three of them).
pub fn tokens(src: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let class = |c: char| {
            if c.is_alphanumeric() || c == '_' {
                1
            } else if c.is_whitespace() {
                2
            } else {
                0
            }
        };
        let k = class(c);
        let mut end = i + c.len_utf8();
        if k != 0 {
            while let Some(&(j, d)) = chars.peek() {
                if class(d) != k {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
        }
        out.push(&src[start..end]);
        start = end;
    }
    out
}

/// A source changed by `mutations`, in order.
pub fn mutate(src: &str, mutations: &[Mutation]) -> String {
    let mut toks: Vec<String> = tokens(src).into_iter().map(str::to_string).collect();
    for m in mutations {
        let n = toks.len().max(1);
        match *m {
            Mutation::Insert { at, word } => toks.insert(at % (toks.len() + 1), VOCABULARY[word % VOCABULARY.len()].to_string()),
            Mutation::Delete { at } if !toks.is_empty() => {
                toks.remove(at % n);
            }
            Mutation::Duplicate { at, len } if !toks.is_empty() => {
                let a = at % n;
                let b = (a + 1 + len % 16).min(toks.len());
                let copy: Vec<String> = toks[a..b].to_vec();
                toks.splice(b..b, copy);
            }
            Mutation::Swap { at, other } if !toks.is_empty() => toks.swap(at % n, other % n),
            Mutation::Truncate { at } => toks.truncate(at % (toks.len() + 1)),
            _ => {}
        }
    }
    toks.concat()
}

/// A CUDA program of deep and long structures, made from `choices` (the
/// fuzzer's bytes, or a property test's): kernels whose statements and
/// expressions nest and repeat the shapes a pass that is not linear in
/// depth meets badly — left- and right-leaning operator chains, nested
/// ternaries, parentheses, member chains `s.b.b…`, template arguments
/// `A<A<…>>`, `<<` stream chains, brace tables, nested blocks, `#if`
/// groups and lambdas — each repeated up to a few thousand times, mixed
/// with thread builtins and CUDA calls, within `budget` bytes. The same
/// bytes give the same program.
pub fn deep_program(choices: &[u8], budget: usize) -> String {
    struct Gen<'a> {
        bytes: &'a [u8],
        at: usize,
        out: String,
        budget: usize,
    }
    impl Gen<'_> {
        fn byte(&mut self) -> u8 {
            let b = self.bytes.get(self.at).copied().unwrap_or(0);
            self.at += 1;
            b
        }
        /// A repeat count: mostly small, some up to 4096.
        fn count(&mut self) -> usize {
            let b = self.byte() as usize;
            if b < 192 { b % 16 } else { ((b - 192) + 1) * 64 }
        }
        fn room(&self) -> bool {
            self.out.len() < self.budget && self.at < self.bytes.len()
        }
        fn leaf(&mut self) {
            let leaves = ["1.0f", "threadIdx.x", "c", "a[blockIdx.x]", "s.v", "(float)blockDim.x", "2", "sqrtf(c)", "__shfl_down_sync(0xffffffff, c, 1)"];
            let l = leaves[self.byte() as usize % leaves.len()];
            self.out.push_str(l);
        }
        fn expr(&mut self, depth: usize) {
            if depth > 6 || !self.room() {
                return self.leaf();
            }
            let n = self.count();
            match self.byte() % 8 {
                // left-leaning: e op e op e …
                0 => {
                    self.expr(depth + 1);
                    for _ in 0..n {
                        let op = ["+", "*", "-", " << ", " && ", "/"][self.byte() as usize % 6];
                        self.out.push_str(op);
                        self.expr(depth + 1);
                    }
                }
                // right-leaning: e + (e + (…))
                1 => {
                    for _ in 0..n {
                        self.expr(depth + 1);
                        self.out.push_str("+(");
                    }
                    self.expr(depth + 1);
                    self.out.push_str(&")".repeat(n));
                }
                2 => {
                    for i in 0..n {
                        self.out.push_str(&format!("c>{i}?"));
                        self.expr(depth + 1);
                        self.out.push(':');
                    }
                    self.expr(depth + 1);
                }
                3 => {
                    self.out.push_str(&"(".repeat(n));
                    self.expr(depth + 1);
                    self.out.push_str(&")".repeat(n));
                }
                4 => {
                    self.out.push('s');
                    self.out.push_str(&".b".repeat(n));
                    self.out.push_str(".v");
                }
                5 => {
                    self.out.push_str("f(");
                    for i in 0..n.min(64) {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.expr(depth + 1);
                    }
                    self.out.push(')');
                }
                6 => {
                    // a long run of literal arithmetic
                    self.out.push_str("1.0f");
                    self.out.push_str(&"+2.5f*(1.0f-3.0f)".repeat(n * 4));
                }
                _ => self.leaf(),
            }
        }
        fn stmt(&mut self, depth: usize) {
            if !self.room() {
                return;
            }
            let n = self.count();
            match self.byte() % 10 {
                0 | 1 => {
                    self.out.push_str("a[threadIdx.x] = ");
                    self.expr(0);
                    self.out.push_str(";\n");
                }
                2 if depth < 8 => {
                    self.out.push_str(&"{".repeat(n));
                    self.stmt(depth + 1);
                    self.out.push_str(&"}".repeat(n));
                    self.out.push('\n');
                }
                3 if depth < 8 => {
                    for i in 0..n {
                        self.out.push_str(&format!("\n#if X{i}\n"));
                    }
                    self.stmt(depth + 1);
                    for _ in 0..n {
                        self.out.push_str("\n#endif\n");
                    }
                }
                4 if depth < 8 => {
                    for _ in 0..n {
                        self.out.push_str("auto g = [&]() {\n");
                    }
                    self.stmt(depth + 1);
                    for _ in 0..n {
                        self.out.push_str("return 0; };\n");
                    }
                }
                5 => {
                    self.out.push_str("const float t[] = {");
                    for i in 0..n * 16 {
                        self.out.push_str(&format!("{i}.5f, "));
                    }
                    self.out.push_str("1.0f};\nc += t[threadIdx.x];\n");
                }
                6 => {
                    self.out.push_str(&"A<".repeat(n));
                    self.out.push_str("int");
                    self.out.push_str(&">".repeat(n));
                    self.out.push_str(" x;\n");
                }
                7 => self.out.push_str("__syncthreads();\n"),
                8 if depth < 8 => {
                    self.out.push_str("for (int i = threadIdx.x; i < c; i += blockDim.x) {\n");
                    self.stmt(depth + 1);
                    self.out.push_str("}\n");
                }
                _ => {
                    self.out.push_str("c = ");
                    self.expr(0);
                    self.out.push_str(";\n");
                }
            }
        }
    }
    let mut g = Gen { bytes: choices, at: 0, out: String::new(), budget };
    g.out.push_str("#include <cuda_runtime.h>\n#include <iostream>\ntemplate <typename T> struct A { T v; };\nstruct S { S &b; float v; };\n__device__ float f(float x, ...) { return x; }\n");
    let kernels = 1 + g.byte() as usize % 4;
    for k in 0..kernels {
        g.out.push_str(&format!("__global__ void k{k}(float *a, float c, S &s) {{\n"));
        let statements = 1 + g.byte() as usize % 8;
        for _ in 0..statements {
            g.stmt(0);
        }
        g.out.push_str("}\n");
    }
    g.out.push_str("void host(int x) {\n  std::cout");
    let n = g.count();
    g.out.push_str(&" << x".repeat(n));
    g.out.push_str(";\n}\nint main() {\n  float *a; cudaMalloc(&a, 1024);\n");
    for k in 0..kernels {
        g.out.push_str(&format!("  k{k}<<<2, 64>>>(a, 1.0f, *(S *)nullptr);\n"));
    }
    g.out.push_str("  cudaDeviceSynchronize();\n  return 0;\n}\n");
    g.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_cover_the_source() {
        let src = "__global__ void k(float *x) { x[threadIdx.x] <<= 2; } // é\n";
        let t = tokens(src);
        assert_eq!(t.concat(), src);
        assert!(t.contains(&"__global__") && t.contains(&"threadIdx") && t.contains(&"é"));
    }

    #[test]
    fn mutations_change_tokens() {
        let src = "a b c";
        assert_eq!(mutate(src, &[Mutation::Delete { at: 0 }]), " b c");
        assert_eq!(mutate(src, &[Mutation::Truncate { at: 3 }]), "a b");
        assert_eq!(mutate(src, &[Mutation::Swap { at: 0, other: 4 }]), "c b a");
        assert_eq!(mutate(src, &[Mutation::Duplicate { at: 4, len: 0 }]), "a b cc");
        assert_eq!(mutate(src, &[Mutation::Insert { at: 5, word: 0 }]), "a b c<<<");
    }
}

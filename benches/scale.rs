//! Time and memory against input size: one file of 1, 10 and 50 MB per
//! shape, each migrated by the `syclify` binary in a process of its own
//! (wall time, peak resident memory from `wait4`). Shapes: each rule's
//! fixtures (`fixtures/rules/<rule>/*.cu`) repeated (1 and 4 MB), the
//! programs' fixtures repeated, a generated data table on one line,
//! dense code on one line (1 and 10 MB), and one construct nested as deep
//! as 1 and 2 MB allow (sums leaning left and right, ternaries, member
//! chains, templates, `<<` chains, parentheses, `#if`, lambdas, blocks). Prints
//! seconds and MiB per size and the growth from 1 to 10 and 10 to 50 MB
//! (linear: 10× and 5×). Run with `cargo bench --bench scale`;
//! SYCLIFY_SCALE_SIZES (MB, comma-separated; default `1,10,50`),
//! SYCLIFY_SCALE_RULE_SIZES (the rules' shapes' sizes; default `1,4`) and
//! SYCLIFY_SCALE_ONLY (a shape's name) narrow it; SYCLIFY_SCALE_KEEP=DIR
//! keeps each input as DIR/<shape>-<MB>.cu (to profile the slow ones).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// Wall seconds and peak resident MiB of `syclify migrate dir -o out`.
fn measure(dir: &Path, out: &Path) -> (f64, f64, i32) {
    let t = Instant::now();
    // reaped by wait4 below, for its resource usage
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_syclify"))
        .args(["migrate", dir.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("syclify runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    (t.elapsed().as_secs_f64(), usage.ru_maxrss as f64 / 1024.0, code)
}

/// `unit` repeated (each copy's names — kernels, device functions, classes,
/// macros — made its own with a suffix, so that the file holds distinct
/// functions, as real code does) up to `mb` MB.
fn repeated(unit: &str, mb: usize) -> String {
    // kernels' and device functions' names (the word before the `(`), and
    // the classes defined
    let function = regex::Regex::new(r"\b(?:__global__|__device__)\b[^;{}()]*?\b([A-Za-z_]\w*)\s*\(").unwrap();
    let class = regex::Regex::new(r"\b(?:struct|class)\s+([A-Za-z_]\w*)\s*[{:]").unwrap();
    // and the macros (each copy defines its own, as a larger project would:
    // one macro defined a thousand times and used with a thousand kernels
    // is not code anyone writes, and its uses would multiply)
    let define = regex::Regex::new(r"(?m)^\s*#\s*define\s+([A-Za-z_]\w*)").unwrap();
    let mut names: Vec<String> =
        function.captures_iter(unit).chain(class.captures_iter(unit)).chain(define.captures_iter(unit)).map(|c| c[1].to_string()).collect();
    names.sort();
    names.dedup();
    let mut out = String::with_capacity(mb << 20);
    let mut copy = 0;
    while out.len() < mb << 20 {
        let mut u = unit.to_string();
        for n in &names {
            u = regex::Regex::new(&format!(r"\b{}\b", regex::escape(n))).unwrap().replace_all(&u, format!("{n}_{copy}").as_str()).into_owned();
        }
        out.push_str(&u);
        out.push('\n');
        copy += 1;
    }
    out
}

/// `head`, then `unit(0)`, `unit(1)`, … on the same line until the text
/// holds `mb` MB, then `tail`.
fn one_line(mb: usize, head: &str, unit: impl Fn(u64) -> String, tail: &str) -> String {
    let mut s = String::from(head);
    let mut j = 0u64;
    while s.len() < mb << 20 {
        s.push_str(&unit(j));
        j += 1;
    }
    s.push_str(tail);
    s
}

fn table_line(mb: usize) -> String {
    one_line(
        mb,
        "__global__ void k(float *o) { o[threadIdx.x] = table[threadIdx.x]; }\n__constant__ float table[] = {",
        |i| format!("{}.{:03}f, ", i % 97, i % 1000),
        "0.0f};\n",
    )
}

fn code_line(mb: usize) -> String {
    one_line(mb, "__global__ void k(float *a, const float *b) { int i = threadIdx.x; ", |j| format!("a[i + {}] += b[i] * {}.0f; ", j % 64, j % 7), "}\n")
}

/// Code on one line where nothing parses twice in a row: an error region
/// every 20 bytes, each with a macro-like use near it (error recovery's
/// candidates, read per line).
fn broken_line(mb: usize) -> String {
    one_line(mb, "__global__ void k(int *p) { ", |j| format!("int a{j} = ) F(x) ; "), "}\n")
}

/// One kernel of thousands of `__shared__` arrays, on one line (each array
/// looked up by the parameters, each declaration's line range).
/// Ordinary kernels, one after another (five lines each, some 206 bytes:
/// 20,000 of them are the issue's 4 MB file of 100,000 lines), and a host
/// function launching every hundredth.
fn ordinary_kernels(mb: usize) -> String {
    let mut out = String::from("#include <cuda_runtime.h>\n");
    let mut i = 0;
    while out.len() < mb << 20 {
        out.push_str(&format!(
            "__global__ void kern{i}(float *a, const float *b, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] = b[i] * {i}.5f + sqrtf(b[i]) + b[(i + 1) % n];\n  __syncthreads(); // done\n}}\n"
        ));
        i += 1;
    }
    out.push_str("int main() {\n  float *a, *b; cudaMalloc(&a, 4096); cudaMalloc(&b, 4096);\n");
    for k in (0..i).step_by(100) {
        out.push_str(&format!("  kern{k}<<<4, 256>>>(a, b, 1024);\n"));
    }
    out.push_str("  cudaDeviceSynchronize(); return 0;\n}\n");
    out
}

fn shared_line(mb: usize) -> String {
    one_line(
        mb,
        "__global__ void k(int *p) { ",
        |j| format!("__shared__ int s{j}[32]; s{j}[threadIdx.x] = p[{j}]; "),
        "}\nvoid h(int *p) { k<<<1, 32>>>(p); }\n",
    )
}

/// A structure nested `n` deep, `n` chosen so the text holds `mb` MB:
/// `head`, `open(i)` for i in 0..n, `mid`, `close` n times, `tail`.
fn nested(mb: usize, head: &str, open: impl Fn(u64) -> String, mid: &str, close: &str, tail: &str) -> String {
    let mut s = String::from(head);
    let mut n = 0u64;
    while s.len() + n as usize * close.len() < mb << 20 {
        s.push_str(&open(n));
        n += 1;
    }
    s.push_str(mid);
    for _ in 0..n {
        s.push_str(close);
    }
    s.push_str(tail);
    s
}

const KERNEL: &str = "__global__ void k(float *a, float c) {\n  a[threadIdx.x] = ";

/// The depth shapes (issue 44): one construct nested as deep as the size
/// allows, each a tree as deep as it is long (or, for the left-leaning sum,
/// as tree-sitter nests it: `((1 + 1) + 1) + …`).
/// A shape's name and its generator (MB → text).
type Shape = (&'static str, fn(usize) -> String);

fn depth_shapes() -> Vec<Shape> {
    vec![
        ("depth: sum, left-leaning", |mb| one_line(mb, KERNEL, |_| "1.0f+".into(), "1.0f;\n}\n")),
        ("depth: sum, right-leaning", |mb| nested(mb, KERNEL, |_| "1.0f+(".into(), "1.0f", ")", ";\n}\n")),
        ("depth: nested ternaries", |mb| nested(mb, KERNEL, |i| format!("c>{i}?{i}.0f:"), "0.0f", "", ";\n}\n")),
        ("depth: member chain", |mb| one_line(mb, "struct S { S &b; float v; };\n__device__ float f(S &a) {\n  return a", |_| ".b".into(), ".v;\n}\n")),
        ("depth: nested templates", |mb| {
            nested(mb, "template <class T> struct A {};\n__global__ void k(float *a) {\n  ", |_| "A<".into(), "int", ">", " x; (void)x;\n}\n")
        }),
        ("depth: << stream chain", |mb| one_line(mb, "#include <iostream>\nvoid h(int x) {\n  std::cout", |_| " << x".into(), ";\n}\n")),
        ("depth: nested parentheses", |mb| nested(mb, KERNEL, |_| "(".into(), "c", ")", ";\n}\n")),
        ("depth: nested #if", |mb| {
            nested(mb, "__global__ void k(float *a, float c) {\n", |i| format!("#if X{i}\n"), "  a[threadIdx.x] = c;\n", "#endif\n", "}\n")
        }),
        ("depth: nested lambdas", |mb| {
            nested(mb, "__global__ void k(float *a, float c) {\n  auto f = ", |_| "[=]() { return ".into(), "c", "; }", "; a[0] = f();\n}\n")
        }),
        ("depth: nested blocks", |mb| nested(mb, "__global__ void k(float *a) {\n", |_| "{".into(), "a[0] = 1;", "}", "\n}\n")),
    ]
}

/// Each rule's shape, in MB (a rule's fixtures include code that does not
/// parse, whose recovery re-parses the file up to 64 times: slow, linear).
const RULE_SIZES: &[usize] = &[1, 4];

/// The depth shapes' sizes, in MB.
const DEPTH_SIZES: &[usize] = &[1, 2];

fn main() {
    let sizes: Vec<usize> =
        std::env::var("SYCLIFY_SCALE_SIZES").ok().map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect()).unwrap_or(vec![1, 10, 50]);
    let only = std::env::var("SYCLIFY_SCALE_ONLY").ok();
    // (the rules' shapes and the one-line shapes at other sizes: 4,10 shows
    // the bytes per input byte of files migrated in parts)
    let rule_sizes: Vec<usize> =
        std::env::var("SYCLIFY_SCALE_RULE_SIZES").ok().map(|v| v.split(',').filter_map(|x| x.trim().parse().ok()).collect()).unwrap_or(RULE_SIZES.to_vec());
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/rules");
    let read_cu = |dir: &Path| -> String {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "cu")).collect();
        files.sort();
        files.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>().join("\n")
    };
    let mut rules: Vec<_> = std::fs::read_dir(&fixtures).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    rules.sort();
    // (shape, generator, sizes)
    type Gen<'a> = Box<dyn Fn(usize) -> String + 'a>;
    let mut shapes: Vec<(String, Gen, Vec<usize>)> = Vec::new();
    let mut programs: Vec<_> = std::fs::read_dir(fixtures.with_file_name("programs")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    programs.sort();
    let programs: String = programs.iter().map(|r| read_cu(r)).collect::<Vec<_>>().join("\n");
    shapes.push(("programs' fixtures".into(), Box::new(move |mb| repeated(&programs, mb)), sizes.clone()));
    shapes.push(("ordinary kernels".into(), Box::new(ordinary_kernels), rule_sizes.clone()));
    shapes.push(("a table on one line".into(), Box::new(table_line), sizes.clone()));
    // (dense code holds a node every byte or so: 10 MB take some 1.4 GB)
    shapes.push(("code on one line".into(), Box::new(code_line), sizes.iter().copied().take(2).collect()));
    shapes.push(("broken code on one line".into(), Box::new(broken_line), rule_sizes.clone()));
    shapes.push(("__shared__ arrays on one line".into(), Box::new(shared_line), rule_sizes.clone()));
    // depth: 1 and 2 MB (the issue's bound: at most 2.3× the time for 2× the input)
    for (name, generate) in depth_shapes() {
        shapes.push((name.into(), Box::new(generate), DEPTH_SIZES.to_vec()));
    }
    for r in &rules {
        let unit = read_cu(r);
        if unit.is_empty() {
            continue;
        }
        let name = r.file_name().unwrap().to_string_lossy().into_owned();
        shapes.push((name, Box::new(move |mb| repeated(&unit, mb)), rule_sizes.clone()));
    }
    let tmp = tempfile::tempdir().unwrap();
    println!("{:<28} {:>8} {:>9} {:>10} {:>14} {:>14}", "shape", "MB", "seconds", "peak MiB", "time growth", "memory growth");
    for (name, generate, sizes) in &shapes {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut last: Option<(usize, f64, f64)> = None;
        for &mb in sizes {
            let dir = tmp.path().join("in");
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let input = generate(mb);
            if let Some(keep) = std::env::var_os("SYCLIFY_SCALE_KEEP") {
                std::fs::create_dir_all(&keep).unwrap();
                std::fs::write(Path::new(&keep).join(format!("{}-{mb}.cu", name.replace([' ', '\''], "_"))), &input).unwrap();
            }
            std::fs::write(dir.join("input.cu"), input).unwrap();
            let out = tmp.path().join("out");
            let _ = std::fs::remove_dir_all(&out);
            let (secs, mib, code) = measure(&dir, &out);
            let growth = |now: f64, before: f64, by: usize| format!("{:.1}× for {by}×", now / before);
            let (tg, mg) = match last {
                Some((m0, s0, r0)) => (growth(secs, s0, mb / m0), growth(mib, r0, mb / m0)),
                None => (String::new(), String::new()),
            };
            println!("{name:<28} {mb:>8} {secs:>9.2} {mib:>10.0} {tg:>14} {mg:>14}{}", if code > 1 { format!("  (exit {code})") } else { String::new() });
            last = Some((mb, secs, mib));
        }
    }
}

//! CUDA left in migrated code: the check that closes every migration.
//!
//! After the rules have run, the migrated text of every file is scanned for
//! CUDA names outside comments and string literals — thread builtins and
//! qualifiers, `<<<`, device intrinsics (`__shfl_sync`, `__popc`, ...),
//! atomics, the runtime and driver API, CUDA's vector types, CUDA library
//! entry points. Whatever a rule did not migrate and did not already report
//! becomes diagnostic `SY0010`, so a construct syclify does not know is never
//! a silent compile error for the user. The same scan is what the tests and
//! `scripts/corpus-check` use to say "no CUDA left".

use std::collections::BTreeSet;
use std::ops::Range;

/// CUDA words that must not survive outside comments.
const FORBIDDEN: &[&str] = &[
    "__global__",
    "__shared__",
    "__syncthreads",
    "threadIdx",
    "blockIdx",
    "blockDim",
    "gridDim",
    "warpSize",
    "__device__",
    "__host__",
    "__constant__",
    "__managed__",
    "dim3",
    "cooperative_groups",
    "cub",
    "thrust",
    "nvcuda",
];

/// CUDA's keywords of the `__word__` shape (other `__word__` names are
/// platform and compiler macros: `__linux__`, `__x86_64__`, `__clang__`).
const CUDA_KEYWORDS: &[&str] = &["__forceinline__", "__noinline__", "__launch_bounds__", "__align__", "__grid_constant__", "__cudart_builtin__", "__nv_pure__"];
/// The driver API's `CUDA_` names (`CUDA_ERROR_INVALID_VALUE`,
/// `CUDA_MEMCPY2D`); a program's own `CUDA_NUM_THREADS` or `CUDA_CALL` is not one.
const DRIVER_PREFIXES: &[&str] = &[
    "CUDA_SUCCESS",
    "CUDA_ERROR_",
    "CUDA_MEMCPY",
    "CUDA_ARRAY",
    "CUDA_RESOURCE_",
    "CUDA_TEXTURE_DESC",
    "CUDA_EXTERNAL_",
    "CUDA_KERNEL_NODE_",
    "CUDA_LAUNCH_PARAMS",
    "CUDA_HOST_NODE_",
    "CUDA_MEMSET_NODE_",
];
/// Prefixes of CUDA library APIs (host and device).
const LIBRARY_PREFIXES: &[&str] = &["cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn", "nccl", "nvrtc", "nvtx", "cutensor"];
/// Prefixes of CUDA libraries' enumerators and constants
/// (`CURAND_RNG_QUASI_SCRAMBLED_SOBOL32`, `CUBLAS_OP_N`); a program's own
/// `CUBLAS_CHECK` is the program's.
const LIBRARY_ENUM_PREFIXES: &[&str] = &["CUBLAS_", "CUFFT_", "CURAND_", "CUSPARSE_", "CUSOLVER_", "CUDNN_", "NCCL_"];

/// The names of `rules/cuda_intrinsic_names.txt` (CUDA's `__name`
/// intrinsics and types, then its device functions named without `__`) and
/// every `__name` of the built-in mapping tables.
fn listed_cuda_names() -> &'static std::collections::HashSet<&'static str> {
    static NAMES: std::sync::OnceLock<std::collections::HashSet<&'static str>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let listed = include_str!("../rules/cuda_intrinsic_names.txt").lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
        listed.chain(crate::mapping::builtin_dunder_names()).collect()
    })
}

/// CUDA's `__lowercase` names: its intrinsics and types
/// (`rules/cuda_intrinsic_names.txt`, from the toolkit's headers), every
/// `__name` of the built-in mapping tables, and the reserved `__nv_` family.
fn known_cuda_dunder(w: &str) -> bool {
    w.starts_with("__nv_") || (w.starts_with("__") && listed_cuda_names().contains(w))
}

/// CUDA's device functions named without `__` that C and C++ lack
/// (`tex2D`, `rsqrtf`, `normcdff`: the second part of
/// `rules/cuda_intrinsic_names.txt`).
fn known_cuda_function(w: &str) -> bool {
    !w.starts_with("__") && listed_cuda_names().contains(w)
}

/// Is `w` one of CUDA's vector types (`float4`, `uchar2`, ...)?
pub fn is_cuda_vector_type(w: &str) -> bool {
    let bases = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double"];
    bases.iter().any(|b| w.strip_prefix(b).is_some_and(|n| matches!(n, "1" | "2" | "3" | "4")))
}

fn upper_after(w: &str, prefix: &str) -> bool {
    w.strip_prefix(prefix).is_some_and(|t| t.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// Is `w` a CUDA name (as opposed to a C/C++ or compiler one)? Names the
/// project defines itself (`own`) never are.
pub fn is_cuda_name(w: &str, own: &dyn Fn(&str) -> bool) -> bool {
    if FORBIDDEN.contains(&w) {
        return !own(w);
    }
    let cuda = if let Some(rest) = w.strip_prefix("__") {
        let all_caps = rest.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
        if all_caps {
            // predefined macros: only CUDA's own
            rest.starts_with("CUDA") || rest.starts_with("NVCC")
        } else if rest.ends_with("__") {
            CUDA_KEYWORDS.contains(&w)
        } else {
            // CUDA's own `__names` only: the compiler's (`__builtin_expect`,
            // `__restrict`), the program's and its C library's (`__rand_x`,
            // `__getopt_*`) are not CUDA
            known_cuda_dunder(w)
        }
    } else {
        upper_after(w, "atomic")
            || upper_after(w, "cuda")
            || (upper_after(w, "cu") && w.len() > 4)
            // the driver API's types and enumerators (`CUtexref`, `CU_AD_FORMAT_FLOAT`,
            // `CUDA_ERROR_INVALID_VALUE`)
            || w.strip_prefix("CU").is_some_and(|t| t.starts_with(|c: char| c.is_ascii_lowercase()) && t.len() > 2)
            || (w.starts_with("CU_") && w.len() > 4)
            || DRIVER_PREFIXES.iter().any(|p| w.starts_with(p))
            // (`cublasCreate`, `curand_init`; not `nvtxs`, METIS's vertex count)
            || LIBRARY_PREFIXES.iter().any(|p| upper_after(w, p) || w.strip_prefix(p).is_some_and(|t| t.len() > 1 && t.starts_with('_')))
            || LIBRARY_ENUM_PREFIXES.iter().any(|p| w.starts_with(p) && w.len() > p.len())
            || (w.starts_with("make_") && is_cuda_vector_type(&w[5..]))
            || is_cuda_vector_type(w)
            || known_cuda_function(w)
    };
    cuda && !own(w)
}

/// The text with comments, string and character literals blanked (same
/// length: offsets and lines are kept).
pub fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, r: Range<usize>| {
        for x in &mut out[r] {
            if *x != b'\n' {
                *x = b' ';
            }
        }
    };
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            let s = i;
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            blank(&mut out, s..i);
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let s = i;
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
            blank(&mut out, s..i);
        } else if b[i] == b'"' || b[i] == b'\'' {
            // a digit separator (1'000) is not a character literal
            if b[i] == b'\'' && i > 0 && b[i - 1].is_ascii_alphanumeric() {
                i += 1;
                continue;
            }
            let s = i + 1;
            i = crate::mask::literal_end(b, i);
            blank(&mut out, s..i.min(b.len()));
            i += 1;
        } else {
            i += 1;
        }
    }
    // only ASCII bytes were replaced by ASCII: still valid UTF-8
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The CUDA names left in `text` outside comments and strings, with their
/// ranges: `<<<`, and every [`is_cuda_name`] not written as a member
/// (`v.x`) or behind a namespace (`syclify::float4`).
pub fn cuda_left(text: &str, own: &dyn Fn(&str) -> bool) -> Vec<(Range<usize>, String)> {
    let code = code_only(text);
    // branches syclify reported as compiled by no build (SY0112) keep their CUDA
    let inactive = marked_inactive(text);
    let active = |r: &Range<usize>| !inactive.iter().any(|b| b.start <= r.start && r.end <= b.end);
    let mut out = Vec::new();
    for (p, _) in code.match_indices("<<<") {
        if active(&(p..p + 3)) {
            out.push((p..p + 3, "<<<".to_string()));
        }
    }
    // the start of the current line and whether it is a directive that
    // excuses its names, advanced with the identifiers (linear in the text)
    let (mut line_start, mut scanned, mut directive) = (0, 0, line_is_excused(&code));
    for (r, w) in crate::syntax::identifier_tokens(&code) {
        if let Some(nl) = code[scanned..r.start].rfind('\n') {
            line_start = scanned + nl + 1;
            directive = line_is_excused(&code[line_start..]);
        }
        scanned = r.start;
        let before = code[line_start..r.start].trim_end_matches([' ', '\t']);
        let qualified = before.ends_with("::");
        let member = before.ends_with('.') || before.ends_with("->");
        // CUDA's device functions without `__` (`umin`, `tex2D`) count only
        // as calls: a program's variable may have the name (`unsigned umin`)
        let called = || {
            let after = code[r.end..].trim_start_matches([' ', '\t']);
            after.starts_with('(') || (after.starts_with('<') && (w.starts_with("tex") || w.starts_with("surf")))
        };
        if !qualified && !member && !directive && is_cuda_name(w, own) && (!known_cuda_function(w) || called()) && active(&r) {
            out.push((r, w.to_string()));
        } else if w == "cuda" && !qualified && !member && !directive && active(&r) {
            // libcu++ (`cuda::std::array`, `cuda::atomic`): the name with
            // the namespaces before it, up to three parts
            let mut end = r.end;
            let mut parts = 1;
            while parts < 3 {
                let rest = &code[end..];
                let Some(after) = rest.trim_start_matches([' ', '\t']).strip_prefix("::") else { break };
                let after_t = after.trim_start_matches([' ', '\t']);
                let n = after_t.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
                if n == 0 {
                    break;
                }
                end = code.len() - after_t.len() + n;
                parts += 1;
            }
            if parts > 1 {
                let name: String = code[r.start..end].chars().filter(|c| !c.is_whitespace()).collect();
                out.push((r.start..end, name));
            }
        }
    }
    out
}

/// The branches of migrated text that syclify found compiled by no build of
/// the program: an `#if`/`#ifdef` (its first branch) or `#ifndef` (its
/// `#else` branch) right below a `// syclify: warning SY0112` comment (see
/// `rules/inactive_branches.rs`). One pass over the lines.
fn marked_inactive(text: &str) -> Vec<Range<usize>> {
    const MARK: &str = "// syclify: warning SY0112:";
    if !text.contains(MARK) {
        return Vec::new();
    }
    let mut out = Vec::new();
    // open conditionals: (depth's marked branch start, negated, marked)
    let mut stack: Vec<(Option<usize>, bool)> = Vec::new();
    let mut marked = false;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let t = line.trim();
        if t.starts_with(MARK) {
            marked = true;
            continue;
        }
        let directive = t.strip_prefix('#').map(|d| d.trim_start()).map(|d| &d[..d.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(d.len())]);
        match directive {
            Some("if" | "ifdef" | "ifndef") => {
                let negated = directive == Some("ifndef");
                // a marked `#if`: its first branch starts after this line
                let open = (marked && !negated).then_some(pos);
                stack.push((open, marked && negated));
            }
            Some("else" | "elif") => {
                if let Some(top) = stack.last_mut() {
                    if let Some(b) = top.0.take() {
                        out.push(b..start);
                    }
                    // a marked `#ifndef`: its `#else` branch starts here
                    if top.1 && directive == Some("else") {
                        top.0 = Some(pos);
                    }
                    top.1 = false;
                }
            }
            Some("endif") => {
                if let Some((Some(b), _)) = stack.pop() {
                    out.push(b..start);
                }
            }
            _ => {}
        }
        if !t.starts_with("//") {
            marked = false;
        }
    }
    out
}

/// Does the line starting `line` excuse its names? `#include <cuda_fp16.h>`
/// is the includes rule's; a name in a conditional (`#if defined(__NVCC__)`)
/// is a test, harmless when false.
fn line_is_excused(line: &str) -> bool {
    const EXCUSED: &[&str] =
        &["include", "include_next", "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", "undef", "pragma", "error", "warning", "line"];
    // (the directive's whole name: `#ifdefined(__CUDA_ARCH__)`, a typo no
    // rule reads, leaves its CUDA to report)
    line.trim_start_matches([' ', '\t']).strip_prefix('#').map(|d| d.trim_start_matches([' ', '\t'])).is_some_and(|d| {
        let name = &d[..d.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(d.len())];
        EXCUSED.contains(&name)
    })
}

/// Names a C++ text defines itself (macros, types, functions with a body),
/// found by their shape; for checking a migrated tree without its index.
pub fn defined_names(text: &str) -> BTreeSet<String> {
    defined_names_where(text, &|_| true)
}

/// [`defined_names`], keeping a name found only by the shape of a function
/// definition (`name(…) {`) where `definition` accepts it: the migration,
/// which has the parsed index, takes a mapped name of that shape for the
/// project's function only when the index does (a mutated
/// `f(float x)atomicAdd(&x, 1) {` is a call the rules rewrite).
pub fn defined_names_where(text: &str, definition: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    let re = cached_regex!(
        r"(?m)^\s*#\s*define\s+(\w+)|(?-u:\b)(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*[:{]|(?-u:\b)typedef(?-u:\b)[^;]*?(?-u:\b)(\w+)\s*(?:\[[^\]]*\])*;|(?-u:\b)(\w+)\s*\([^;{}()]*(?:\([^()]*\)[^;{}()]*)*\)\s*(?:const\s*)?\{|\}\s*(\w+)\s*(?:\[[^\]]*\])*;"
    );
    // variables the code names like CUDA's builtins (`dim3 gridDim(..)`,
    // `const int blockDim = 16;`): the migration leaves those to the user
    let vars = cached_regex!(r"(?-u:\b)([A-Za-z_][\w:]*(?:<[^<>;]*>)?)[\s*&]+(threadIdx|blockIdx|blockDim|gridDim|warpSize|dim3)\s*[=({;\[,)]");
    const NOT_TYPES: &[&str] = &["return", "case", "throw", "else", "do", "goto", "sizeof", "new", "delete", "co_return", "co_yield"];
    // variables named like CUDA's API (`cudaError_t cudaStatus;`,
    // `int cudaStat1, cudaStat2;`, a parameter `int cudaDev`): declared by a
    // type at the start of a declaration, with the names that follow it in
    // the same declarator list
    let api_vars = cached_regex!(
        r"(?m)(?:^|[;{}(,])\s*(?:(?:const|static|volatile|unsigned|signed|struct)\s+)*([A-Za-z_][\w:]*(?:<[^<>;]*>)?)[\s*&]+((?:cuda|cu|atomic)[A-Z]\w*|(?:cublas|cufft|curand|cusparse|cusolver)\w+)\s*([=;,\[)(])"
    );
    let next_var = cached_regex!(r"^\s*[*&]*\s*(\w+)\s*(?:\[[^\]]*\]\s*)*([=;,)])");
    let code = code_only(text);
    let mut api_names = BTreeSet::new();
    let mut pos = 0;
    // (the next search starts at the separator after the name, which may
    // begin the next declaration: `(int cudaA, int cudaB)`)
    while let Some(c) = api_vars.captures_at(&code, pos) {
        pos = c.get(2).map_or(code.len(), |m| m.end());
        if NOT_TYPES.contains(&&c[1]) {
            continue;
        }
        // (`T name(…)` is a prototype or a call's result unless the type is
        // a template's: a migrated `sycl::range<3> cudaFree(1, 1, p);`,
        // whose declaration the grammar reads as comparisons)
        if &c[3] == "(" && !c[1].contains('<') {
            continue;
        }
        api_names.insert(c[2].to_string());
        let mut end = c.get(3).map_or(0, |m| m.end());
        let mut sep = &c[3];
        while sep == "," {
            let Some(n) = next_var.captures(&code[end..]) else { break };
            api_names.insert(n[1].to_string());
            end += n.get(2).map_or(0, |m| m.end());
            sep = n.get(2).map_or("", |m| m.as_str());
        }
    }
    // (a name before `(…) {` after a `,` or a lone `:` is a constructor's
    // member initialiser, `: first(s), lane(threadIdx.x) {}`, not a
    // function's definition; nor is a CUDA qualifier, which a lambda's
    // parameters follow: `[] __device__ (int i) {`)
    let not_a_definition = |m: regex::Match| {
        let before = code[..m.start()].trim_end();
        before.ends_with(',')
            || (before.ends_with(':') && !before.ends_with("::"))
            || matches!(m.as_str(), "__device__" | "__host__" | "__global__" | "__forceinline__" | "__noinline__")
    };
    let mut names: BTreeSet<String> = re
        .captures_iter(&code)
        .filter(|c| !c.get(4).is_some_and(|m| not_a_definition(m) || !definition(m.as_str())))
        .filter_map(|c| (1..=5).find_map(|i| c.get(i)).map(|m| m.as_str().to_string()))
        .collect();
    names.extend(api_names);
    // enumerators the code declares (`enum kind { cudaMemcpyHostToDevice };`
    // of its own)
    let enums = cached_regex!(r"(?-u:\b)enum(?:\s+(?:class|struct))?(?:\s+\w+)?\s*(?::[^{};]*)?\{([^{}]*)\}");
    let enumerator = cached_regex!(r"^\s*(\w+)");
    for c in enums.captures_iter(&code) {
        names.extend(c[1].split(',').filter_map(|item| enumerator.captures(item)).map(|m| m[1].to_string()));
    }
    // namespaces the code defines (`namespace cub {` of its own)
    let namespaces = cached_regex!(r"(?-u:\b)namespace\s+(\w+)\s*\{");
    names.extend(namespaces.captures_iter(&code).map(|c| c[1].to_string()));
    // (not a member or a builtin before `*`, a product the migration
    // rewrites: `blockIdx.x * blockDim{`, `warpSize * gridDim;`)
    let a_value = |c: &regex::Captures| {
        let before = &code[..c.get(1).map_or(0, |m| m.start())];
        before.ends_with('.') || before.ends_with("->") || matches!(&c[1], "threadIdx" | "blockIdx" | "blockDim" | "gridDim" | "warpSize")
    };
    names.extend(vars.captures_iter(&code).filter(|c| !NOT_TYPES.contains(&&c[1]) && !a_value(c)).map(|c| c[2].to_string()));
    // prototypes of functions named like CUDA's (`unsigned __popc(unsigned);`
    // of a host build's compatibility header; a kernel of its own named
    // `cudaFree`, once migrated: `SYCLIFY_KERNEL void cudaFree(int *p, const
    // sycl::nd_item<3> &item);`): a return type, perhaps after other words
    let prototypes = cached_regex!(
        r"(?m)(?:^|[;{}])\s*(?:(?:static|inline|extern|const|unsigned|signed|volatile)\s+)*([A-Za-z_][\w:]*(?:\s+[A-Za-z_][\w:]*)*)[\s*&]+([A-Za-z_]\w*)\s*\(([^;{}()]*)\)\s*"
    );
    // parameters, not the arguments of a variable's initialiser (`T
    // atomicInc(count, gridDim.x);`, whose arguments a rule may rewrite):
    // no member access, operator or literal
    let parameters = |p: &str| {
        !p.contains(['.', '+', '-', '/', '%', '=', '?', '!', '|', '^', '"', '\''])
            && p.split(',').all(|x| !x.trim_start().starts_with(|c: char| c.is_ascii_digit()))
    };
    // (the `;` after one is not part of the match: it may begin the next)
    let prototype = |c: &regex::Captures| {
        code[c.get(0).map_or(0, |m| m.end())..].starts_with(';') && c[1].split_whitespace().all(|w| !NOT_TYPES.contains(&w)) && parameters(&c[3])
    };
    names.extend(prototypes.captures_iter(&code).filter(prototype).map(|c| c[2].to_string()));
    names
}

/// The distinct names of [`cuda_left`], in order of first appearance.
pub fn distinct(left: &[(Range<usize>, String)]) -> Vec<&str> {
    let mut seen = BTreeSet::new();
    left.iter().map(|(_, w)| w.as_str()).filter(|w| seen.insert(*w)).collect()
}

/// Whether a C/C++ text is CUDA: it includes a CUDA header, tests
/// `__CUDA_ARCH__`, or its code (not its comments or strings) uses a CUDA
/// keyword, builtin, runtime name, vector type or launch that it does not
/// define itself — what [`cuda_left`] finds. SYCL code syclify wrote is
/// not CUDA (`syclify::float4`, a variable `cudaStat` it kept): migrating
/// a migrated file again leaves it as it is.
pub fn has_cuda_constructs(text: &str) -> bool {
    // (a header named in a comment is not an include: `// needs <cuda.h>`)
    if text.contains("<cuda") && code_only(text).contains("<cuda") {
        return true;
    }
    // the file's own names, read only when something CUDA-like is left
    let left = cuda_left(text, &|_| false);
    if !left.is_empty() {
        let own = defined_names(text);
        if left.iter().any(|(_, w)| !own.contains(w)) {
            return true;
        }
    }
    // (a test of `__CUDA_ARCH__` is excused by `cuda_left`, not here)
    text.contains("__CUDA_ARCH__") && crate::syntax::contains_word(&code_only(text), "__CUDA_ARCH__")
}

#[cfg(test)]
mod tests {
    /// Branches below a SY0112 comment keep their CUDA (the first branch of
    /// an `#ifdef`, the `#else` of an `#ifndef`, nested conditionals
    /// inside them too); what follows them is scanned again.
    #[test]
    fn branches_marked_inactive_are_not_scanned() {
        let text = "// syclify: warning SY0112: `#ifdef D`: ...\n#ifdef D\n#if X\ncuInit(0);\n#endif\ncuCtxCreate(0);\n#else\ncuDeviceGet(0);\n#endif\n\
                    // syclify: warning SY0112: `#ifndef N`: ...\n#ifndef N\ncuMemAlloc(0);\n#else\ncuMemFree(0);\n#endif\ncuLaunch(0);\n";
        let left: Vec<String> = cuda_left(text, &|_| false).into_iter().map(|(_, w)| w).collect();
        assert_eq!(left, vec!["cuDeviceGet", "cuMemAlloc", "cuLaunch"]);
        // without the comment, every name counts
        assert_eq!(cuda_left(&text.replace("SY0112", "SY0001"), &|_| false).len(), 6);
    }

    use super::*;

    fn names(s: &str) -> Vec<String> {
        cuda_left(s, &|_| false).into_iter().map(|(_, w)| w).collect()
    }

    #[test]
    fn libcu_names_count_with_their_namespaces() {
        assert_eq!(
            names("cuda::std::array<int, 3> a; cuda :: atomic<int> n; cuda::std::get<0>(t);"),
            vec!["cuda::std::array", "cuda::atomic", "cuda::std::get"]
        );
        // another namespace's `cuda`, a member, a variable: the program's
        assert_eq!(names("gfx::cuda::lanes(); s.cuda = 1; int cuda = 2;"), Vec::<String>::new());
    }

    #[test]
    fn driver_names_count_and_a_programs_own_cuda_names_do_not() {
        assert_eq!(
            names("CUtexref t; CUdeviceptr d = 0; r = CUDA_ERROR_INVALID_VALUE; f = CU_AD_FORMAT_FLOAT; CUDA_MEMCPY2D c;"),
            vec!["CUtexref", "CUdeviceptr", "CUDA_ERROR_INVALID_VALUE", "CU_AD_FORMAT_FLOAT", "CUDA_MEMCPY2D"]
        );
        assert_eq!(names("n = CUDA_NUM_THREADS; CUDA_CALL(x); int CU = 1; CUB_MAX(a, b);"), Vec::<String>::new());
    }

    #[test]
    fn cuda_only_functions_count_when_called() {
        assert_eq!(names("unsigned umin = 3; if (umin < n) x = umin;"), Vec::<String>::new());
        assert_eq!(names("x = umin(a, b) + tex1Dfetch<float>(t, i) + rsqrtf(y);"), vec!["umin", "tex1Dfetch", "rsqrtf"]);
    }

    #[test]
    fn finds_what_is_left() {
        assert_eq!(names("x = __shfl_down_sync(m, v, 1); float4 a; k<<<1, 1>>>(); atomicAdd(p, 1);"), vec!["<<<", "__shfl_down_sync", "float4", "atomicAdd"]);
        assert_eq!(
            names("cublasSgemm(h); curand_uniform(&s); cuLaunchKernel(f); cudaGraphLaunch(g, s);"),
            vec!["cublasSgemm", "curand_uniform", "cuLaunchKernel", "cudaGraphLaunch"]
        );
        assert_eq!(names("#define ARCH __CUDA_ARCH__\n"), vec!["__CUDA_ARCH__"]);
        // a directive no rule reads (a typo) does not excuse its names
        assert_eq!(names("#ifdefined(__CUDA_ARCH__)\n#endif\n#  ifdef __CUDA_ARCH__\n#endif\n"), vec!["__CUDA_ARCH__"]);
        assert_eq!(defined_names("return gridDim; x = blockDim * 2;").len(), 0);
        let own = defined_names("sycl::range<3> gridDim(1, 1, n); const int blockDim = 16; for (int blockIdx = 0;;) {}");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["blockDim", "blockIdx", "gridDim"]);
        // variables named like the runtime API, in declarator lists and parameters
        let own = defined_names("syclify::error_t cudaStat1, *cudaStat2, cudaStat3 = f(a, b), cudaNot; void g(int x, int cudaDev) {}");
        assert_eq!(own.into_iter().filter(|n| n.starts_with("cuda")).collect::<Vec<_>>(), vec!["cudaDev", "cudaStat1", "cudaStat2", "cudaStat3"]);
        // ... but not a CUDA name in an expression
        assert!(defined_names("x = a * cudaDevAttrWarpSize; return cudaSuccess; else cudaFree(p);").is_empty());
        // prototypes of its own, after any words; calls are not
        let own = defined_names("unsigned __popc(unsigned); SYCLIFY_KERNEL void cudaFree(p, const sycl::nd_item<3> &item); static inline int *cudaX(void);");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["__popc", "cudaFree", "cudaX"]);
        assert!(defined_names("{ cudaFree(p); } do cudaFree(q); while (0); CHECK(cudaMalloc(&p, n)); if (x) cudaFree(p); return a cudaFree(p);").is_empty());
        // ... nor a variable initialised by arguments
        assert!(defined_names("bool is_last atomicInc(count, gridDim.x); T atomicAdd(p, 1); U atomicSub(p, -x);").is_empty());
        // ... nor a constructor's member initialisers, however deep their
        // arguments (the migration makes them deeper); its class and a
        // qualified definition are
        let own = defined_names("struct T { T(int s) : first(s), threadIdx(threadIdx.x) {} T() : lane(f(g(h(1)))) {} }; void T::gridDim(int a) {}");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["T", "gridDim"]);
        // ... nor a lambda's qualifiers
        assert!(defined_names("auto f = [] __host__ __device__ (int i) { return i; };").is_empty());
        // a variable of a template type, initialised by arguments, is
        let own = defined_names("void f() { sycl::range<3> cudaFree(1, 1, p); int cudaMalloc(&q, 4); }");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["cudaFree", "f"]);
        // a product is no declaration
        let own = defined_names("#define G (blockIdx.x * blockDim{.x)\nint y = p->n * gridDim; z = warpSize * blockDim;");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["G"]);
        // the shape of a definition counts where the caller accepts the name
        // (only that shape: a variable of the name still counts)
        let text = "float f(float x)atomicAdd(&x, 1) { return x; } void g() {} struct S { int n; };";
        assert!(defined_names(text).contains("atomicAdd"));
        let own = defined_names_where(text, &|w| w != "atomicAdd");
        assert_eq!(own.into_iter().collect::<Vec<_>>(), vec!["S", "g"]);
        assert!(defined_names_where("struct S { int atomicAdd; };", &|w| w != "atomicAdd").contains("atomicAdd"));
    }

    #[test]
    fn a_cuda_header_counts_in_an_include_not_in_a_comment() {
        assert!(has_cuda_constructs("#include <cuda_runtime.h>\nint x;"));
        assert!(!has_cuda_constructs("// needs <cuda_runtime.h>\n/* or <cuda.h> */ int x; const char *s = \"<cuda.h>\";"));
    }

    #[test]
    fn keeps_what_is_not_cuda() {
        assert!(names("syclify::float4 a = syclify::make_float4(1, 2, 3, 4); v.x = __LINE__; p->dim3 = 0;").is_empty());
        assert!(names("// __syncthreads()\n/* threadIdx */ s = \"__global__\"; c = '\\'';").is_empty());
        assert!(names("#ifndef __KERNEL_H__\n__builtin_expect(x, 1); __attribute__((unused)) int __restrict__ *p; cute(); cursor();").is_empty());
        assert!(names("#include <cuda_fp16.h>").is_empty());
        assert!(names("#if defined(__NVCC__) || defined(__unix) || __CUDACC_VER_MAJOR__ > 11\n#endif").is_empty());
        assert!(names("#ifdef __linux__\n__int64 x = __x86_64__;\n#endif").is_empty());
        assert_eq!(names("__forceinline__ int f();"), vec!["__forceinline__"]);
        assert!(cuda_left("__my_helper(x);", &|w| w == "__my_helper").is_empty());
        // a `__name` is CUDA's only if CUDA has it
        assert!(names("__my_helper(x); __rand_x = __getopt_initialized;").is_empty());
        assert_eq!(names("__vabs2(x); __nv_fp8_e4m3 f; __sinf(y);"), vec!["__vabs2", "__nv_fp8_e4m3", "__sinf"]);
        // a library prefix counts before an upper-case letter or `_name`
        assert_eq!(names("nvtxs = ncclx + nvtxRangePop(); curand_init(1, 0, 0, &s); cublasHandle_t h;"), vec!["nvtxRangePop", "curand_init", "cublasHandle_t"]);
        // libraries' enumerators; not a bare prefix
        assert_eq!(
            names("t = CURAND_RNG_QUASI_SCRAMBLED_SOBOL32; s = CUDNN_STATUS_SUCCESS; x = CUBLAS_;"),
            vec!["CURAND_RNG_QUASI_SCRAMBLED_SOBOL32", "CUDNN_STATUS_SUCCESS"]
        );
    }

    #[test]
    fn code_only_keeps_offsets() {
        let s = "a /* b\nc */ d // e\n\"f\\\"g\" 1'000 'h'";
        let c = code_only(s);
        assert_eq!(c.len(), s.len());
        assert_eq!(c.lines().count(), s.lines().count());
        assert!(!c.contains('b') && !c.contains('f') && !c.contains('h') && c.contains('d'));
    }
}

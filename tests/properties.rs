//! The properties of `syclify::properties` (no panic, text kept as text,
//! no silent overlap, deterministic, a fixed point) on generated inputs —
//! the fuzz targets' always-on little sibling — and on every input the fuzz
//! targets once broke (`fuzz/regressions/`).

mod common;

use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;
use syclify::mapping::Mappings;
use syclify::properties::{self, Mutation};

fn mappings() -> &'static Mappings {
    static M: OnceLock<Mappings> = OnceLock::new();
    M.get_or_init(Mappings::builtin)
}

/// The project's own CUDA fixtures under 4 KiB (the fuzz target's seeds).
fn seeds() -> &'static [String] {
    static S: OnceLock<Vec<String>> = OnceLock::new();
    S.get_or_init(|| {
        let s = properties::cuda_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), 4096);
        assert!(!s.is_empty(), "no CUDA fixtures under fixtures/");
        s
    })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<u16>(), any::<u8>()).prop_map(|(at, word)| Mutation::Insert { at: at.into(), word: word.into() }),
        2 => any::<u16>().prop_map(|at| Mutation::Delete { at: at.into() }),
        1 => (any::<u16>(), any::<u8>()).prop_map(|(at, len)| Mutation::Duplicate { at: at.into(), len: len.into() }),
        1 => (any::<u16>(), any::<u16>()).prop_map(|(at, other)| Mutation::Swap { at: at.into(), other: other.into() }),
        1 => any::<u16>().prop_map(|at| Mutation::Truncate { at: at.into() }),
    ]
}

fn check(files: &[(String, Vec<u8>)]) -> Result<(), TestCaseError> {
    properties::check(files, mappings()).map(drop).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    /// A fixture changed at the level of its tokens, with a header it may include.
    #[test]
    fn mutated_cuda_keeps_the_properties(
        main in any::<prop::sample::Index>(),
        main_ops in prop::collection::vec(mutation(), 0..8),
        header in prop::option::of((any::<prop::sample::Index>(), prop::collection::vec(mutation(), 0..4))),
    ) {
        let seeds = seeds();
        let mut files = vec![("main.cu".to_string(), properties::mutate(main.get::<String>(seeds), &main_ops).into_bytes())];
        if let Some((h, ops)) = header {
            files.push(("k.cuh".to_string(), properties::mutate(h.get::<String>(seeds), &ops).into_bytes()));
        }
        check(&files)?;
    }

    /// Bytes, mostly CUDA's vocabulary and punctuation, some not UTF-8.
    #[test]
    fn arbitrary_bytes_keep_the_properties(
        words in prop::collection::vec(prop_oneof![
            4 => prop::sample::select(properties::VOCABULARY).prop_map(|w| w.as_bytes().to_vec()),
            1 => prop::collection::vec(any::<u8>(), 1..4),
        ], 0..60),
        name in prop::sample::select(&properties::BYTES_NAMES[..]),
    ) {
        check(&[(name.to_string(), words.concat())])?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Deep and long structures (`properties::deep_program`: operator
    /// chains, ternaries, parentheses, member chains, templates, tables,
    /// blocks, `#if` groups, lambdas nested thousands deep), up to 96 KiB.
    #[test]
    fn deep_and_long_structures_keep_the_properties(choices in prop::collection::vec(any::<u8>(), 0..160)) {
        let program = properties::deep_program(&choices, 96 << 10);
        check(&[("main.cu".to_string(), program.into_bytes())])?;
    }
}

/// Every input that once broke a property (`fuzz/regressions/migrate_bytes`),
/// and the seeds we wrote (`fuzz/seeds/migrate_bytes`): the bytes target's
/// inputs, the first byte the file's kind.
#[test]
fn fuzz_regressions_and_seeds_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for e in ["regressions", "seeds"].iter().flat_map(|d| std::fs::read_dir(root.join(d).join("migrate_bytes")).unwrap().flatten()) {
        let Some(files) = properties::bytes_project(&std::fs::read(e.path()).unwrap()) else { continue };
        if let Err(e2) = properties::check(&files, mappings()) {
            panic!("{}: {e2}", e.path().display());
        }
        n += 1;
    }
    assert!(n >= 10, "the regression inputs and seeds are missing");
}

/// Every input of the generative target that once broke a property or
/// timed out (`fuzz/regressions/migrate_deep`: the bytes that choose the
/// program, as `deep_program` reads them with the target's budget).
#[test]
fn fuzz_regressions_of_deep_structures_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/migrate_deep");
    let mut n = 0;
    for e in std::fs::read_dir(&root).expect("fuzz/regressions/migrate_deep").flatten() {
        let program = properties::deep_program(&std::fs::read(e.path()).unwrap(), 256 << 10);
        if let Err(e2) = properties::check(&[("main.cu".to_string(), program.into_bytes())], mappings()) {
            panic!("{}: {e2}", e.path().display());
        }
        n += 1;
    }
    assert!(n >= 1, "the regression inputs are missing");
}

/// Every project the structure-aware target once broke
/// (`fuzz/regressions/migrate_cuda/NAME/`, the files of one project, as
/// `SYCLIFY_FUZZ_DUMP` writes them, minimised).
#[test]
fn fuzz_regression_projects_keep_the_properties() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions/migrate_cuda");
    let mut n = 0;
    for e in std::fs::read_dir(&root).expect("fuzz/regressions/migrate_cuda").flatten() {
        let files = program_files(&e.path());
        assert!(!files.is_empty(), "{}: no files", e.path().display());
        if let Err(e2) = properties::check(&files, mappings()) {
            panic!("{}: {e2}", e.path().display());
        }
        n += 1;
    }
    assert!(n >= 1, "the regression projects are missing");
}

/// The fixtures themselves: every property holds on each, the fixed point
/// included (the fixtures migrate without warnings, most of them).
#[test]
fn fixtures_keep_the_properties() {
    for (i, s) in seeds().iter().enumerate() {
        if let Err(e) = properties::check(&[("main.cu".to_string(), s.as_bytes().to_vec())], mappings()) {
            panic!("fixture {i}: {e}");
        }
    }
}

/// The whole-program fixtures' directories, sorted.
fn program_dirs() -> Vec<std::path::PathBuf> {
    let programs = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/programs");
    let mut dirs: Vec<_> = std::fs::read_dir(&programs).expect("fixtures/programs").map(|e| e.expect("an entry").path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

/// A program fixture's files (but its expected output), by relative path, sorted.
fn program_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    for e in common::files_under(dir) {
        let rel = e.strip_prefix(dir).expect("under the program").to_string_lossy().replace('\\', "/");
        if rel != "expected_output.txt" {
            files.push((rel, std::fs::read(&e).expect("a fixture file")));
        }
    }
    files.sort();
    files
}

/// The whole-program fixtures, every file of each at once (headers, host
/// files, Makefiles): a migrated program, migrated again as a whole (its
/// out-root's files, migrated and copied alike), is unchanged.
#[test]
fn program_fixtures_keep_the_properties() {
    let mut n = 0;
    for dir in program_dirs() {
        let files = program_files(&dir);
        if let Err(e) = properties::check(&files, mappings()) {
            panic!("{}: {e}", dir.display());
        }
        n += 1;
    }
    assert!(n >= 10, "the program fixtures are missing");
}

/// A project whose output, migrated again, once changed: its header keeps
/// a call for a human (so it is migrated again, and again reaches SYCL), and
/// the host file that reaches SYCL through it, copied unchanged the second
/// time, got the SYCL includes a second time.
#[test]
fn migrated_projects_migrated_again_are_unchanged() {
    let header = "#ifndef K_CUH\n#define K_CUH\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
                  __device__ void f(float *a) {\n  auto b = cg::this_thread_block();\n  b.sync();\n  a[threadIdx.x] = 1;\n}\n\
                  __global__ void k(float *a) { f(a); }\n\
                  inline void launch(void **args) { cudaIpcGetEventHandle(0, 0, 0, 0); k<<<1, 32>>>((float *)args[0]); }\n#endif\n";
    let main = "#include \"k.cuh\"\nint main() {\n  float *a;\n  cudaMalloc(&a, 128);\n  k<<<1, 32>>>(a);\n  cudaFree(a);\n}\n";
    let host = "#define T double\n#include \"k.cuh\"\nT twice(T x) { return 2 * x; }\n";
    let files: Vec<(String, Vec<u8>)> =
        [("k.cuh", header), ("main.cu", main), ("host.cpp", host)].iter().map(|(n, t)| (n.to_string(), t.as_bytes().to_vec())).collect();
    if let Err(e) = properties::check(&files, mappings()) {
        panic!("{e}");
    }
}

/// Migrates each version of a project in turn with one cache, each
/// migrated `.cu` file rewritten alone (as a language server does with an
/// open document), and checks that it gets the diagnostics and text of a
/// whole migration without a cache; how many files were compared.
fn check_cached_partial_migrations(name: &str, versions: &[Vec<(String, Vec<u8>)>]) -> usize {
    check_cached_partial_migrations_with(&syclify::project::Cache::default(), name, versions, &whole_migrations(versions), true)
}

/// Each version's whole migration without a cache, made once for versions
/// that are equal (the tests go back to the unchanged files between
/// changes; a migration is deterministic, which other tests check).
fn whole_migrations(versions: &[Vec<(String, Vec<u8>)>]) -> Vec<std::rc::Rc<syclify::project::Migration>> {
    let mut wholes: Vec<std::rc::Rc<syclify::project::Migration>> = Vec::with_capacity(versions.len());
    for (v, now) in versions.iter().enumerate() {
        let whole = match versions[..v].iter().position(|earlier| earlier == now) {
            Some(e) => wholes[e].clone(),
            None => std::rc::Rc::new(syclify::project::migrate_in_memory(now.clone(), mappings())),
        };
        wholes.push(whole);
    }
    wholes
}

/// [`check_cached_partial_migrations`] with a cache of one's choice and the
/// versions' whole migrations ([`whole_migrations`]).
/// `texts`: compare the migrated texts too (not where a file may reach SYCL
/// only through a file left out, which may miss SYCL's includes:
/// [`syclify::project::InMemory::rewrite_only`]).
fn check_cached_partial_migrations_with(
    cache: &syclify::project::Cache,
    name: &str,
    versions: &[Vec<(String, Vec<u8>)>],
    wholes: &[std::rc::Rc<syclify::project::Migration>],
    texts: bool,
) -> usize {
    use syclify::project;
    let mut compared = 0;
    for (v, (now, whole)) in versions.iter().zip(wholes).enumerate() {
        for f in whole.files.iter().filter(|f| f.status == project::Status::Migrated && f.rel.ends_with(".cu")) {
            let extra = project::InMemory { rewrite_only: Some([f.rel.clone()].into()), ..Default::default() };
            let part = project::migrate_in_memory_cached(now.clone(), mappings(), &extra, Some(cache));
            let what = format!("{name}: {} in version {v}", f.rel);
            let [p] = part.files.as_slice() else { panic!("{what}: {} results for one file rewritten", part.files.len()) };
            assert_eq!(p.rel, f.rel, "{what}");
            let show = |d: &[syclify::diagnostics::Diagnostic]| d.iter().map(|d| format!("{:?} {:?} {}", d.code, d.range, d.message)).collect::<Vec<_>>();
            assert_eq!(show(&p.diagnostics), show(&f.diagnostics), "{what}");
            if texts {
                assert_eq!(p.output, f.output, "{what}");
            }
            compared += 1;
        }
    }
    compared
}

/// A document being typed (each program fixture's `.cu` files in turn
/// broken by an unclosed `(` in the middle, then edited above it, then
/// mended): its parse after each change is speculative while it has
/// errors, and the migration with the cache gives the whole migration's
/// diagnostics —
/// also where every speculative parse is taken as different from its whole
/// parse and the migration is made again.
#[test]
fn speculative_parses_of_a_document_being_typed_match_whole_migrations() {
    let (normal, differing) = (syclify::project::Cache::default(), syclify::project::Cache::always_differing());
    use rayon::prelude::*;
    // the programs at once; each file's cache entries are its own
    let compared: usize = program_dirs()
        .par_iter()
        .map(|dir| {
            let files = program_files(dir);
            let mut versions = vec![files.clone()];
            for changed in (0..files.len()).filter(|&i| files[i].0.ends_with(".cu")) {
                let text = String::from_utf8_lossy(&files[changed].1).into_owned();
                let mut lines: Vec<&str> = text.lines().collect();
                let middle = lines.len() / 2;
                lines.insert(middle, "void being_typed() { if (x");
                for edit in ["", "int edited_above = 1;", "int edited_above = 12;"] {
                    let mut l = lines.clone();
                    l.insert(1, edit);
                    let mut now = files.clone();
                    now[changed].1 = (l.join("\n") + "\n").into_bytes();
                    versions.push(now);
                }
                versions.push(files.clone());
            }
            let wholes = whole_migrations(&versions);
            let mut compared = 0;
            for cache in [&normal, &differing] {
                // (a file that does not parse from the unclosed `(` on may reach
                // SYCL only through its includes: its diagnostics are compared)
                compared += check_cached_partial_migrations_with(cache, &dir.display().to_string(), &versions, &wholes, false);
            }
            compared
        })
        .sum();
    assert!(compared >= 60, "too few files compared ({compared})");
    assert_eq!(normal.made_again(), 0, "a speculative parse of the fixtures differed from its whole parse (a tree-sitter case to keep as a fixture)");
    assert!(differing.made_again() >= 20, "too few migrations made again ({})", differing.made_again());
}

/// The language server's migration ([`syclify::project::migrate_in_memory_cached`]:
/// the open documents rewritten, the rest parsed and indexed as context,
/// parses and index facts kept between runs) matches a whole migration
/// after any one file of a program fixture changed (its code, or a macro it
/// defines).
#[test]
fn cached_partial_migrations_match_whole_ones() {
    use rayon::prelude::*;
    let compared: usize = program_dirs()
        .par_iter()
        .map(|dir| {
            let files = program_files(dir);
            let mut versions = vec![files.clone()];
            for changed in 0..files.len() {
                for edit in [&b"\nint syclify_edited_here;\n"[..], b"\n#define SYCLIFY_EDITED_MACRO 2\n"] {
                    let mut now = files.clone();
                    now[changed].1.extend_from_slice(edit);
                    versions.push(now);
                    versions.push(files.clone());
                }
            }
            check_cached_partial_migrations(&dir.display().to_string(), &versions)
        })
        .sum();
    assert!(compared >= 30, "too few files compared ({compared})");
}

/// A header's macro that changes what a function of another file is (its
/// body reads a thread builtin, then not), its name and the parse unchanged:
/// the other file's kept index facts are not used.
#[test]
fn cached_facts_follow_the_macros_of_other_files() {
    let kernel = "#include \"ids.h\"\n__device__ int id() { return TID; }\n__global__ void k(int *p) { p[id()] = 1; }\n\
                  int main() { int *p; cudaMalloc(&p, 4); k<<<1, 1>>>(p); cudaFree(p); }\n";
    let version = |tid: &str| vec![("ids.h".to_string(), format!("#define TID {tid}\n").into_bytes()), ("main.cu".to_string(), kernel.as_bytes().to_vec())];
    let versions = [version("threadIdx.x"), version("0"), version("threadIdx.x")];
    assert_eq!(check_cached_partial_migrations("ids", &versions), 3);
}

/// The nodes of a tree in preorder: kind, field, byte range, missing.
fn tree_shape(tree: &tree_sitter::Tree) -> Vec<(u16, Option<u16>, std::ops::Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut c = tree.walk();
    'walk: loop {
        let n = c.node();
        out.push((n.kind_id(), c.field_id().map(u16::from), n.byte_range(), n.is_missing()));
        if c.goto_first_child() {
            continue;
        }
        while !c.goto_next_sibling() {
            if !c.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// A parse that reuses the first parse of the version before a change (an
/// editor's document, [`syclify::parse::parse_file_after`]) is the parse of
/// the new version from scratch where it says so (its incremental parse
/// had no error): the same masked text, masks and tree, for edits all over
/// every CUDA fixture (a statement, a brace, a line deleted, a `;` in a
/// line). Where it does not say so, [`syclify::parse::same_parse`] tells
/// whether it is, as this test's own comparison does.
#[test]
fn parses_after_a_change_match_whole_parses() {
    use syclify::parse;
    let sources = properties::cuda_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"), 64 * 1024);
    let no_macros = Default::default();
    let (mut exact, mut speculative, mut speculative_same) = (0, 0, 0);
    let mut state: u64 = 0x2545f4914f6cdd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    for text in sources {
        let (_, before) = parse::parse_file_first(&text, &no_macros, &Default::default(), &Default::default());
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).filter(|&s| s < text.len()).collect();
        for _ in 0..4 {
            let line = next() % starts.len();
            let (at, end) = (starts[line], starts.get(line + 1).copied().unwrap_or(text.len()));
            let mut new = text.clone();
            match next() % 4 {
                0 => new.insert_str(at, ["int edited = 0;\n", "// edited\n", "x = f(y) + 1;\n", "\n"][next() % 4]),
                1 => new.insert_str(at, ["{\n", "}\n", "if (a\n"][next() % 3]),
                2 => new.replace_range(at..end, ""),
                _ => {
                    let p = at + next() % (end - at);
                    if new.is_char_boundary(p) && new.is_char_boundary(p + 1) {
                        new.replace_range(p..p + 1, ";");
                    }
                }
            }
            let mut told = false;
            let (after, _, is_exact) = parse::parse_file_after(&new, &no_macros, &Default::default(), &Default::default(), &before, || told = true);
            assert_eq!(told, !is_exact, "on_errors is called when the result is speculative");
            let whole = parse::parse_file(&new, &no_macros, &Default::default());
            let same = after.masked == whole.masked
                && format!("{:?}", after.masks) == format!("{:?}", whole.masks)
                && tree_shape(&after.tree) == tree_shape(&whole.tree);
            if is_exact {
                assert!(same, "the parse after an edit of line {line} differs from a whole parse of:\n{new}");
                exact += 1;
            } else {
                assert_eq!(parse::same_parse(&after, &whole), same, "same_parse after an edit of line {line} of:\n{new}");
                speculative += 1;
                speculative_same += usize::from(same);
            }
        }
    }
    assert!(exact >= 300 && speculative >= 100, "too few exact ({exact}) or speculative ({speculative}) parses after a change");
    eprintln!("{exact} exact, {speculative} speculative ({speculative_same} the same as the whole parse)");
}

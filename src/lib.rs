//! syclify: migrates CUDA C++ to SYCL 2020. See ARCHITECTURE.md.

/// A regular expression compiled once, on first use (`cached_regex!(r"..")`).
macro_rules! cached_regex {
    ($pattern:expr) => {{
        static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        // compiled once however often the expression runs (in loops too)
        #[allow(clippy::regex_creation_in_loops)]
        RE.get_or_init(|| regex::Regex::new($pattern).expect("valid regex"))
    }};
}

pub mod build;
pub mod check;
pub mod compile_db;
pub mod diagnostics;
pub mod edit;
pub mod emit;
pub mod guard;
pub mod helpers;
pub mod index;
pub mod leftovers;
pub mod lsp;
pub mod mapping;
pub mod mask;
pub mod parse;
pub mod project;
pub mod properties;
pub mod query;
pub mod reference;
pub mod report;
pub mod reuse;
pub mod rules;
pub mod sarif;
pub mod segment;
pub mod source;
pub mod syntax;
pub mod validate;

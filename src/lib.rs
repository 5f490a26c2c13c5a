//! syclify: migrates CUDA C++ to SYCL 2020. See ARCHITECTURE.md.

pub mod diagnostics;
pub mod edit;
pub mod emit;
pub mod index;
pub mod leftovers;
pub mod mapping;
pub mod mask;
pub mod parse;
pub mod project;
pub mod report;
pub mod rules;
pub mod source;
pub mod syntax;
pub mod validate;

//! nvcc's command-line flags → a SYCL compiler's, from the table in
//! `rules/nvcc_flags.yaml`. Works on the words of one command line or one
//! variable's value (as a build file spells them, make variables included):
//! each word is kept, replaced or dropped, and a dropped flag says why.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// How a flag takes its argument.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    None,
    /// `-flag=value` only.
    Joined,
    /// `-flag value` only.
    Separate,
    /// Either spelling.
    Either,
}

/// What a flag becomes, beyond a plain replacement or removal.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Arch,
    Host,
    Std,
    Rdc,
    Lang,
    Cudalib,
    Cudaruntime,
    Module,
}

#[derive(Debug, Clone, Deserialize)]
struct Entry {
    names: Vec<String>,
    value: Value,
    #[serde(default)]
    sycl: Option<Vec<String>>,
    /// Replacements for particular values, over `sycl`.
    #[serde(default)]
    values: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    drop: Option<String>,
    #[serde(default)]
    kind: Option<Kind>,
}

#[derive(Debug, Deserialize)]
struct Table {
    flags: Vec<Entry>,
}

const TABLE: &str = include_str!("../../rules/nvcc_flags.yaml");

/// The table, by each spelling of each flag.
fn table() -> &'static BTreeMap<String, Entry> {
    static T: OnceLock<BTreeMap<String, Entry>> = OnceLock::new();
    T.get_or_init(|| {
        let t: Table = serde_saphyr::from_str(TABLE).expect("rules/nvcc_flags.yaml is valid (tested)");
        let mut out = BTreeMap::new();
        for e in t.flags {
            assert!(
                usize::from(e.sycl.is_some()) + usize::from(e.drop.is_some()) + usize::from(e.kind.is_some()) == 1,
                "rules/nvcc_flags.yaml: {:?} needs exactly one of sycl, drop, kind",
                e.names
            );
            for n in &e.names {
                out.insert(n.clone(), e.clone());
            }
        }
        out
    })
}

/// What happens to one word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Keep,
    /// Replaced by these words (joined by a space).
    Replace(String),
    Drop,
}

/// A remark about a flag, for a diagnostic at word `word`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Remark {
    pub word: usize,
    pub kind: RemarkKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemarkKind {
    /// A flag with no SYCL equivalent was dropped.
    Dropped,
    /// A CUDA library is linked that SYCL does not have.
    CudaLibrary,
    /// Relocatable device code: separate compilation of device code.
    Relocatable,
    /// A module for CUDA's driver API (-ptx, -cubin, -fatbin).
    DriverModule,
}

impl RemarkKind {
    /// The diagnostic a remark of this kind is reported as.
    pub fn code(self) -> crate::diagnostics::Code {
        use crate::diagnostics::Code;
        match self {
            RemarkKind::Dropped => Code::BuildFlagDropped,
            RemarkKind::CudaLibrary => Code::BuildCudaLibrary,
            RemarkKind::Relocatable => Code::BuildRelocatableDeviceCode,
            RemarkKind::DriverModule => Code::BuildDriverModule,
        }
    }
}

/// The translation of a list of words.
#[derive(Debug, Default)]
pub struct Translation {
    pub actions: Vec<Action>,
    pub remarks: Vec<Remark>,
    /// GPU architectures named (`sm_80`, `$(ARCH)`), in order.
    pub archs: Vec<String>,
}

impl Translation {
    pub fn changed(&self) -> bool {
        self.actions.iter().any(|a| *a != Action::Keep)
    }

    fn remark(&mut self, word: usize, kind: RemarkKind, message: String) {
        self.remarks.push(Remark { word, kind, message });
    }
}

/// Translates nvcc flags among `words`; words that are not nvcc flags are kept.
pub fn translate(words: &[&str]) -> Translation {
    let mut t = Translation { actions: vec![Action::Keep; words.len()], ..Default::default() };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let (name, joined) = match w.split_once('=') {
            Some((n, v)) if n.starts_with('-') => (n, Some(v)),
            _ => (w, None),
        };
        // the spelling must fit: `-x=cu` is not `-x cu`
        let entry = table().get(name).filter(|e| !matches!((e.value, joined), (Value::None | Value::Separate, Some(_)) | (Value::Joined, None)));
        // -I/-L into the CUDA toolkit
        if entry.is_none() && (w.starts_with("-I") || w.starts_with("-L")) && is_cuda_path(&w[2..]) {
            t.actions[i] = Action::Drop;
            t.remark(i, RemarkKind::Dropped, format!("`{w}`: a directory of the CUDA toolkit, not needed by the SYCL build"));
            i += 1;
            continue;
        }
        let Some(e) = entry else {
            i += 1;
            continue;
        };
        // the value, and how many words the flag spans
        let (value, span) = match (e.value, joined) {
            (Value::None, _) => (None, 1),
            (_, Some(v)) => (Some(v.to_string()), 1),
            (Value::Separate | Value::Either, None) => match words.get(i + 1) {
                Some(v) => (Some(v.to_string()), 2),
                None => (None, 1),
            },
            (Value::Joined, None) => (None, 1),
        };
        let shown = words[i..i + span].join(" ");
        let set = |t: &mut Translation, first: Action| {
            t.actions[i] = first;
            for a in &mut t.actions[i + 1..i + span] {
                *a = Action::Drop;
            }
        };
        if let Some(repl) = &e.sycl {
            let v = value.clone().unwrap_or_default();
            let repl = e.values.get(&v).unwrap_or(repl);
            if repl.is_empty() {
                set(&mut t, Action::Drop);
            } else {
                set(&mut t, Action::Replace(repl.iter().map(|r| r.replace("{v}", &v)).collect::<Vec<_>>().join(" ")));
            }
        } else if let Some(why) = &e.drop {
            set(&mut t, Action::Drop);
            t.remark(i, RemarkKind::Dropped, format!("`{shown}` dropped: {why}"));
        } else if let Some(kind) = e.kind {
            let v = value.unwrap_or_default();
            match kind {
                Kind::Arch => {
                    set(&mut t, Action::Drop);
                    let arch = arch_of(&v);
                    let message = match (&arch, t.archs.first()) {
                        (Some(a), None) => format!("`{shown}`: the GPU architecture is SYCL_ARCH ({a}) now, set once for the whole build"),
                        (Some(a), Some(first)) if a != first => {
                            format!("`{shown}` dropped: one architecture is built, SYCL_ARCH ({first}); set SYCL_TARGETS for several")
                        }
                        (Some(_), Some(_)) => format!("`{shown}`: the GPU architecture is SYCL_ARCH now"),
                        (None, _) => format!("`{shown}` dropped: SYCL_ARCH names the architecture"),
                    };
                    t.remark(i, RemarkKind::Dropped, message);
                    if let Some(a) = arch {
                        t.archs.push(a);
                    }
                }
                Kind::Host => {
                    // `-Xcompiler -fopenmp`, `-Xcompiler=-Wall,-O3`, `-Xcompiler "-a -b"`
                    let host: Vec<String> = v.trim_matches(|c| c == '"' || c == '\'').split([',', ' ']).filter(|s| !s.is_empty()).map(str::to_string).collect();
                    set(&mut t, if host.is_empty() { Action::Drop } else { Action::Replace(host.join(" ")) });
                }
                Kind::Std => {
                    let std = v.trim_start_matches("c++");
                    let keep = matches!(std, "17" | "1z" | "20" | "2a" | "23" | "2b");
                    let word = if keep { format!("-std=c++{std}") } else { "-std=c++17".to_string() };
                    set(&mut t, Action::Replace(word));
                    if !keep {
                        t.remark(i, RemarkKind::Dropped, format!("`{shown}` raised to -std=c++17: SYCL 2020 needs C++17"));
                    }
                }
                Kind::Rdc => {
                    // -dc compiles without linking, as -c does; -rdc/-dlink are dropped
                    set(&mut t, if name == "-dc" || name == "--device-c" { Action::Replace("-c".into()) } else { Action::Drop });
                    t.remark(i, RemarkKind::Relocatable, format!(
                            "`{shown}`: device code linked across translation units; DPC++ does this by default, AdaptiveCpp's generic target (--acpp-targets=generic) does, its CUDA multipass target does not"
                        ));
                }
                Kind::Lang => {
                    if v == "cu" || v == "cuda" {
                        set(&mut t, Action::Drop);
                        t.remark(i, RemarkKind::Dropped, format!("`{shown}` dropped: migrated sources are C++ and compile as such"));
                    }
                }
                Kind::Cudaruntime => {
                    set(&mut t, Action::Drop);
                    t.remark(i, RemarkKind::Dropped, format!("`{shown}` dropped: CUDA's runtime, replaced by the SYCL runtime"));
                }
                Kind::Module => {
                    set(&mut t, Action::Replace("-fPIC -shared".into()));
                    t.remark(
                        i,
                        RemarkKind::DriverModule,
                        format!("`{shown}`: a module for CUDA's driver API; the migrated module is a SYCL shared library written to the same file (cuModuleLoad opens it)"),
                    );
                }
                Kind::Cudalib => {
                    set(&mut t, Action::Drop);
                    t.remark(i, RemarkKind::CudaLibrary, format!("`{shown}` dropped: a CUDA library, {}", super::library_fate(&shown)));
                }
            }
        }
        i += span;
    }
    t
}

/// The architecture a value names: `sm_80`, `compute_80` → `sm_80`;
/// `arch=compute_70,code=sm_70` → `sm_70`; a make variable as is; none for
/// `native`/`all`.
fn arch_of(v: &str) -> Option<String> {
    let v = v.trim_matches(|c| c == '"' || c == '\'' || c == '\\');
    if v.contains("$(") || v.contains("${") {
        // `$(ARCH)`, or `arch=compute_$(SM),code=sm_$(SM)`: the code= part
        let code = v.split(',').find_map(|p| p.strip_prefix("code=")).unwrap_or(v);
        return Some(code.trim_matches(|c| c == '[' || c == ']' || c == '"').split(',').next().unwrap_or(code).to_string());
    }
    let re = cached_regex!(r"(?:sm|compute|lto)_([0-9]+[a-z]?)");
    // the code= part wins (the real architecture), else any
    let code = v.split(',').find_map(|p| p.strip_prefix("code=")).unwrap_or(v);
    re.captures(code).or_else(|| re.captures(v)).map(|c| format!("sm_{}", &c[1]))
}

/// A directory of the CUDA toolkit: `/usr/local/cuda/include`,
/// `$(CUDA_HOME)/lib64`, `${CUDA_PATH}/include`.
fn is_cuda_path(dir: &str) -> bool {
    let d = dir.trim_matches('"');
    d.contains("/cuda/") || d.ends_with("/cuda") || d.contains("/cuda-") || cached_regex!(r"\$[({]CUDA[A-Z_]*[)}]").is_match(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str) -> (String, Vec<String>, Vec<String>) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let t = translate(&words);
        let out: Vec<String> = words
            .iter()
            .zip(&t.actions)
            .filter_map(|(w, a)| match a {
                Action::Keep => Some(w.to_string()),
                Action::Replace(r) => Some(r.clone()),
                Action::Drop => None,
            })
            .collect();
        (out.join(" "), t.remarks.iter().map(|r| r.message.clone()).collect(), t.archs)
    }

    #[test]
    fn the_table_loads_and_every_entry_has_one_action() {
        assert!(table().contains_key("-arch") && table().contains_key("--use_fast_math"));
    }

    #[test]
    fn common_flags() {
        let (out, remarks, archs) = run("-std=c++14 -O3 -Xcompiler -fopenmp -arch=$(ARCH) --use_fast_math -lineinfo -Xptxas -v -DX=1 -I../include");
        assert_eq!(out, "-std=c++17 -O3 -fopenmp -ffast-math -DX=1 -I../include");
        assert_eq!(archs, vec!["$(ARCH)"]);
        assert_eq!(remarks.len(), 4, "{remarks:?}");
    }

    #[test]
    fn gencode_and_joined_host_flags() {
        let (out, _, archs) = run("-gencode arch=compute_70,code=sm_70 -gencode=arch=compute_80,code=[sm_80,compute_80] -Xcompiler=-Wall,-fPIC -c");
        assert_eq!(out, "-Wall -fPIC -c");
        assert_eq!(archs, vec!["sm_70", "sm_80"]);
    }

    #[test]
    fn cuda_paths_and_libraries() {
        let (out, remarks, _) = run("-I$(CUDA_HOME)/include -L/usr/local/cuda/lib64 -lcudart -lcublas -lm -L../lib");
        assert_eq!(out, "-lm -L../lib");
        assert_eq!(remarks.len(), 4);
        assert!(remarks[3].contains("CUDA library"));
    }

    #[test]
    fn relocatable_device_code_and_language() {
        let (out, remarks, _) = run("-rdc=true -dc -x cu main.cpp -x c++");
        assert_eq!(out, "-c main.cpp -x c++");
        assert_eq!(remarks.len(), 3);
    }

    #[test]
    fn default_stream_values() {
        let (out, remarks, _) = run("-O2 --default-stream per-thread -c");
        assert_eq!(out, "-O2 -DSYCLIFY_PER_THREAD_DEFAULT_STREAM -c");
        assert!(remarks.is_empty(), "{remarks:?}");
        let (out, _, _) = run("--default-stream=per-thread --default-stream legacy -c");
        assert_eq!(out, "-DSYCLIFY_PER_THREAD_DEFAULT_STREAM -c");
    }

    #[test]
    fn words_that_are_not_flags_stay() {
        let (out, remarks, archs) = run("$(CFLAGS) -o $@ $< -arch");
        assert_eq!(out, "$(CFLAGS) -o $@ $<");
        assert!(remarks.len() == 1 && archs.is_empty(), "{remarks:?}");
    }
}

//! `syclify check PATH...`: how much work a migration is, without writing
//! anything. The project is migrated in memory; every CUDA construct of the
//! inputs (each use of a CUDA name outside comments, as the leftover scan
//! finds them: `threadIdx`, `cudaMemcpy`, `__shared__`, `<<<`) is counted as
//! migrated automatically, needing review (a warning on it) or unsupported
//! (an error on it), per file and per CUDA name; diagnostics on no CUDA name
//! are counted by code. The exit code says whether anything is unsupported.

use crate::diagnostics::{Code, Severity};
use crate::project::{Migration, Status};
use crate::report::{self, JsonReport};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Minutes of hand work the estimate counts per construct to review and
/// per unsupported construct (a rough planning figure, stated with it).
pub const REVIEW_MINUTES: usize = 5;
pub const UNSUPPORTED_MINUTES: usize = 30;

#[derive(Debug, Default, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct Tally {
    pub automatic: usize,
    pub review: usize,
    pub unsupported: usize,
}

impl Tally {
    fn add(&mut self, s: Option<Severity>) {
        match s {
            Some(Severity::Error) => self.unsupported += 1,
            Some(Severity::Warning) => self.review += 1,
            _ => self.automatic += 1,
        }
    }
    fn merge(&mut self, o: &Tally) {
        self.automatic += o.automatic;
        self.review += o.review;
        self.unsupported += o.unsupported;
    }
    pub fn total(&self) -> usize {
        self.automatic + self.review + self.unsupported
    }
    /// Estimated minutes of hand work.
    pub fn minutes(&self) -> usize {
        self.review * REVIEW_MINUTES + self.unsupported * UNSUPPORTED_MINUTES
    }
}

#[derive(Debug, Serialize)]
pub struct FileCheck {
    pub path: String,
    pub constructs: Tally,
}

/// A diagnostic code seen on no CUDA name (a region that did not parse, a
/// local-memory size that cannot be written, a build file's flag).
#[derive(Debug, Serialize)]
pub struct OtherFinding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub count: usize,
}

#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub totals: Tally,
    /// Estimated hours of hand work (see the minutes per construct).
    pub estimated_hours: f64,
    pub review_minutes_each: usize,
    pub unsupported_minutes_each: usize,
    /// Per CUDA name (API, intrinsic, builtin, keyword, `<<<`).
    pub by_name: BTreeMap<String, Tally>,
    pub files: Vec<FileCheck>,
    pub other_findings: Vec<OtherFinding>,
    /// Errors anywhere (on a construct or not): the check fails.
    pub errors: usize,
}

/// Builds the check of an in-memory migration.
pub fn check(m: &Migration) -> CheckReport {
    let own: std::collections::BTreeSet<String> =
        m.files.iter().filter_map(|f| f.source.as_ref()).flat_map(|s| crate::leftovers::defined_names(&s.text)).collect();
    let mut by_name: BTreeMap<String, Tally> = BTreeMap::new();
    let mut files = Vec::new();
    let mut other: BTreeMap<Code, usize> = BTreeMap::new();
    let mut errors = 0;
    for f in &m.files {
        errors += f.diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let name = f.rel.rsplit('/').next().unwrap_or("");
        let counted = f.status == Status::Migrated && !crate::build::is_build_file_name(name);
        let mut used = vec![false; f.diagnostics.len()];
        let mut tally = Tally::default();
        if let (true, Some(s)) = (counted, &f.source) {
            for (r, w) in crate::leftovers::cuda_left(&s.text, &|w| own.contains(w)) {
                let mut worst: Option<Severity> = None;
                for (i, d) in f.diagnostics.iter().enumerate() {
                    let overlaps = d.range.start < r.end.max(r.start + 1) && r.start < d.range.end.max(d.range.start + 1);
                    if overlaps {
                        used[i] = true;
                        worst = worst.max(Some(d.severity));
                    }
                }
                tally.add(worst);
                by_name.entry(w).or_default().add(worst);
            }
        }
        for (d, u) in f.diagnostics.iter().zip(&used) {
            if !u {
                *other.entry(d.code).or_default() += 1;
            }
        }
        if tally.total() > 0 {
            files.push(FileCheck { path: f.rel.clone(), constructs: tally });
        }
    }
    let mut totals = Tally::default();
    for f in &files {
        totals.merge(&f.constructs);
    }
    let other_findings = other
        .into_iter()
        .map(|(c, count)| {
            let i = c.info();
            OtherFinding { code: i.code, name: i.name, severity: i.severity, count }
        })
        .collect::<Vec<_>>();
    let extra_minutes: usize = other_findings
        .iter()
        .map(|o| match o.severity {
            Severity::Error => o.count * UNSUPPORTED_MINUTES,
            Severity::Warning => o.count * REVIEW_MINUTES,
            Severity::Note => 0,
        })
        .sum();
    CheckReport {
        estimated_hours: ((totals.minutes() + extra_minutes) as f64 / 60.0 * 10.0).round() / 10.0,
        review_minutes_each: REVIEW_MINUTES,
        unsupported_minutes_each: UNSUPPORTED_MINUTES,
        totals,
        by_name,
        files,
        other_findings,
        errors,
    }
}

/// The human table.
pub fn table(c: &CheckReport) -> String {
    let mut s = String::new();
    let t = &c.totals;
    let pct = |n: usize| if t.total() == 0 { 100.0 } else { 100.0 * n as f64 / t.total() as f64 };
    let _ = writeln!(
        s,
        "syclify check: {} CUDA constructs: {} migrate automatically ({:.1} %), {} need review, {} unsupported",
        t.total(),
        t.automatic,
        pct(t.automatic),
        t.review,
        t.unsupported
    );
    let _ = writeln!(
        s,
        "estimated hand work: {:.1} h ({} min per construct to review, {} per unsupported one; a planning figure)",
        c.estimated_hours, REVIEW_MINUTES, UNSUPPORTED_MINUTES
    );
    let mut names: Vec<(&String, &Tally)> = c.by_name.iter().collect();
    names.sort_by(|a, b| (b.1.unsupported, b.1.review, b.1.total()).cmp(&(a.1.unsupported, a.1.review, a.1.total())).then(a.0.cmp(b.0)));
    let _ = writeln!(s, "\n{:<34} {:>6} {:>6} {:>6} {:>11}", "CUDA name", "uses", "auto", "review", "unsupported");
    for (n, t) in names.iter().take(40) {
        let _ = writeln!(s, "{:<34} {:>6} {:>6} {:>6} {:>11}", n, t.total(), t.automatic, t.review, t.unsupported);
    }
    if names.len() > 40 {
        let _ = writeln!(s, "… and {} more names (--format json lists all)", names.len() - 40);
    }
    let _ = writeln!(s, "\n{:<50} {:>6} {:>6} {:>6} {:>11}", "file", "uses", "auto", "review", "unsupported");
    for f in &c.files {
        let t = &f.constructs;
        let _ = writeln!(s, "{:<50} {:>6} {:>6} {:>6} {:>11}", f.path, t.total(), t.automatic, t.review, t.unsupported);
    }
    if !c.other_findings.is_empty() {
        let _ = writeln!(s, "\nother findings (not on a CUDA name):");
        for o in &c.other_findings {
            let _ = writeln!(s, "  {} {:<8} {:<36} {}", o.code, o.severity.as_str(), o.name, o.count);
        }
    }
    let _ = writeln!(
        s,
        "\n{}",
        if c.errors > 0 {
            format!("{} errors: not everything migrates (`syclify explain CODE` says why)", c.errors)
        } else {
            "nothing unsupported".to_string()
        }
    );
    s
}

/// The JSON form: the check, and the migration's report without outputs.
pub fn to_json(c: &CheckReport, r: &JsonReport) -> String {
    #[derive(Serialize)]
    struct Both<'a> {
        check: &'a CheckReport,
        diagnostics: Vec<&'a report::JsonDiagnostic>,
    }
    let both = Both { check: c, diagnostics: r.files.iter().flat_map(|f| f.diagnostics.iter()).collect() };
    let mut s = serde_json::to_string_pretty(&both).expect("the check serialises");
    s.push('\n');
    s
}

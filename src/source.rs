//! A loaded source file: its text, where it lives, and line/column lookup.

use std::path::PathBuf;

#[derive(Debug)]
pub struct SourceFile {
    /// Path as given on disk.
    pub path: PathBuf,
    /// Path relative to the in-root, with `/` separators (used in reports).
    pub rel: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(path: PathBuf, rel: String, text: String) -> Self {
        let line_starts = line_starts(&text);
        SourceFile { path, rel, text, line_starts }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.text[start..offset.min(self.text.len())].chars().count() + 1;
        (line + 1, col)
    }

    /// Byte offset of the start of the line holding `offset`.
    pub fn line_start(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => self.line_starts[i],
            Err(i) => self.line_starts[i - 1],
        }
    }

    /// The leading whitespace of the line holding `offset`.
    pub fn indent_at(&self, offset: usize) -> &str {
        let start = self.line_start(offset);
        let rest = &self.text[start..];
        let n = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        &rest[..n]
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1));
    v
}

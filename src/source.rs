//! A loaded source file: its text, where it lives, and line/column lookup.

use std::path::PathBuf;

#[derive(Debug)]
pub struct SourceFile {
    /// Path as given on disk.
    pub path: PathBuf,
    /// Path relative to the in-root, with `/` separators (used in reports).
    pub rel: String,
    pub text: String,
    /// The file was not UTF-8 (the note to report): its stray bytes are held
    /// in `text` as private-use characters (see [`decode_lossless`]) and are
    /// written back as the original bytes.
    pub escaped: Option<String>,
    line_starts: Vec<usize>,
    /// The characters before each multiple of [`CHECKPOINT`] bytes: columns
    /// far into a long line in constant time.
    char_checkpoints: Vec<usize>,
}

/// Bytes between two of [`SourceFile`]'s character counts.
const CHECKPOINT: usize = 4096;

/// The characters that start in `bytes` (UTF-8: every byte but continuation bytes).
fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

impl SourceFile {
    pub fn new(path: PathBuf, rel: String, text: String) -> Self {
        let line_starts = line_starts(&text);
        let char_checkpoints = std::iter::once(0)
            .chain(text.as_bytes().chunks(CHECKPOINT).scan(0, |n, c| {
                *n += chars_in(c);
                Some(*n)
            }))
            .collect();
        SourceFile { path, rel, text, escaped: None, line_starts, char_checkpoints }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let end = offset.min(self.text.len());
        // (far into a line, from the counts at checkpoints: a long line's
        // thousands of diagnostics, each located in constant time)
        let col = if end - start <= CHECKPOINT { self.text[start..end].chars().count() } else { self.chars_before(end) - self.chars_before(start) };
        (line + 1, col + 1)
    }

    /// The characters before byte offset `p` (a character boundary).
    fn chars_before(&self, p: usize) -> usize {
        let k = p / CHECKPOINT;
        self.char_checkpoints[k] + chars_in(&self.text.as_bytes()[k * CHECKPOINT..p])
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
    v.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
    v
}

/// The lines of `text` whose first character other than whitespace is
/// `#` (preprocessor directives, and their first line only), in order,
/// without their line end: what `text.lines().filter(|l|
/// l.trim_start().starts_with('#'))` gives, found from each `#` rather
/// than by reading every line.
pub fn directive_lines(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    // (the end of the last line given: a `#` before it is inside that line)
    let mut done = 0;
    memchr::memchr_iter(b'#', bytes).filter_map(move |at| {
        if at < done {
            return None;
        }
        // only whitespace between the line's start and the `#` (each
        // character read once: a `#` after others stops at the one before)
        let mut i = at;
        let start = loop {
            let Some(c) = text[..i].chars().next_back() else { break 0 };
            if c == '\n' {
                break i;
            }
            if !c.is_whitespace() {
                return None;
            }
            i -= c.len_utf8();
        };
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
        done = end;
        let line = &text[start..end];
        // (as `lines()`: a carriage return before the line feed is not the line's)
        Some(if end < bytes.len() { line.strip_suffix('\r').unwrap_or(line) } else { line })
    })
}

/// An include directive's name and form: `#include "x.cuh"` (quoted) or
/// `#include <helper_cuda.h>` (angle brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IncludeName<'a> {
    pub name: &'a str,
    /// Written `<name>`: searched in the include directories only.
    pub angle: bool,
}

/// The includes of a text, quoted and angle-bracket alike, in order.
pub fn includes(text: &str) -> impl Iterator<Item = IncludeName<'_>> {
    directive_lines(text).filter_map(include_directive)
}

/// The name a line's `#include "name"` or `#include <name>` gives, if it is one.
pub fn include_directive(line: &str) -> Option<IncludeName<'_>> {
    let t = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("include")?.trim();
    let (close, angle) = match t.as_bytes().first()? {
        b'"' => ('"', false),
        b'<' => ('>', true),
        _ => return None,
    };
    let t = &t[1..];
    Some(IncludeName { name: &t[..t.find(close)?], angle })
}

/// First of the 128 private-use code points that stand for the bytes
/// 0x80..=0xFF that are not part of valid UTF-8 (`U+F780 + (b - 0x80)`).
const ESCAPE_BASE: u32 = 0xF780;

fn is_escape(c: char) -> bool {
    (ESCAPE_BASE..ESCAPE_BASE + 0x80).contains(&(c as u32))
}

/// Reads bytes that are not (all) UTF-8 — Latin-1 comments, stray bytes —
/// without losing any: valid UTF-8 stays as it is, every other byte becomes
/// one private-use character that [`encode_lossless`] turns back into that
/// byte. Returns the text and how many bytes were escaped, or None when the
/// file already holds one of those private-use characters (then the mapping
/// would not be reversible) or a byte below 0x80 is invalid (not possible in
/// practice: ASCII is always valid UTF-8).
pub fn decode_lossless(bytes: &[u8]) -> Option<(String, usize)> {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut escaped = 0;
    for chunk in bytes.utf8_chunks() {
        if chunk.valid().chars().any(is_escape) {
            return None;
        }
        out.push_str(chunk.valid());
        for &b in chunk.invalid() {
            if b < 0x80 {
                return None;
            }
            out.push(char::from_u32(ESCAPE_BASE + (b as u32 - 0x80))?);
            escaped += 1;
        }
    }
    Some((out, escaped))
}

/// The bytes of a text made by [`decode_lossless`] (or rewritten from one):
/// escape characters become their original bytes again.
pub fn encode_lossless(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.chars() {
        if is_escape(c) {
            out.push((c as u32 - ESCAPE_BASE + 0x80) as u8);
        } else {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn directive_lines_are_the_lines_that_start_with_a_hash() {
        let texts = [
            "#include <a>\n  #define X 1\nint a = b # c;\n\t# if Y\r\n// #include <no>\n#",
            "",
            "\n\n#\n#\n",
            "x #\n\u{a0}#pragma once\n\u{a0}x #y\n# a # b\n",
            "#a\r\n\r\n  #b\r",
            "\r#x\n\u{3000}\u{3000}#y\n\u{e9}#z",
        ];
        for text in texts {
            let slow: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with('#')).collect();
            assert_eq!(super::directive_lines(text).collect::<Vec<_>>(), slow, "{text:?}");
        }
    }

    use super::*;

    #[test]
    fn latin1_round_trips() {
        let bytes = b"// caf\xe9 \xa9 2024\nint x; /* \xff\xfe */ // \xc3\xa9 is UTF-8\n".to_vec();
        let (text, n) = decode_lossless(&bytes).unwrap();
        assert_eq!(n, 4);
        assert!(text.contains("int x;") && text.contains("\u{e9} is UTF-8"));
        assert_eq!(encode_lossless(&text), bytes);
        assert_eq!(encode_lossless(&text.replace("int x", "long y")), b"// caf\xe9 \xa9 2024\nlong y; /* \xff\xfe */ // \xc3\xa9 is UTF-8\n".to_vec());
    }

    #[test]
    fn columns_far_into_a_line_count_characters() {
        let text = format!("x\n{}", "é a ".repeat(5000));
        let f = SourceFile::new(PathBuf::new(), "a.cu".into(), text.clone());
        for p in (2..text.len()).filter(|&p| text.is_char_boundary(p)).step_by(997).chain([text.len()]) {
            assert_eq!(f.line_col(p), (2, text[2..p].chars().count() + 1), "at {p}");
        }
    }

    #[test]
    fn refuses_what_would_not_round_trip() {
        let mut bytes = "\u{f7a9}".as_bytes().to_vec();
        bytes.push(0xe9);
        assert!(decode_lossless(&bytes).is_none());
    }
}

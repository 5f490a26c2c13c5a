//! CMake's language, read as cmake-language(7) defines it: a file is a
//! sequence of command invocations `name(arguments)` among spaces, newlines
//! and comments; an argument is a bracket argument (`[==[…]==]`), a quoted
//! argument (`"…"`, with escapes and `\`-newline continuations) or an
//! unquoted one (with escapes, `${…}` references, and the legacy `a="b c"`
//! form); parentheses inside the arguments nest. Comments are `#` to the
//! end of the line, or bracket comments `#[[…]]`.
//!
//! Only the structure is read: byte ranges of each command's name and
//! arguments, so that the migration can edit the text in place and keep
//! everything else byte-for-byte.

use std::ops::Range;

/// How an argument is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    Unquoted,
    Quoted,
    Bracket,
    /// A `(` or `)` inside the arguments (kept as its own token).
    Paren,
}

#[derive(Debug, Clone)]
pub struct Arg {
    /// The whole argument as written (quotes and brackets included).
    pub range: Range<usize>,
    pub kind: ArgKind,
}

impl Arg {
    /// The argument's content: without quotes or brackets.
    pub fn content(&self, text: &str) -> Range<usize> {
        match self.kind {
            ArgKind::Quoted => self.range.start + 1..self.range.end - 1,
            ArgKind::Bracket => {
                let s = &text[self.range.clone()];
                let eq = s[1..].bytes().take_while(|&b| b == b'=').count();
                self.range.start + eq + 2..self.range.end - eq - 2
            }
            _ => self.range.clone(),
        }
    }
}

/// One command invocation.
#[derive(Debug, Clone)]
pub struct Command {
    pub name: Range<usize>,
    /// Arguments, parentheses included, in order.
    pub args: Vec<Arg>,
    /// From the name to the closing parenthesis.
    pub range: Range<usize>,
}

impl Command {
    /// The name, lower-cased (CMake's command names are case-insensitive).
    pub fn lower_name(&self, text: &str) -> String {
        text[self.name.clone()].to_ascii_lowercase()
    }
}

/// Where and why a file is not CMake's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub offset: usize,
    pub message: String,
}

/// Reads a CMake file into its command invocations.
pub fn parse(text: &str) -> Result<Vec<Command>, SyntaxError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => i = skip_comment(text, i)?,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let name = start..i;
                while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                    i += 1;
                }
                if b.get(i) != Some(&b'(') {
                    return Err(SyntaxError { offset: start, message: format!("`{}` is not followed by `(`", &text[name]) });
                }
                let (args, end) = arguments(text, i + 1)?;
                out.push(Command { name, args, range: start..end });
                i = end;
            }
            _ => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(SyntaxError { offset: i, message: format!("`{ch}` where a command should start") });
            }
        }
    }
    Ok(out)
}

/// The arguments after a command's `(` at `i`; returns them and the offset
/// just after the matching `)`.
fn arguments(text: &str, mut i: usize) -> Result<(Vec<Arg>, usize), SyntaxError> {
    let b = text.as_bytes();
    let open = i - 1;
    let mut args = Vec::new();
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => i = skip_comment(text, i)?,
            b'(' => {
                args.push(Arg { range: i..i + 1, kind: ArgKind::Paren });
                depth += 1;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return Ok((args, i + 1));
                }
                args.push(Arg { range: i..i + 1, kind: ArgKind::Paren });
                depth -= 1;
                i += 1;
            }
            b'"' => {
                let end = quoted_end(text, i)?;
                args.push(Arg { range: i..end, kind: ArgKind::Quoted });
                i = end;
            }
            b'[' if bracket_open(b, i).is_some() => {
                let end = bracket_end(text, i)?;
                args.push(Arg { range: i..end, kind: ArgKind::Bracket });
                i = end;
            }
            _ => {
                let end = unquoted_end(text, i)?;
                args.push(Arg { range: i..end, kind: ArgKind::Unquoted });
                i = end;
            }
        }
    }
    Err(SyntaxError { offset: open, message: "this `(` is never closed".into() })
}

/// `[`, `=`*, `[` at `i`: the number of `=`.
fn bracket_open(b: &[u8], i: usize) -> Option<usize> {
    let eq = b[i + 1..].iter().take_while(|&&c| c == b'=').count();
    (b.get(i + 1 + eq) == Some(&b'[')).then_some(eq)
}

/// The end of a bracket argument or comment opening at `i`.
fn bracket_end(text: &str, i: usize) -> Result<usize, SyntaxError> {
    let eq = bracket_open(text.as_bytes(), i).unwrap_or(0);
    let close = format!("]{}]", "=".repeat(eq));
    match text[i + eq + 2..].find(&close) {
        Some(p) => Ok(i + eq + 2 + p + close.len()),
        None => Err(SyntaxError { offset: i, message: format!("this bracket `[{}[` is never closed by `{close}`", "=".repeat(eq)) }),
    }
}

/// Skips a comment at `i` (`#` to the end of the line, or `#[[…]]`).
fn skip_comment(text: &str, i: usize) -> Result<usize, SyntaxError> {
    let b = text.as_bytes();
    if b.get(i + 1) == Some(&b'[') && bracket_open(b, i + 1).is_some() {
        return bracket_end(text, i + 1);
    }
    Ok(text[i..].find('\n').map_or(b.len(), |p| i + p))
}

/// The end of a quoted argument opening at `i`.
fn quoted_end(text: &str, i: usize) -> Result<usize, SyntaxError> {
    let b = text.as_bytes();
    let mut j = i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'"' => return Ok(j + 1),
            _ => j += 1,
        }
    }
    Err(SyntaxError { offset: i, message: "this `\"` is never closed".into() })
}

/// The end of an unquoted argument starting at `i`: up to a blank, a
/// parenthesis, `#` or `"` (a `"…"` inside the argument, the legacy form
/// `-DX="a b"`, belongs to it), with `\x` escapes and `${…}` references.
fn unquoted_end(text: &str, i: usize) -> Result<usize, SyntaxError> {
    let b = text.as_bytes();
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b'#' => break,
            b'\\' => j += 2,
            b'"' if j > i => j = quoted_end(text, j)?,
            b'"' => break,
            b'$' if b.get(j + 1) == Some(&b'{') => {
                // a reference may hold no blanks, but it may nest
                let mut depth = 0;
                while j < b.len() {
                    match b[j] {
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        b' ' | b'\t' | b'\n' | b')' => break,
                        _ => {}
                    }
                    j += 1;
                }
            }
            _ => j += 1,
        }
    }
    Ok(j.min(b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Vec<(String, Vec<String>)> {
        parse(text).unwrap().iter().map(|c| (text[c.name.clone()].to_string(), c.args.iter().map(|a| text[a.range.clone()].to_string()).collect())).collect()
    }

    #[test]
    fn commands_arguments_and_comments() {
        let text = "cmake_minimum_required(VERSION 3.18) # why\n#[[ a\nblock ]]\nproject (demo LANGUAGES CUDA CXX)\nset(F \"-O3 ${X}\" [=[raw ]] text]=] a\\;b)\nif((A OR B) AND NOT C)\nendif()\n";
        assert_eq!(
            shape(text),
            vec![
                ("cmake_minimum_required".into(), vec!["VERSION".into(), "3.18".into()]),
                ("project".into(), vec!["demo".into(), "LANGUAGES".into(), "CUDA".into(), "CXX".into()]),
                ("set".into(), vec!["F".into(), "\"-O3 ${X}\"".into(), "[=[raw ]] text]=]".into(), "a\\;b".into()]),
                ("if".into(), vec!["(".into(), "A".into(), "OR".into(), "B".into(), ")".into(), "AND".into(), "NOT".into(), "C".into()]),
                ("endif".into(), vec![]),
            ]
        );
    }

    #[test]
    fn legacy_quotes_and_multiline_strings() {
        let text = "add_definitions(-DMSG=\"a b\" \"line\\\n  more\")\n";
        assert_eq!(shape(text)[0].1, vec!["-DMSG=\"a b\"".to_string(), "\"line\\\n  more\"".to_string()]);
    }

    #[test]
    fn content_strips_quotes_and_brackets() {
        let text = "x(\"q\" [==[b]==])";
        let cmds = parse(text).unwrap();
        let contents: Vec<&str> = cmds[0].args.iter().map(|a| &text[a.content(text)]).collect();
        assert_eq!(contents, vec!["q", "b"]);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse("set(A \"b)\n").unwrap_err().offset, 6);
        assert_eq!(parse("project(x\n").unwrap_err().message, "this `(` is never closed");
        assert_eq!(parse("foo bar\n").unwrap_err().offset, 0);
        assert!(parse("x(#[[ unclosed\n)").is_err());
    }
}

//! Comparing two runs' outputs: normalisation (dropped lines, masked
//! patterns) and numbers compared with a relative and absolute tolerance.

use regex::Regex;

#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// Lines matching any of these are dropped (timings, banners).
    pub ignore_lines: Vec<Regex>,
    /// Matches of these are replaced by `<masked>` (addresses, dates).
    pub masks: Vec<Regex>,
    pub rtol: f64,
    pub atol: f64,
}

/// What AdaptiveCpp prints (on stdout) at a program's exit when the CUDA
/// driver has shut down before the runtime destroys its streams and events
/// (`Couldn't destroy stream (error code = CUDA:4)`): the runtime's
/// teardown, not the program's output; dropped from both sides by default.
pub const TEARDOWN_NOISE: &str = r"\[AdaptiveCpp Error\] .*Couldn't destroy (stream|event) \(error code = CUDA:4\)";

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions {
            ignore_lines: vec![Regex::new(TEARDOWN_NOISE).expect("valid")],
            masks: vec![Regex::new(r"0x[0-9a-fA-F]{8,}").expect("valid")],
            rtol: 0.0,
            atol: 0.0,
        }
    }
}

/// One difference between the two outputs.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Difference {
    /// 1-based line in the normalised outputs.
    pub line: usize,
    pub expected: Option<String>,
    pub actual: Option<String>,
}

pub fn normalise(text: &str, o: &CompareOptions) -> Vec<String> {
    text.lines()
        .filter(|l| !o.ignore_lines.iter().any(|r| r.is_match(l)))
        .map(|l| {
            let mut s = l.trim_end().to_string();
            for m in &o.masks {
                s = m.replace_all(&s, "<masked>").into_owned();
            }
            s
        })
        .collect()
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Num(f64, &'a str),
    Text(&'a str),
}

fn tokens(line: &str) -> Vec<Token<'_>> {
    let num = Regex::new(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)").expect("valid");
    let mut out = Vec::new();
    let mut last = 0;
    for m in num.find_iter(line) {
        // a digit run glued to letters (an identifier like `x86`) is text
        let before = line[..m.start()].chars().last();
        if before.is_some_and(|c| c.is_ascii_alphabetic() || c == '_') {
            continue;
        }
        if m.start() > last {
            out.push(Token::Text(&line[last..m.start()]));
        }
        out.push(Token::Num(m.as_str().parse().unwrap_or(f64::NAN), m.as_str()));
        last = m.end();
    }
    if last < line.len() {
        out.push(Token::Text(&line[last..]));
    }
    out
}

fn numbers_match(a: f64, b: f64, o: &CompareOptions) -> bool {
    if a == b || (a.is_nan() && b.is_nan()) {
        return true;
    }
    (a - b).abs() <= o.atol + o.rtol * a.abs().max(b.abs())
}

fn lines_match(expected: &str, actual: &str, o: &CompareOptions) -> bool {
    if expected == actual {
        return true;
    }
    if o.rtol == 0.0 && o.atol == 0.0 {
        return false;
    }
    let (te, ta) = (tokens(expected), tokens(actual));
    te.len() == ta.len()
        && te.iter().zip(&ta).all(|(e, a)| match (e, a) {
            (Token::Num(x, _), Token::Num(y, _)) => numbers_match(*x, *y, o),
            (Token::Text(x), Token::Text(y)) => x == y,
            _ => false,
        })
}

/// The differences between two outputs (empty when they match).
pub fn compare(expected: &str, actual: &str, o: &CompareOptions) -> Vec<Difference> {
    let (e, a) = (normalise(expected, o), normalise(actual, o));
    let mut out = Vec::new();
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        let same = matches!((x, y), (Some(x), Some(y)) if lines_match(x, y, o));
        if !same {
            out.push(Difference { line: i + 1, expected: x.cloned(), actual: y.cloned() });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_outputs_match() {
        assert!(compare("a 1\nb\n", "a 1\nb\n", &CompareOptions::default()).is_empty());
    }

    #[test]
    fn numbers_within_tolerance_match_and_others_do_not() {
        let o = CompareOptions { rtol: 1e-3, atol: 0.0, ..Default::default() };
        assert!(compare("sum = 1000.0 ok\n", "sum = 1000.5 ok\n", &o).is_empty());
        assert_eq!(compare("sum = 1000.0\n", "sum = 1002.0\n", &o).len(), 1);
        assert_eq!(compare("sum = 1\n", "total = 1\n", &o).len(), 1);
        assert!(compare("x86 1e3\n", "x86 1000\n", &o).is_empty());
    }

    #[test]
    fn ignored_lines_and_masks_are_normalised_away() {
        let o = CompareOptions { ignore_lines: vec![Regex::new("^time:").unwrap()], ..Default::default() };
        // AdaptiveCpp's teardown messages are dropped by default, other errors are not
        let teardown = "\x1b[1;31m[AdaptiveCpp Error] \x1b[0mfrom src/runtime/cuda/cuda_queue.cpp:201 @ ~cuda_queue(): cuda_queue: Couldn't destroy stream (error code = CUDA:4)";
        assert!(compare("PASS\n", &format!("PASS\n{teardown}\n"), &CompareOptions::default()).is_empty());
        let other = "[AdaptiveCpp Error] from cuda_queue.cpp:100 @ submit(): kernel launch failed (error code = CUDA:700)";
        assert_eq!(compare("PASS\n", &format!("PASS\n{other}\n"), &CompareOptions::default()).len(), 1);
        assert!(compare("time: 3 ms\nptr 0x7ffd12345678\nPASS\n", "time: 9 ms\nptr 0x55aa00001111\nPASS\n", &o).is_empty());
    }

    #[test]
    fn missing_and_extra_lines_are_differences() {
        let d = compare("a\nb\n", "a\n", &CompareOptions::default());
        assert_eq!(d, vec![Difference { line: 2, expected: Some("b".into()), actual: None }]);
    }
}

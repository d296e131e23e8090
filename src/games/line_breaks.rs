//! The characters some common reader ends a line at, beside arena's own `\n`.
//!
//! arena cuts a bot's output into lines at `\n`, a `\r` just before it being part of the line's end
//! (a Windows bot's CRLF). The programs a line is passed on to may cut more: Java's
//! `BufferedReader`, C#'s `ReadLine` and JavaScript's `readline` at a lone `\r`; Java's `Scanner`
//! also at U+2028, U+2029 and U+0085; Python's `str.splitlines` at all of those, and at `\v`, `\f`
//! and U+001C to U+001E. A line holding one is one line to arena and two to such a reader: a player
//! could answer for its opponent through a referee program (`1\r0`), or show the spectators a move
//! that was never played. So no such line is taken from a player or a referee program, and the JSON
//! arena writes escapes the three that serde_json leaves raw (docs/design.md, section "Line
//! breaks").

use std::fmt::Write as _;

use serde::Serialize;

use crate::failure::{Cause, Fault};

/// Every character some common reader ends a line at, with its name for people; the newline,
/// which ends arena's lines too, first.
pub const BREAKS: [(char, &str); 10] = [
    ('\n', "a newline"),
    ('\r', "a carriage return"),
    ('\u{b}', "a vertical tab"),
    ('\u{c}', "a form feed"),
    ('\u{1c}', "a file separator (U+001C)"),
    ('\u{1d}', "a group separator (U+001D)"),
    ('\u{1e}', "a record separator (U+001E)"),
    ('\u{85}', "a next-line character (U+0085)"),
    ('\u{2028}', "a line separator (U+2028)"),
    ('\u{2029}', "a paragraph separator (U+2029)"),
];

/// Whether some reader ends a line at `c`: [`BREAKS`] as one match, for every line arena reads.
fn is_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// The name of `c` if some reader ends a line at it.
fn name(c: char) -> Option<&'static str> {
    BREAKS.iter().find(|(b, _)| *b == c).map(|(_, name)| *name)
}

/// The first character of `text` some reader ends a line at.
pub fn find(text: &str) -> Option<char> {
    // Every line arena reads is looked at: most are printable ASCII, which a byte test clears.
    if text.bytes().all(|b| (0x1f..0x80).contains(&b)) {
        return None;
    }
    text.chars().find(|&c| is_break(c))
}

/// `text` with its line breaks written as escapes (`\r`, `\u{b}`, `\u{2028}`): visible, and one
/// line wherever it is quoted.
pub fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if !is_break(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out
}

/// The fault of whoever `did` (`sent`, `wrote`) `line` when it holds a line break: `sent '1\r0':
/// a carriage return inside its line, where some readers end a line`.
pub fn check(line: &str, did: &str) -> Result<(), Fault> {
    let Some(name) = find(line).and_then(name) else {
        return Ok(());
    };
    Err(Fault::protocol(format!(
        "{did} '{}': {name} inside its line, where some readers end a line",
        shown(line)
    ))
    .because(Cause::LineBreak))
}

/// `value` as compact JSON on one line for every reader: serde_json escapes the control characters
/// (`\r`, `\u000b`...) but leaves U+0085, U+2028 and U+2029 raw, which this escapes as `\u2028`.
pub fn json(value: &(impl Serialize + ?Sized)) -> String {
    let mut bytes = Vec::new();
    write_json(&mut bytes, value).expect("a value serialises to memory");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// [`json`] into `writer`.
pub fn write_json<W: std::io::Write>(
    writer: W,
    value: &(impl Serialize + ?Sized),
) -> serde_json::Result<()> {
    value.serialize(&mut serde_json::Serializer::with_formatter(writer, OneLine))
}

/// serde_json's compact formatter, with the line breaks it leaves raw escaped.
struct OneLine;

impl serde_json::ser::Formatter for OneLine {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // serde_json hands over no control character; the others start with these bytes.
        if !fragment.bytes().any(|b| b == 0xc2 || b == 0xe2) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_break(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", c as u32)?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_and_the_table_agree() {
        for c in (0..0x3000).filter_map(char::from_u32) {
            assert_eq!(is_break(c), name(c).is_some(), "{c:?}");
        }
    }

    #[test]
    fn every_break_is_found_and_a_line_without_one_is_taken() {
        for (c, _) in BREAKS {
            assert_eq!(find(&format!("1{c}0")), Some(c));
            assert!(check(&format!("1{c}0"), "sent").is_err());
        }
        for fine in [
            "1",
            "",
            " 1 ",
            "b1b3 a\tb é 😀",
            "\u{a0}",
            "\u{2027}\u{202a}",
        ] {
            assert_eq!(find(fine), None, "{fine:?}");
            assert_eq!(check(fine, "sent"), Ok(()));
        }
    }

    #[test]
    fn the_fault_names_the_character_and_quotes_the_line_on_one_line() {
        let f = check("1\r0", "sent").unwrap_err();
        assert_eq!(f.kind, crate::failure::FaultKind::Protocol);
        assert_eq!(f.cause, Cause::LineBreak);
        assert_eq!(
            f.detail,
            "sent '1\\r0': a carriage return inside its line, where some readers end a line"
        );
        let f = check("###Input 0\u{2028}", "wrote").unwrap_err();
        assert_eq!(
            f.detail,
            "wrote '###Input 0\\u{2028}': a line separator (U+2028) inside its line, where some \
             readers end a line"
        );
        assert_eq!(
            shown("a\nb\u{b}c\u{85}d\u{2029}e"),
            "a\\nb\\u{b}c\\u{85}d\\u{2029}e"
        );
        assert_eq!(find(&f.detail), None);
    }

    #[test]
    fn json_escapes_every_break_and_reads_back_the_same() {
        let text = "a\r\n\u{b}\u{c}\u{1c}\u{85}\u{2028}\u{2029}é😀\"\\";
        let value = serde_json::json!({"log": text, "n": [1, 2]});
        let written = json(&value);
        assert_eq!(find(&written), None, "{written}");
        assert!(written.contains("\\u2028") && written.contains("\\u0085"));
        assert!(written.contains('é') && written.contains('😀'));
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&written).unwrap(),
            value
        );
        // Compact, as serde_json's own.
        assert_eq!(
            json(&serde_json::json!({"a": [1, "x"]})),
            r#"{"a":[1,"x"]}"#
        );
    }
}

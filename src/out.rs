//! Words for the terminal. A reader that goes away (`arena run ... | head`) must not stop a run or
//! kill arena with a panic: what cannot be written is dropped. Bots' bytes reach these lines
//! (moves quoted in a failure, stderr in `arena check`), and a terminal obeys escape sequences:
//! a move made of them could rewrite a "Finished game" line into a fake win, so every control
//! character is shown escaped.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;

/// `1 win`, `2 wins`: a count and its noun.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many columns of a terminal `text` takes: a wide character (CJK) two, a combining mark
/// none; what tables are aligned by, where a count of characters put wide names out of line.
pub fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// `text` set in `width` columns, to the left or to the right.
pub fn padded(text: &str, width: usize, left: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(columns(text)));
    match left {
        true => format!("{text}{fill}"),
        false => format!("{fill}{text}"),
    }
}

/// Print a line of results.
pub fn line(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{}", shown(text));
}

/// Print text as it is (it carries its own newlines).
pub fn text(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(shown(text).as_bytes())
        .and_then(|_| stdout.flush());
}

/// Print a line of words on stderr.
pub fn warn(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", shown(text));
}

/// Whether text for people may hold characters beyond ASCII: the locale's character set is
/// UTF-8, by the first of `LC_ALL`, `LC_CTYPE` and `LANG` that is set, as C's `setlocale` picks
/// it (none set is the "C" locale, ASCII: cron's usual environment).
pub fn utf8() -> bool {
    static UTF8: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *UTF8.get_or_init(|| {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|l| !l.is_empty()))
            .unwrap_or_default()
            .to_ascii_lowercase();
        locale.contains("utf-8") || locale.contains("utf8")
    })
}

/// `fancy` where the locale writes UTF-8, else `plain` (ASCII).
pub fn symbol(fancy: &'static str, plain: &'static str) -> &'static str {
    if utf8() { fancy } else { plain }
}

/// `text` safe for a terminal: newlines and tabs stay; every other control character (C0, DEL,
/// C1), the bidirectional overrides that reorder what is shown, and the line and paragraph
/// separators (a script reading arena's lines may end a line there) become visible escapes.
pub fn shown(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(
                c,
                '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}'
            )
    };
    if !text.contains(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\r' => safe.push_str("\\r"),
            c if unsafe_char(c) && (c as u32) < 0x100 => {
                let _ = write!(safe, "\\x{:02x}", c as u32);
            }
            c if unsafe_char(c) => {
                let _ = write!(safe, "\\u{{{:x}}}", c as u32);
            }
            c => safe.push(c),
        }
    }
    Cow::Owned(safe)
}

#[cfg(test)]
mod tests {
    use super::shown;

    #[test]
    fn control_characters_are_shown_escaped_and_plain_text_is_untouched() {
        assert!(matches!(
            shown("Finished game 1: 1-0\tok\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(
            shown("ROCK\x1b[2K\rFinished game 1 (evil vs you): 1-0"),
            "ROCK\\x1b[2K\\rFinished game 1 (evil vs you): 1-0"
        );
        assert_eq!(shown("a\x07b\x7fc\u{9b}d"), "a\\x07b\\x7fc\\x9bd");
        assert_eq!(shown("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(shown("1\u{2028}0\u{2029}"), "1\\u{2028}0\\u{2029}");
        assert_eq!(shown("é ♜ 名"), "é ♜ 名");
    }
}

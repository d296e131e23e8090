//! Results on stdout. A reader that goes away (`arena run ... | head`) must not stop a run or
//! kill arena with a panic: what cannot be written is dropped.

use std::io::Write;

/// Print a line of results.
pub fn line(text: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{text}");
}

/// Print text as it is (it carries its own newlines).
pub fn text(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush());
}

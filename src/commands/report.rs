//! `arena report DIR`: the HTML report of a results folder, written again from its records.

use std::path::Path;

use crate::error::Result;
use crate::report::html::write_folder;

/// `arena report DIR`: the page again from what the folder holds.
pub fn run(dir: &Path, title: Option<String>) -> Result<()> {
    let started = std::time::Instant::now();
    let (page, games) = write_folder(dir, title)?;
    eprintln!(
        "arena: {games} games in {} ({:.2} s)",
        page.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

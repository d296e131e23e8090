//! `arena run SPEC`: a tournament as its spec describes it, into its results folder.

use std::path::Path;

use crate::error::{Error, Result};
use crate::spec::Spec;
use crate::tournament::{self, RunOptions};

/// Load and check the spec, then play what it schedules that the folder does not hold yet.
pub async fn run(spec: &Path, opts: RunOptions) -> Result<()> {
    let path = spec.to_path_buf();
    // Off the runtime's thread: the spec and its openings file are read on the blocking pool.
    let spec = tokio::task::spawn_blocking(move || Spec::load(&path))
        .await
        .map_err(|e| Error::Internal(format!("reading {}: {e}", spec.display())))??;
    for warning in &spec.warnings {
        crate::out::warn(&format!("arena: {warning}"));
    }
    let bots = spec.bots.iter().map(|b| (&b.bot.limits, b.bot.sandbox.is_some()));
    for note in crate::bot::controllers::start_notes(bots) {
        crate::out::warn(&format!("arena: {note}"));
    }
    tournament::run(spec, opts).await
}

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
    let memory_limited = spec.bots.iter().any(|b| b.bot.limits.memory_mb.is_some());
    if memory_limited && !crate::bot::controllers::can_limit_memory() {
        crate::out::warn(
            "arena: memory_mb is held here as an address-space limit (RLIMIT_AS): arena may use \
             no cgroup memory controller (it needs root, or a delegated cgroup). Java, Node.js \
             and .NET reserve far more than they use and may fail to start under it; see the \
             README, section Limits.",
        );
    }
    tournament::run(spec, opts).await
}

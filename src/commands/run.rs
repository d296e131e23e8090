//! `arena run SPEC`: a tournament as its spec describes it, into its results folder.

use std::path::Path;

use crate::error::Result;
use crate::spec::Spec;
use crate::tournament::{self, RunOptions};

/// Load and check the spec, then play what it schedules that the folder does not hold yet.
pub async fn run(spec: &Path, opts: RunOptions) -> Result<()> {
    let spec = Spec::load(spec)?;
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

//! `arena run SPEC`: a tournament as its spec describes it, into its results folder.

use std::path::Path;

use crate::error::Result;
use crate::spec::Spec;
use crate::tournament::{self, RunOptions};

/// Load and check the spec, then play what it schedules that the folder does not hold yet.
pub async fn run(spec: &Path, opts: RunOptions) -> Result<()> {
    let spec = Spec::load(spec)?;
    tournament::run(spec, opts).await
}

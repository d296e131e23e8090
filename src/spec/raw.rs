//! What a spec's TOML says, as serde reads it (every value with its place in the file), and
//! `Source`, which turns a place into `file:line:column` for messages.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use serde::Deserialize;
use toml::Spanned;
use crate::bot::{Channel, Limits};
use crate::error::Error;
use crate::games::openings::Order;
use crate::format::Format;


#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Raw {
    pub(super) name: Spanned<String>,
    /// Absent with a `[referee]`: its game is `referee`.
    pub(super) game: Option<Spanned<String>>,
    pub(super) referee: Option<Spanned<RawReferee>>,
    #[serde(default)]
    pub(super) format: Option<Spanned<&'static dyn Format>>,
    pub(super) games_per_pairing: Option<Spanned<u32>>,
    pub(super) rounds: Option<Spanned<u32>>,
    pub(super) players: Option<Spanned<i64>>,
    pub(super) games_per_bot: Option<Spanned<u32>>,
    pub(super) timeout: Option<Spanned<f64>>,
    pub(super) startup_timeout: Option<Spanned<f64>>,
    pub(super) seed: Option<u64>,
    pub(super) jobs: Option<Spanned<usize>>,
    pub(super) channel: Option<Channel>,
    #[serde(default)]
    pub(super) ladder: bool,
    pub(super) min_free_mb: Option<Spanned<u64>>,
    pub(super) sandbox: Option<Spanned<bool>>,
    pub(super) sandbox_user: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) ponder: bool,
    pub(super) openings: Option<Spanned<String>>,
    pub(super) openings_order: Option<Spanned<Order>>,
    pub(super) random_plies: Option<Spanned<u32>>,
    #[serde(default)]
    pub(super) params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pub(super) limits: Limits,
    #[serde(default, rename = "bot")]
    pub(super) bots: Vec<RawBot>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    pub(super) command: Spanned<String>,
    pub(super) dir: Option<Spanned<String>>,
    pub(super) channel: Option<Channel>,
    #[serde(default)]
    pub(super) env: BTreeMap<String, String>,
    pub(super) seed: Option<Spanned<bool>>,
    /// Overrides the tournament's limits for this bot, field by field.
    #[serde(default)]
    pub(super) limits: Limits,
}

/// `[referee]`: a referee program and its own deadlines.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawReferee {
    pub(super) command: Spanned<String>,
    pub(super) players: Option<Spanned<i64>>,
    pub(super) timeout: Option<Spanned<f64>>,
    pub(super) startup_timeout: Option<Spanned<f64>>,
    pub(super) max_turns: Option<Spanned<i64>>,
    /// `sdk` for a CodinGame game-engine SDK referee; the `protocol` parameter.
    pub(super) protocol: Option<Spanned<String>>,
    /// How an SDK referee takes its seed; the `seed_form` parameter.
    pub(super) seed_form: Option<Spanned<String>>,
    /// Its own limits: the tournament's `[limits]` are the players' (a JVM referee needs far
    /// more address space than a bot should get).
    #[serde(default)]
    pub(super) limits: Limits,
}

/// Where in the file, for messages: `path:line:column`.
pub(super) struct Source<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
}

impl Source<'_> {
    pub(super) fn at(&self, span: Option<Range<usize>>, message: impl std::fmt::Display) -> Error {
        Error::Spec(self.place(span, message))
    }

    /// `message` after the place it is about.
    pub(super) fn place(&self, span: Option<Range<usize>>, message: impl std::fmt::Display) -> String {
        let Some(span) = span else {
            return format!("{}: {message}", self.path.display());
        };
        let before = &self.text[..span.start.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        format!("{}:{line}:{column}: {message}", self.path.display())
    }
}

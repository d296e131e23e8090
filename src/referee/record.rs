//! What a game leaves: its record (`GameRecord`, as `--json` prints it and the tables record
//! it), and the game played out whose log is still to be made durable (`Played`).

use serde::Serialize;
use tokio::time::Instant;

use super::log::{self, GameLog};
use super::{MatchSetup, Verdict, times};
use crate::bot::Capture;
use crate::error::{Error, Result};

/// One finished game, as `--json` prints it and the tables record it.
#[derive(Debug, Clone, Serialize)]
pub struct GameRecord {
    pub game: String,
    /// One name per seat.
    pub players: Vec<String>,
    /// The judge's verdict, its fields inline in the JSON.
    #[serde(flatten)]
    pub verdict: Verdict,
    pub seed: u64,
    pub duration_ms: u64,
    pub log: String,
    /// Each seat's answer times, in seat order (empty where nothing was timed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub times: Vec<times::AnswerTimes>,
}

impl GameRecord {
    /// The record of a game of `setup` begun at `started`, and its JSON for the log's end.
    pub(super) fn of(
        setup: &MatchSetup,
        players: Vec<String>,
        verdict: Verdict,
        started: Instant,
        times: Vec<times::AnswerTimes>,
    ) -> (GameRecord, serde_json::Value) {
        let record = GameRecord {
            game: setup.game.name.to_string(),
            players,
            verdict,
            seed: setup.seed,
            duration_ms: started.elapsed().as_millis() as u64,
            log: setup.log_path.display().to_string(),
            times,
        };
        let result = serde_json::to_value(&record).expect("a record serialises");
        (record, result)
    }

    /// The line printed when game `id` ends: who played, the score, why it ended, and the fault.
    pub fn finished_line(&self, id: usize) -> String {
        let v = &self.verdict;
        let mut line = match self.players.len() {
            2 => format!(
                "Finished game {id} ({} vs {}): {}-{} {}, {} plies",
                self.players[0],
                self.players[1],
                format_score(v.scores[0]),
                format_score(v.scores[1]),
                v.reason.as_str(),
                v.plies
            ),
            _ => format!(
                "Finished game {id} ({}): places {} {}, {} plies",
                self.players.join(" vs "),
                v.places,
                v.reason.as_str(),
                v.plies
            ),
        };
        match (v.faulted, &v.detail) {
            (Some(seat), Some(detail)) => {
                line.push_str(&format!(": {} {detail}", self.players[seat]))
            }
            (None, Some(detail)) => line.push_str(&format!(": {detail}")),
            _ => {}
        }
        // With more players, the failures the game went on after.
        for out in v.out.iter().filter(|o| Some(o.seat) != v.faulted) {
            line.push_str(&format!("; {} {}", self.players[out.seat], out.detail));
        }
        line
    }
}

/// A seat's score as the lines print it: `1`, `0`, or `1/2`.
pub fn format_score(x: f64) -> String {
    if x == 0.5 {
        "1/2".into()
    } else {
        format!("{x}")
    }
}

/// A game played out whose log is written but not yet synced to disk, and whose bots' stderr
/// may still be on its way to their files (`settle` waits for it).
pub struct Played {
    pub record: GameRecord,
    pub(super) log: GameLog,
    pub(super) result: serde_json::Value,
    /// The bots' stderr, possibly still on its way to their files.
    pub(super) captures: Vec<Capture>,
}

impl Played {
    /// Whether the bots' stderr is all in their files.
    pub fn settled(&self) -> bool {
        self.captures.iter().all(Capture::is_done)
    }

    /// Wait until the bots' stderr is all in their files (or cut off after the grace): a game
    /// counts with all its files complete. Both seats at once, so a game waits one grace at most.
    pub async fn settle(&mut self) {
        futures_util::future::join_all(self.captures.drain(..).map(Capture::finish)).await;
    }

    /// Write the result into the log and wait for the disk. On the blocking pool: a runtime
    /// thread would stop relaying other games meanwhile.
    pub async fn durable(mut self) -> Result<GameRecord> {
        self.settle().await;
        tokio::task::spawn_blocking(move || self.finish())
            .await
            .map_err(|e| Error::Internal(format!("writing a game log: {e}")))?
    }

    /// The same, blocking the calling thread, for a settled game.
    fn finish(self) -> Result<GameRecord> {
        debug_assert!(
            self.settled(),
            "a game counts once its stderr is in its files"
        );
        let Played {
            record,
            log,
            result,
            ..
        } = self;
        log.finish(result).map(|()| record)
    }

    /// Make several settled games durable at once, blocking the calling thread: cheaper than
    /// one by one (see `log::finish_all`). Their records, in the same order.
    pub fn finish_all(games: impl IntoIterator<Item = Played>) -> Result<Vec<GameRecord>> {
        let (records, logs): (Vec<_>, Vec<_>) = games
            .into_iter()
            .map(|p| {
                debug_assert!(p.settled(), "a game counts once its stderr is in its files");
                (p.record, (p.log, p.result))
            })
            .unzip();
        log::finish_all(logs).map(|()| records)
    }
}


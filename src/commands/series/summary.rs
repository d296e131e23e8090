//! A duel's statistics in words and in JSON: the figures come from `stats`, the wording is the
//! duel's.

use serde_json::{Value, json};

use crate::stats::{Interval, Sprt, Summary, Tally, Verdict};

/// Where an SPRT stands: its LLR now, or the verdict it reached, frozen with the LLR and the
/// game that reached it.
#[derive(Debug, Clone, Copy)]
pub struct SprtState {
    pub test: Sprt,
    pub llr: f64,
    pub decided: Option<(Verdict, u64)>,
}

impl SprtState {
    pub fn new(test: Sprt) -> SprtState {
        SprtState {
            test,
            llr: 0.0,
            decided: None,
        }
    }

    /// Take the tally after game `game` (1 is the first); the verdict, once reached, no longer
    /// changes: games that were running when it was reached are recorded but do not count for
    /// it.
    pub fn update(&mut self, tally: &Tally, game: u64) {
        if self.decided.is_some() {
            return;
        }
        self.llr = self.test.llr(&tally.pairs);
        if let Some(verdict) = self.test.verdict(self.llr) {
            self.decided = Some((verdict, game));
        }
    }

    /// For the line of each finished game: `LLR 1.23 (-2.94, 2.94)`.
    pub fn progress(&self) -> String {
        let (lower, upper) = self.test.bounds();
        format!("LLR {:.2} ({lower:.2}, {upper:.2})", self.llr)
    }

    /// The conclusion: which hypothesis was accepted and when, or that there is none: the games
    /// ran out, or the duel was stopped with `stopped` games recorded.
    pub fn conclusion(&self, names: &[String], stopped: Option<u64>) -> String {
        let t = &self.test;
        let model = t.model().as_str();
        let head = format!(
            "SPRT ({model} Elo {} to {}, alpha {}, beta {}): ",
            t.elo0(),
            t.elo1(),
            t.alpha(),
            t.beta()
        );
        match self.decided {
            Some((Verdict::H1, games)) => format!(
                "{head}H1 accepted after {games} games ({} is at least {} Elo better), {}",
                names[0],
                t.elo1(),
                self.progress()
            ),
            Some((Verdict::H0, games)) => format!(
                "{head}H0 accepted after {games} games ({} is not {} Elo better), {}",
                names[0],
                t.elo1(),
                self.progress()
            ),
            None => match stopped {
                Some(games) => format!(
                    "{head}no verdict yet: stopped with {} recorded, {}",
                    crate::out::plural(games, "game", "games"),
                    self.progress()
                ),
                None => format!(
                    "{head}no verdict: the games ran out first, {}",
                    self.progress()
                ),
            },
        }
    }

    fn json(&self) -> Value {
        let (lower, upper) = self.test.bounds();
        json!({
            "elo0": self.test.elo0(),
            "elo1": self.test.elo1(),
            "alpha": self.test.alpha(),
            "beta": self.test.beta(),
            "model": self.test.model().as_str(),
            "llr": self.llr,
            "lower": lower,
            "upper": upper,
            "result": self.decided.map(|(v, _)| match v {
                Verdict::H0 => "H0",
                Verdict::H1 => "H1",
            }),
            "games": self.decided.map(|(_, games)| games),
        })
    }
}

/// `34.9 +/- 48.5 (95%)`, or with an unbounded end `552.1 (95%: 301.2 to +inf)`.
fn elo(interval: &Interval) -> String {
    let number = |x: f64| {
        if x.is_finite() {
            format!("{x:.1}")
        } else if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    };
    let half = interval.half_width();
    if half.is_finite() {
        format!("{} +/- {half:.1} (95%)", number(interval.estimate))
    } else {
        format!(
            "{} (95%: {} to {})",
            number(interval.estimate),
            number(interval.lower),
            number(interval.upper)
        )
    }
}

fn percent(x: Option<f64>) -> String {
    x.map_or("n/a".into(), |x| format!("{:.1}%", 100.0 * x))
}

/// The statistics lines of a duel's summary, after its count of wins, draws and losses.
pub fn lines(tally: &Tally) -> Vec<String> {
    let games = Summary::new(&tally.games, None);
    if games.games == 0 {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "Score {} of {} games ({}), draw ratio {}; Elo difference {}, LOS {}",
        games.points,
        games.games,
        percent(games.score),
        percent(games.draw_ratio),
        games.elo.as_ref().map_or("n/a".into(), elo),
        percent(games.los)
    )];
    let p = &tally.pairs;
    if p.pairs() > 0 {
        let pairs = tally.summary();
        lines.push(format!(
            "Pairs (LL, LD, DD/WL, WD, WW): {}, {}, {}, {}, {}; Elo difference from pairs {}, \
             LOS {}",
            p.ll,
            p.ld,
            p.dd_wl,
            p.wd,
            p.ww,
            pairs.elo.as_ref().map_or("n/a".into(), elo),
            percent(pairs.los)
        ));
    }
    lines
}

/// An interval as JSON: an end that is unbounded is `null`.
fn interval_json(interval: Option<Interval>) -> Value {
    let finite = |x: f64| x.is_finite().then_some(x);
    interval.map_or(Value::Null, |i| {
        json!({"estimate": finite(i.estimate), "lower": finite(i.lower), "upper": finite(i.upper)})
    })
}

/// The final summary object of `--json`: `{"summary": {...}}`; `interrupted` when the duel was
/// stopped by a signal before its end.
pub fn json(tally: &Tally, sprt: Option<&SprtState>, interrupted: bool) -> Value {
    let games = Summary::new(&tally.games, None);
    let p = &tally.pairs;
    let pairs = (p.pairs() > 0).then(|| tally.summary());
    json!({"summary": {
        "games": games.games,
        "wins": games.wins,
        "draws": games.draws,
        "losses": games.losses,
        "points": games.points,
        "score": games.score,
        "draw_ratio": games.draw_ratio,
        "elo": interval_json(games.elo),
        "normalized_elo": interval_json(games.normalized_elo),
        "los": games.los,
        "pentanomial": pairs.map(|_| [p.ll, p.ld, p.dd_wl, p.wd, p.ww]),
        "pair_elo": interval_json(pairs.and_then(|s| s.elo)),
        "pair_normalized_elo": interval_json(pairs.and_then(|s| s.normalized_elo)),
        "pair_los": pairs.and_then(|s| s.los),
        "sprt": sprt.map(SprtState::json),
        "interrupted": interrupted,
    }})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Wdl;

    #[test]
    fn a_verdict_once_reached_stays_as_it_was() {
        let mut state = SprtState::new("elo0=0,elo1=200".parse().unwrap());
        let mut tally = Tally::default();
        let mut game = 0;
        while state.decided.is_none() {
            tally.record(game, Some(Wdl::Win));
            game += 1;
            state.update(&tally, game);
            assert!(game < 100, "all wins reach H1");
        }
        let (llr, decided) = (state.llr, state.decided);
        assert_eq!(decided, Some((Verdict::H1, game)));
        for _ in 0..10 {
            tally.record(game, Some(Wdl::Loss));
            game += 1;
            state.update(&tally, game);
        }
        assert_eq!((state.llr, state.decided), (llr, decided));
        assert!(
            state
                .conclusion(&["a".into(), "b".into()], None)
                .contains(&format!("after {}", decided.unwrap().1))
        );
    }
}

//! `arena run SPEC.toml`: plays a schedule's games in parallel, writes each finished game to
//! `games.csv` before it counts, keeps the tables current, and resumes where a run stopped.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use tokio::task::JoinSet;

use crate::bot::process::IoLimits;
use crate::error::{Error, Result};
use crate::games::derive_seed;
use crate::referee::{self, MatchSetup, Played, Player};
use crate::referee::{SETUP_ATTEMPTS, SETUP_PAUSE};
use crate::report::live::Live;
use crate::report::{self, GameRow};
use crate::schedule::swiss::{PodPlayer, SwissPlayer, pair_pods, pair_round};
use crate::schedule::{Planned, rotation, seats_of_game, swiss_pair};
use crate::spec::{Format, Spec};
use threads::GameThreads;

mod disk;
pub mod journal;
mod lock;
pub mod record;
mod settings;
pub mod stop;
pub mod threads;

use journal::{Journal, Trip};
pub use lock::Lock;
use stop::Stop;

/// `--shard K/N`: this run plays the games whose id is K modulo N (ids count from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let bad = || format!("--shard {s}: expected K/N with 1 <= K <= N, such as 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    fn takes(&self, id: u64) -> bool {
        (id - 1) % self.count as u64 == (self.index - 1) as u64
    }
}

pub struct RunOptions {
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub shard: Option<Shard>,
}

/// A game with its id, as the run plays it.
#[derive(Debug, Clone)]
struct Job {
    id: u64,
    planned: Planned,
}

/// The results folder: `games.csv` appended and synced as games finish, tables replaced whole.
struct Results {
    dir: PathBuf,
    journal: Journal<Job>,
    /// Shared with the tables being rewritten on the blocking pool (copied only if a game is
    /// added meanwhile).
    rows: std::sync::Arc<Vec<GameRow>>,
    names: Vec<String>,
    spec: Spec,
    last_tables: Instant,
    /// Each bot's points so far, for the progress line (kept up to date, not summed per game).
    points: BTreeMap<String, f64>,
    /// Packs the games for the report as they are played.
    live: Option<std::sync::Arc<Live>>,
    /// The standings' first, and when it was found (`leader`).
    leader: Option<(Instant, Option<String>)>,
}

impl Results {
    fn open(dir: &Path, spec: &Spec) -> Result<Results> {
        let (journal, rows) = Journal::open(&dir.join("games.csv"), spec.players)?;
        let order: Vec<String> = spec.bots.iter().map(|b| b.name.clone()).collect();
        Ok(Results {
            dir: dir.to_path_buf(),
            journal,
            names: report::bot_names(&order, &rows),
            points: tally(BTreeMap::new(), &rows),
            rows: std::sync::Arc::new(rows),
            spec: spec.clone(),
            last_tables: Instant::now(),
            live: Live::start().map(std::sync::Arc::new),
            leader: None,
        })
    }

    /// The next batch of finished games through its trip to the disk (`Journal::next`). Their
    /// rows count from the trip's start, and are taken back (`forget`) if it fails; the caller
    /// tells people once it has succeeded. Every two seconds at most, the tables are rewritten
    /// in the same trip (the ratings' fits would hold up the games on this thread).
    async fn recorded(&mut self, closing: bool) -> Trip<Job> {
        let Results {
            dir,
            journal,
            rows,
            names,
            spec,
            last_tables,
            points,
            ..
        } = self;
        journal
            .next(closing, |new| {
                *points = tally(std::mem::take(points), new);
                std::sync::Arc::make_mut(rows).extend_from_slice(new);
                (last_tables.elapsed() > Duration::from_secs(2)).then(|| {
                    *last_tables = Instant::now();
                    let tables = Tables::of(dir, names, rows, spec);
                    Box::new(move || write_all_atomic(&tables.files())) as journal::Also
                })
            })
            .await
    }

    /// Take back the rows of a trip that failed: they do not count.
    fn forget(&mut self, keep: usize) {
        std::sync::Arc::make_mut(&mut self.rows).truncate(keep);
        self.points = tally(BTreeMap::new(), &self.rows);
    }

    /// What the tables are made from, as they stand: cheap to take, and to send to another
    /// thread.
    fn tables(&self) -> Tables {
        Tables::of(&self.dir, &self.names, &self.rows, &self.spec)
    }

    /// `report.html`: written when a run ends (it replays every game, so not after each one),
    /// from the games packed while they were played and the others' logs; the tables are
    /// written meanwhile.
    fn write_tables_and_report(&self) -> Result<PathBuf> {
        let ready = self.live.as_deref().map(Live::finish).unwrap_or_default();
        let tables = self.tables();
        report::html::write_alongside(
            &self.dir,
            &report::html::ReportInput {
                title: self.spec.name.clone(),
                game: self.spec.game,
                params: self.spec.params.pairs(),
                format: self.spec.format.as_str(),
                names: &self.names,
                rows: &self.rows,
                players: self.spec.players,
            },
            ready,
            move || write_all_atomic(&tables.files()),
        )
    }

    /// The bot the standings would put first, with its points: the same order as the tables
    /// (Elo, then points, then name), so that the last progress line names the standings'
    /// first. The fit is redone at most once a second, and for the last game.
    fn leader(&mut self, last: bool) -> Option<(String, f64)> {
        let stale = self
            .leader
            .as_ref()
            .is_none_or(|(at, _)| at.elapsed() > Duration::from_secs(1));
        if last || stale {
            let first = report::standings(&self.names, &self.rows, self.spec.players)
                .into_iter()
                .find(|t| t.games > 0)
                .map(|t| t.bot);
            self.leader = Some((Instant::now(), first));
        }
        let name = self.leader.as_ref()?.1.clone()?;
        let points = self.points.get(&name).copied().unwrap_or(0.0);
        Some((name, points))
    }
}

/// A results folder for people: a relative one with the current folder it is relative to.
fn shown_from_here(dir: &Path) -> String {
    match std::env::current_dir() {
        Ok(here) if dir.is_relative() => format!("{} (in {})", dir.display(), here.display()),
        _ => dir.display().to_string(),
    }
}

/// The tables of a run at one moment.
struct Tables {
    dir: PathBuf,
    names: Vec<String>,
    rows: std::sync::Arc<Vec<GameRow>>,
    /// How many play each game.
    players: usize,
    /// A gauntlet's students and references, for its grades.
    gauntlet: Option<(Vec<String>, Vec<String>)>,
}

impl Tables {
    fn of(
        dir: &Path,
        names: &[String],
        rows: &std::sync::Arc<Vec<GameRow>>,
        spec: &Spec,
    ) -> Tables {
        let gauntlet = (spec.format == Format::Gauntlet).then(|| {
            let (refs, students): (Vec<_>, Vec<_>) = spec.bots.iter().partition(|b| b.seed);
            let names = |v: Vec<&crate::spec::Entrant>| {
                v.into_iter().map(|b| b.name.clone()).collect::<Vec<_>>()
            };
            (names(students), names(refs))
        });
        Tables {
            dir: dir.to_path_buf(),
            names: names.to_vec(),
            rows: rows.clone(),
            players: spec.players,
            gauntlet,
        }
    }

    /// The files and their contents: every table of `report::derived::FILES`.
    fn files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        use report::derived::{Gauntlet, Inputs, Which, tables};
        let gauntlet = self.gauntlet.as_ref().map(|(students, references)| Gauntlet {
            students: students.clone(),
            references: references.clone(),
            logs: report::logs::Logs::Own(self.dir.clone()),
        });
        let inputs = Inputs {
            names: &self.names,
            rows: &self.rows,
            players: self.players,
            gauntlet,
        };
        tables(&self.dir, &inputs, Which::All)
    }

    /// A gauntlet's references and grades.
    fn grades(&self) -> Option<(Vec<String>, Vec<report::grades::Grade>)> {
        let (students, refs) = self.gauntlet.as_ref()?;
        let logs = report::logs::Logs::Own(self.dir.clone());
        Some((
            refs.clone(),
            report::grades::grades(students, refs, &self.rows, &logs),
        ))
    }

    /// What people read when the run ends: a gauntlet's grades (the students alone, as the
    /// teacher reads them), or the standings.
    fn summary(&self) -> String {
        match self.grades() {
            Some((refs, grades)) => format!(
                "{}grades in {}\n",
                report::grades::grades_text(&refs, &grades),
                self.dir.join("grades.csv").display()
            ),
            None => report::standings_text(&report::standings(&self.names, &self.rows, self.players)),
        }
    }
}

fn write_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> Result<()> {
    files
        .iter()
        .try_for_each(|(path, bytes)| report::write_atomic(path, bytes))
}

/// Add the rows' points to each bot's.
fn tally(mut points: BTreeMap<String, f64>, rows: &[GameRow]) -> BTreeMap<String, f64> {
    for r in rows {
        for (name, score) in r.seats.iter().zip(r.scores()) {
            *points.entry(name.clone()).or_default() += score;
        }
    }
    points
}

/// Progress for people: a bar on a terminal, a plain line now and then elsewhere (cron).
struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    last_line: Instant,
}

impl Progress {
    fn new(total: u64, done: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
                    .expect("a valid template"),
            );
            bar.set_position(done);
            bar
        });
        Progress {
            bar,
            total,
            done,
            last_line: Instant::now(),
        }
    }

    /// A finished game: its line on stdout (results), the progress on stderr.
    fn finished(&mut self, line: &str, leader: Option<(String, f64)>) {
        self.done += 1;
        let leader = leader
            // Half points as they are (7.5); the points of games of more players to 2 places.
            .map(|(n, p)| match (p * 2.0).fract() == 0.0 {
                true => format!("leader: {n} ({p})"),
                false => format!("leader: {n} ({p:.2})"),
            })
            .unwrap_or_default();
        match &self.bar {
            Some(bar) => {
                bar.suspend(|| crate::out::line(line));
                bar.set_message(crate::out::shown(&leader).into_owned());
                bar.inc(1);
            }
            None => {
                crate::out::line(line);
                if self.last_line.elapsed() > Duration::from_secs(10) || self.done == self.total {
                    self.last_line = Instant::now();
                    crate::out::warn(&format!(
                        "arena: {}/{} games, {leader}",
                        self.done, self.total
                    ));
                }
            }
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub async fn run(spec: Spec, opts: RunOptions) -> Result<()> {
    if opts.shard.is_some() && (spec.format == Format::Swiss || spec.ladder) {
        return Err(Error::Usage(
            "--shard splits a round-robin or gauntlet; a swiss or a ladder depends on its own results".into(),
        ));
    }
    let dir = match (&opts.out, opts.shard) {
        (Some(d), _) => d.clone(),
        (None, Some(s)) => {
            Path::new("results").join(format!("{}-shard-{}-of-{}", spec.name, s.index, s.count))
        }
        (None, None) => Path::new("results").join(&spec.name),
    };
    if opts.resume && !dir.join("games.csv").exists() {
        return Err(Error::Conflict(format!(
            "--resume: {} holds no games.csv to resume",
            dir.display()
        )));
    }
    // Shards merged by `arena ratings --out`: their games.csv leads to other folders' logs, and
    // a run's games must not join them.
    if dir.join(report::logs::MERGED).exists() {
        return Err(Error::Conflict(format!(
            "{} holds shards merged by arena ratings ({}): a run writes into a folder of its \
             own, use another --out",
            dir.display(),
            report::logs::MERGED
        )));
    }
    let first_night = spec.ladder && !dir.join("games.csv").exists();
    std::fs::create_dir_all(dir.join("logs"))
        .map_err(Error::io(format!("creating {}", dir.display())))?;
    let _lock = Lock::acquire(&dir)?;
    check_dirs_apart(&spec, &dir)?;
    let mut results = Results::open(&dir, &spec)?;
    let mut record = record::Record::open(&dir, &spec, &results.rows, opts.shard)?;
    let jobs = opts
        .jobs
        .or(spec.jobs)
        .unwrap_or_else(threads::cores)
        .max(1);

    let index: BTreeMap<&str, usize> = spec
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    // Only a ladder's bots come and go; a bot on record that is not in the spec is an edit (and
    // a swiss pairs its rounds from the spec's bots alone).
    if !spec.ladder || spec.format == Format::Swiss {
        let stranger = results.rows.iter().find_map(|r| {
            r.names()
                .iter()
                .find(|n| !index.contains_key(n.as_str()))
                .map(|n| (r.id, n.to_string()))
        });
        if let Some((id, name)) = stranger {
            return Err(Error::Conflict(format!(
                "{}: game {id} was played by {name}, who is not in this spec: use another --out",
                dir.join("games.csv").display()
            )));
        }
    }
    let played: BTreeMap<u64, GameRow> = results.rows.iter().map(|r| (r.id, r.clone())).collect();
    // Check what is on disk against what this spec would play: a changed spec must not mix.
    let check = |job: &Job| -> Result<bool> {
        let Some(row) = played.get(&job.id) else {
            return Ok(false);
        };
        let want: Vec<&str> = job
            .planned
            .seats
            .iter()
            .map(|&i| spec.bots[i].name.as_str())
            .collect();
        if row.names() != want {
            return Err(Error::Conflict(format!(
                "{}: game {} was {}, but this schedule plans {}: the games on record are not this spec's, use another --out",
                dir.join("games.csv").display(),
                job.id,
                row.names().join(" vs "),
                want.join(" vs ")
            )));
        }
        Ok(true)
    };

    eprintln!(
        "arena: {} ({} {}, {} bots), {} at a time, results in {}",
        spec.name,
        spec.game.name,
        spec.format.as_str(),
        spec.bots.len(),
        jobs,
        shown_from_here(&dir)
    );
    if first_night {
        crate::out::warn(&format!(
            "arena: NOTE: ladder: {} holds no games yet, so this is the ladder's first night. \
             Results are relative to the current folder ({}): if this ladder has run before, its \
             results are elsewhere (cron runs a job in its user's home folder unless the line \
             says cd, or give --out an absolute path)",
            dir.display(),
            std::env::current_dir().map_or("unknown".into(), |d| d.display().to_string())
        ));
    }

    let mut stop = stop::watch_signals("they will be played on resume");
    // One game thread per core: built-in bots think on their game's thread, and starting a
    // program blocks its thread until the program has exec'd.
    let threads = GameThreads::new(jobs, threads::cores())
        .map_err(Error::io("starting the games' threads".to_string()))?;
    let outcome = if spec.format == Format::Swiss {
        run_swiss(
            &spec,
            &dir,
            &threads,
            &mut results,
            &index,
            &check,
            &mut stop,
        )
        .await?
    } else {
        // A ladder plays the cycle on record, or a new one; any other run, its one schedule.
        let (cycle, ladder) = match spec.ladder {
            true => {
                let night = record.ladder_cycle(&dir, &spec, &results.rows)?;
                (night.cycle, Some((night.number, night.unfinished)))
            }
            false => (record::Cycle::of(&spec, 1, 1)?, None),
        };
        let (planned, balance) = cycle.plan(&spec)?;
        if let Some(balance) = balance {
            crate::out::warn(&format!("arena: pods: {balance}"));
        }
        let mut todo = Vec::new();
        for (id, round, pair, names) in cycle.games(planned) {
            let Some(seats) = names
                .iter()
                .map(|n| index.get(n).copied())
                .collect::<Option<Vec<usize>>>()
            else {
                // A bot of an unfinished cycle that has left the ladder: its games go unplayed.
                continue;
            };
            let job = Job {
                id,
                planned: Planned { round, seats, pair },
            };
            if opts.shard.is_some_and(|s| !s.takes(job.id)) || check(&job)? {
                continue;
            }
            todo.push(job);
        }
        let total = todo.len() as u64;
        let on_record = results.rows.len();
        if let Some((number, unfinished)) = ladder {
            let what = match unfinished {
                true => format!(
                    "cycle {number} was stopped before its end: playing its {total} missing games"
                ),
                false => format!("cycle {number} begins: {total} games"),
            };
            eprintln!("arena: ladder: {what} ({on_record} games on record before it)");
        } else if total == 0 {
            eprintln!(
                "arena: nothing to play: every game of the schedule is in {}",
                dir.join("games.csv").display()
            );
        } else if on_record > 0 {
            eprintln!(
                "arena: resuming: {} games on record, {total} to play",
                results.rows.len()
            );
        }
        let mut progress = Progress::new(total, 0);
        let outcome = play_all(
            &spec,
            &dir,
            &threads,
            todo,
            &mut results,
            &mut progress,
            &mut stop,
        )
        .await?;
        progress.finish();
        outcome
    };
    // What the last games' bots left behind is gone before the run reports: the sweeps run on
    // the reaper's thread.
    crate::bot::reaper::swept().await;
    // A full disk may refuse the tables too: what is recorded stays so, and the run still ends
    // with the reason it stopped.
    let written = results.write_tables_and_report();
    crate::out::text(&results.tables().summary());
    match written {
        Ok(page) => eprintln!("arena: report in {}", page.display()),
        Err(e) if outcome.halted.is_some() => crate::out::warn(&format!("arena: {e}")),
        Err(e) => return Err(e),
    }
    let recorded = results.rows.len();
    if let Some(halt) = outcome.halted {
        let remedy = if halt.full {
            format!("Free some space on the disk of {}", dir.display())
        } else {
            "Mend that".to_string()
        };
        return Err(Error::Unplayed(format!(
            "stopped with {recorded} games recorded: {}. {} and run the same command again: it \
             resumes with the games not recorded",
            halt.why, remedy
        )));
    }
    if *stop.borrow() > 0 {
        eprintln!(
            "arena: stopped with {recorded} games recorded; run the same command again to resume"
        );
        return Err(Error::Interrupted);
    }
    if !outcome.unplayed.is_empty() {
        let mut unplayed = outcome.unplayed;
        unplayed.sort_unstable();
        let ids: Vec<String> = unplayed.iter().map(u64::to_string).collect();
        return Err(Error::Unplayed(format!(
            "{} could not be played: arena could not set {} up (see above); {} for no one. \
             Run the same command again to play {}",
            match ids.len() {
                1 => format!("game {}", ids[0]),
                n => format!("{n} games ({})", ids.join(", ")),
            },
            if ids.len() == 1 { "it" } else { "them" },
            if ids.len() == 1 {
                "it counts"
            } else {
                "they count"
            },
            if ids.len() == 1 { "it" } else { "them" },
        )));
    }
    Ok(())
}

/// A bot whose folder holds the results, or lies in them, could read and rewrite the records.
fn check_dirs_apart(spec: &Spec, results: &Path) -> Result<()> {
    let results = std::path::absolute(results)
        .map_err(Error::io(format!("resolving {}", results.display())))?;
    for entrant in &spec.bots {
        if let Some(dir) = &entrant.bot.dir
            && (results.starts_with(dir) || dir.starts_with(&results))
        {
            return Err(Error::Spec(format!(
                "{}: bot '{}': its dir {} and the results folder {} overlap: a bot must not \
                 reach the records (give it a folder of its own, or the results another --out)",
                spec.path.display(),
                entrant.name,
                dir.display(),
                results.display()
            )));
        }
    }
    Ok(())
}

/// Swiss: pair each round from the results of the rounds before, play it, go on.
async fn run_swiss(
    spec: &Spec,
    dir: &Path,
    threads: &GameThreads,
    results: &mut Results,
    index: &BTreeMap<&str, usize>,
    check: &dyn Fn(&Job) -> Result<bool>,
    stop: &mut Stop,
) -> Result<Outcome> {
    let n = spec.bots.len();
    let mut outcome = Outcome::default();
    let mut next_id = 1u64;
    let games = spec.games_per_pairing;
    // The whole swiss on one bar: every round has the same number of games.
    let total = (spec.rounds as usize * (n / spec.players) * games as usize)
        .saturating_sub(results.rows.len()) as u64;
    let mut progress = Progress::new(total, 0);
    for round in 1..=spec.rounds {
        if *stop.borrow() > 0 {
            break;
        }
        let (pods, byes) = match pair_next(spec, &results.rows, index, round) {
            Ok(p) => p,
            Err(why) => {
                eprintln!("arena: swiss stops before round {round}: {why}");
                break;
            }
        };
        let mut todo = Vec::new();
        // A pod's games follow each other by id, seats rotating from the pod's.
        for pod in pods {
            for k in 0..games {
                let seats = match &pod[..] {
                    &[a, b] => seats_of_game(u64::from(k), [a, b]).to_vec(),
                    _ => rotation(u64::from(k), pod.len())
                        .into_iter()
                        .map(|i| pod[i])
                        .collect(),
                };
                let job = Job {
                    id: next_id,
                    planned: Planned {
                        round,
                        seats,
                        pair: swiss_pair(round, games, spec.players, k),
                    },
                };
                next_id += 1;
                if !check(&job)? {
                    todo.push(job);
                }
            }
        }
        for bye in byes {
            crate::out::line(&format!("Round {round}: {} has a bye", spec.bots[bye].name));
        }
        outcome.add(play_all(spec, dir, threads, todo, results, &mut progress, stop).await?);
        if outcome.halted.is_some() {
            break;
        }
        // The next round is paired from this one's results: all of them.
        if !outcome.unplayed.is_empty() {
            crate::out::warn(&format!(
                "arena: swiss stops after round {round}: the next round is paired from this \
                 one's results, and some of its games could not be played"
            ));
            break;
        }
    }
    progress.finish();
    Ok(outcome)
}

/// The pods (pairs, for two players) of swiss round `round`, seat order first, and the bots with
/// a bye, from the rows of the rounds before. A mini-match's games count one by one: its points
/// are the pairing's result, and with seats rotating over whole rotations the seats stay level.
/// A bye scores as a pairing won (each of its games); who had one is known from the rounds each
/// bot sat out.
fn pair_next(
    spec: &Spec,
    rows: &[GameRow],
    index: &BTreeMap<&str, usize>,
    round: u32,
) -> std::result::Result<(Vec<Vec<usize>>, Vec<usize>), String> {
    let (n, k) = (spec.bots.len(), spec.players);
    let mut players = vec![
        PodPlayer {
            seat_games: vec![0; k],
            ..PodPlayer::default()
        };
        n
    ];
    for row in rows.iter().filter(|r| r.round < round) {
        let bots: Vec<usize> = row.names().iter().map(|b| index[b.as_str()]).collect();
        for ((seat, &b), score) in bots.iter().enumerate().zip(row.scores()) {
            players[b].score += score;
            players[b].seat_games[seat] += 1;
            players[b].games.push(bots.clone());
        }
    }
    for r in 1..round {
        for (i, p) in players.iter_mut().enumerate() {
            let played = rows
                .iter()
                .any(|row| row.round == r && row.names().iter().any(|b| index[b.as_str()] == i));
            if !played {
                p.byes += 1;
                p.score += f64::from(spec.games_per_pairing);
            }
        }
    }
    if k > 2 {
        let pods = pair_pods(&players, k)?;
        return Ok((pods.pods, pods.byes));
    }
    let players: Vec<SwissPlayer> = players
        .into_iter()
        .enumerate()
        .map(|(i, p)| SwissPlayer {
            score: p.score,
            opponents: p
                .games
                .iter()
                .flatten()
                .copied()
                .filter(|&o| o != i)
                .collect(),
            had_bye: p.byes > 0,
            seat0_games: p.seat_games[0],
            seat1_games: p.seat_games[1],
        })
        .collect();
    let pairing = pair_round(&players)?;
    let pairs = pairing.games.into_iter().map(|(a, b)| vec![a, b]).collect();
    Ok((pairs, pairing.bye.into_iter().collect()))
}

/// What became of the games a run did not record, beyond an interruption.
#[derive(Default)]
struct Outcome {
    /// Why the run stopped starting games: its disk nearly full, or results it could not write.
    halted: Option<Halt>,
    /// The games arena could not set up, however often it tried: played by no one, on resume.
    unplayed: Vec<u64>,
}

impl Outcome {
    fn add(&mut self, other: Outcome) {
        self.halted = self.halted.take().or(other.halted);
        self.unplayed.extend(other.unplayed);
    }
}

/// Why a run stops starting games although it was not interrupted.
#[derive(Debug, Clone)]
struct Halt {
    why: String,
    /// For want of space: the remedy is to free some.
    full: bool,
}

/// The first reason to stop, shared by the workers (which start no game once it is set) and the
/// loop recording the games.
#[derive(Clone, Default)]
struct Halted(std::sync::Arc<std::sync::Mutex<Option<Halt>>>);

impl Halted {
    fn get(&self) -> Option<Halt> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Stop starting games, saying why once.
    fn set(&self, halt: Halt) {
        let mut first = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() {
            crate::out::warn(&format!(
                "arena: stopping: {}; no new games start, the running ones finish and are \
                 recorded if they can be",
                halt.why
            ));
            *first = Some(halt);
        }
    }
}

/// The game and its bots, for messages.
fn named(spec: &Spec, job: &Job) -> String {
    let names: Vec<&str> = job
        .planned
        .seats
        .iter()
        .map(|&i| spec.bots[i].name.as_str())
        .collect();
    format!("game {} ({})", job.id, names.join(" vs "))
}

/// Play one game, setting it up again when arena could not (no processes or memory left for a
/// moment, a sandbox that failed): that is no bot's doing, and often passes. `None` when
/// abandoned by a second interrupt.
async fn play_one(
    spec: &Spec,
    dir: &Path,
    job: &Job,
    live: Option<&Live>,
    stop: &mut Stop,
    halted: &Halted,
) -> Option<Result<Played>> {
    let mut attempt = 1;
    loop {
        let played = tokio::select! {
            played = referee::play_unsynced(setup(spec, dir, job, live)) => played,
            Ok(_) = stop.wait_for(|&level| level >= 2) => return None,
        };
        match played {
            // Set up again only while the run still starts games.
            Err(Error::Setup(why))
                if attempt < SETUP_ATTEMPTS && *stop.borrow() == 0 && halted.get().is_none() =>
            {
                crate::out::warn(&format!(
                    "arena: {} could not be set up ({why}); trying again in {} s",
                    named(spec, job),
                    SETUP_PAUSE.as_secs_f64()
                ));
                tokio::time::sleep(SETUP_PAUSE).await;
                attempt += 1;
            }
            played => return Some(played),
        }
    }
}

/// Play the jobs, `jobs` at a time, in order; record each as it finishes.
///
/// A slot is refilled as soon as its game ends. Finished games are made durable together (logs,
/// then games.csv) while the next ones play: one trip to the disk per batch (`journal`).
///
/// No game starts on a disk nearly full, nor once results could not be written: the run stops
/// as an interrupted one does, and says why. A game arena could not set up is left for a resume.
async fn play_all(
    spec: &Spec,
    dir: &Path,
    threads: &GameThreads,
    todo: Vec<Job>,
    results: &mut Results,
    progress: &mut Progress,
    stop: &mut Stop,
) -> Result<Outcome> {
    let failed = |e: tokio::task::JoinError| Error::Internal(format!("a game task failed: {e}"));
    let halted = Halted::default();
    let mut outcome = Outcome::default();
    // One worker per game at a time, each on its game thread taking the next job as soon as its
    // game is over: a slot freed on another thread is refilled there, without a round trip
    // through this one. A game abandoned by a second interrupt comes back as None, its bots
    // killed on its thread.
    let queue = std::sync::Arc::new(std::sync::Mutex::new(todo.into_iter()));
    let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel();
    let mut workers = JoinSet::new();
    for _ in 0..threads.jobs() {
        let (queue, done, spec, dir, mut stop, halted, live) = (
            queue.clone(),
            done_tx.clone(),
            spec.clone(),
            dir.to_path_buf(),
            stop.clone(),
            halted.clone(),
            results.live.clone(),
        );
        workers.spawn(threads.spawn(async move {
            loop {
                if *stop.borrow() != 0 || halted.get().is_some() {
                    break;
                }
                // A statfs per game: next to starting two processes, nothing. A disk that looks
                // full is looked at again once the sweeps asked for are done: they remove what
                // the last games' bots left in their directories.
                if disk::too_full(&dir, spec.min_free_mb).is_some() {
                    crate::bot::reaper::swept().await;
                    if let Some(why) = disk::too_full(&dir, spec.min_free_mb) {
                        halted.set(Halt { why, full: true });
                        break;
                    }
                }
                let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).next() else {
                    break;
                };
                let played = play_one(&spec, &dir, &job, live.as_deref(), &mut stop, &halted).await;
                match played {
                    // A bot's last stderr can reach its file after its exit was seen: the game
                    // is recorded once it is there, and the slot plays on meanwhile: waiting
                    // for it before the next game held the slot up (bench/README.md,
                    // throughput).
                    Some(Ok(mut played)) if !played.settled() => {
                        let done = done.clone();
                        tokio::spawn(async move {
                            played.settle().await;
                            let _ = done.send((job, Some(Ok(played))));
                        });
                    }
                    played => {
                        if done.send((job, played)).is_err() {
                            break;
                        }
                    }
                }
            }
        }));
    }
    drop(done_tx);
    let mut playing = true;
    // Once no more signals can come, stop asking.
    let mut listening = true;
    loop {
        if !playing && results.journal.is_idle() {
            break;
        }
        tokio::select! {
            // A worker that failed (a bug in arena) ends the run now, not after the others.
            Some(worker) = workers.join_next() => worker.map_err(failed)?.map_err(failed)?,
            done = done_rx.recv(), if playing => {
                let Some((job, played)) = done else {
                    // Every worker is over, and has sent all it played.
                    playing = false;
                    continue;
                };
                let played = match played {
                    Some(Ok(played)) => played,
                    // Abandoned: nothing of it was recorded. What its bots left goes too (on
                    // the reaper's thread).
                    None => {
                        crate::bot::reaper::sweep();
                        continue;
                    }
                    Some(Err(Error::Setup(why))) => {
                        crate::out::warn(&format!(
                            "arena: {} was not played: arena could not set it up ({why}); it \
                             counts for no one and is played on resume",
                            named(spec, &job)
                        ));
                        outcome.unplayed.push(job.id);
                        continue;
                    }
                    // Its log could not be made: arena's, and the results' disk's, not a bot's.
                    Some(Err(e @ Error::Io { .. })) => {
                        crate::out::warn(&format!(
                            "arena: {} was not played, and will be on resume: {e}",
                            named(spec, &job)
                        ));
                        halted.set(Halt {
                            full: disk::is_full(&e),
                            why: e.to_string(),
                        });
                        continue;
                    }
                    Some(Err(e)) => return Err(e),
                };
                let row = GameRow::new(job.id, job.planned.round, &played.record);
                results.journal.push(job, played, row);
            }
            trip = results.recorded(!playing) => {
                let games = match trip {
                    Trip::Recorded(games, tables) => {
                        if let Some(Err(e)) = tables {
                            halted.set(Halt {
                                full: disk::is_full(&e),
                                why: e.to_string(),
                            });
                        }
                        games
                    }
                    Trip::Unrecorded(jobs, e) => {
                        results.forget(results.rows.len() - jobs.len());
                        let games: Vec<String> = jobs.iter().map(|j| named(spec, j)).collect();
                        crate::out::warn(&format!(
                            "arena: not recorded, and played again on resume: {}: {e}",
                            games.join(", ")
                        ));
                        halted.set(Halt {
                            full: disk::is_full(&e),
                            why: e.to_string(),
                        });
                        continue;
                    }
                };
                for (job, record, _) in games {
                    let leader = results.leader(progress.done + 1 == progress.total);
                    progress.finished(&record.finished_line(job.id as usize), leader);
                }
            }
            // The running games see a second interrupt themselves; games already over are
            // still made durable and recorded.
            changed = stop.changed(), if listening => listening = changed.is_ok(),
        }
    }
    outcome.halted = halted.get();
    Ok(outcome)
}

fn setup(spec: &Spec, dir: &Path, job: &Job, live: Option<&Live>) -> MatchSetup {
    let log_path = dir.join("logs").join(format!("game-{:05}.jsonl", job.id));
    let players = job
        .planned
        .seats
        .iter()
        .map(|&i| Player {
            name: spec.bots[i].name.clone(),
            bot: spec.bots[i].bot.clone(),
        })
        .collect();
    MatchSetup {
        game: spec.game,
        params: spec.params.clone(),
        seed: match spec.referee {
            // Both seatings of a pair on one map, as cg-brutaltester's `-s` plays them.
            Some(_) => crate::schedule::pair_seed(spec.seed, job.planned.pair, &job.planned.seats),
            None => derive_seed(spec.seed, job.id),
        },
        players,
        timeout: spec.timeout,
        startup_timeout: spec.startup_timeout,
        limits: IoLimits {
            framing: spec.game.framing,
            ..IoLimits::default()
        },
        tap: live.map(|l| l.tap(&log_path)),
        log_path,
        spectator: None,
        ponder: spec.ponder,
        opening: spec
            .openings
            .as_ref()
            .map(|o| o.book.opening(job.planned.pair)),
        referee: spec.referee.clone(),
    }
}

//! `arena run SPEC.toml`: plays a schedule's games in parallel, writes each finished game to
//! `games.csv` before it counts, keeps the tables current, and resumes where a run stopped.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::bot::descriptors;
use crate::engine::journal::{self, Journal, Trip};
use crate::engine::stop;
use crate::engine::threads::{self, GameThreads};
use crate::engine::{Lock, disk};
use crate::error::{Error, Result};
use crate::report::live::Live;
use crate::report::{self, GameRow};
use crate::schedule::Planned;
use crate::spec::Spec;

mod play;
pub mod record;
mod settings;
mod rounds;

use play::{Outcome, play_all};
use crate::format::Schedule;
use rounds::by_round;


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
                format: self.spec.format.name(),
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
        let gauntlet = spec.format.takes_reference_bots().then(|| {
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
            let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
                .expect("a valid template");
            // Block characters only where the locale says the terminal takes UTF-8.
            bar.set_style(match crate::out::utf8() {
                true => style,
                false => style.progress_chars("#>-"),
            });
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
    let jobs = opts
        .jobs
        .or(spec.jobs)
        .unwrap_or_else(threads::cores)
        .max(1);
    let sdk = crate::referee::sdk::is_sdk_game(spec.game, &spec.params);
    let per_game = descriptors::per_game(spec.players, spec.referee.is_some(), sdk);
    let jobs = descriptors::cap_jobs(jobs, per_game, "jobs").map_err(Error::Usage)?;
    let dir = results_dir(&spec, &opts)?;
    let first_night = spec.ladder && !dir.join("games.csv").exists();
    std::fs::create_dir_all(dir.join("logs"))
        .map_err(Error::io(format!("creating {}", dir.display())))?;
    let _lock = Lock::acquire(&dir)?;
    check_dirs_apart(&spec, &dir)?;
    let mut results = Results::open(&dir, &spec)?;
    let mut record = record::Record::open(&dir, &spec, &results.rows, opts.shard)?;
    let index: BTreeMap<&str, usize> = spec
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.name.as_str(), i))
        .collect();
    refuse_strangers(&spec, &dir, &results.rows, &index)?;
    let on_record = OnRecord::of(&spec, &dir, &results.rows);
    announce(&spec, &dir, jobs, first_night);

    let mut stop = stop::watch_signals("they will be played on resume");
    // One game thread per core: built-in bots think on their game's thread, and starting a
    // program blocks its thread until the program has exec'd.
    crate::bot::process::one_bot_at_a_time(jobs == 1 && !spec.ponder);
    let threads = GameThreads::new(jobs, threads::cores())
        .map_err(Error::io("starting the games' threads (is the limit on processes, `ulimit -u`, too low?)".to_string()))?;
    let check = |job: &Job| on_record.holds(job);
    let outcome = if let Schedule::ByRound { pair } = spec.format.schedule() {
        let run = (&spec, dir.as_path(), &threads);
        by_round(run, pair, &mut results, &index, &check, &mut stop).await?
    } else {
        let todo = plan_cycle(&spec, &dir, &opts, &mut record, &results, &index, &check)?;
        let mut progress = Progress::new(todo.len() as u64, 0);
        let outcome = play_all(&spec, &dir, &threads, todo, &mut results, &mut progress, &mut stop)
            .await?;
        progress.finish();
        outcome
    };
    // What the last games' bots left behind is gone before the run reports: the sweeps run on
    // the reaper's thread.
    crate::bot::reaper::swept().await;
    conclude(&dir, &results, outcome, *stop.borrow() > 0)
}

/// The results folder, checked: `--shard` on a format that can be split, `--resume` of a folder
/// with games, and no folder of merged shards.
fn results_dir(spec: &Spec, opts: &RunOptions) -> Result<PathBuf> {
    if opts.shard.is_some() && (spec.format.by_round() || spec.ladder) {
        return Err(Error::Usage(format!(
            "--shard splits a tournament planned whole; a {} depends on its own results",
            if spec.ladder { "ladder" } else { spec.format.name() }
        )));
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
    Ok(dir)
}

/// Only a ladder's bots come and go; a bot on record that is not in the spec is an edit (and
/// a format paired by round pairs its rounds from the spec's bots alone).
fn refuse_strangers(
    spec: &Spec,
    dir: &Path,
    rows: &[GameRow],
    index: &BTreeMap<&str, usize>,
) -> Result<()> {
    if spec.ladder && !spec.format.by_round() {
        return Ok(());
    }
    let stranger = rows.iter().find_map(|r| {
        r.names()
            .iter()
            .find(|n| !index.contains_key(n.as_str()))
            .map(|n| (r.id, n.to_string()))
    });
    match stranger {
        Some((id, name)) => Err(Error::Conflict(format!(
            "{}: game {id} was played by {name}, who is not in this spec: use another --out",
            dir.join("games.csv").display()
        ))),
        None => Ok(()),
    }
}

/// The games on record, to check against what this spec would play: a changed spec must not
/// mix.
struct OnRecord<'a> {
    spec: &'a Spec,
    csv: PathBuf,
    played: BTreeMap<u64, GameRow>,
}

impl<'a> OnRecord<'a> {
    fn of(spec: &'a Spec, dir: &Path, rows: &[GameRow]) -> OnRecord<'a> {
        OnRecord {
            spec,
            csv: dir.join("games.csv"),
            played: rows.iter().map(|r| (r.id, r.clone())).collect(),
        }
    }

    /// Whether `job` is on record; an error if a game of its number is, between other bots.
    fn holds(&self, job: &Job) -> Result<bool> {
        let Some(row) = self.played.get(&job.id) else {
            return Ok(false);
        };
        let want: Vec<&str> = job
            .planned
            .seats
            .iter()
            .map(|&i| self.spec.bots[i].name.as_str())
            .collect();
        if row.names() != want {
            return Err(Error::Conflict(format!(
                "{}: game {} was {}, but this schedule plans {}: the games on record are not this spec's, use another --out",
                self.csv.display(),
                job.id,
                row.names().join(" vs "),
                want.join(" vs ")
            )));
        }
        Ok(true)
    }
}

/// What the run is about to do, and for a ladder's first night, where it looks for its past.
fn announce(spec: &Spec, dir: &Path, jobs: usize, first_night: bool) {
    eprintln!(
        "arena: {} ({} {}, {} bots), {} at a time, results in {}",
        spec.name,
        spec.game.name,
        spec.format.name(),
        spec.bots.len(),
        jobs,
        shown_from_here(dir)
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
}

/// The games of a fixed schedule still to play: a ladder's cycle on record or a new one, any
/// other run's one schedule; this shard's, less those on record. Says what it found.
fn plan_cycle(
    spec: &Spec,
    dir: &Path,
    opts: &RunOptions,
    record: &mut record::Record,
    results: &Results,
    index: &BTreeMap<&str, usize>,
    on_record: &dyn Fn(&Job) -> Result<bool>,
) -> Result<Vec<Job>> {
    let (cycle, ladder) = match spec.ladder {
        true => {
            let night = record.ladder_cycle(dir, spec, &results.rows)?;
            (night.cycle, Some((night.number, night.unfinished)))
        }
        false => (record::Cycle::of(spec, 1, 1)?, None),
    };
    let (planned, balance) = cycle.plan(spec)?;
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
        if opts.shard.is_some_and(|s| !s.takes(job.id)) || on_record(&job)? {
            continue;
        }
        todo.push(job);
    }
    say_what_is_left(dir, ladder, todo.len(), results.rows.len());
    Ok(todo)
}

fn say_what_is_left(dir: &Path, ladder: Option<(usize, bool)>, total: usize, on_record: usize) {
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
        eprintln!("arena: resuming: {on_record} games on record, {total} to play");
    }
}

/// The tables, the report and the summary, then how the run ended: every game recorded, or
/// why not (stopped, interrupted, games arena could not set up), as the exit status says.
fn conclude(dir: &Path, results: &Results, outcome: Outcome, interrupted: bool) -> Result<()> {
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
        } else if halt.file_size {
            "Raise the limit on file size (`ulimit -f`)".to_string()
        } else {
            "Mend that".to_string()
        };
        return Err(Error::Unplayed(format!(
            "stopped with {recorded} games recorded: {}. {} and run the same command again: it \
             resumes with the games not recorded",
            halt.why, remedy
        )));
    }
    if interrupted {
        eprintln!(
            "arena: stopped with {recorded} games recorded; run the same command again to resume"
        );
        return Err(Error::Interrupted);
    }
    if outcome.unplayed.is_empty() {
        return Ok(());
    }
    let mut unplayed = outcome.unplayed;
    unplayed.sort_unstable();
    let ids: Vec<String> = unplayed.iter().map(u64::to_string).collect();
    let (it, counts) = match ids.len() {
        1 => ("it", "it counts"),
        _ => ("them", "they count"),
    };
    Err(Error::Unplayed(format!(
        "{} could not be played: arena could not set {it} up (see above); {counts} for no one. \
         Run the same command again to play {it}",
        match ids.len() {
            1 => format!("game {}", ids[0]),
            n => format!("{n} games ({})", ids.join(", ")),
        },
    )))
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

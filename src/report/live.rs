//! Long games packed for the report while they are played: each game's log bytes are handed
//! over as they go to the file (`log::Tap`), and a few threads at idle priority draw the frames
//! and compress them on CPU the bots leave unused. A game of 10,000 moves is then packed by the
//! time it ends, where packing it after took 60 ms. The report packs the rest from their files,
//! as it always can.
//!
//! Idle priority (`SCHED_IDLE`): the packers never take a core from a bot or a referee, and so
//! never change a game's timing. On a machine with every core busy they wait, and their queue
//! is bounded: past `MAX_BACKLOG` bytes, games are left to the report. Once the games are over
//! the run waits for them, and they are put back at normal priority (where arena may).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::html::{Ready, drawing_failed};
use super::pack::Packer;
use crate::referee::log::Tap;

/// Log bytes waiting for the packers, at most, before new games are left to the report.
const MAX_BACKLOG: usize = 32 << 20;

enum Msg {
    /// A game to pack, whose log's first bytes (as many as given) are in its file already.
    Start(u64, PathBuf, usize),
    Bytes(u64, Vec<u8>),
    /// The log is whole and the bots' stderr in its files.
    Whole(u64),
    /// The game was not played to its end (arena could not set it up); its log is gone.
    Dropped(u64),
    End,
}

pub struct Live {
    shared: Arc<Shared>,
    threads: Mutex<Vec<JoinHandle<Ready>>>,
}

/// What every tap needs.
struct Shared {
    packers: Vec<Sender<Msg>>,
    next: AtomicU64,
    backlog: AtomicUsize,
    /// The packers' thread ids, to put them back at normal priority once the games are over.
    tids: Mutex<Vec<libc::pid_t>>,
}

impl Live {
    /// One packer thread per core. None when a thread cannot be started: the report then packs
    /// every game itself.
    pub fn start() -> Option<Live> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (packers, receivers): (Vec<_>, Vec<_>) = (0..threads).map(|_| channel()).unzip();
        let shared = Arc::new(Shared {
            packers,
            next: AtomicU64::new(0),
            backlog: AtomicUsize::new(0),
            tids: Mutex::new(Vec::new()),
        });
        let threads = receivers
            .into_iter()
            .enumerate()
            .map(|(i, rx)| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("arena-pack-{i}"))
                    .spawn(move || serve(rx, &shared))
            })
            .collect::<std::io::Result<Vec<_>>>()
            .ok()?;
        Some(Live {
            shared,
            threads: Mutex::new(threads),
        })
    }

    /// A tap for the log about to be written at `log`.
    pub fn tap(&self, log: &Path) -> Box<dyn Tap> {
        Box::new(LiveTap {
            shared: Arc::clone(&self.shared),
            log: log.to_path_buf(),
            state: TapState::First(0),
        })
    }

    /// Every game packed, by its log's path; waits for the packers to catch up, at normal
    /// priority where arena may set it. Games started after this are left to the report.
    pub fn finish(&self) -> Ready {
        // The games are over: what the packers have left to do is now all that the run waits
        // for. At idle priority on a busy machine they would get almost no CPU (issue 45).
        normal_priority(&self.shared.tids.lock().unwrap_or_else(|e| e.into_inner()));
        for tx in &self.shared.packers {
            let _ = tx.send(Msg::End);
        }
        let threads = std::mem::take(&mut *self.threads.lock().expect("not poisoned"));
        let mut ready = Ready::new();
        for handle in threads {
            // A packer that panicked outside a game leaves its games to the report.
            if let Ok(packed) = handle.join() {
                ready.extend(packed);
            }
        }
        ready
    }
}

/// A game whose log is shorter than this is left to the report: handing it over would cost more
/// than packing it then with the others, on every core.
const LONG_GAME: usize = 64 * 1024;

/// A log's bytes come in pieces of the log's buffer, and a short game's all at its end. A game
/// goes to a packer once its log is `LONG_GAME` long; the packer reads what came before from
/// the file, which has it already, so that no running game holds a copy of its log (issue 43:
/// arena's memory per game).
struct LiveTap {
    shared: Arc<Shared>,
    log: PathBuf,
    state: TapState,
}

enum TapState {
    /// Not known yet to be long: the bytes written so far (all in the file).
    First(usize),
    /// On a packer, as this game.
    Packing(u64, Sender<Msg>),
    /// Left to the report.
    Left,
}

impl LiveTap {
    fn send(&self, tx: &Sender<Msg>, bytes: Vec<u8>, id: u64) -> bool {
        self.shared
            .backlog
            .fetch_add(bytes.len(), Ordering::Relaxed);
        tx.send(Msg::Bytes(id, bytes)).is_ok()
    }
}

impl Tap for LiveTap {
    fn bytes(&mut self, bytes: &[u8]) {
        self.state = match std::mem::replace(&mut self.state, TapState::Left) {
            TapState::First(written) if written + bytes.len() < LONG_GAME => {
                TapState::First(written + bytes.len())
            }
            TapState::First(written) => {
                let shared = &self.shared;
                if shared.backlog.load(Ordering::Relaxed) > MAX_BACKLOG {
                    TapState::Left
                } else {
                    let id = shared.next.fetch_add(1, Ordering::Relaxed);
                    let tx = shared.packers[id as usize % shared.packers.len()].clone();
                    let sent = tx.send(Msg::Start(id, self.log.clone(), written)).is_ok()
                        && self.send(&tx, bytes.to_vec(), id);
                    if sent {
                        TapState::Packing(id, tx)
                    } else {
                        TapState::Left
                    }
                }
            }
            TapState::Packing(id, tx) => {
                // Too far behind: this game too is left to the report, and its bytes so far let go.
                if self.shared.backlog.load(Ordering::Relaxed) > MAX_BACKLOG {
                    let _ = tx.send(Msg::Dropped(id));
                    TapState::Left
                } else if self.send(&tx, bytes.to_vec(), id) {
                    TapState::Packing(id, tx)
                } else {
                    TapState::Left
                }
            }
            TapState::Left => TapState::Left,
        };
    }

    fn whole(mut self: Box<Self>) {
        if let TapState::Packing(id, tx) = std::mem::replace(&mut self.state, TapState::Left) {
            let _ = tx.send(Msg::Whole(id));
        }
    }
}

impl Drop for LiveTap {
    fn drop(&mut self) {
        if let TapState::Packing(id, tx) = &self.state {
            let _ = tx.send(Msg::Dropped(*id));
        }
    }
}

/// A game on a packer: being packed, or its drawing panicked (shown as such when it ends).
enum Slot {
    Packing(Box<Packer>),
    Panicked(PathBuf),
}

fn serve(rx: Receiver<Msg>, shared: &Shared) -> Ready {
    idle_priority();
    let _listed = Listed::new(&shared.tids);
    let backlog = &shared.backlog;
    let mut games: HashMap<u64, Slot> = HashMap::new();
    let mut ready = Ready::new();
    for msg in rx {
        match msg {
            Msg::Start(id, log, written) => {
                // A start that cannot be read back leaves the game to the report.
                if let Some(start) = read_start(&log, written) {
                    let mut packer = Box::new(Packer::new(&log));
                    let slot = match fed(&mut packer, &start) {
                        true => Slot::Packing(packer),
                        false => Slot::Panicked(log),
                    };
                    games.insert(id, slot);
                }
            }
            Msg::Bytes(id, bytes) => {
                backlog.fetch_sub(bytes.len(), Ordering::Relaxed);
                if let Some(Slot::Packing(p)) = games.get_mut(&id)
                    && !fed(p, &bytes)
                {
                    let log = p.log().to_path_buf();
                    games.insert(id, Slot::Panicked(log));
                }
            }
            Msg::Whole(id) => {
                let (log, pack) = match games.remove(&id) {
                    Some(Slot::Packing(p)) => {
                        let log = p.log().to_path_buf();
                        let pack = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            p.finish(Path::exists)
                        }))
                        .unwrap_or_else(|_| drawing_failed(&log));
                        (log, pack)
                    }
                    Some(Slot::Panicked(log)) => {
                        let pack = drawing_failed(&log);
                        (log, pack)
                    }
                    None => continue,
                };
                ready.insert(log.display().to_string(), pack);
            }
            Msg::Dropped(id) => {
                games.remove(&id);
            }
            Msg::End => break,
        }
    }
    ready
}

/// Feed a packer; false if its drawing panicked.
fn fed(packer: &mut Packer, bytes: &[u8]) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| packer.bytes(bytes))).is_ok()
}

/// The first `len` bytes of a log being written, which are in its file already.
fn read_start(log: &Path, len: usize) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut start = Vec::with_capacity(len);
    std::fs::File::open(log)
        .ok()?
        .take(len as u64)
        .read_to_end(&mut start)
        .ok()?;
    (start.len() == len).then_some(start)
}

/// The calling packer's thread id in `tids` while it runs: taken out as it ends, however it
/// ends, so that no thread id of a thread gone is ever used.
struct Listed<'a>(&'a Mutex<Vec<libc::pid_t>>, libc::pid_t);

impl<'a> Listed<'a> {
    fn new(tids: &'a Mutex<Vec<libc::pid_t>>) -> Listed<'a> {
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() };
        tids.lock().unwrap_or_else(|e| e.into_inner()).push(tid);
        Listed(tids, tid)
    }
}

impl Drop for Listed<'_> {
    fn drop(&mut self) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&t| t != self.1);
    }
}

/// Put the packers back at normal priority, while they are still running (they end at
/// `Msg::End`). Only a privileged arena may leave `SCHED_IDLE` (`RLIMIT_NICE` is 0 by
/// default); elsewhere this fails and they finish at idle priority, as before.
fn normal_priority(tids: &[libc::pid_t]) {
    let param = libc::sched_param { sched_priority: 0 };
    for &tid in tids {
        // SAFETY: sched_setscheduler reads `param` and changes only the thread `tid`: one of
        // this process's packers, listed while it runs (`Listed`); the list is locked here.
        unsafe {
            libc::sched_setscheduler(tid, libc::SCHED_OTHER, &param);
        }
    }
}

/// Run the calling thread only when a core would otherwise be idle.
fn idle_priority() {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: sched_setscheduler reads `param` and changes only the calling thread (pid 0).
    // Failing leaves the thread at normal priority, which is correct, only less considerate.
    unsafe {
        libc::sched_setscheduler(0, libc::SCHED_IDLE, &param);
    }
}

#[cfg(test)]
mod tests {
    use super::super::pack::tests::roshambo_log as log;
    use super::*;

    /// Hand `text` to a tap in pieces of the log's buffer, as `GameLog` does.
    fn write(tap: &mut dyn Tap, text: &str) {
        for piece in text.as_bytes().chunks(crate::referee::log::LOG_BUFFER) {
            tap.bytes(piece);
        }
    }

    #[test]
    fn a_long_game_whose_start_cannot_be_read_back_is_left_to_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let live = Live::start().unwrap();
        let path = dir.path().join("gone.jsonl");
        let text = log(5000);
        let mut tap = live.tap(&path);
        // The packer reads the start from the file, which is not there.
        write(tap.as_mut(), &text);
        tap.whole();
        assert!(live.finish().is_empty());
    }

    #[test]
    fn a_long_game_is_packed_as_its_file_is_and_others_are_left_to_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let live = Live::start().unwrap();
        let [long, short, dropped] = ["long", "short", "dropped"].map(|name| {
            let path = dir.path().join(format!("{name}.jsonl"));
            let rounds = if name == "short" { 3 } else { 5000 };
            std::fs::write(&path, log(rounds)).unwrap();
            path
        });
        for path in [&long, &short] {
            let mut tap = live.tap(path);
            write(tap.as_mut(), &std::fs::read_to_string(path).unwrap());
            tap.whole();
        }
        // A game arena could not play to its end: its tap goes without the log being whole.
        let mut tap = live.tap(&dropped);
        write(tap.as_mut(), &std::fs::read_to_string(&dropped).unwrap());
        drop(tap);

        let ready = live.finish();
        assert_eq!(ready.len(), 1, "{:?}", ready.keys());
        let packed = &ready[&long.display().to_string()];
        assert!(!packed.starts_with('!'), "{packed}");
        assert_eq!(*packed, Packer::file(&long, Path::exists));
        // Finished, the packers take no more games.
        let mut late = live.tap(&long);
        write(late.as_mut(), &log(5000));
        late.whole();
        assert!(live.finish().is_empty());
    }

    /// Past `MAX_BACKLOG` bytes waiting for the packers, a game that starts is left to the
    /// report, and a game on a packer is let go at its next piece; both are packed by the report
    /// from their files. (The packers are made to look behind: they cannot be held back.)
    #[test]
    fn past_the_backlog_bound_games_are_left_to_the_report() {
        let dir = tempfile::tempdir().unwrap();
        let live = Live::start().unwrap();
        let behind = || {
            live.shared
                .backlog
                .fetch_add(MAX_BACKLOG + 1, Ordering::Relaxed)
        };
        let caught_up = || {
            live.shared
                .backlog
                .fetch_sub(MAX_BACKLOG + 1, Ordering::Relaxed)
        };
        // Two pieces: decided at the second, never looked at again.
        let [late, dropped] = [("late", 1000), ("dropped", 5000)].map(|(name, rounds)| {
            let path = dir.path().join(format!("{name}.jsonl"));
            std::fs::write(&path, log(rounds)).unwrap();
            path
        });
        let pieces = |path: &Path| {
            let text = std::fs::read(path).unwrap();
            text.chunks(64 * 1024)
                .map(<[u8]>::to_vec)
                .collect::<Vec<_>>()
        };

        behind();
        let mut tap = live.tap(&late);
        assert_eq!(pieces(&late).len(), 2);
        for piece in pieces(&late) {
            tap.bytes(&piece);
        }
        tap.whole();
        caught_up();

        let mut tap = live.tap(&dropped);
        let all = pieces(&dropped);
        assert!(all.len() > 3, "{} pieces", all.len());
        tap.bytes(&all[0]);
        tap.bytes(&all[1]);
        behind();
        for piece in &all[2..] {
            tap.bytes(piece);
        }
        tap.whole();
        caught_up();

        let ready = live.finish();
        assert!(ready.is_empty(), "{:?}", ready.keys());
        assert_eq!(live.shared.backlog.load(Ordering::Relaxed), 0);
    }
}

use std::time::Duration;

use clap::Parser;

use arena::commands;
use cli::{Cli, Command};

mod cli;

fn main() {
    let cli = Cli::parse();
    // Started by a referee for each game's every seat: nothing of arena's own set-up.
    if let Command::SdkRelay { socket } = &cli.command {
        std::process::exit(arena::referee::sdk::relay::run(socket));
    }
    if let Command::SdkRecorded { script } = &cli.command {
        std::process::exit(arena::referee::sdk::recorded::run(script));
    }
    harden();
    arena::bot::descriptors::raise_limit();
    arena::bot::reaper::become_subreaper();
    arena::bot::remove_stale_scratch();
    let result = match cli.command {
        Command::Games { game } => commands::games::run(game.as_deref()),
        Command::Duel(args) => args
            .options()
            .and_then(|opts| block_on_own_signals(commands::series::run(opts))),
        Command::Match(args) => args
            .options()
            .and_then(|opts| block_on_own_signals(commands::series::run(opts))),
        Command::Check(args) => args
            .options()
            .and_then(|opts| block_on(commands::check::run(opts))),
        Command::Run {
            spec,
            jobs,
            out,
            resume,
            shard,
        } => {
            let opts = arena::tournament::RunOptions {
                jobs,
                out,
                resume,
                shard,
            };
            block_on_own_signals(commands::run::run(&spec, opts))
        }
        Command::Ratings {
            games,
            out,
            partial,
        } => commands::ratings::run(&games, out.as_deref(), partial),
        Command::Report { dir, title } => commands::report::run(&dir, title),
        Command::Perft {
            game,
            depth,
            position,
            divide,
        } => commands::perft::run(&game, depth, position.as_deref(), divide),
        Command::Replay {
            log,
            spectate,
            referee,
        } => block_on(commands::replay::run(
            &log,
            spectate.as_deref(),
            referee.as_deref(),
        )),
        Command::SdkRelay { .. } | Command::SdkRecorded { .. } => {
            unreachable!("relays and recorded players return above")
        }
    };
    arena::bot::remove_scratch();
    if let Err(e) = result {
        arena::out::warn(&format!("arena: {e}"));
        std::process::exit(e.exit_code());
    }
}

/// Bots run as the same user as arena unless sandboxed: not dumpable, arena's memory,
/// environment and file descriptors cannot be read through /proc or ptrace by them. Standard
/// streams that were closed (cron can start arena so) are opened on /dev/null, so that no pipe to
/// a bot takes their numbers. No signal blocked (a supervisor may start arena with some
/// blocked, and then SIGINT and SIGTERM never reached it), and SIGXFSZ ignored: past a limit on
/// file size (`ulimit -f`) a write fails, and arena stops as on a full disk, keeping what it
/// recorded, where the signal killed it mid-write, silently. Its bots get both back at their
/// defaults (`bot::spawn`).
fn harden() {
    use nix::sys::signal::{SigHandler, SigSet, SigmaskHow, Signal, signal, sigprocmask};
    let _ = nix::sys::prctl::set_dumpable(false);
    let _ = sigprocmask(SigmaskHow::SIG_SETMASK, Some(&SigSet::empty()), None);
    // SAFETY: SIG_IGN runs no code of ours; no other thread exists yet.
    let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
    for fd in 0..3 {
        // SAFETY: F_GETFD only asks whether the descriptor is open.
        if unsafe { nix::libc::fcntl(fd, nix::libc::F_GETFD) } == -1
            && let Ok(null) = std::fs::OpenOptions::new()
                .read(fd == 0)
                .write(fd != 0)
                .open("/dev/null")
        {
            // The lowest free number, this one, since those below are open: kept open for good.
            use std::os::fd::IntoRawFd;
            let _ = null.into_raw_fd();
        }
    }
}

/// Tournaments and duels handle SIGINT and SIGTERM themselves (`engine::stop`), to finish
/// what runs and record it, then write their tables and summaries. Their games at once run on
/// more single-threaded runtimes (`engine::threads`).
fn block_on_own_signals(
    work: impl Future<Output = arena::error::Result<()>>,
) -> arena::error::Result<()> {
    block_on_one_thread(work)
}

/// One thread: `check` and `replay` play one game at a time, and hopping threads per line only
/// costs.
fn block_on(work: impl Future<Output = arena::error::Result<()>>) -> arena::error::Result<()> {
    block_on_one_thread(async {
        // Stopping here drops the games in progress, and with them the bots' process groups.
        tokio::select! {
            r = work => r,
            _ = interrupted() => Err(arena::Error::Interrupted),
        }
    })
}

fn block_on_one_thread(
    work: impl Future<Output = arena::error::Result<()>>,
) -> arena::error::Result<()> {
    // A thread for blocking work (the journal's syncs) started now and kept: tokio panics when it
    // cannot start one and has none, as under a low limit on processes once the bots have
    // taken the rest; with one, the work waits for it.
    arena::engine::threads::can_start(1).map_err(arena::Error::io(
        "starting a thread (is the limit on processes, `ulimit -u`, too low?)",
    ))?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .thread_keep_alive(Duration::from_secs(u64::from(u32::MAX)))
        .build()
        .map_err(arena::Error::io("starting the runtime"))?;
    rt.block_on(rt.spawn_blocking(|| ()))
        .map_err(|e| arena::Error::io("starting a thread")(std::io::Error::other(e)))?;
    let result = rt.block_on(work);
    // A read of the terminal (a person's seat) blocks a thread until the next line; do not wait.
    rt.shutdown_timeout(Duration::from_millis(50));
    result
}

async fn interrupted() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM can be handled");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

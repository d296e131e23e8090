//! arena's own failures are never a bot's: a disk that fills up, a game arena cannot set up.
//! Each test plays the real binary; the full disk is a small tmpfs (which needs root).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::*;

fn spec(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Whether a game ended without anyone's failure.
fn finished_well(game: &BTreeMap<String, String>) -> bool {
    ["normal", "draw"].contains(&game["reason"].as_str())
}

/// `arena ARGS` with TMPDIR set, where the bots' working folders are made.
fn arena_with_tmpdir(tmpdir: &Path, args: &[&std::ffi::OsStr]) -> (Output, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("TMPDIR", tmpdir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stderr)
}

fn run(spec: &Path, out: &Path, tmpdir: &Path) -> (Output, String) {
    arena_with_tmpdir(
        tmpdir,
        &[
            "run".as_ref(),
            spec.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
    )
}

/// A tmpfs of `mb` MiB mounted on a new folder, unmounted when dropped.
struct Tmpfs(tempfile::TempDir);

impl Tmpfs {
    /// Mounting needs root (`require_root`).
    fn mount(mb: u32) -> Tmpfs {
        require_root();
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mb}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .unwrap();
        assert!(status.success(), "mount -t tmpfs failed");
        Tmpfs(dir)
    }

    fn path(&self) -> &Path {
        self.0.path()
    }

    fn resize(&self, mb: u32) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={mb}m")])
            .arg(self.path())
            .status()
            .unwrap();
        assert!(status.success(), "remounting the tmpfs failed");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0.path()).status();
    }
}

/// A bot writes 4 MiB files (each under its output limit) into its working folder until the
/// disk, which also holds the results, is full. The game's log cannot be written: the run stops
/// starting games, keeps what it recorded, writes the tables, and says to free space; the bot is
/// not blamed for it. Once there is room, a resume plays the rest.
#[test]
#[ignore = "needs root: CI runs it as root (cargo test -- --include-ignored)"]
fn a_bot_that_fills_the_disk_stops_the_run_and_a_resume_finishes_it() {
    let disk = Tmpfs::mount(12);
    let dir = tempfile::tempdir().unwrap();
    let tmp = disk.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = disk.path().join("out");
    // Game 1 is a vs b; the filler plays games 2 and 3. 600 rounds make a log longer than
    // arena's buffer, so that it is written while the disk is full.
    let path = spec(
        dir.path(),
        &format!(
            "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nseed = 1\njobs = 1\n\
             min_free_mb = 2\n[params]\nrounds = 600\n[limits]\noutput_mb = 5\n\
             [[bot]]\nname = \"filler\"\ncommand = \"{}\"\n\
             [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
             [[bot]]\nname = \"b\"\ncommand = \"builtin:counter\"\n",
            bot("fills_disk.py", "8")
        ),
    );
    let (first, stderr) = run(&path, &out, &tmp);
    assert_eq!(first.status.code(), Some(1), "{stderr}");
    for words in [
        "No space left on device",
        "not recorded, and played again on resume: game 2 (b vs filler): writing the game log",
        "arena: stopping: ",
        &format!(
            "Free some space on the disk of {} and run the same command again: it resumes",
            out.display()
        ),
    ] {
        assert!(stderr.contains(words), "no {words:?} in:\n{stderr}");
    }
    let recorded = games(&out);
    let ids: Vec<&str> = recorded
        .iter()
        .map(|g| g.get("id").unwrap().as_str())
        .collect();
    assert_eq!(ids, ["1"], "{stderr}");
    assert!(
        recorded
            .iter()
            .all(|g| g["seat0"] != "filler" && g["seat1"] != "filler"),
        "a game of the full disk was recorded: {recorded:?}"
    );
    // The tables were written for what is recorded.
    let standings = std::fs::read_to_string(out.join("standings.csv")).unwrap();
    assert!(standings.contains(",filler,0,"), "{standings}");

    // Room enough for what the filler writes: the resume plays games 2 and 3, and no one
    // failed in any game.
    disk.resize(64);
    let (second, stderr) = arena_with_tmpdir(
        &tmp,
        &[
            "run".as_ref(),
            path.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
            "--resume".as_ref(),
        ],
    );
    assert!(second.status.success(), "{stderr}");
    let all = games(&out);
    assert_eq!(all.len(), 3, "{all:?}");
    assert_eq!(
        all[0], recorded[0],
        "the game recorded first was kept as it was"
    );
    for g in &all {
        assert!(finished_well(g), "{g:?}");
        assert_eq!(g["plies"], "600", "{g:?}");
    }
}

/// A bot's stderr that cannot be kept (the bot filled the disk first) is dropped, and that is
/// not the bot's failure: its game, short enough for its log to be written after the bot's
/// files are gone, is recorded as played.
#[test]
#[ignore = "needs root: CI runs it as root (cargo test -- --include-ignored)"]
fn a_stderr_lost_to_a_full_disk_is_not_the_bots_failure() {
    let disk = Tmpfs::mount(12);
    let dir = tempfile::tempdir().unwrap();
    let tmp = disk.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = disk.path().join("out");
    let path = spec(
        dir.path(),
        &format!(
            "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nseed = 1\n\
             min_free_mb = 2\n[params]\nrounds = 3\n[limits]\noutput_mb = 5\n\
             [[bot]]\nname = \"filler\"\ncommand = \"{}\"\n\
             [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n",
            bot("fills_disk.py", "8")
        ),
    );
    let (output, stderr) = run(&path, &out, &tmp);
    assert!(output.status.success(), "{stderr}");
    let played = games(&out);
    assert_eq!(played.len(), 1);
    assert!(finished_well(&played[0]), "{:?}", played[0]);
    assert_eq!(played[0]["plies"], "3", "{:?}", played[0]);
    // What it said after filling the disk was not kept: the capture did meet the full disk.
    let seat = if played[0]["seat0"] == "filler" { 0 } else { 1 };
    let said = out.join(format!("logs/game-00001.seat{seat}.stderr"));
    assert_eq!(std::fs::read(&said).map_or(0, |b| b.len()), 0);
}

/// Below `min_free_mb` no game starts: the run says how much is free, where, and what the
/// threshold is, writes the tables and exits 1; with the threshold met, the same run plays on.
#[test]
fn no_game_starts_on_a_disk_below_min_free_mb() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let text = |min: &str| {
        format!(
            "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nmin_free_mb = {min}\n\
             [params]\nrounds = 3\n[[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
             [[bot]]\nname = \"b\"\ncommand = \"builtin:counter\"\n"
        )
    };
    // A pebibyte: more than any test machine has free.
    let path = spec(dir.path(), &text("1073741824"));
    let (first, stderr) = run(&path, &out, dir.path());
    assert_eq!(first.status.code(), Some(1), "{stderr}");
    for words in [
        &format!("MiB free on the disk of {}", out.display()),
        "less than min_free_mb = 1073741824 MiB",
        "stopped with 0 games recorded",
        "Free some space on the disk of",
    ] {
        assert!(stderr.contains(words), "no {words:?} in:\n{stderr}");
    }
    assert!(games(&out).is_empty());
    assert!(out.join("standings.csv").exists(), "{stderr}");
    let path = spec(dir.path(), &text("1"));
    let (second, stderr) = run(&path, &out, dir.path());
    assert!(second.status.success(), "{stderr}");
    assert_eq!(games(&out).len(), 1);
}

/// A spec with bots that run as programs, and builtins, in a round-robin of three: game 1 is
/// between the builtins.
fn program_and_builtins(dir: &Path) -> PathBuf {
    spec(
        dir,
        "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\nseed = 1\njobs = 2\n\
         [params]\nrounds = 3\n\
         [[bot]]\nname = \"prog\"\ncommand = \"python3 bots/roshambo/random.py\"\n\
         [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
         [[bot]]\nname = \"b\"\ncommand = \"builtin:counter\"\n"
            .replace(
                "bots/roshambo",
                &Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("bots/roshambo")
                    .display()
                    .to_string(),
            )
            .as_str(),
    )
}

/// A folder that is a file: arena cannot make the bots' working folders in it.
fn broken_tmpdir(dir: &Path) -> PathBuf {
    let file = dir.join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    file
}

/// When arena cannot start a bot for its own reasons (here: no working folder), the game is
/// set up twice more, then left unplayed and said so; the others are played, no one is blamed,
/// the run exits 1, and a resume plays the games left.
#[test]
fn a_game_arena_cannot_set_up_is_retried_reported_and_played_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let path = program_and_builtins(dir.path());
    let (first, stderr) = run(&path, &out, &broken_tmpdir(dir.path()));
    assert_eq!(first.status.code(), Some(1), "{stderr}");
    for game in ["game 2 (b vs prog)", "game 3 (prog vs a)"] {
        let retries = format!("{game} could not be set up (");
        assert_eq!(
            stderr.matches(&retries).count(),
            2,
            "{retries:?} in:\n{stderr}"
        );
        assert!(
            stderr.contains(&format!(
                "{game} was not played: arena could not set it up ("
            )),
            "{stderr}"
        );
    }
    assert!(
        stderr.contains("could not create a working directory"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 games (2, 3) could not be played: arena could not set them up"),
        "{stderr}"
    );
    let recorded = games(&out);
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert_eq!((&*recorded[0]["seat0"], &*recorded[0]["seat1"]), ("a", "b"));
    // Nothing of the games not played is left to pass for one.
    for id in [2, 3] {
        let log = out.join(format!("logs/game-{id:05}.jsonl"));
        assert!(!log.exists(), "{} is left", log.display());
    }

    let (second, stderr) = run(&path, &out, dir.path());
    assert!(second.status.success(), "{stderr}");
    let all = games(&out);
    assert_eq!(all.len(), 3);
    assert!(all.iter().all(finished_well), "{all:?}");
}

/// `arena duel` and `arena check` retry a game arena cannot set up, then say so, and never
/// count it against the bot.
#[test]
fn a_duel_and_a_check_do_not_blame_the_bot_for_arenas_setup() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = broken_tmpdir(dir.path());
    let out = dir.path().join("duel");
    let (duel, stderr) = arena_with_tmpdir(
        &tmp,
        &[
            "duel".as_ref(),
            "--game".as_ref(),
            "roshambo".as_ref(),
            "--games".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            out.as_os_str(),
            "python3 bots/roshambo/random.py".as_ref(),
            "builtin:random".as_ref(),
        ],
    );
    let stdout = String::from_utf8_lossy(&duel.stdout);
    assert_eq!(duel.status.code(), Some(1), "{stderr}");
    // Named as `arena run` names a game it sets up again.
    assert_eq!(
        stderr
            .matches("game 1 (random-1 vs random-2) could not be set up (")
            .count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.contains("game 1 (random-1 vs random-2) was not played: arena could not set it up"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 of 1 game could not be played (game 1)"),
        "{stderr}"
    );
    assert!(stdout.contains("0 wins, 0 draws, 0 losses"), "{stdout}");

    let (check, stderr) = arena_with_tmpdir(
        &tmp,
        &[
            "check".as_ref(),
            "python3 bots/roshambo/random.py".as_ref(),
            "--game".as_ref(),
            "roshambo".as_ref(),
            "--games".as_ref(),
            "1".as_ref(),
            "--out".as_ref(),
            dir.path().join("check").as_os_str(),
        ],
    );
    let stdout = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}\n{stderr}");
    assert_eq!(
        stderr
            .matches("game 1 vs builtin:random could not be set up (")
            .count(),
        2,
        "{stderr}"
    );
    assert!(
        stdout.contains("game 1 vs builtin:random: not played: arena could not set it up"),
        "{stdout}"
    );
    assert!(
        stdout.contains("NOT CHECKED: arena could not set up 1 of 1 game"),
        "{stdout}"
    );
    assert!(!stdout.contains("PROBLEM"), "{stdout}");
}

/// A limit on file size (`ulimit -f`) is met as a full disk is: the write fails, arena says
/// which file and why, keeps what it recorded and exits 1, leaving no temporary file; a
/// tournament says which limit to raise. The kernel's SIGXFSZ used to kill it mid-write,
/// silently.
#[test]
fn a_limit_on_file_size_stops_arena_with_its_reason_not_a_signal() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(
        dir.path(),
        "name = \"t\"\ngame = \"royalur\"\ngames_per_pairing = 2\nseed = 1\n\
         [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
         [[bot]]\nname = \"b\"\ncommand = \"builtin:greedy\"\n",
    );
    let spec = spec.to_string_lossy().into_owned();
    let duel = "duel builtin:random builtin:greedy --game royalur --games 4 --out";
    let run = format!("run {spec} --out");
    for (args, out) in [(duel, "duel"), (run.as_str(), "run")] {
        let out = dir.path().join(out);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
        cmd.args(args.split(' ')).arg(&out);
        // SAFETY: setrlimit is async-signal-safe, and nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                let limit = 16 * 1024;
                let fsize = nix::sys::resource::Resource::RLIMIT_FSIZE;
                nix::sys::resource::setrlimit(fsize, limit, limit).map_err(std::io::Error::from)
            });
        }
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let code = output.status.code();
        assert_eq!(code, Some(1), "{args}: {:?}: {stderr}", output.status);
        assert!(stderr.contains("File too large"), "{stderr}");
        if args.starts_with("run") {
            assert!(
                stderr.contains("Raise the limit on file size (`ulimit -f`)"),
                "{stderr}"
            );
        }
        let stray: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with(".tmp"))
            .collect();
        assert!(stray.is_empty(), "{stray:?}");
    }
}

//! `sandbox = true` against bots that attack it: as root (CI runs as root, as do many teachers'
//! servers) and as an unprivileged user. Without the sandbox a bot reaches what the user can (the
//! control run), as the README warns.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::*;

fn bwrap_available() -> bool {
    std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Run a gauntlet of the snooping bot against a victim bot with a secret in its directory;
/// returns what the snoop reported and the games.csv.
fn snoop_run(sandbox: bool) -> (String, String) {
    let dir = readable_tempdir();
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("secret.txt"), "the victim's secret").unwrap();
    let out = dir.path().join("out");
    let snoop = readable_bot(dir.path(), "snoop.py", "");
    let spec = format!(
        "name = \"s\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\ngames_per_pairing = 1\n\
         sandbox = {sandbox}\n[params]\nrounds = 3\n\
         [[bot]]\nname = \"victim\"\ncommand = \"builtin:random\"\ndir = \"victim\"\nseed = true\n\
         [[bot]]\nname = \"snoop\"\ncommand = \"{snoop}\"\n\
         env = {{ GAMES_CSV = \"{}\", OTHER_FILE = \"{}\" }}\n",
        out.join("games.csv").display(),
        victim.join("secret.txt").display()
    );
    let path = dir.path().join("spec.toml");
    std::fs::write(&path, spec).unwrap();
    run_into(&path, &out).assert().success();
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let stderr = std::fs::read_to_string(out.join("logs/game-00001.seat0.stderr")).unwrap();
    (stderr, games)
}

#[test]
fn the_sandbox_keeps_a_bot_out_of_the_results_and_the_other_bots_files() {
    assert!(bwrap_available(), "bubblewrap is installed by .ci/run");
    let (said, games) = snoop_run(true);
    assert!(said.contains("write games.csv: refused"), "{said}");
    assert!(said.contains("read other: refused"), "{said}");
    assert!(said.contains("network: refused"), "{said}");
    assert!(!games.contains("HACKED"), "{games}");
    // The game itself was played normally: three rounds, no failure.
    assert!(
        games.contains(",normal,3,") || games.contains(",draw,3,"),
        "{games}"
    );
}

#[test]
fn without_the_sandbox_a_bot_can_reach_what_the_user_can() {
    let (said, games) = snoop_run(false);
    assert!(
        said.contains("read other: done (the victim's secret)"),
        "{said}"
    );
    assert!(said.contains("write games.csv: done"), "{said}");
    assert!(games.contains("HACKED"));
}

/// Everything `escape_sandbox.py` tries, run by arena as the test's user or as `nobody`: every
/// attempt refused, the records untouched, and the bot (two processes at most: python and the
/// `mount` it runs) never stopped by `processes = 2`, which counts its processes, not bwrap's.
fn escape(nobody: bool) {
    assert!(bwrap_available(), "bubblewrap is installed by .ci/run");
    let dir = readable_tempdir();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    chmod(&out, 0o777);
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "another bot's secret").unwrap();
    chmod(&secret, 0o644);
    // Another run's FIFO, open for reading: anything a bot could write into it would arrive.
    let fifo = dir.path().join("other-run.fifo");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o666)).unwrap();
    chmod(&fifo, 0o666);
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let escaper = readable_bot(dir.path(), "hostile/escape_sandbox.py", "");
    let spec = format!(
        "name = \"escape\"\ngame = \"roshambo\"\ngames_per_pairing = 2\ntimeout = 5.0\n\
         sandbox = true\n[params]\nrounds = 3\n[limits]\ndisk_mb = 2\nprocesses = 2\n\
         [[bot]]\nname = \"escape\"\ncommand = \"{escaper}\"\n\
         env = {{ RESULTS = \"{}\", SECRET_FILE = \"{}\", FIFO = \"{}\" }}\n\
         [[bot]]\nname = \"counter\"\ncommand = \"builtin:counter\"\n",
        out.join("games.csv").display(),
        secret.display(),
        fifo.display()
    );
    let spec_path = dir.path().join("escape.toml");
    std::fs::write(&spec_path, spec).unwrap();
    chmod(&spec_path, 0o644);
    arena_as(nobody)
        .arg("run")
        .arg(&spec_path)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();

    let raw = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let games: Vec<Vec<&str>> = raw
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(games.len(), 2, "{raw}");
    for g in &games {
        // id,round,seat0,seat1,score0,score1,winner,reason,plies,duration_ms,seed,log
        assert!(["normal", "draw"].contains(&g[7]), "{raw}");
        let seat = if g[2] == "escape" { 0 } else { 1 };
        let stderr = Path::new(g[11]).with_extension(format!("seat{seat}.stderr"));
        let said = std::fs::read_to_string(&stderr).unwrap_or_default();
        assert!(!said.contains(": done"), "an escape worked:\n{said}");
        for what in [
            "capabilities",
            "read /etc/shadow",
            "remount / read-write",
            "unmount /tmp",
            "list /root",
            "list /home",
            "see the host's /tmp",
            "see other processes",
            "fill the disk: refused ([Errno 28] disk full after 2 MiB)",
            "RESULTS",
            "SECRET_FILE",
            "FIFO",
            "mount with the mount program",
        ] {
            assert!(said.contains(&format!("escape: {what}")), "{what}:\n{said}");
        }
        if is_root() || nobody {
            assert!(said.contains("escape: uid 65534 gid 65534"), "{said}");
        }
    }
    assert!(!raw.contains("forged"), "{raw}");
    let mut got = Vec::new();
    let _ = std::io::Read::read_to_end(&mut reader, &mut got);
    assert!(got.is_empty(), "the other run's FIFO got {got:?}");
}

use std::os::unix::fs::OpenOptionsExt;

#[test]
fn a_bot_cannot_escape_the_sandbox_of_an_arena_run_as_root() {
    escape(false);
}

#[test]
#[ignore = "needs root: CI runs it as root (cargo test -- --include-ignored)"]
fn a_bot_cannot_escape_the_sandbox_of_an_arena_run_as_a_user() {
    // Run as a user, the test above is this one.
    require_root();
    escape(true);
}

/// A bot cannot type into the terminal arena runs on: it has none, with or without the sandbox.
/// arena runs under `script`, which gives it a terminal (the bot gets a session of its own), and
/// under `setsid`, which leaves it none (the bot shares arena's session, where no terminal can be
/// had).
#[test]
fn a_bot_cannot_push_keystrokes_into_arenas_terminal() {
    assert!(bwrap_available(), "bubblewrap is installed by .ci/run");
    for (sandbox, terminal) in [(false, true), (true, true), (false, false)] {
        let dir = readable_tempdir();
        let out = dir.path().join("out");
        let typed = dir.path().join("typed");
        let bot = readable_bot(
            dir.path(),
            "hostile/tty_inject.py",
            &format!("'touch {}'", typed.display()),
        );
        let arena_bin = arena_bin();
        let command = format!(
            "{} duel \"{bot}\" builtin:random --game roshambo -a rounds=1 --out {} {}",
            arena_bin.display(),
            out.display(),
            if sandbox { "--sandbox" } else { "" }
        );
        let mut wrapper = match terminal {
            true => std::process::Command::new("script"),
            false => std::process::Command::new("setsid"),
        };
        match terminal {
            true => wrapper.args(["-qec", &command, "/dev/null"]),
            false => wrapper.args(["-w", "sh", "-c", &command]),
        };
        let run = wrapper
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(run.status.success(), "{run:?}");
        let said = std::fs::read_to_string(out.join("logs/game-00001.seat0.stderr")).unwrap();
        assert!(
            said.contains("tty: refused"),
            "sandbox {sandbox}, terminal {terminal}: {said}"
        );
        assert!(!typed.exists());
    }
}

#[test]
fn a_bot_folder_inside_another_or_overlapping_the_results_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for d in ["alice", "alice/bob"] {
        std::fs::create_dir_all(dir.path().join(d)).unwrap();
    }
    let spec = |bob_dir: &str| {
        format!(
            "name = \"n\"\ngame = \"roshambo\"\n\
             [[bot]]\nname = \"alice\"\ncommand = \"builtin:random\"\ndir = \"alice\"\n\
             [[bot]]\nname = \"bob\"\ncommand = \"builtin:random\"\ndir = \"{bob_dir}\"\n"
        )
    };
    let path = dir.path().join("n.toml");
    std::fs::write(&path, spec("alice/bob")).unwrap();
    let run = run_into(&path, dir.path().join("out")).assert().code(2);
    let said = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        said.contains("n.toml:10:") && said.contains("inside bot 'alice''s dir"),
        "{said}"
    );

    // Two bots may share a folder; neither may hold the results.
    std::fs::write(&path, spec("alice")).unwrap();
    let run = run_into(&path, dir.path().join("alice/results"))
        .assert()
        .code(2);
    let said = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        said.contains("bot 'alice'") && said.contains("overlap"),
        "{said}"
    );
    assert!(!dir.path().join("alice/results/games.csv").exists());
}

/// A sandbox that cannot be set up is arena's failure, never the bot's: the game is not
/// recorded as the bot's crash, and the reason bwrap gave is shown.
#[test]
fn a_sandbox_that_cannot_be_set_up_is_not_the_bots_fault() {
    let dir = readable_tempdir();
    let fake = dir.path().join("bin");
    std::fs::create_dir(&fake).unwrap();
    let bwrap = fake.join("bwrap");
    std::fs::write(
        &bwrap,
        "#!/bin/sh\necho 'bwrap: Creating new namespace failed: No space left on device' >&2\nexit 1\n",
    )
    .unwrap();
    chmod(&bwrap, 0o755);
    let bot = readable_bot(dir.path(), "slow_rps.py", "");
    let path = format!("{}:{}", fake.display(), std::env::var("PATH").unwrap());
    let run = arena()
        .env("PATH", path)
        .args([
            "duel",
            &bot,
            "builtin:random",
            "--game",
            "roshambo",
            "--sandbox",
        ])
        .arg("--json")
        .arg("--out")
        .arg(dir.path().join("out"))
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .failure();
    let out = run.get_output();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        said.contains("the sandbox could not be set up")
            && said.contains("Creating new namespace failed"),
        "{said}"
    );
    assert_ne!(out.status.code(), Some(2), "not a usage error: {said}");
    assert!(
        json_records(&out.stdout).is_empty(),
        "no game was recorded: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

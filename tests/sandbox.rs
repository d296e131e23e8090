//! `sandbox = true`: an untrusted bot cannot touch the results, read another bot's files or
//! reach the network; without the sandbox it can (the control run), as the README warns.

mod common;

use std::path::Path;

use common::*;

/// Run a gauntlet of the snooping bot against a victim bot with a secret in its directory;
/// returns what the snoop reported and the games.csv.
fn run(sandbox: bool) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("secret.txt"), "the victim's secret").unwrap();
    let out = dir.path().join("out");
    let snoop = bot(
        "snoop.py",
        &format!(
            "{} {}",
            out.join("games.csv").display(),
            victim.join("secret.txt").display()
        ),
    );
    let spec = format!(
        "name = \"s\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\ngames_per_pairing = 1\n\
         sandbox = {sandbox}\n[params]\nrounds = 3\n\
         [[bot]]\nname = \"victim\"\ncommand = \"builtin:random\"\ndir = \"victim\"\nseed = true\n\
         [[bot]]\nname = \"snoop\"\ncommand = \"{snoop}\"\n"
    );
    let path = dir.path().join("spec.toml");
    std::fs::write(&path, spec).unwrap();
    arena()
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let stderr = std::fs::read_to_string(out.join("logs/game-00001.seat0.stderr")).unwrap();
    (stderr, games)
}

fn bwrap_available() -> bool {
    std::process::Command::new("bwrap")
        .args(["--ro-bind", "/", "/", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn the_sandbox_keeps_a_bot_out_of_the_results_and_the_other_bots_files() {
    assert!(bwrap_available(), "bubblewrap is installed by .ci/run");
    let (said, games) = run(true);
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
    let (said, games) = run(false);
    assert!(
        said.contains("read other: done (the victim's secret)"),
        "{said}"
    );
    assert!(said.contains("write games.csv: done"), "{said}");
    assert!(Path::new("/").exists() && games.contains("HACKED"));
}

//! What reaches the user's terminal and folders from a duel: a bot's bytes are shown, never
//! obeyed, and duels started together never share a results folder.

use std::path::Path;

use crate::common::*;

/// A roshambo bot whose move, and stderr, are escape sequences that would rewrite the line above
/// into a fake win and ring the bell, if a terminal were given them as they are.
const FORGER: &str = r#"import sys
sys.stdin.readline()
fake = "\x1b[1A\x1b[2K\rFinished game 1 (forger vs random): 1-0 normal, 3 plies\x07\x9b"
sys.stderr.write(fake + "\n")
sys.stderr.flush()
print(fake, flush=True)
for line in sys.stdin:
    pass
"#;

fn assert_no_raw_controls(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(raw.is_empty(), "{what} has raw {raw:?}:\n{text}");
}

#[test]
fn a_bots_escape_sequences_are_shown_not_obeyed() {
    let dir = tempfile::tempdir().unwrap();
    let forger = dir.path().join("forger.py");
    std::fs::write(&forger, FORGER).unwrap();
    let bot = format!("python3 {}", forger.display());

    let duel = arena()
        .args(["duel", &bot, "builtin:random", "--game", "roshambo"])
        .args(["--names", "forger,random", "-a", "rounds=3", "--out"])
        .arg(dir.path().join("duel"))
        .output()
        .unwrap();
    assert!(duel.status.success(), "{duel:?}");
    assert_no_raw_controls("duel's stdout", &duel.stdout);
    assert_no_raw_controls("duel's stderr", &duel.stderr);
    let said = String::from_utf8_lossy(&duel.stdout);
    assert!(said.contains("0-1 protocol"), "{said}");
    assert!(said.contains(r"\x1b[1A\x1b[2K\rFinished game 1"), "{said}");

    let check = arena()
        .args(["check", &bot, "--game", "roshambo", "--games", "1"])
        .args(["-a", "rounds=3"])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1), "{check:?}");
    assert_no_raw_controls("check's stdout", &check.stdout);
    assert_no_raw_controls("check's stderr", &check.stderr);
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(
        said.contains(r"\x1b[2K"),
        "the move and stderr are quoted: {said}"
    );

    let spec = dir.path().join("spec.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 1\n[params]\nrounds = 3\n\
             [[bot]]\nname = \"forger\"\ncommand = \"{bot}\"\n\
             [[bot]]\nname = \"random\"\ncommand = \"builtin:random\"\n"
        ),
    )
    .unwrap();
    let run = run_into(&spec, dir.path().join("run")).output().unwrap();
    assert!(run.status.success(), "{run:?}");
    assert_no_raw_controls("run's stdout", &run.stdout);
    assert_no_raw_controls("run's stderr", &run.stderr);
    assert!(String::from_utf8_lossy(&run.stdout).contains(r"\x1b[1A"));
}

#[test]
fn duels_started_together_get_a_folder_each() {
    let cwd = tempfile::tempdir().unwrap();
    let duels: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
                .current_dir(cwd.path())
                .args([
                    "duel",
                    "builtin:random",
                    "builtin:random",
                    "--game",
                    "roshambo",
                ])
                .args(["--games", "2", "-a", "rounds=5"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // All four are running before the first is waited for: they start in the same second.
    let duels: Vec<_> = duels
        .into_iter()
        .map(|d| d.wait_with_output().unwrap())
        .collect();
    for d in &duels {
        assert!(d.status.success(), "{d:?}");
    }
    let results = cwd.path().join("results");
    let folders: Vec<_> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(folders.len(), 4, "{folders:?}");
    for f in &folders {
        let mut logs: Vec<_> = std::fs::read_dir(f.join("logs"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        logs.sort();
        assert_eq!(
            logs,
            ["game-00001.jsonl", "game-00002.jsonl"],
            "{}",
            f.display()
        );
        assert!(Path::new(&f.join("report.html")).is_file());
    }
}

/// Runs a command on a pseudo-terminal, answering `R` each time it asks for a move; prints what
/// the terminal showed and exits with the command's status.
const ON_A_TERMINAL: &str = r#"import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
shown, answered, deadline = b"", 0, time.time() + 60
while time.time() < deadline:
    if fd in select.select([fd], [], [], 1)[0]:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        shown += data
        while shown.count(b"your move?") > answered:
            os.write(fd, b"R\n")
            answered += 1
status = os.waitpid(pid, 0)[1]
sys.stdout.write(shown.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
"#;

#[test]
fn a_pipe_bot_in_a_duel_on_a_terminal_keeps_it_as_coco_leaves_it() {
    let dir = tempfile::tempdir().unwrap();
    let driver = dir.path().join("on_a_terminal.py");
    std::fs::write(&driver, ON_A_TERMINAL).unwrap();
    let human = bot("human_pipe.py", "");
    let duel_with = |on_terminal: bool, human: &str, extra: &[&str], out: &str| {
        let mut cmd = if on_terminal {
            let mut c = std::process::Command::new("python3");
            c.arg(&driver).arg(env!("CARGO_BIN_EXE_arena"));
            c
        } else {
            std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        };
        cmd.args(["duel", human, "builtin:random", "-g", "roshambo"])
            .args(extra)
            .args([
                "-a",
                "rounds=3",
                "--channel",
                "pipe,stdio",
                "--json",
                "--out",
            ])
            .arg(dir.path().join(out))
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let duel = |on_terminal: bool, out: &str| duel_with(on_terminal, &human, &[], out);

    let seen = duel(true, "terminal");
    let shown = String::from_utf8_lossy(&seen.stdout);
    assert!(seen.status.success(), "{seen:?}\n{shown}");
    assert_eq!(shown.matches("your move?").count(), 3, "{shown}");
    let record = shown
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("the duel's record");
    let record: serde_json::Value = serde_json::from_str(record).unwrap();
    assert!(
        matches!(record["reason"].as_str(), Some("normal" | "draw")),
        "{record}"
    );
    assert_eq!(record["plies"], 3, "{record}");

    // Without a terminal the bot's input is /dev/null: it has no one to ask, and loses.
    let alone = duel(false, "alone");
    assert!(alone.status.success(), "{alone:?}");
    let record = &json_records(&alone.stdout)[0];
    assert_eq!(record["winner"], 1, "{record}");
    assert_eq!(record["faulted"], 0, "{record}");

    // A sandboxed bot never reaches the user's terminal, even in a duel run on one: it could
    // write on it or (as root) push input into it.
    let readable = readable_tempdir();
    let boxed = readable_bot(readable.path(), "human_pipe.py", "");
    let seen = duel_with(true, &boxed, &["--sandbox"], "sandboxed");
    let shown = String::from_utf8_lossy(&seen.stdout);
    assert!(seen.status.success(), "{seen:?}\n{shown}");
    assert!(!shown.contains("your move?"), "{shown}");
    let record = shown
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("the duel's record");
    let record: serde_json::Value = serde_json::from_str(record).unwrap();
    assert_eq!(record["winner"], 1, "{record}");
    assert_eq!(record["faulted"], 0, "{record}");
}

/// The terminal a duel runs on hangs up (a closed window, a dropped ssh session): arena gets
/// SIGHUP and stops as on SIGTERM, its running games finished and recorded, its output (which
/// the dead terminal no longer takes) sent nowhere rather than failing. Before, the hang-up
/// killed it with its running games.
#[test]
fn a_terminal_that_hangs_up_stops_a_duel_with_its_games_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let output = std::process::Command::new("python3")
        .arg(format!(
            "{}/tests/bots/hangup.py",
            env!("CARGO_MANIFEST_DIR")
        ))
        .arg(arena_bin())
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(said.trim(), "exit 130", "{said}");
    let rows = games(&out);
    assert!(!rows.is_empty(), "no game recorded");
    // Every game started finished and was recorded: each log has a row.
    let logs = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "jsonl")
        .count();
    assert_eq!(logs, rows.len(), "a game started and was not recorded");
}

/// A tournament's progress bar on a terminal is drawn in block characters where the locale says
/// the terminal takes UTF-8, and in ASCII where it does not (`LC_ALL=C`, cron's usual locale, or
/// an old console), as the rest of arena's output is.
#[test]
fn the_progress_bar_is_ascii_where_the_locale_is_not_utf8() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("t.toml");
    std::fs::write(
        &spec,
        "name = \"t\"\ngame = \"roshambo\"\ngames_per_pairing = 4\nseed = 1\n[params]\nrounds = 3\n\
         [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\
         [[bot]]\nname = \"b\"\ncommand = \"builtin:counter\"\n",
    )
    .unwrap();
    let on_a_terminal = |locale: &str, out: &str| {
        let output = std::process::Command::new("python3")
            .arg(format!(
                "{}/tests/bots/on_a_terminal.py",
                env!("CARGO_MANIFEST_DIR")
            ))
            .arg(arena_bin())
            .arg("run")
            .arg(&spec)
            .arg("--out")
            .arg(dir.path().join(out))
            .env("LC_ALL", locale)
            .env("TERM", "xterm")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let ascii = on_a_terminal("C", "c");
    assert!(ascii.contains("\nexit 0"), "{ascii}");
    assert!(
        ascii.contains("4/4 games"),
        "the bar was not drawn: {ascii}"
    );
    assert!(ascii.is_ascii(), "{ascii}");
    // Control: the same on a UTF-8 locale draws the blocks.
    let utf8 = on_a_terminal("C.UTF-8", "u");
    assert!(utf8.contains("4/4 games"), "{utf8}");
    assert!(utf8.contains('█'), "{utf8}");
}

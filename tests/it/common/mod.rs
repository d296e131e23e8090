//! Helpers for the integration tests: run the real binary, read what it wrote.
#![allow(dead_code)]

pub mod property;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

/// The arena binary's path, for a test that starts it its own way; shares the test's time as
/// `arena()` does.
pub fn arena_bin() -> PathBuf {
    beside_others();
    assert_cmd::cargo::cargo_bin("arena")
}

pub fn arena() -> Command {
    beside_others();
    let mut cmd = Command::cargo_bin("arena").expect("the arena binary is built");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// arena as the test's user, or as `nobody` through setpriv (for a test run as root).
pub fn arena_as(nobody: bool) -> Command {
    if !nobody {
        return arena();
    }
    let mut cmd = Command::new("setpriv");
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(arena_bin())
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

/// A test bot under tests/bots, as a command line arena can run.
pub fn bot(script: &str, args: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(script);
    format!("python3 {} {args}", path.display())
}

/// The game log entries (one JSON value per line) of a finished game.
pub fn log_entries(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("each log line is JSON"))
        .collect()
}

/// The rows of `out/games.csv`, by column name.
pub fn games(out: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    r.deserialize().map(|row| row.unwrap()).collect()
}

/// Wait until `out/games.csv` holds more than `lines` lines (the header counts as one).
pub fn wait_for_lines(out: &Path, lines: usize) {
    let started = Instant::now();
    while std::fs::read_to_string(out.join("games.csv")).map_or(0, |t| t.lines().count()) <= lines {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run does not progress"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn game_log(out: &Path, n: usize) -> PathBuf {
    out.join("logs").join(format!("game-{n:05}.jsonl"))
}

/// Every `--json` line of a duel: one object per game, then the summary.
fn json_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

/// The game records of a duel's `--json` output.
pub fn json_records(stdout: &[u8]) -> Vec<serde_json::Value> {
    json_lines(stdout)
        .into_iter()
        .filter(|v| v.get("summary").is_none())
        .collect()
}

/// The summary that ends a duel's `--json` output.
pub fn json_summary(stdout: &[u8]) -> serde_json::Value {
    let last = json_lines(stdout).pop().expect("some output");
    last.get("summary")
        .cloned()
        .expect("the last line is the summary")
}

/// Processes whose command line contains `marker`.
pub fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc") {
        let Ok(entry) = entry else { continue };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push(format!(
                "{}: {cmdline}",
                entry.file_name().to_string_lossy()
            ));
        }
    }
    found
}

/// A temporary folder every user can read. Run as root, arena starts sandboxed bots as
/// `nobody`, who must reach their files (tempfile makes folders only their owner can enter).
pub fn readable_tempdir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A test bot under tests/bots copied into `dir` (made by `readable_tempdir`), run by the
/// system's Python: both reachable by any user, wherever the tests are checked out.
pub fn readable_bot(dir: &Path, script: &str, args: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(script);
    let to = dir.join(Path::new(script).file_name().unwrap());
    std::fs::copy(&from, &to).unwrap();
    std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("/usr/bin/python3 {} {args}", to.display())
}

/// Whether this test runs as root (CI does).
pub fn is_root() -> bool {
    nix::unistd::geteuid().is_root()
}

/// For a test that needs root: such a test is marked `#[ignore = "needs root..."]`, listed as
/// ignored by a plain `cargo test`, and run by CI as root with `-- --include-ignored`. Run
/// without root, it fails: it never passes having checked nothing.
pub fn require_root() {
    assert!(
        is_root(),
        "this test needs root: run it as root (CI runs `cargo test -- --include-ignored` as root)"
    );
}

/// A temporary folder anyone can write in (for arena run as `nobody`).
pub fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    dir
}

/// Whether arena can be run as `nobody` here, which needs root (`require_root`): a machine
/// where it cannot is a failure of the test, never a pass.
pub fn nobody_possible() -> bool {
    require_root();
    let ok = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "/usr/bin/python3",
            "-c",
            "",
        ])
        .status()
        .is_ok_and(|s| s.success());
    let readable = std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "test",
            "-r",
        ])
        .arg(arena_bin())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok && readable,
        "setpriv, /usr/bin/python3 or the arena binary is unusable as nobody"
    );
    true
}

/// What an arena from before settings were kept wrote as run.json: no settings, for the
/// tournament or its bots.
pub fn as_before_settings(out: &Path) {
    let path = out.join("run.json");
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let record = record.as_object_mut().unwrap();
    record.remove("settings");
    for bot in record["bots"].as_array_mut().unwrap() {
        bot.as_object_mut().unwrap().remove("settings");
    }
    std::fs::write(&path, serde_json::to_string_pretty(&record).unwrap()).unwrap();
}

/// A duel of roshambo between two built-in bots into `out`, with `args` (`--games`, `-a`...).
pub fn roshambo_duel(out: &Path, args: &[&str]) {
    arena()
        .args([
            "duel",
            "builtin:random",
            "builtin:counter",
            "--game",
            "roshambo",
        ])
        .args(args)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// The tests that measure CPU time (fairness, frozen bots, spinners) run alone: each holds the
/// lock file `cpu` exclusively (`alone`), and every other test holds it shared from its first
/// `arena()` until its thread ends (libtest gives each test a thread of its own). A lock file
/// per user under the temporary folder, so that it holds across processes too (nextest runs
/// each test in a process of its own; two `cargo test` runs may overlap); `flock` treats each
/// open of it apart, so threads of one process wait for each other as processes do.
fn lock_file(name: &str, arg: nix::fcntl::FlockArg) -> nix::fcntl::Flock<std::fs::File> {
    let uid = nix::unistd::getuid();
    let path = std::env::temp_dir().join(format!("arena-tests-{uid}-{name}.lock"));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("opening {}: {e}", path.display()));
    nix::fcntl::Flock::lock(file, arg)
        .unwrap_or_else(|(_, e)| panic!("locking {}: {e}", path.display()))
}

thread_local! {
    /// This test's hold on the `cpu` lock: none yet, shared, or exclusive.
    static HOLD: std::cell::RefCell<Option<(bool, nix::fcntl::Flock<std::fs::File>)>> =
        const { std::cell::RefCell::new(None) };
}

/// Run the rest of this test alone among the tests (see `lock_file`). Call it first, before
/// `arena()`: a test holding the lock shared would wait for itself.
pub fn alone() {
    HOLD.with_borrow_mut(|hold| {
        assert!(
            hold.as_ref().is_none_or(|(exclusive, _)| *exclusive),
            "alone() comes before the test's first arena()"
        );
        if hold.is_none() {
            *hold = Some((true, lock_file("cpu", nix::fcntl::FlockArg::LockExclusive)));
        }
    });
}

/// Share the tests' time with the others, but not with a test that runs alone.
fn beside_others() {
    HOLD.with_borrow_mut(|hold| {
        if hold.is_none() {
            *hold = Some((false, lock_file("cpu", nix::fcntl::FlockArg::LockShared)));
        }
    });
}

/// `arena run SPEC --out OUT`, to add options to and assert on.
pub fn run_into(spec: impl AsRef<std::ffi::OsStr>, out: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut cmd = arena();
    cmd.arg("run").arg(spec).arg("--out").arg(out);
    cmd
}

/// The times a spinner wrote to its beat file (`time.time()`, one a line), each a moment it ran.
pub fn beat_times(path: &Path) -> Vec<f64> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// When a thinking bot thought, from its stderr: lines `WHO: thought from START to END`.
pub fn thought_windows(said: &str, who: &str) -> Vec<(f64, f64)> {
    let prefix = format!("{who}: thought from ");
    said.lines()
        .filter_map(|l| {
            let (a, b) = l.strip_prefix(&prefix)?.split_once(" to ")?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .collect()
}

/// The beats that came while the bot thought, from 50 ms after a window's start (the bots to
/// move run together until the spinner's answer is read) to 20 ms before its end.
pub fn beats_while_thinking(beats: &[f64], windows: &[(f64, f64)]) -> Vec<f64> {
    beats
        .iter()
        .copied()
        .filter(|&t| windows.iter().any(|&(a, b)| t > a + 0.05 && t < b - 0.02))
        .collect()
}

//! `[limits]` against the bots they must hold and the runtimes they must not break: a Java VM
//! plays under `memory_mb = 512` where a cgroup memory controller holds the limit, and is told
//! plainly why it cannot start where only RLIMIT_AS can (arena run as `nobody`); a bot that
//! allocates past its limit loses with reason `memory`. As a user (arena run as `nobody` when the
//! tests run as root, as CI does; else as the test's own user), `processes` is held for each bot
//! alone, whatever else the user runs, and memory parked in a memfd or /dev/shm is held where
//! arena can, and named in the start note where it cannot.

use std::path::Path;

use crate::common::*;
use serde_json::Value;

/// What arena says when no controller can hold `memory_mb` (then RLIMIT_AS does).
const NO_CONTROLLER: &str = "memory_mb is held here as an address-space limit (RLIMIT_AS)";

/// A roshambo tournament of `command` (its `[bot.limits]` given) against `builtin:random`, two
/// games, run as the test's user or as `nobody`. Returns arena's stderr and each game's result.
fn play(nobody: bool, dir: &Path, command: &str, limits: &str) -> (String, Vec<Value>) {
    play_spec(nobody, dir, command, limits, "")
}

/// `play`, with `top` (lines such as `sandbox = true`) at the top of the spec.
fn play_spec(
    nobody: bool,
    dir: &Path,
    command: &str,
    limits: &str,
    top: &str,
) -> (String, Vec<Value>) {
    use std::os::unix::fs::PermissionsExt;
    let out = dir.join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
    let spec = format!(
        "name = \"limits\"\ngame = \"roshambo\"\ngames_per_pairing = 2\nstartup_timeout = 60.0\n{top}\n\
         [params]\nrounds = 3\n\
         [[bot]]\nname = \"limited\"\ncommand = \"{command}\"\n[bot.limits]\n{limits}\n\
         [[bot]]\nname = \"random\"\ncommand = \"builtin:random\"\n"
    );
    let path = dir.join("spec.toml");
    std::fs::write(&path, spec).unwrap();
    let output = arena_as(nobody)
        .arg("run")
        .arg(&path)
        .arg("--out")
        .arg(&out)
        .timeout(std::time::Duration::from_secs(180))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{stderr}");
    let results = (1..=2)
        .map(|n| {
            log_entries(&out.join(format!("logs/game-{n:05}.jsonl")))
                .into_iter()
                .find_map(|e| e.get("result").cloned())
                .expect("every game has its result")
        })
        .collect();
    (stderr, results)
}

/// The Java bot, in a folder `nobody` can read.
fn java_bot() -> (tempfile::TempDir, &'static str) {
    let java = std::process::Command::new("java").arg("-version").output();
    assert!(
        java.is_ok_and(|o| o.status.success()),
        "the memory tests need Java (a JDK: installed by .ci/run)"
    );
    let dir = readable_tempdir();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/Rock.java");
    std::fs::copy(from, dir.path().join("Rock.java")).unwrap();
    (dir, "java Rock.java")
}

fn limited_seat(result: &Value) -> usize {
    (0..2).find(|&s| result["players"][s] == "limited").unwrap()
}

#[test]
fn a_java_bot_plays_under_a_memory_limit_of_512_mib() {
    let (dir, java) = java_bot();
    let (stderr, results) = play(false, dir.path(), java, "memory_mb = 512");
    if stderr.contains(NO_CONTROLLER) {
        eprintln!("no cgroup memory controller here: the Java VM is refused at start, plainly");
        for r in &results {
            assert_eq!(r["reason"], "crash", "{r}");
            assert!(
                r["detail"]
                    .as_str()
                    .unwrap()
                    .contains("the Java VM could not reserve its memory"),
                "{r}"
            );
        }
        return;
    }
    for r in &results {
        assert!(r.get("faulted").is_none(), "the JVM played its games: {r}");
        assert_eq!(r["plies"], 3, "{r}");
    }
}

/// As a user who may make no cgroup, RLIMIT_AS is all there is: arena says so before the games,
/// and the JVM's failure (written on its move stream) is told as a failure to start with its
/// reason, not as a protocol fault.
#[test]
fn without_a_controller_a_java_bot_is_told_why_it_cannot_start() {
    let (dir, java) = java_bot();
    let (stderr, results) = play(is_root(), dir.path(), java, "memory_mb = 512");
    assert!(stderr.contains(NO_CONTROLLER), "{stderr}");
    for r in &results {
        assert_eq!(r["reason"], "crash", "{r}");
        assert_eq!(r["faulted"], limited_seat(r), "{r}");
        assert_eq!(
            r["cause"],
            serde_json::json!({"exited": {"status": 1}}),
            "{r}"
        );
        assert_eq!(r["at_move"], 1, "{r}");
        let detail = r["detail"].as_str().unwrap();
        for words in [
            "failed before its first move",
            "Error occurred during initialization of VM",
            "the Java VM could not reserve its memory under memory_mb = 512",
            "RLIMIT_AS",
        ] {
            assert!(detail.contains(words), "{words:?} not in {detail:?}");
        }
    }
}

/// `memory_hog.py` plays two rounds, then writes to ever more memory: killed by the kernel at
/// its limit where a controller holds it (reason `memory`), or failing its allocation under
/// RLIMIT_AS (a crash that names the limit).
#[test]
fn a_bot_that_allocates_past_its_limit_loses_by_memory() {
    let dir = readable_tempdir();
    let hog = readable_bot(dir.path(), "hostile/memory_hog.py", "0");
    let (stderr, results) = play(false, dir.path(), &hog, "memory_mb = 200");
    let controlled = !stderr.contains(NO_CONTROLLER);
    for r in &results {
        assert_eq!(r["faulted"], limited_seat(r), "{r}");
        assert_eq!(r["plies"], 2, "stopped at its third move: {r}");
        let detail = r["detail"].as_str().unwrap();
        if controlled {
            assert_eq!(r["reason"], "memory", "{r}");
            assert_eq!(r["cause"], serde_json::json!({"exited": "memory_limit"}));
            assert!(
                detail.contains(
                    "killed by the kernel for using more than its memory limit of 200 MiB"
                ),
                "{detail}"
            );
        } else {
            assert_eq!(r["reason"], "crash", "{r}");
            assert!(detail.contains("memory limit of 200 MiB"), "{detail}");
        }
    }
    if controlled && is_root() {
        // And where only RLIMIT_AS holds it, as for a user who may make no cgroup.
        let dir = readable_tempdir();
        let hog = readable_bot(dir.path(), "hostile/memory_hog.py", "0");
        let (stderr, results) = play(true, dir.path(), &hog, "memory_mb = 200");
        assert!(stderr.contains(NO_CONTROLLER), "{stderr}");
        for r in &results {
            assert_eq!(r["reason"], "crash", "{r}");
            let detail = r["detail"].as_str().unwrap();
            assert!(
                detail.contains("it ran out of memory under its memory limit of 200 MiB"),
                "{detail}"
            );
        }
    }
}

/// The user's other processes (a desktop, other bots): `n` sleeps, as the user arena runs as,
/// killed when dropped.
struct OthersOfTheUser(Vec<std::process::Child>);

impl OthersOfTheUser {
    fn start(nobody: bool, n: usize) -> OthersOfTheUser {
        let one = || {
            let mut cmd = match nobody {
                true => {
                    let mut c = std::process::Command::new("setpriv");
                    c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "sleep"]);
                    c
                }
                false => std::process::Command::new("sleep"),
            };
            cmd.arg("120").spawn().expect("a sleep of the user's")
        };
        OthersOfTheUser((0..n).map(|_| one()).collect())
    }
}

impl Drop for OthersOfTheUser {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What arena says where RLIMIT_NPROC holds `processes` in each bot's own user namespace.
const IN_NAMESPACE: &str = "processes is held here as RLIMIT_NPROC in a user namespace";

/// RLIMIT_NPROC counts every process and thread of the user: under `processes = 8`, a bot that
/// forks once lost every game when the user ran more than 8 besides. As a user (`nobody` when
/// the test runs as root) who runs 16 other processes, the honest bot plays every game, with
/// and without the sandbox, and arena says what holds the limit.
#[test]
fn an_honest_bot_that_forks_plays_under_processes_as_a_user() {
    let nobody = is_root();
    let _others = OthersOfTheUser::start(nobody, 16);
    for top in ["", "sandbox = true"] {
        let dir = readable_tempdir();
        let bot = readable_bot(dir.path(), "forks_once.py", "");
        let (stderr, results) = play_spec(nobody, dir.path(), &bot, "processes = 8", top);
        for r in &results {
            assert!(
                r.get("faulted").is_none(),
                "{top}: the bot played: {r}\n{stderr}"
            );
            assert_eq!(r["plies"], 3, "{r}");
        }
        // Where no pids controller holds it (a user's account, as here without delegation),
        // a user namespace does, and arena says so.
        assert!(
            stderr.contains(IN_NAMESPACE) || !stderr.contains("processes is"),
            "{stderr}"
        );
    }
}

/// A JVM runs about 24 threads, and threads count: it plays under `processes = 64` as a user,
/// whatever else the user runs.
#[test]
fn a_java_bot_plays_under_processes_as_a_user() {
    let nobody = is_root();
    let _others = OthersOfTheUser::start(nobody, 64);
    let (dir, java) = java_bot();
    let (stderr, results) = play(nobody, dir.path(), java, "processes = 64");
    for r in &results {
        assert!(r.get("faulted").is_none(), "the JVM played: {r}\n{stderr}");
        assert_eq!(r["plies"], 3, "{r}");
    }
}

/// A bot that forks past its limit is still stopped, and told so, as a user: in its own user
/// namespace RLIMIT_NPROC refuses its fork.
#[test]
fn a_bot_that_forks_past_its_limit_is_stopped_as_a_user() {
    let nobody = is_root();
    let dir = readable_tempdir();
    // Each test's marker ends in two digits of its own: a bare pid is a prefix of the markers of
    // the tests that run beside it, whose `sleep 3601.MARKER` it then took for its own.
    let marker = format!("{}01", std::process::id());
    let bot = readable_bot(dir.path(), "hostile/fork_many.py", &marker);
    let (stderr, results) = play(nobody, dir.path(), &bot, "processes = 10");
    for r in &results {
        assert_eq!(r["faulted"], limited_seat(r), "{r}\n{stderr}");
        let detail = r["detail"].as_str().unwrap();
        assert!(detail.contains("limit of 10"), "{detail}");
    }
    assert!(processes_with(&format!("3601.{marker}")).is_empty());
}

/// The same bot, started in a user namespace it makes itself (`unshare -U -r`, root there):
/// neither unsandboxed (where its own namespace has no uid to nest from) nor in the sandbox
/// (where a nested namespace's processes still count in the one arena made) does that lift
/// `processes`, as a user.
#[test]
fn a_bot_that_makes_a_user_namespace_of_its_own_is_still_held_as_a_user() {
    let nobody = is_root();
    for top in ["", "sandbox = true"] {
        let dir = readable_tempdir();
        let marker = format!("{}0{}", std::process::id(), 2 + top.len().min(1));
        let bot = readable_bot(dir.path(), "hostile/fork_many.py", &marker);
        let bot = format!("/usr/bin/unshare -U -r {bot}");
        let (stderr, results) = play_spec(nobody, dir.path(), &bot, "processes = 10", top);
        for (i, r) in results.iter().enumerate() {
            assert_eq!(r["faulted"], limited_seat(r), "{top}: {r}\n{stderr}");
            let said = dir.path().join(format!(
                "out/logs/game-{:05}.seat{}.stderr",
                i + 1,
                limited_seat(r)
            ));
            let said = std::fs::read_to_string(said).unwrap_or_default();
            assert!(!said.contains("no process limit hit"), "{top}: {said}");
        }
        assert!(
            processes_with(&format!("3601.{marker}")).is_empty(),
            "{top}: its children outlived the game"
        );
    }
}

/// What the bot that parks memory said it parked, from its stderr in each game.
fn parked(dir: &Path, results: &[Value]) -> Vec<String> {
    results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let seat = limited_seat(r);
            let path = dir.join(format!("out/logs/game-{:05}.seat{seat}.stderr", i + 1));
            std::fs::read_to_string(&path).unwrap_or_default()
        })
        .collect()
}

/// Memory kept in a memfd or a tmpfs file is not in the address space RLIMIT_AS bounds: a bot
/// parked 300 MiB under `memory_mb = 50`. As a user who may use no memory controller: in the
/// sandbox /dev/shm is a tmpfs of `disk_mb` and fills there; what arena cannot hold (a memfd;
/// /dev/shm outside the sandbox) the start note names. Where a controller holds the limit (the
/// test run as root), the parking bot is killed by the kernel and loses by `memory`.
#[test]
fn memory_parked_outside_the_address_space_is_held_or_named() {
    let nobody = is_root();
    let marker = format!("{}04", std::process::id());
    // Removed however the test ends: outside the sandbox the bot's file is the machine's memory.
    struct Removed(String);
    impl Drop for Removed {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
    let shm = Removed(format!("/dev/shm/arena-parked-{marker}"));
    for (mode, top) in [
        ("shm", "sandbox = true"),
        ("memfd", "sandbox = true"),
        ("shm", ""),
        ("memfd", ""),
    ] {
        let dir = readable_tempdir();
        let bot = readable_bot(
            dir.path(),
            "hostile/parks_memory.py",
            &format!("{mode} 300 {marker}"),
        );
        let (stderr, results) = play_spec(nobody, dir.path(), &bot, "memory_mb = 100", top);
        let _ = std::fs::remove_file(&shm.0);
        let said = parked(dir.path(), &results);
        let case = format!("{mode}, {top:?}: {said:?}\n{stderr}");
        if !stderr.contains(NO_CONTROLLER) {
            // A user with a delegated memory controller: it holds the memfd as the bot's.
            if mode == "memfd" {
                assert!(results.iter().all(|r| r["reason"] == "memory"), "{case}");
            }
            continue;
        }
        if top.is_empty() || mode == "memfd" {
            // Not held: said at the start.
            assert!(stderr.contains("Not held: memory a bot keeps"), "{case}");
            assert!(stderr.contains("memfd"), "{case}");
            if top.is_empty() {
                assert!(stderr.contains("/dev/shm"), "{case}");
            }
        } else {
            // The sandbox's /dev/shm is sized: full at 64 MiB.
            for s in &said {
                assert!(s.contains("MiB in shm (No space left on device)"), "{case}");
                let mib: u64 = s.split_whitespace().nth(1).unwrap().parse().unwrap();
                assert!(mib <= 64, "{case}");
            }
        }
        for r in &results {
            assert!(r.get("faulted").is_none(), "{case}");
        }
    }
}

/// Run as root, a memory controller holds the limit: memory a bot parks in a memfd is its
/// memory, and the bot is killed by the kernel and loses by `memory`.
#[test]
#[ignore = "needs root: CI runs it as root (cargo test -- --include-ignored)"]
fn a_memory_controller_holds_memory_parked_in_a_memfd() {
    require_root();
    let marker = format!("{}05", std::process::id());
    let dir = readable_tempdir();
    let bot = readable_bot(
        dir.path(),
        "hostile/parks_memory.py",
        &format!("memfd 300 {marker}"),
    );
    let (stderr, results) = play(false, dir.path(), &bot, "memory_mb = 100");
    if stderr.contains(NO_CONTROLLER) {
        panic!("run as root, arena found no memory controller to hold the limit:\n{stderr}");
    }
    for r in &results {
        assert_eq!(r["faulted"], limited_seat(r), "{r}");
        assert_eq!(r["reason"], "memory", "{r}");
    }
}

/// `arena duel` of 40 roshambo games at once between two `nofile_rps.py`, started with a limit
/// on open files of `soft` (and `hard`, if given, else the test's own): arena's stderr, whether
/// it succeeded, the games played, and the limits the bots said they had.
fn many_games_under(soft: u64, hard: Option<u64>) -> (String, bool, usize, Vec<String>) {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bot = bot("nofile_rps.py", "");
    let mut cmd = std::process::Command::new(arena_bin());
    cmd.args(["duel", &bot, &bot, "--game", "roshambo", "-a", "rounds=2"])
        .args(["--games", "40", "--jobs", "40", "--seed", "1"])
        .args(["--startup-timeout", "60", "--timeout", "10"])
        .arg("--out")
        .arg(&out);
    let (_, own_hard) =
        nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE).unwrap();
    let hard = hard.unwrap_or(own_hard);
    // SAFETY: setrlimit is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, soft, hard)
                .map_err(std::io::Error::from)
        });
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let played = games(&out).len();
    let mut said: Vec<String> = std::fs::read_dir(out.join("logs"))
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            path.to_string_lossy().ends_with(".stderr").then_some(path)
        })
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .flat_map(|s| s.lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| l.starts_with("nofile "))
        .collect();
    said.sort();
    said.dedup();
    (stderr, output.status.success(), played, said)
}

/// Many systems start programs with a soft limit of 1,024 open files, and arena holds about ten
/// for each process of a running game: it raises its own limit to the hard one, so that 40 games
/// at once under a soft limit of 256 (about 800 descriptors) are all played, and its bots still
/// get the limit it was started with.
#[test]
fn many_games_at_once_play_under_a_low_soft_limit_and_the_bots_keep_it() {
    let (_, hard) =
        nix::sys::resource::getrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE).unwrap();
    assert!(
        hard >= 2048,
        "this test needs a hard limit of 2048 open files or more: {hard}"
    );
    let (stderr, ok, played, said) = many_games_under(256, None);
    assert!(ok, "{stderr}");
    assert_eq!(played, 40, "{stderr}");
    assert!(!stderr.contains("Too many open files"), "{stderr}");
    assert!(!stderr.contains("arena: --jobs:"), "{stderr}");
    assert_eq!(said, [format!("nofile 256 {hard}")], "{stderr}");
}

/// Where the hard limit itself is low, arena plays no more games at once than it holds, says
/// so, and plays every game.
#[test]
fn games_at_once_are_cut_to_what_a_low_hard_limit_holds() {
    let (stderr, ok, played, said) = many_games_under(300, Some(300));
    assert!(ok, "{stderr}");
    assert_eq!(played, 40, "{stderr}");
    assert!(!stderr.contains("Too many open files"), "{stderr}");
    // (300 - 128) / 24 descriptors a game.
    assert!(
        stderr.contains("arena: --jobs: 40 games at once would hold about")
            && stderr.contains("may open 300")
            && stderr.contains("playing 7 at a time"),
        "{stderr}"
    );
    assert!(stderr.contains(", 7 at a time,"), "{stderr}");
    assert_eq!(said, ["nofile 300 300"], "{stderr}");
}

/// Under a limit on processes (`ulimit -u`) too low for arena's own threads, or for its bots
/// besides, a duel says why and exits 1, or plays what it can and says which games it could not
/// set up: never a panic (it panicked where a thread could not start: the games' pool, the
/// start-up watcher, the journal's blocking thread). Needs root, to run arena as a user of its
/// own: the limit counts every process of the user, and root is not held to it.
#[test]
#[ignore = "needs root: CI runs it as root (cargo test -- --include-ignored)"]
fn a_limit_on_processes_too_low_for_arena_is_said_never_a_panic() {
    use std::os::unix::process::CommandExt;
    require_root();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o777),
    )
    .unwrap();
    let mut outcomes = Vec::new();
    for n in 3..=9u32 {
        let uid = 64_000 + std::process::id() % 1000 * 10 + n;
        let out = dir.path().join(format!("out{n}"));
        let mut cmd = std::process::Command::new(arena_bin());
        cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "duel",
                "builtin:random",
                "/usr/bin/python3 bots/roshambo/random.py",
            ])
            .args([
                "--game", "roshambo", "-a", "rounds=3", "--games", "4", "--jobs", "2",
            ])
            .arg("--out")
            .arg(&out);
        // SAFETY: these calls are async-signal-safe, and nothing else runs before exec.
        unsafe {
            cmd.pre_exec(move || {
                use nix::unistd::{Gid, Uid, setgid, setgroups, setuid};
                let limit = u64::from(n);
                setgroups(&[])?;
                setgid(Gid::from_raw(uid))?;
                nix::sys::resource::setrlimit(
                    nix::sys::resource::Resource::RLIMIT_NPROC,
                    limit,
                    limit,
                )?;
                setuid(Uid::from_raw(uid))?;
                Ok(())
            });
        }
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "ulimit -u {n}: {stderr}");
        let code = output.status.code();
        assert!(
            matches!(code, Some(0 | 1)),
            "ulimit -u {n}: {code:?}: {stderr}"
        );
        if code == Some(1) {
            assert!(
                stderr.contains("is the limit on processes, `ulimit -u`, too low?")
                    || stderr.contains("could not be played"),
                "ulimit -u {n}: {stderr}"
            );
        }
        outcomes.push(code);
    }
    // The lowest limits are said at once; a generous one plays every game.
    assert_eq!(outcomes[0], Some(1), "{outcomes:?}");
    assert_eq!(outcomes.last(), Some(&Some(0)), "{outcomes:?}");
}

/// A hard limit on open files too low for even one game is said before any game is tried, and
/// no results folder is made: every game would fail to set up, each three times.
#[test]
fn a_limit_on_open_files_too_low_for_one_game_is_said_at_once() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let bot = bot("nofile_rps.py", "");
    let mut cmd = std::process::Command::new(arena_bin());
    cmd.args([
        "duel", &bot, &bot, "--game", "roshambo", "-a", "rounds=2", "--games", "2",
    ])
    .arg("--out")
    .arg(&out);
    // SAFETY: setrlimit is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_NOFILE, 64, 64)
                .map_err(std::io::Error::from)
        });
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("open files, and this process may open 64 (its hard limit"),
        "{stderr}"
    );
    assert!(!out.exists(), "{stderr}");
}

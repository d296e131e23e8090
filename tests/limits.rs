//! `[limits]` against the bots they must hold and the runtimes they must not break: a Java VM
//! plays under `memory_mb = 512` where a cgroup memory controller holds the limit, and is told
//! plainly why it cannot start where only RLIMIT_AS can (arena run as `nobody`); a bot that
//! allocates past its limit loses with reason `memory`.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// What arena says when no controller can hold `memory_mb` (then RLIMIT_AS does).
const NO_CONTROLLER: &str = "memory_mb is held here as an address-space limit (RLIMIT_AS)";

/// A roshambo tournament of `command` (its `[bot.limits]` given) against `builtin:random`, two
/// games, run as the test's user or as `nobody`. Returns arena's stderr and each game's result.
fn play(nobody: bool, dir: &Path, command: &str, limits: &str) -> (String, Vec<Value>) {
    use std::os::unix::fs::PermissionsExt;
    let out = dir.join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o777)).unwrap();
    let spec = format!(
        "name = \"limits\"\ngame = \"roshambo\"\ngames_per_pairing = 2\nstartup_timeout = 60.0\n\
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

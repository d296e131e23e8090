//! Results folders that are not what arena wrote: a FIFO or a huge file in each place a folder
//! file is read, a merged folder whose shard path holds a link, a broken first log, and shards
//! that are not one run's whole set. Real binary, real files.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use crate::common::*;

/// Far beyond what any command here takes: reaching it means arena hung.
const HANG: Duration = Duration::from_secs(60);

/// `arena ARGS`, which must end before `HANG` (it is killed then, and the test fails).
fn ends(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    let mut cmd = arena();
    for a in args {
        cmd.arg(a);
    }
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    let out = cmd
        .timeout(HANG)
        .output()
        .unwrap_or_else(|e| panic!("arena {}: {e}", shown.join(" ")));
    // Killed at the timeout: it hung.
    assert!(
        out.status.code().is_some(),
        "arena {} did not end within {HANG:?}: {}",
        shown.join(" "),
        stderr(&out)
    );
    out
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[derive(Clone, Copy, Debug)]
enum Bad {
    Fifo,
    /// 3 GiB, sparse: no disk used.
    Huge,
}

impl Bad {
    /// Put it at `path`, in place of what is there.
    fn plant(self, path: &Path) {
        let _ = std::fs::remove_file(path);
        match self {
            Bad::Fifo => nix::unistd::mkfifo(path, nix::sys::stat::Mode::S_IRWXU).unwrap(),
            Bad::Huge => std::fs::File::create(path)
                .unwrap()
                .set_len(3 << 30)
                .unwrap(),
        }
    }

    /// What arena says of it.
    fn said(self) -> &'static str {
        match self {
            Bad::Fifo => "not a regular file",
            Bad::Huge => "MiB, more than any run writes there",
        }
    }
}

/// A roshambo round-robin of two built-in bots, written into `dir`.
fn spec(dir: &Path, file: &str, game: &str, seed: u64) -> PathBuf {
    let path = dir.join(file);
    let params = match game {
        "roshambo" => "\n[params]\nrounds = 3\n",
        _ => "",
    };
    std::fs::write(
        &path,
        format!(
            "name = \"t\"\ngame = \"{game}\"\ngames_per_pairing = 2\nseed = {seed}\n{params}\n\
             [[bot]]\nname = \"a\"\ncommand = \"builtin:random\"\n\n\
             [[bot]]\nname = \"b\"\ncommand = \"builtin:random\"\n\n\
             [[bot]]\nname = \"c\"\ncommand = \"builtin:random\"\n"
        ),
    )
    .unwrap();
    path
}

/// `arena run SPEC --out OUT [--shard K/N]`, which must succeed.
fn run(spec: &Path, out: &Path, shard: Option<&str>) {
    let mut cmd = arena();
    cmd.arg("run").arg(spec).arg("--out").arg(out);
    if let Some(s) = shard {
        cmd.args(["--shard", s]);
    }
    cmd.assert().success();
}

/// A run's folder (`run`), the same run in two shards (`shards/1`, `shards/2`) and the shards
/// merged (`merged`), all in `dir`; the spec.
fn folders(dir: &Path) -> PathBuf {
    let spec = spec(dir, "t.toml", "roshambo", 1);
    run(&spec, &dir.join("run"), None);
    run(&spec, &dir.join("shards/1"), Some("1/2"));
    run(&spec, &dir.join("shards/2"), Some("2/2"));
    arena()
        .arg("ratings")
        .arg(dir.join("shards/1/games.csv"))
        .arg(dir.join("shards/2/games.csv"))
        .arg("--out")
        .arg(dir.join("merged"))
        .assert()
        .success();
    spec
}

/// A copy of the folders of `from` in a new folder `to`.
fn copy(from: &Path, to: &Path) {
    let done = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(done.success());
}

/// The games packed into a folder's report, one line each in games.csv's order; a game the
/// viewer cannot draw starts with `!` and says why.
fn packed_games(dir: &Path) -> Vec<String> {
    let page = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let packed = page.split(r#"id="arena-games">"#).nth(1).unwrap();
    let packed = packed.split("</script>").next().unwrap();
    packed.lines().map(String::from).collect()
}

/// Each command that reads a folder file ends at once when that file is a FIFO or a 3 GiB
/// sparse file, with an error naming it; where the file is one game's (a log, a shard's
/// games.csv in a merged folder), the report is written and shows those games as ones it
/// cannot draw, saying why.
#[test]
fn a_fifo_or_a_huge_file_in_a_folder_neither_hangs_nor_floods_arena() {
    let base = tempfile::tempdir().unwrap();
    let spec = folders(base.path());
    for bad in [Bad::Fifo, Bad::Huge] {
        let dir = tempfile::tempdir().unwrap();
        let at = |p: &str| dir.path().join(p);
        let fails = |out: Output, file: &Path, code: i32| {
            let said = stderr(&out);
            assert_eq!(out.status.code(), Some(code), "{bad:?} {file:?}: {said}");
            assert!(
                said.contains(&format!("reading {}: ", file.display()))
                    && said.contains(bad.said()),
                "{bad:?}: {said}"
            );
        };

        // games.csv: report, run (a resume), ratings, and a duel into the folder.
        copy(&base.path().join("run"), &at("run"));
        let csv = at("run/games.csv");
        bad.plant(&csv);
        fails(ends(&[&"report", &at("run")]), &csv, 1);
        fails(ends(&[&"run", &spec, &"--out", &at("run")]), &csv, 1);
        fails(ends(&[&"ratings", &csv]), &csv, 1);
        let duel = at("duel");
        std::fs::create_dir(&duel).unwrap();
        bad.plant(&duel.join("games.csv"));
        let out = ends(&[
            &"duel",
            &"builtin:random",
            &"builtin:random",
            &"--game",
            &"roshambo",
            &"--games",
            &"1",
            &"--out",
            &duel,
        ]);
        fails(out, &duel.join("games.csv"), 1);

        // run.json: a resume refuses it, a merge too; the report (which needs it only for a
        // gauntlet's grades) goes without.
        std::fs::remove_dir_all(at("run")).unwrap();
        copy(&base.path().join("run"), &at("run"));
        let record = at("run/run.json");
        bad.plant(&record);
        fails(ends(&[&"run", &spec, &"--out", &at("run")]), &record, 1);
        let merge = ends(&[&"ratings", &csv, &"--out", &at("m")]);
        fails(merge, &record, 1);
        let report = ends(&[&"report", &at("run")]);
        assert!(report.status.success(), "{}", stderr(&report));

        // A log: the report draws every other game; replay names it.
        std::fs::remove_dir_all(at("run")).unwrap();
        copy(&base.path().join("run"), &at("run"));
        let log = at("run/logs/game-00001.jsonl");
        bad.plant(&log);
        let report = ends(&[&"report", &at("run")]);
        assert!(report.status.success(), "{}", stderr(&report));
        let packed = packed_games(&at("run"));
        let row = games(&at("run"))
            .iter()
            .position(|r| r["id"] == "1")
            .unwrap();
        for (i, line) in packed.iter().enumerate() {
            match i == row {
                true => assert!(
                    line.starts_with('!')
                        && line.contains(&log.display().to_string())
                        && line.contains(bad.said()),
                    "{bad:?}: {line}"
                ),
                false => assert!(!line.starts_with('!'), "{line}"),
            }
        }
        fails(ends(&[&"replay", &log]), &log, 1);

        // merged.json, and a shard's games.csv in a merged folder.
        copy(&base.path().join("shards"), &at("shards"));
        copy(&base.path().join("merged"), &at("merged"));
        let listing = at("merged/merged.json");
        let kept = std::fs::read(&listing).unwrap();
        bad.plant(&listing);
        fails(ends(&[&"report", &at("merged")]), &listing, 1);
        // Written back in its place (writing into the FIFO would wait for a reader).
        std::fs::remove_file(&listing).unwrap();
        std::fs::write(&listing, kept).unwrap();
        let shard = at("shards/1/games.csv");
        bad.plant(&shard);
        let report = ends(&[&"report", &at("merged")]);
        assert!(report.status.success(), "{}", stderr(&report));
        let packed = packed_games(&at("merged"));
        for (row, line) in games(&at("merged")).iter().zip(&packed) {
            match row["log"].contains("shards/1/") {
                true => assert!(
                    line.starts_with('!')
                        && line.contains(&format!(
                            "reading {}",
                            at("merged/../shards/1/games.csv").display()
                        ))
                        && line.contains(bad.said()),
                    "{bad:?}: {line}"
                ),
                false => assert!(!line.starts_with('!'), "{line}"),
            }
        }
        fails(ends(&[&"ratings", &shard]), &shard, 1);
    }
}

/// A merged folder's shard is followed only where its path holds no link, and never from an
/// absolute path: the games of such a shard are shown as ones the report cannot draw.
#[test]
fn a_merged_folder_whose_shard_is_a_link_or_an_absolute_path_is_not_followed() {
    let base = tempfile::tempdir().unwrap();
    folders(base.path());
    let merged = base.path().join("merged");
    // Shard 2 moved to `private`, and a link in its place: `shards/2 -> ../private`.
    std::fs::rename(base.path().join("shards/2"), base.path().join("private")).unwrap();
    std::os::unix::fs::symlink("../private", base.path().join("shards/2")).unwrap();
    let shown = |reason: &str| {
        let report = ends(&[&"report", &merged]);
        assert!(report.status.success(), "{}", stderr(&report));
        let packed = packed_games(&merged);
        let rows = games(&merged);
        assert_eq!(rows.len(), packed.len());
        for (row, line) in rows.iter().zip(&packed) {
            let id: u64 = row["id"].parse().unwrap();
            match id.is_multiple_of(2) {
                true => assert!(line.starts_with('!') && line.contains(reason), "{line}"),
                false => assert!(!line.starts_with('!'), "{line}"),
            }
        }
    };
    shown("2 is a symbolic link, which arena never follows in a results folder");

    // Its games.csv and merged.json name `private` by its absolute path.
    let private = base.path().join("private").canonicalize().unwrap();
    let csv = std::fs::read_to_string(merged.join("games.csv")).unwrap();
    let csv = csv.replace("../shards/2", &private.display().to_string());
    std::fs::write(merged.join("games.csv"), csv).unwrap();
    let listing = std::fs::read_to_string(merged.join("merged.json")).unwrap();
    let listing = listing.replace("../shards/2", &private.display().to_string());
    std::fs::write(merged.join("merged.json"), listing).unwrap();
    shown("an absolute path: a merged folder's shards are relative to it");
}

/// One first log that cannot be read (a link, or cut short) no longer stops the report: the
/// game is one it cannot draw, and the next log names the game.
#[test]
fn a_report_whose_first_log_is_broken_is_written_and_shows_that_game_as_one_it_cannot_draw() {
    let base = tempfile::tempdir().unwrap();
    let spec = spec(base.path(), "t.toml", "roshambo", 1);
    let out = base.path().join("run");
    run(&spec, &out, None);
    let first = &games(&out)[0];
    let log = out
        .join("logs")
        .join(Path::new(&first["log"]).file_name().unwrap());
    let text = std::fs::read(&log).unwrap();
    let copy = base.path().join("copy.jsonl");
    std::fs::write(&copy, &text).unwrap();
    for (broken, reason) in [
        ("a link", "is a symbolic link"),
        ("cut short", ":1: "),
        ("empty", "not an arena game log"),
    ] {
        std::fs::remove_file(&log).unwrap();
        match broken {
            "a link" => std::os::unix::fs::symlink(&copy, &log).unwrap(),
            "cut short" => std::fs::write(&log, &text[..20]).unwrap(),
            _ => std::fs::write(&log, "").unwrap(),
        }
        std::fs::remove_file(out.join("report.html")).unwrap();
        let report = ends(&[&"report", &out]);
        assert!(report.status.success(), "{broken}: {}", stderr(&report));
        let packed = packed_games(&out);
        assert!(
            packed[0].starts_with('!') && packed[0].contains(reason),
            "{broken}: {}",
            packed[0]
        );
        assert!(packed[1..].iter().all(|g| !g.starts_with('!')), "{broken}");
    }
}

/// `arena ratings ... --out` merges the shards of one run, all of them: another run's shard
/// (another game, another seed) and an incomplete set are refused, naming the shard; with
/// `--partial`, an incomplete set gets only its standings and crosstable.
#[test]
fn shards_merge_only_with_their_own_run_and_only_whole() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let roshambo = spec(d, "r.toml", "roshambo", 1);
    for k in 1..=3 {
        run(&roshambo, &d.join(format!("s{k}")), Some(&format!("{k}/3")));
    }
    run(
        &spec(d, "t.toml", "tictactoe", 1),
        &d.join("ttt"),
        Some("2/3"),
    );
    run(
        &spec(d, "r2.toml", "roshambo", 9),
        &d.join("seed"),
        Some("2/3"),
    );
    run(&roshambo, &d.join("half"), Some("2/2"));
    run(&roshambo, &d.join("whole"), None);
    let csv = |f: &str| d.join(f).join("games.csv");
    let merged = d.join("merged");
    let refused = |files: &[&str], extra: &[&str], said: &[String]| {
        let mut cmd = arena();
        cmd.arg("ratings");
        for f in files {
            cmd.arg(csv(f));
        }
        let out = cmd
            .args(extra)
            .arg("--out")
            .arg(&merged)
            .timeout(HANG)
            .output()
            .unwrap();
        let text = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{files:?}: {text}");
        for s in said {
            assert!(text.contains(s), "{files:?}: {text}");
        }
        assert!(!merged.exists(), "nothing written");
    };
    let not_one = |f: &str| {
        format!(
            "{} is not a shard of the run of {} (shard 1/3)",
            csv(f).display(),
            csv("s1").display()
        )
    };
    refused(
        &["s1", "ttt", "s3"],
        &[],
        &[
            not_one("ttt"),
            "game = tictactoe, and the other with game = roshambo".into(),
        ],
    );
    refused(
        &["s1", "seed", "s3"],
        &[],
        &[
            not_one("seed"),
            "seed = 9, and the other with seed = 1".into(),
        ],
    );
    refused(
        &["s1", "half"],
        &[],
        &[not_one("half"), "it is shard 2/2".into()],
    );
    refused(
        &["s1", "whole"],
        &[],
        &[not_one("whole"), "its run.json records a whole run".into()],
    );
    let incomplete = "shard 3/3 of the run is not given: every bot is rated on part of its games";
    refused(
        &["s1", "s2"],
        &[],
        &[format!("{incomplete}; give every shard, or --partial")],
    );
    // --partial: the standings and crosstable alone, as for a ladder.
    let out = arena()
        .args(["ratings", "--partial", "--out"])
        .arg(&merged)
        .arg(csv("s1"))
        .arg(csv("s2"))
        .assert()
        .success();
    assert!(stderr(out.get_output()).contains(incomplete));
    assert!(merged.join("standings.csv").is_file() && merged.join("crosstable.csv").is_file());
    for file in ["games.csv", "merged.json", "report.html"] {
        assert!(!merged.join(file).exists(), "{file}");
    }
    std::fs::remove_dir_all(&merged).unwrap();
    // Without --out, the table is printed, and the missing shard said.
    let out = arena()
        .arg("ratings")
        .arg(csv("s1"))
        .arg(csv("s3"))
        .assert()
        .success();
    assert!(stderr(out.get_output()).contains("shard 2/3 of the run is not given"));
    // The whole set merges; so do shards from before run.json recorded them.
    arena()
        .arg("ratings")
        .args([csv("s3"), csv("s1"), csv("s2")])
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert!(merged.join("merged.json").is_file());
    std::fs::remove_dir_all(&merged).unwrap();
    for k in 1..=3 {
        let path = d.join(format!("s{k}/run.json"));
        let mut record: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(record.as_object_mut().unwrap().remove("shard").is_some());
        std::fs::write(&path, record.to_string()).unwrap();
    }
    arena()
        .arg("ratings")
        .args([csv("s1"), csv("s2")])
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert!(merged.join("merged.json").is_file());
    // A shard's folder is resumed by the same shard alone (an old one's takes this run's).
    run(&roshambo, &d.join("s1"), Some("1/3"));
    arena()
        .arg("run")
        .arg(&roshambo)
        .args(["--shard", "2/3", "--out"])
        .arg(d.join("s1"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(format!(
            "{} holds shard 1/3 of its run; this run is --shard 2/3",
            d.join("s1").display()
        )));
}

/// `arena ratings FILE --out DIR` where FILE is no results folder's own games.csv (a copy under
/// another name, or a games.csv moved away from its logs): the standings and crosstable are
/// written, the reason said, and the command succeeds; no merged folder leads to logs that are
/// not there.
#[test]
fn ratings_out_of_a_games_csv_away_from_its_logs_writes_the_tables_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(dir.path(), "t.toml", "roshambo", 1);
    run(&spec, &dir.path().join("run"), None);
    let games = dir.path().join("run/games.csv");
    std::fs::create_dir(dir.path().join("moved")).unwrap();
    for (copy, says) in [
        ("copy.csv", "is not named games.csv"),
        ("moved/games.csv", "are not beside it"),
    ] {
        let file = dir.path().join(copy);
        std::fs::copy(&games, &file).unwrap();
        let out = dir.path().join(format!("out-{}", copy.replace('/', "-")));
        let done = ends(&[&"ratings", &file, &"--out", &out]);
        let said = stderr(&done);
        assert_eq!(done.status.code(), Some(0), "{copy}: {said}");
        assert!(said.contains(says), "{copy}: {said}");
        assert!(said.contains("only the standings and crosstable"), "{said}");
        for written in ["standings.csv", "crosstable.csv"] {
            assert!(out.join(written).is_file(), "{copy}: {written}");
        }
        for not in ["games.csv", "merged.json", "report.html"] {
            assert!(!out.join(not).exists(), "{copy}: {not} written");
        }
    }
}

//! A bot whose interpreter's script is missing (`python3 students/x/bot.py`, no such file):
//! reported before the first game with the spec's line or the BOT argument, and in a gauntlet
//! the class still graded, that student's games lost as not started, naming the real path.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::*;
use predicates::prelude::*;

/// A spec in `dir`: a reference bot, a student that plays, and student `x`'s missing script.
fn class(dir: &Path, format: &str) -> std::path::PathBuf {
    let text = format!(
        "name = \"class\"\ngame = \"roshambo\"\nformat = \"{format}\"\n\n\
         [[bot]]\nname = \"ref\"\ncommand = \"builtin:counter\"\n{}\n\n\
         [[bot]]\nname = \"good\"\ncommand = \"builtin:random\"\n\n\
         [[bot]]\nname = \"x\"\ncommand = \"python3 students/x/bot.py\"\n",
        if format == "gauntlet" {
            "seed = true"
        } else {
            ""
        }
    );
    let path = dir.join("t.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(spec: &Path, out: &Path) -> assert_cmd::assert::Assert {
    run_into(spec, out).assert()
}

#[test]
fn a_gauntlet_with_a_missing_script() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let real = dir.path().join("students/x/bot.py");
    run(&class(dir.path(), "gauntlet"), &out)
        .success()
        .stderr(predicate::str::contains(format!(
            "t.toml:16:11: bot 'x': students/x/bot.py does not exist (python3's script; looked \
             for as {}); graded anyway",
            real.display()
        )));
    let mut r = csv::Reader::from_path(out.join("grades.csv")).unwrap();
    let grades: Vec<BTreeMap<String, String>> = r.deserialize().map(|x| x.unwrap()).collect();
    let x = grades
        .iter()
        .find(|g| g["student"] == "x")
        .expect("x graded");
    assert_eq!(
        (
            x["vs ref"].as_str(),
            x["games"].as_str(),
            x["crashes"].as_str()
        ),
        ("0/2", "2", "2")
    );
    let good = grades.iter().find(|g| g["student"] == "good").unwrap();
    assert_eq!(good["games"], "2", "the class is graded");
    // The first failure's game says why, with the path the teacher can look at.
    let game: usize = x["first_failure"]
        .strip_prefix("game ")
        .and_then(|g| g.strip_suffix(" (crash)"))
        .and_then(|g| g.parse().ok())
        .unwrap_or_else(|| panic!("{}", x["first_failure"]));
    let row = games(&out)
        .into_iter()
        .find(|r| r["id"] == game.to_string())
        .unwrap();
    let result = log_entries(Path::new(&row["log"])).pop().unwrap();
    assert_eq!(result["result"]["cause"], "not_started");
    let detail = result["result"]["detail"].as_str().unwrap();
    assert!(
        detail.contains(&real.display().to_string()) && !detail.contains("arena-"),
        "{detail}"
    );
}

#[test]
fn a_missing_script_stops_any_other_run_before_its_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run(&class(dir.path(), "round-robin"), &out)
        .code(2)
        .stderr(predicate::str::contains(
            "t.toml:16:11: bot 'x': students/x/bot.py does not exist (python3's script",
        ));
    assert!(!out.join("games.csv").exists());
    // A gauntlet's reference bot is not a student: without it no grade means anything.
    let text = "name = \"class\"\ngame = \"roshambo\"\nformat = \"gauntlet\"\n\n\
                [[bot]]\nname = \"ref\"\ncommand = \"python3 refs/ref.py\"\nseed = true\n\n\
                [[bot]]\nname = \"good\"\ncommand = \"builtin:random\"\n";
    std::fs::write(dir.path().join("t.toml"), text).unwrap();
    run(&dir.path().join("t.toml"), &out)
        .code(2)
        .stderr(predicate::str::contains(
            "t.toml:7:11: bot 'ref': refs/ref.py does not exist (python3's script",
        ));
}

#[test]
fn duel_match_and_check_refuse_a_missing_script() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    // Into a folder of the test's: were the command taken, its games would be played there.
    let refused = |args: &[&str], says: &str| {
        arena()
            .args(args)
            .arg("--out")
            .arg(tmp.path().join("out"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    };
    let says = format!(
        "bot 2 (python3 -u students/x/bot.py): students/x/bot.py does not exist (python3's \
         script; looked for as {})",
        here.join("students/x/bot.py").display()
    );
    for command in ["duel", "match"] {
        let bots = ["builtin:random", "python3 -u students/x/bot.py"];
        refused(
            &[&[command][..], &bots, &["-g", "roshambo"]].concat(),
            &says,
        );
    }
    refused(
        &["check", "node bots/x.js --depth 3", "-g", "roshambo"],
        "bot 1 (node bots/x.js --depth 3): bots/x.js does not exist (node's script",
    );
    let two = ["duel", "builtin:random", "builtin:random"];
    refused(
        &[&two[..], &["--referee", "java -jar build/referee.jar"]].concat(),
        "build/referee.jar does not exist (java's script",
    );
    refused(
        &[
            &two[..],
            &["-g", "roshambo", "--spectate", "python3 show.py"],
        ]
        .concat(),
        "--spectate: show.py does not exist (python3's script",
    );
}

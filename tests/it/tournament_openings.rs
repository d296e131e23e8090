//! Openings in tournament specs (`openings`, `openings_order`, `random_plies`) and Swiss
//! mini-matches (`games_per_pairing` in a swiss), through the real binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common::*;
use predicates::prelude::*;

/// A nim spec in `dir` with `keys` at the top and `bots` built-in bots (random, search, ...).
fn nim_spec(dir: &Path, keys: &str, bots: usize) -> PathBuf {
    let mut text = format!("name = \"o\"\ngame = \"nim\"\nseed = 5\n{keys}\n");
    for i in 0..bots {
        let command = ["builtin:random", "builtin:search"][i % 2];
        text.push_str(&format!(
            "\n[[bot]]\nname = \"b{i}\"\ncommand = \"{command}\"\n"
        ));
    }
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn run(spec: &Path, out: &Path) -> assert_cmd::assert::Assert {
    run_into(spec, out).assert()
}

/// A run refused as a bad spec (exit status 2), saying `message`.
fn refused(spec: &Path, out: &Path, message: String) {
    run(spec, out)
        .code(2)
        .stderr(predicate::str::contains(message));
}

/// One game of a results folder, with what its log's header says.
#[derive(Debug)]
struct Game {
    id: u64,
    round: u32,
    seats: [String; 2],
    opening: String,
}

fn played(out: &Path) -> Vec<Game> {
    let mut r = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let rows: Vec<BTreeMap<String, String>> = r.deserialize().map(|row| row.unwrap()).collect();
    let mut games: Vec<Game> = rows
        .iter()
        .map(|row| {
            let header = log_entries(Path::new(&row["log"]))[0]["header"].clone();
            Game {
                id: row["id"].parse().unwrap(),
                round: row["round"].parse().unwrap(),
                seats: [row["seat0"].clone(), row["seat1"].clone()],
                opening: header["opening"]
                    .as_str()
                    .unwrap_or_else(|| panic!("game {} has no opening: {header}", row["id"]))
                    .to_string(),
            }
        })
        .collect();
    games.sort_by_key(|g| g.id);
    games
}

/// Each pairing's games, in the order they were played.
fn by_pairing(games: &[Game]) -> BTreeMap<[String; 2], Vec<&Game>> {
    let mut pairings: BTreeMap<[String; 2], Vec<&Game>> = BTreeMap::new();
    for g in games {
        let mut key = g.seats.clone();
        key.sort();
        pairings.entry(key).or_default().push(g);
    }
    pairings
}

fn swapped(a: &Game, b: &Game) -> bool {
    a.seats[0] == b.seats[1] && a.seats[1] == b.seats[0]
}

/// A round-robin with random plies: the two games of each pair start from one opening, seats
/// swapped, and every pairing meets the same openings in the same order. A resume with other
/// openings settings is refused, saying what changed.
#[test]
fn a_round_robin_plays_each_opening_twice_and_the_same_ones_in_every_pairing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let spec = nim_spec(dir.path(), "games_per_pairing = 4\nrandom_plies = 2", 3);
    run(&spec, &out).success();
    let games = played(&out);
    assert_eq!(games.len(), 3 * 4);
    let pairings = by_pairing(&games);
    let first: Vec<&str> = pairings
        .values()
        .next()
        .unwrap()
        .iter()
        .map(|g| g.opening.as_str())
        .collect();
    assert_eq!(first[0], first[1]);
    assert_eq!(first[2], first[3]);
    assert_ne!(first[0], first[2], "two pairs, two openings");
    assert!(first.iter().all(|o| *o != "3,4,5 0"), "{first:?}");
    for (pairing, games) in &pairings {
        let openings: Vec<&str> = games.iter().map(|g| g.opening.as_str()).collect();
        assert_eq!(
            openings, first,
            "{pairing:?}: the same openings in the same order"
        );
        assert!(
            swapped(games[0], games[1]) && swapped(games[2], games[3]),
            "{games:?}"
        );
    }

    run(&spec, &out)
        .success()
        .stderr(predicate::str::contains("nothing to play"));
    let changed = nim_spec(dir.path(), "games_per_pairing = 4\nrandom_plies = 3", 3);
    refused(
        &changed,
        &out,
        format!(
            "{} was played with random_plies = 2; this spec says 3",
            out.display()
        ),
    );
}

/// An openings file is played in its order by every pairing; a changed file is refused on
/// resume with its first changed position; a bad line is refused with the spec's location and
/// the file's line, before any game.
#[test]
fn an_openings_file_is_played_in_order_checked_by_line_and_kept_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    std::fs::write(&book, "# two openings\n1,2 0\n\n2,2 1\n").unwrap();
    let out = dir.path().join("out");
    let spec = nim_spec(
        dir.path(),
        "games_per_pairing = 4\nopenings = \"book.txt\"",
        3,
    );
    run(&spec, &out).success();
    let games = played(&out);
    assert_eq!(games.len(), 12);
    for (pairing, games) in by_pairing(&games) {
        let openings: Vec<&str> = games.iter().map(|g| g.opening.as_str()).collect();
        assert_eq!(
            openings,
            ["1,2 0", "1,2 0", "2,2 1", "2,2 1"],
            "{pairing:?}"
        );
        assert!(swapped(games[0], games[1]) && swapped(games[2], games[3]));
    }

    let shuffled = nim_spec(
        dir.path(),
        "games_per_pairing = 4\nopenings = \"book.txt\"\nopenings_order = \"random\"",
        3,
    );
    refused(
        &shuffled,
        &out,
        "was played with openings_order = sequential; this spec says random".into(),
    );
    let spec = nim_spec(
        dir.path(),
        "games_per_pairing = 4\nopenings = \"book.txt\"",
        3,
    );
    std::fs::write(&book, "1,2 0\n2,3 1\n").unwrap();
    refused(
        &spec,
        &out,
        format!(
            "{} was played with openings = \"2,2 1\" as position 2; this spec says \"2,3 1\"",
            out.display()
        ),
    );
    std::fs::write(&book, "1,2 0\n").unwrap();
    refused(
        &spec,
        &out,
        "was played with openings = 2 positions; this spec says 1 position".into(),
    );

    std::fs::write(&book, "1,2 0\n\n0,0 1\n").unwrap();
    let fresh = dir.path().join("fresh");
    refused(
        &spec,
        &fresh,
        format!("{}:5:12: openings: {}:3: ", spec.display(), book.display()),
    );
    assert!(!fresh.exists(), "nothing is played for a bad spec");
}

/// An openings file that is not a regular file (a FIFO, a device, a directory) is refused at
/// once with the spec's line, before anything is played: a FIFO held the run forever, deaf to
/// SIGTERM.
#[test]
fn openings_that_are_not_a_regular_file_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    nix::unistd::mkfifo(&dir.path().join("book.fifo"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let out = dir.path().join("out");
    let cases = [
        ("book.fifo", "a FIFO (a named pipe)"),
        ("/dev/zero", "a character device"),
        (".", "a directory"),
    ];
    for (file, what) in cases {
        let spec = nim_spec(dir.path(), &format!("openings = \"{file}\""), 2);
        let path = dir.path().join(file);
        run_into(&spec, &out)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{}:4:12: openings: {} is {what}: openings are read from a regular file",
                spec.display(),
                path.display()
            )));
    }
    assert!(!out.exists(), "nothing is played for a bad spec");
}

/// A game without positions refuses openings, and says which games have them.
#[test]
fn a_game_without_positions_refuses_openings() {
    let dir = tempfile::tempdir().unwrap();
    let spec = nim_spec(dir.path(), "random_plies = 2", 2);
    let text = std::fs::read_to_string(&spec)
        .unwrap()
        .replace("\"nim\"", "\"roshambo\"")
        .replace("builtin:search", "builtin:counter");
    std::fs::write(&spec, text).unwrap();
    refused(
        &spec,
        &dir.path().join("out"),
        format!(
            "{}:4:16: random_plies: roshambo has no positions to start from (games with openings: ",
            spec.display()
        ),
    );
}

/// A swiss of mini-matches: each pairing plays two games in a row, seats swapped, from the
/// same opening (its round's); an odd number above one is refused.
#[test]
fn a_swiss_of_mini_matches_plays_each_pairing_twice_from_one_opening() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let spec = nim_spec(
        dir.path(),
        "format = \"swiss\"\nrounds = 3\ngames_per_pairing = 2\nrandom_plies = 2",
        5,
    );
    run(&spec, &out).success();
    let games = played(&out);
    assert_eq!(
        games.len(),
        3 * 2 * 2,
        "3 rounds of 2 pairings (and a bye), 2 games each"
    );
    let mut round_openings = Vec::new();
    for two in games.chunks(2) {
        let (a, b) = (&two[0], &two[1]);
        assert_eq!((a.id % 2, b.id), (1, a.id + 1));
        assert!(swapped(a, b), "{a:?} {b:?}");
        assert_eq!(a.opening, b.opening);
        assert_eq!(a.round, b.round);
        if round_openings.len() < a.round as usize {
            round_openings.push(a.opening.clone());
        }
        assert_eq!(
            a.opening,
            round_openings[a.round as usize - 1],
            "one opening a round"
        );
    }
    assert_eq!(round_openings.len(), 3);
    // Each bot plays at most one pairing a round.
    for round in 1..=3 {
        let mut bots: Vec<&String> = games
            .iter()
            .filter(|g| g.round == round && g.id % 2 == 1)
            .flat_map(|g| &g.seats)
            .collect();
        bots.sort();
        let n = bots.len();
        bots.dedup();
        assert_eq!(bots.len(), n, "round {round}");
    }

    let odd = nim_spec(dir.path(), "format = \"swiss\"\ngames_per_pairing = 3", 4);
    refused(
        &odd,
        &dir.path().join("odd"),
        format!(
            "{}:5:21: games_per_pairing = 3: a swiss plays 1 game per pairing or an even number",
            odd.display()
        ),
    );
}

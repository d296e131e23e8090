//! report.html: written by every tournament and duel, self-contained, and working in a real
//! browser (headless Chromium): standings as the tables say, a game clicked through to its final
//! position, the bots' stderr beside it, and a board drawn for every game.

mod browser;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::common::*;
use base64::Engine;
use browser::Browser;
use predicates::prelude::*;
use serde_json::Value;

/// Screenshots are kept as artifacts under target/.
fn artifact(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("report-screenshots").join(name)
}

fn url(page: &Path) -> String {
    format!("file://{}", page.canonicalize().unwrap().display())
}

/// The page's data block and its packed games, read the way the page reads them.
fn page_data(page: &Path) -> (Value, Vec<String>) {
    let html = std::fs::read_to_string(page).unwrap();
    let block = |id: &str| -> String {
        let start = html
            .find(&format!("id=\"{id}\">"))
            .unwrap_or_else(|| panic!("no #{id}"));
        let body = &html[start..];
        let body = &body[body.find('>').unwrap() + 1..];
        body[..body.find("</script>").unwrap()].to_string()
    };
    let data = serde_json::from_str(&block("arena-data")).expect("the data block is JSON");
    let games = block("arena-games").lines().map(String::from).collect();
    (data, games)
}

fn unpack(line: &str) -> Value {
    assert!(!line.starts_with('!'), "a game could not be packed: {line}");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(line)
        .unwrap();
    let mut json = String::new();
    flate2::read::ZlibDecoder::new(&bytes[..])
        .read_to_string(&mut json)
        .unwrap();
    serde_json::from_str(&json).unwrap()
}

/// The last board the referee sent in a JSON-protocol game log, with '.' for an empty cell.
/// The viewer draws connect4 in the README's letters (`x` player 1, `o` player 2), whichever
/// letters the game sent: the original server's (`b`, `r`) by default.
fn last_sent_board(log: &Path) -> String {
    let board = log_entries(log)
        .iter()
        .rev()
        .filter_map(|e| e["line"].as_str().filter(|_| e.get("to").is_some()))
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["board"].as_str().map(String::from))
        .expect("a state with a board was sent");
    board.replace(' ', ".").replace('b', "x").replace('r', "o")
}

fn csv_rows(path: &Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path)
        .unwrap()
        .records()
        .map(|r| r.unwrap())
        .collect()
}

/// The page writes half points as ½.
fn points(text: &str) -> String {
    let x: f64 = text.parse().unwrap();
    let whole = x.trunc() as u64;
    match (whole, x.fract() > 0.0) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

/// A bot that says why on stderr, then crashes.
const CRASHER: &str = r#"[[bot]]
name = "crasher"
command = "python3 -c \"import sys; print('crasher: out of ideas', file=sys.stderr); sys.exit(3)\""
"#;

/// `arena run SPEC --out DIR/out`, which must succeed; the results folder.
fn run_into(spec: &Path, dir: &Path) -> PathBuf {
    let out = dir.join("out");
    arena()
        .args([
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    out
}

#[test]
fn a_tournament_report_shows_the_standings_and_steps_through_a_game_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("c4.toml");
    std::fs::write(
        &spec,
        format!(
            r#"name = "report-test"
game = "connect4"
format = "round-robin"
games_per_pairing = 2
seed = 7
timeout = 5

[[bot]]
name = "searcher"
command = "builtin:search"

[[bot]]
name = "randy"
command = "builtin:random"

{CRASHER}"#
        ),
    )
    .unwrap();
    let out = run_into(&spec, dir.path());
    let page = out.join("report.html");
    let html = std::fs::read_to_string(&page).expect("the run wrote report.html");
    for outside in ["<link", " src=", "@import", "url(", "fetch("] {
        assert!(
            !html.contains(outside),
            "the page is self-contained, but has {outside}"
        );
    }

    let b = Browser::start();
    b.goto(&url(&page));
    b.wait_for("document.body.dataset.ready === 'true'", "the page to draw");

    // Standings: the same bots, order, games and scores as standings.csv.
    let shown = b.script(
        "return [...document.querySelectorAll('#standings-table tbody tr')]
            .map(tr => [tr.dataset.bot, tr.cells[2].textContent, tr.cells[6].textContent]);",
    );
    let expected: Vec<Value> = csv_rows(&out.join("standings.csv"))
        .iter()
        .map(|r| serde_json::json!([r[1].to_string(), r[2].to_string(), points(&r[6])]))
        .collect();
    assert_eq!(shown, Value::Array(expected));
    assert_eq!(
        b.count("#standings-table td.bar svg circle"),
        3,
        "a drawn rating per bot"
    );
    // At 1280 px neither the page nor the standings table scrolls sideways.
    b.resize(1280, 900);
    let sideways =
        "const d = document.documentElement, s = document.querySelector('#standings .scroll');
        return [d.scrollWidth, d.clientWidth, s.scrollWidth, s.clientWidth];";
    let widths = b.script(sideways);
    let w = |k: usize| widths[k].as_u64().unwrap();
    assert!(w(1) >= 1200, "the window is 1280 px wide: {widths}");
    assert!(
        w(0) <= w(1),
        "the page scrolls sideways at 1280 px: {widths}"
    );
    assert!(
        w(2) <= w(3),
        "the standings scroll sideways at 1280 px: {widths}"
    );
    b.screenshot(&artifact("tournament-1280.png"));
    assert_eq!(b.count("#crosstable-body td[data-a]"), 6, "six pairings");
    assert_eq!(b.count("#progress-chart svg path"), 3, "a line per bot");
    // The crasher lost its four games by crashing.
    let crashes = b.text("#failures-body tr[data-bot='crasher'] td:nth-child(3)");
    assert_eq!(crashes, "4");
    assert_eq!(b.count("#games-table a.view"), 6, "a link for every game");

    // Step through the longest game between the two real players to its end.
    let games = csv_rows(&out.join("games.csv"));
    let game = games
        .iter()
        .filter(|r| &r[2] != "crasher" && &r[3] != "crasher")
        .max_by_key(|r| r[8].parse::<u32>().unwrap())
        .unwrap();
    let (id, plies) = (game[0].to_string(), game[8].parse::<usize>().unwrap());
    b.click(&format!("#row-{id} a.view"));
    b.wait_for(
        "!document.getElementById('v-controls').hidden && document.querySelector('#v-board svg')",
        "the viewer to open",
    );
    assert!(b.text("#v-title").starts_with(&format!("Game {id} ")));
    let start_cells = b.attr("#v-board svg.board", "data-cells").unwrap();
    assert_eq!(start_cells, ".".repeat(42), "an empty board first");
    let mut clicks = 0;
    while b.enabled("#v-next") {
        b.click("#v-next");
        clicks += 1;
        assert!(clicks <= plies + 5, "the next button never stops");
    }
    assert!(
        clicks >= plies,
        "one step per move at least: {clicks} < {plies}"
    );
    let log = out
        .join("logs")
        .join(format!("game-{:05}.jsonl", id.parse::<u32>().unwrap()));
    let final_cells = b.attr("#v-board svg.board", "data-cells").unwrap();
    assert_eq!(final_cells, last_sent_board(&log), "the final position");
    assert_eq!(
        b.count("#v-board svg.board circle[data-piece]"),
        plies,
        "a disc per move"
    );
    b.screenshot(&artifact("tournament-connect4.png"));

    // The keys step too: back one, then to the end again.
    let at_end = b.text("#v-ply");
    b.press(browser::ARROW_LEFT);
    assert_ne!(b.text("#v-ply"), at_end);
    assert_ne!(
        b.attr("#v-board svg.board", "data-cells").unwrap(),
        final_cells
    );
    b.press(browser::END);
    assert_eq!(b.text("#v-ply"), at_end);

    // A crasher's game shows what it said on stderr.
    let crashed = games.iter().find(|r| &r[2] == "crasher").unwrap();
    b.script(&format!(
        "location.hash = '#game-{}'; return 0;",
        &crashed[0]
    ));
    b.wait_for(
        "document.getElementById('v-err-0').textContent.includes('out of ideas')",
        "the crasher's stderr",
    );
    assert!(b.text("#v-caption").contains("start") || b.text("#v-caption").is_empty());
    // The header says how the game was lost, before any stepping; no referee program played it,
    // so no box for one.
    assert!(
        b.text("#v-title").contains("crasher failed (crash): "),
        "{}",
        b.text("#v-title")
    );
    assert_eq!(
        b.count("#v-err-box-referee"),
        0,
        "a referee box in a game without one"
    );
    b.click("#v-last");
    assert!(
        b.text("#v-caption").contains("crasher failed (crash)"),
        "{}",
        b.text("#v-caption")
    );
    // Its last words are shown at the move it failed at too, under that move's caption.
    assert!(
        b.text("#v-said pre[data-seat='0']")
            .contains("out of ideas"),
        "{}",
        b.text("#v-said")
    );
    b.click("#v-first");
    assert_eq!(b.count("#v-said pre"), 0, "stderr at the start");
    // With a game open in the viewer, the page still fits 1280 px.
    let widths = b.script(sideways);
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the page scrolls sideways at 1280 px with the viewer open: {widths}"
    );
}

/// A tournament of 4-player games: standings with places, points and Weng-Lin, the crosstable
/// of who finished ahead, a rating line per bot, and the viewer with every player's stderr and
/// no referee's.
#[test]
fn a_report_of_four_player_games_shows_places_and_every_players_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("tron.toml");
    std::fs::write(
        &spec,
        format!(
            r#"name = "tron-report"
game = "tron"
players = 4
seed = 3
timeout = 5

[[bot]]
name = "fill"
command = "builtin:fill"

[[bot]]
name = "randy"
command = "builtin:random"

[[bot]]
name = "rando"
command = "builtin:random"

{CRASHER}"#
        ),
    )
    .unwrap();
    let out = run_into(&spec, dir.path());
    let b = Browser::start();
    b.goto(&url(&out.join("report.html")));
    b.wait_for("document.body.dataset.ready === 'true'", "the page to draw");
    let heads = b.text("#standings-table thead");
    for head in ["avg place", "points", "Weng-Lin"] {
        assert!(heads.contains(head), "{heads}");
    }
    assert_eq!(b.count("#standings-table tbody tr"), 4);
    let standings = csv_rows(&out.join("standings.csv"));
    assert_eq!(
        b.text("#standings-table tbody tr:first-child td.bot"),
        standings[0][1].to_string()
    );
    assert_eq!(
        b.count("#crosstable-body td[data-a]"),
        12,
        "every ordered pair"
    );
    assert!(
        b.text("#crosstable-note")
            .contains("finished ahead of the column bot")
    );
    let games_head = b.text("#games-table .g-head");
    assert!(
        games_head.contains("players (place), by seat"),
        "{games_head}"
    );
    assert_eq!(b.count("#progress-chart svg path"), 4, "a line per bot");
    b.script("location.hash = '#game-1'; return 0;");
    b.wait_for(
        "document.getElementById('v-err-3') !== null",
        "the viewer with four stderr boxes",
    );
    let boxes: Vec<String> = (0..4).map(|s| b.text(&format!("#v-err-{s}"))).collect();
    assert!(
        boxes.iter().any(|t| t.contains("out of ideas")),
        "the crasher's stderr: {boxes:?}"
    );
    assert_eq!(b.count("#v-err-box-referee"), 0);
    assert!(b.text("#v-title").contains("crasher failed (crash)"));
    b.screenshot(&artifact("tournament-tron.png"));
}

#[test]
fn a_duel_with_out_writes_the_report_and_every_game_is_drawn() {
    let b = Browser::start();
    for game in arena::games::ALL {
        let info = game.name;
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("duel");
        let mut args = vec![
            "duel".to_string(),
            "builtin:random".into(),
            "builtin:random".into(),
            "--game".into(),
            info.into(),
            "--seed".into(),
            "3".into(),
        ];
        // Long random games are slow to click through; the game's short settings keep them short.
        for (key, value) in game.short_game {
            args.extend(["-a".into(), format!("{key}={value}")]);
        }
        arena()
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let page = out.join("report.html");
        let (data, packed) = page_data(&page);
        assert_eq!(data["format"], "duel");
        assert_eq!(data["games"].as_array().unwrap().len(), 1);
        let view = unpack(&packed[0]);
        let frames = view["frames"].as_array().unwrap();
        let plies = data["games"][0][5].as_u64().unwrap() as usize;
        assert!(
            frames.len() > plies.min(1),
            "{info}: {} frames for {plies} plies",
            frames.len()
        );
        assert_eq!(frames[0]["caption"], "start", "{info}");

        b.goto(&format!("{}#game-1", url(&page)));
        b.wait_for(
            "!document.getElementById('v-controls').hidden",
            &format!("{info}'s viewer"),
        );
        b.click("#v-last");
        let last = &frames[frames.len() - 1]["picture"]["board"];
        if last["kind"] == "grid" {
            let cells = b.attr("#v-board svg.board", "data-cells").unwrap();
            assert_eq!(cells, last["views"][0]["cells"].as_str().unwrap(), "{info}");
            let drawn = b.count("#v-board svg.board [data-cell]");
            let ground = last["ground"].as_str().unwrap();
            assert_eq!(
                drawn,
                ground.chars().filter(|&c| c != ' ').count(),
                "{info}: a shape per cell"
            );
            if last["views"].as_array().unwrap().len() > 1 {
                // KROM: what each side could see, chosen from the view menu.
                let labels: Vec<&str> = last["views"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v["label"].as_str().unwrap())
                    .collect();
                b.script("const s = document.getElementById('v-view'); s.value = '1'; s.dispatchEvent(new Event('change')); return 0;");
                assert_eq!(
                    b.attr("#v-board svg.board", "data-view").unwrap(),
                    labels[1],
                    "{info}"
                );
                assert_eq!(
                    b.attr("#v-board svg.board", "data-cells").unwrap(),
                    last["views"][1]["cells"].as_str().unwrap(),
                    "{info}"
                );
            }
        } else {
            let rows = frames
                .iter()
                .filter(|f| !f["picture"]["board"]["row"].is_null())
                .count();
            assert_eq!(
                b.attr("#v-board table.rounds", "data-rows").unwrap(),
                rows.to_string(),
                "{info}"
            );
            assert!(rows > 0, "{info}: a row per round");
        }
        b.screenshot(&artifact(&format!("duel-{info}.png")));
    }
}

#[test]
fn a_roshambo_round_is_one_frame_that_quotes_both_throws() {
    // The first throw of a round is hidden until the second: a frame for it would show the
    // same table and notes as the one before.
    let dir = tempfile::tempdir().unwrap();
    roshambo_duel(dir.path(), &["-a", "rounds=3", "--seed", "5"]);
    let view = arena::report::frames::game_view(&game_log(dir.path(), 1), |p| p.exists()).unwrap();
    let captions: Vec<&str> = view.frames.iter().map(|f| f.caption.as_str()).collect();
    assert_eq!(
        captions.len(),
        4,
        "the start and one frame a round: {captions:?}"
    );
    for (round, frame) in view.frames.iter().enumerate().skip(1) {
        let arena::games::picture::Board::Table { row: Some(row), .. } = &frame.picture.board
        else {
            panic!("round {round} adds no row: {:?}", frame.picture);
        };
        assert_eq!(row[0], round.to_string());
        for (seat, name) in ["random", "counter"].iter().enumerate() {
            assert!(
                frame
                    .caption
                    .contains(&format!("{name}: {}", row[1 + seat])),
                "round {round}: {}",
                frame.caption
            );
        }
    }
}

/// What a bot writes to stderr is shown at the move it wrote it before: its answer's frame,
/// and what it writes after its last answer at the last frame; the run's page and `arena
/// report` agree.
#[test]
fn a_bots_stderr_is_shown_at_the_move_it_came_with() {
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("thinker.py");
    std::fs::write(
        &bot,
        "import sys
for _ in range(3): sys.stdin.readline()
for n in range(1, 7):
    \
         if n != 4: print(f'thinking about round {n}', file=sys.stderr, flush=True)
    \
         print('PAPER', flush=True)
    sys.stdin.readline()
\
         print('bye', file=sys.stderr, flush=True)
",
    )
    .unwrap();
    let out = dir.path().join("out");
    let command = format!("python3 {}", bot.display());
    arena()
        .args(["duel", "builtin:random", &command, "--game", "roshambo"])
        .args(["-a", "rounds=6", "--seed", "2", "--out"])
        .arg(&out)
        .assert()
        .success();
    let log = game_log(&out, 1);
    let view = arena::report::frames::game_view(&log, |p| p.exists()).unwrap();
    assert_eq!(view.frames.len(), 7, "the start and a frame a round");
    for round in 1..=6usize {
        let said = view
            .frame_stderr
            .get(&round)
            .and_then(|s| s.get(&1))
            .cloned();
        let expected = match round {
            4 => None,
            6 => Some("thinking about round 6\nbye\n".to_string()),
            n => Some(format!("thinking about round {n}\n")),
        };
        assert_eq!(said, expected, "round {round}: {:?}", view.frame_stderr);
    }
    assert!(!view.frame_stderr.contains_key(&0), "nothing at the start");
    assert!(
        view.frame_stderr.values().all(|s| !s.contains_key(&0)),
        "the built-in bot says nothing"
    );
    // The page's packed game carries the same, as the run drew it and as `arena report` does.
    let (_, packed) = page_data(&out.join("report.html"));
    let packed_view = unpack(&packed[0]);
    assert_eq!(
        packed_view["frame_stderr"]["2"]["1"],
        "thinking about round 2\n"
    );
    std::fs::rename(out.join("report.html"), dir.path().join("first.html")).unwrap();
    arena().arg("report").arg(&out).assert().success();
    assert_eq!(page_data(&out.join("report.html")).1, packed);
}

/// Long games are packed while they are played (`report::live`), short ones when the run ends,
/// and `arena report` packs every game from its files: all three give the same page.
#[test]
fn arena_report_writes_the_page_again_and_names_a_log_that_is_not_one() {
    let dir = tempfile::tempdir().unwrap();
    // 3,000 rounds: a log of several of its 64 KiB buffers, and a few lines of stderr.
    let bot = dir.path().join("talker.py");
    std::fs::write(
        &bot,
        "import sys\nfor _ in range(3): sys.stdin.readline()\nfor n in range(1, 3001):\n    \
         print('ROCK', flush=True)\n    if n % 1000 == 0: \
         print(f'round {n}', file=sys.stderr, flush=True)\n    sys.stdin.readline()\n",
    )
    .unwrap();
    let spec = dir.path().join("rps.toml");
    std::fs::write(
        &spec,
        format!(
            "name = \"again\"\ngame = \"roshambo\"\nformat = \"round-robin\"\n\
             games_per_pairing = 2\nseed = 3\n\n[params]\nrounds = 3000\n\n\
             [[bot]]\nname = \"r\"\ncommand = \"builtin:random\"\n\n\
             [[bot]]\nname = \"t\"\ncommand = \"python3 {}\"\n",
            bot.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out");
    crate::common::run_into(&spec, &out).assert().success();
    let page = out.join("report.html");
    let first = dir.path().join("first.html");
    std::fs::rename(&page, &first).unwrap();
    arena().arg("report").arg(&out).assert().success();
    let (data, packed) = page_data(&page);
    assert_eq!(data["games"].as_array().unwrap().len(), 2);
    assert_eq!(
        packed,
        page_data(&first).1,
        "the games as the run drew them"
    );
    // Each game's entry names its seats by index into the page's bots.
    let t = data["bots"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b == "t")
        .unwrap();
    for (line, game) in packed.iter().zip(data["games"].as_array().unwrap()) {
        let view = unpack(line);
        assert_eq!(view["frames"].as_array().unwrap().len(), 3001);
        let talker = if game[2][0] == t { 0 } else { 1 };
        assert!(
            view["stderr"][talker]
                .as_str()
                .unwrap()
                .ends_with("round 3000\n"),
            "{}",
            view["stderr"]
        );
    }

    // The log of games.csv's first row names the game (games are recorded as they end, so
    // that may be either); one whose first line is not a header is shown as a game the viewer
    // cannot draw, and the next log names the game.
    let csv = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let first_row = csv.lines().nth(1).unwrap();
    let log = out.join("logs").join(
        Path::new(first_row.rsplit(',').next().unwrap())
            .file_name()
            .unwrap(),
    );
    let text = std::fs::read_to_string(&log).unwrap();
    let rest = &text[text.find('\n').unwrap() + 1..];
    std::fs::write(&log, rest).unwrap();
    std::fs::remove_file(&page).unwrap();
    arena().arg("report").arg(&out).assert().success();
    let (_, packed) = page_data(&page);
    assert!(
        packed[0].starts_with('!')
            && packed[0].contains(&format!("{}:1: not an arena game log", log.display())),
        "{}",
        packed[0]
    );
    assert!(!packed[1].starts_with('!'), "the other game is drawn");
}

/// A results folder may be forged (handed in, downloaded), and its report published: the report
/// reads a game's log and stderr only from the folder's own `logs`, never a path games.csv
/// names elsewhere, nor through a link.
#[test]
fn a_forged_folder_makes_the_report_read_nothing_outside_it() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("duel");
    roshambo_duel(&out, &["--games", "2", "-a", "rounds=3", "--seed", "5"]);
    let csv = out.join("games.csv");
    let good = std::fs::read_to_string(&csv).unwrap();
    let line = 1 + good.lines().position(|l| l.starts_with("2,")).unwrap();
    let secret = dir.path().join("secret.txt");
    std::fs::write(&secret, "TOP SECRET\n").unwrap();

    // The log column of game 2 names a file outside the folder: refused with its line.
    for outside in [secret.display().to_string(), "../../secret.txt".into()] {
        let forged: String = good
            .lines()
            .map(|l| match l.starts_with("2,") {
                true => format!("{},{outside}\n", &l[..l.rfind(',').unwrap()]),
                false => format!("{l}\n"),
            })
            .collect();
        std::fs::write(&csv, forged).unwrap();
        let said = arena().arg("report").arg(&out).assert().code(1);
        let said = String::from_utf8_lossy(&said.get_output().stderr).into_owned();
        assert!(
            said.contains(&format!(
                "{}:{line}: the log of game 2 is \"{outside}\", not logs/game-00002.jsonl",
                csv.display()
            )),
            "{said}"
        );
    }
    std::fs::write(&csv, &good).unwrap();

    // Game 2's log and game 1's stderr are links to files outside: neither is read.
    let logs = out.join("logs");
    std::fs::copy(logs.join("game-00002.jsonl"), dir.path().join("copy.jsonl")).unwrap();
    std::fs::remove_file(logs.join("game-00002.jsonl")).unwrap();
    symlink(dir.path().join("copy.jsonl"), logs.join("game-00002.jsonl")).unwrap();
    symlink(&secret, logs.join("game-00001.seat0.stderr")).unwrap();
    arena().arg("report").arg(&out).assert().success();
    let (_, packed) = page_data(&out.join("report.html"));
    let view = unpack(&packed[0]);
    assert_eq!(view["stderr"][0], "", "the link's file is not shown");
    assert!(
        packed[1].starts_with('!') && packed[1].contains("is a symbolic link"),
        "{}",
        packed[1]
    );

    // The folder's logs a link to logs elsewhere: none is read, the first game's (which names
    // the game) neither, and the report says so.
    let other = dir.path().join("other");
    // `arena report` on it fails reading `file` (in `other`), which is or is in a link.
    let refused = |file: &str, what: &str| {
        arena()
            .arg("report")
            .arg(&other)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "reading {}: {what} is a symbolic link, which arena never follows in a results \
                 folder",
                other.join(file).display()
            )));
        assert!(!other.join("report.html").exists());
    };
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(&csv, other.join("games.csv")).unwrap();
    symlink(&logs, other.join("logs")).unwrap();
    refused("logs/game-00001.jsonl", "its folder");

    // Its games.csv a link to another folder's: the other folder's games are not taken.
    std::fs::remove_file(other.join("logs")).unwrap();
    std::fs::remove_file(other.join("games.csv")).unwrap();
    symlink(&csv, other.join("games.csv")).unwrap();
    refused("games.csv", "it");
}

/// A pods tournament of Gem Heist, four players a game under an SDK referee (bots/sdk), two of
/// them failing: the standings as for any game, and a viewer that steps through the game turn
/// by turn (what the referee wrote a seat, the answer, its time), with the SDK log's summaries
/// on the turns they belong to and a link to that log.
#[test]
fn an_sdk_referees_game_is_shown_turn_by_turn_with_its_summaries_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sdk = |script: &str| root.join("bots/sdk").join(script).display().to_string();
    let player = root.join("tests/bots/sdk/player.py").display().to_string();
    let spec = dir.path().join("gems.toml");
    std::fs::write(
        &spec,
        format!(
            r#"name = "gem-heist"
format = "pods"
games_per_bot = 1
seed = 5
timeout = 0.5

[referee]
# Deadlines a loaded machine keeps: the SDK keeps them by wall clock.
command = "python3 {referee} --turn-ms 500 --first-ms 5000"
protocol = "sdk"
players = 4

[[bot]]
name = "greedy"
command = "python3 {greedy}"

[[bot]]
name = "starter"
command = "python3 {starter}"

[[bot]]
name = "crasher"
command = "python3 {player} crash 3"

[[bot]]
name = "cheat"
command = "python3 {player} invalid 2"
"#,
            referee = sdk("referee.py"),
            greedy = sdk("greedy.py"),
            starter = sdk("starter.py"),
        ),
    )
    .unwrap();
    let out = run_into(&spec, dir.path());
    let page = out.join("report.html");
    let (data, packed) = page_data(&page);
    assert_eq!(
        data["games"].as_array().unwrap().len(),
        1,
        "one pod of four"
    );
    let view = unpack(&packed[0]);
    let frames = view["frames"].as_array().unwrap();
    let turns = frames
        .iter()
        .filter(|f| !f["picture"]["board"]["row"].is_null())
        .count();
    let plies = data["games"][0][5].as_u64().unwrap() as usize;
    assert_eq!(turns, plies, "a frame per turn the referee asked");

    let b = Browser::start();
    b.goto(&url(&page));
    b.wait_for("document.body.dataset.ready === 'true'", "the page to draw");
    assert_eq!(b.count("#standings-table tbody tr"), 4);
    let standings = csv_rows(&out.join("standings.csv"));
    assert_eq!(
        b.text("#standings-table tbody tr:first-child td.bot"),
        standings[0][1].to_string()
    );

    b.script("location.hash = '#game-1'; return 0;");
    b.wait_for(
        "!document.getElementById('v-controls').hidden && document.querySelector('#v-board table.rounds')",
        "the viewer to open",
    );
    let href = b.attr("#v-sdk-log", "href").expect("a link to the SDK log");
    assert!(href.ends_with(".sdk.json"), "{href}");
    let relative = href.rsplit_once("/logs/").map_or(href.as_str(), |(_, f)| f);
    let relative = relative.strip_prefix("logs/").unwrap_or(relative);
    assert!(
        out.join("logs").join(relative).is_file(),
        "the link names the SDK log beside arena's: {href}"
    );
    assert!(b.text("#v-title").contains("crasher failed (crash)"));

    // The first turn: seat 0 was told the players and its seat, then the gems and the scores.
    b.click("#v-next");
    let cells = |css: &str| -> Vec<String> {
        b.script(&format!(
            "return Array.from(document.querySelectorAll('{css}')).map((c) => c.textContent);"
        ))
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
    };
    let heads = cells("#v-board table.rounds th");
    assert_eq!(heads, ["turn", "seat", "input", "answer", "ms"]);
    let first = cells("#v-board table.rounds tr.current td");
    assert_eq!(first[0], "1");
    assert!(first[1].ends_with("(seat 0)"), "{first:?}");
    assert_eq!(first[2].lines().next(), Some("4 0"), "{first:?}");
    assert_eq!(first[2].lines().count(), 3, "{first:?}");
    assert!(!first[3].is_empty(), "an answer: {first:?}");
    // "late" follows the time of an answer past the SDK's deadline.
    let ms: f64 = first[4]
        .trim_end_matches(" late")
        .parse()
        .expect("the answer's time in ms");
    assert!(ms > 0.0, "{first:?}");
    assert!(
        b.text("#v-caption")
            .starts_with(&format!("turn 1: {} answered in", first[1])),
        "{}",
        b.text("#v-caption")
    );

    // Step to the end with the keys, gathering what each turn's notes and caption said, and
    // what the greedy bot wrote to stderr at its turns.
    let greedy = data["games"][0][2]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| data["bots"][b.as_u64().unwrap() as usize] == "greedy")
        .unwrap();
    let mut notes = Vec::new();
    let mut captions = Vec::new();
    let mut greedy_said = Vec::new();
    while b.enabled("#v-next") {
        b.press(browser::ARROW_RIGHT);
        notes.push(b.text("#v-notes"));
        captions.push(b.text("#v-caption"));
        let row = cells("#v-board table.rounds tr.current td");
        if row
            .get(1)
            .is_some_and(|s| s.ends_with(&format!("(seat {greedy})")))
            && !row[0].is_empty()
        {
            let answer = row[3].clone();
            let words = b.text(&format!("#v-said pre[data-seat='{greedy}']"));
            greedy_said.push((answer, words));
            if greedy_said.len() == 2 {
                b.screenshot(&artifact("tournament-sdk-stderr.png"));
            }
        }
        if notes.last().unwrap().contains("invalid action") {
            b.screenshot(&artifact("tournament-sdk-summary.png"));
        }
        assert!(notes.len() <= frames.len(), "the next key never stops");
    }
    let said = |what: &str, all: &[String]| all.iter().any(|t| t.contains(what));
    assert!(
        said("invalid action: 99", &notes),
        "the cheat's summary: {notes:?}"
    );
    assert!(said("timeout!", &notes), "the crasher's summary: {notes:?}");
    assert!(
        said("did not answer", &captions) && said("crasher failed (crash)", &captions),
        "{captions:?}"
    );
    assert!(
        said("referee: League level", &captions),
        "the referee's lines: {captions:?}"
    );
    assert_eq!(
        b.attr("#v-board table.rounds", "data-rows").unwrap(),
        turns.to_string()
    );
    // Each of its turns shows the words it wrote before that turn's answer.
    assert!(!greedy_said.is_empty());
    for (answer, words) in &greedy_said {
        assert!(
            words.starts_with("score ")
                && words.contains(&format!(", taking gem {answer} worth "))
                && words.trim_end().lines().count() == 1,
            "greedy answered {answer} and said {words:?}"
        );
    }
    let stderr =
        b.text("#v-err-0") + &b.text("#v-err-1") + &b.text("#v-err-2") + &b.text("#v-err-3");
    assert!(stderr.contains("taking gem"), "greedy's stderr: {stderr}");
    b.screenshot(&artifact("tournament-sdk.png"));
}

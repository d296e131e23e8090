//! Report benchmark: does report.html for 10,000 games open in a browser in under 2 s?
//!
//! Builds two results folders with `arena run` (release build): 10,080 connect4 games among 16
//! built-in random bots (84 games per pairing), and, as the baseline, 120 games among the same
//! bots (1 per pairing). Then, for each, alternating, `ARENA_BENCH_REPS` times:
//!
//!   - write: `arena report DIR` (replays every log into the viewer's frames);
//!   - open: headless Chromium loads the page until its script has drawn every table and chart
//!     and the browser has laid the page out (WebDriver's navigation returns after the load
//!     event; a layout is then forced);
//!   - game: opening the last game in the viewer (unpacking its frames) until the board is drawn.
//!
//! Prints the fastest run of each in ms (noise only slows a run down) and the ratio of the 10,000-game report to the baseline. Goal: open
//! under 2 s. A miss is reported, not failed (benchmarks report, tests assert).
//!
//! Run: `cargo bench --bench report` (needs Debian's chromium and chromium-driver, as the tests
//! do). Without `--bench` on the command line it does nothing.

#[path = "../tests/it/report/browser.rs"]
mod browser;
mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const GOAL: Duration = Duration::from_secs(2);

fn spec(dir: &Path, games_per_pairing: u32) -> std::path::PathBuf {
    let mut text = format!(
        "name = \"report-bench\"\ngame = \"connect4\"\nformat = \"round-robin\"\n\
         games_per_pairing = {games_per_pairing}\nseed = 1\n"
    );
    for i in 0..16 {
        text.push_str(&format!(
            "\n[[bot]]\nname = \"random-{i:02}\"\ncommand = \"builtin:random\"\n"
        ));
    }
    let path = dir.join(format!("spec-{games_per_pairing}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) {
    let status = Command::new(ARENA)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("arena runs");
    assert!(status.success(), "arena {args:?} failed");
}

fn fastest(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

struct Times {
    write: Vec<f64>,
    open: Vec<f64>,
    game: Vec<f64>,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn measure(b: &browser::Browser, dir: &Path, last_game: usize, t: &mut Times) {
    let started = Instant::now();
    run(&["report", dir.to_str().unwrap()]);
    t.write.push(ms(started));

    b.goto("about:blank");
    let page = format!("file://{}", dir.join("report.html").display());
    let started = Instant::now();
    b.goto(&page);
    b.script("return document.body.offsetHeight;");
    t.open.push(ms(started));
    assert_eq!(
        b.script("return document.body.dataset.ready;"),
        serde_json::json!("true")
    );

    let started = Instant::now();
    b.script(&format!("location.hash = '#game-{last_game}'; return 0;"));
    b.wait_for(
        "!document.getElementById('v-controls').hidden && document.querySelector('#v-board svg')",
        "the viewer",
    );
    t.game.push(ms(started));
}

fn main() {
    if !common::should_run("report") {
        return;
    }
    let reps = common::fastest_reps();
    let tmp = tempfile::tempdir().unwrap();
    let (small, big) = (tmp.path().join("small"), tmp.path().join("big"));
    println!("report bench: playing 120 and 10,080 connect4 games (about a minute)...");
    for (dir, per_pair) in [(&small, 1), (&big, 84)] {
        let spec = spec(tmp.path(), per_pair);
        run(&[
            "run",
            spec.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ]);
    }
    let size = |d: &Path| std::fs::metadata(d.join("report.html")).unwrap().len() as f64 / 1e6;
    let b = browser::Browser::start();
    let new = || Times {
        write: Vec::new(),
        open: Vec::new(),
        game: Vec::new(),
    };
    let (mut ts, mut tb) = (new(), new());
    for _ in 0..reps {
        measure(&b, &small, 120, &mut ts);
        measure(&b, &big, 10_080, &mut tb);
    }
    println!(
        "\n{:<34} {:>12} {:>12} {:>8}",
        format!("fastest of {reps} (ms)"),
        "120 games",
        "10,080 games",
        "ratio"
    );
    for (what, s, b) in [
        ("write (arena report)", &ts.write, &tb.write),
        ("open (drawn and laid out)", &ts.open, &tb.open),
        ("open the last game in the viewer", &ts.game, &tb.game),
    ] {
        let (s, b) = (fastest(s), fastest(b));
        println!("{what:<34} {s:>12.0} {b:>12.0} {:>7.1}x", b / s);
    }
    println!("page size: {:.2} MB and {:.2} MB", size(&small), size(&big));
    let open = Duration::from_secs_f64(fastest(&tb.open) / 1000.0);
    println!(
        "goal: 10,080-game report opens in under {} s: {}",
        GOAL.as_secs(),
        if open < GOAL { "met" } else { "MISSED" }
    );
}

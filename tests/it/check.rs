//! `arena check`: a bot against the built-in bots, and a report in plain words of what went wrong.

use crate::common::*;

/// Run `arena check BOT --game roshambo` with more arguments; returns stdout and the exit status.
fn check(bot: &str, extra: &[&str]) -> (String, Option<i32>) {
    let output = arena()
        .args(["check", bot, "--game", "roshambo", "--seed", "7"])
        .args(extra)
        .output()
        .expect("arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (stdout, output.status.code())
}

/// The report's words, one space apart: the hints are wrapped.
fn words(report: &str) -> String {
    report.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_good_bot_gets_ok_and_exit_status_0() {
    let (report, code) = check("python3 bots/roshambo/random.py", &[]);
    assert_eq!(code, Some(0), "{report}");
    // Each built-in in turn, the bot playing first and then second against it.
    for line in [
        "game 1 vs builtin:random (you played first): ",
        "game 2 vs builtin:random (you played second): ",
        "game 3 vs builtin:counter (you played first): ",
        "game 4 vs builtin:counter (you played second): ",
    ] {
        assert!(report.contains(line), "no {line:?} in\n{report}");
    }
    let verdict = report.lines().last().unwrap_or_default();
    assert!(
        verdict.starts_with("OK: your bot played 4 games without a failure ("),
        "{report}"
    );
    assert!(!report.contains("What went wrong"), "{report}");
}

#[test]
fn garbage_is_quoted_with_what_was_expected() {
    let (report, code) = check(&bot("misbehave.py", "garbage 1"), &["--games", "1"]);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains(
            "game 1 vs builtin:random (you played first): lost: \
             sent 'ROCKS' where ROCK, PAPER or SCISSORS was expected"
        ),
        "{report}"
    );
    assert!(
        report.contains("the last of the 2 lines it sent: 'ROCKS'"),
        "{report}"
    );
    assert!(
        report.contains("PROBLEM: your bot failed 1 of 1 game (broke the protocol in 1)"),
        "{report}"
    );
}

#[test]
fn a_line_break_inside_a_line_is_quoted_and_named() {
    let (report, code) = check(&bot("misbehave.py", "breaks 1"), &["--games", "1"]);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("the last of the 2 lines it sent: 'ROCK\\rPAPER'"),
        "{report}"
    );
    assert!(
        words(&report).contains(
            "hint: end each line with a newline (\\n, or \\r\\n) and put no other line break \
             inside it: a carriage return,"
        ),
        "{report}"
    );
}

#[test]
fn a_hang_reports_the_move_and_the_flush_hint() {
    let (report, code) = check(
        &bot("misbehave.py", "hang 1"),
        &["--games", "1", "--timeout", "0.5"],
    );
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("timed out at move 2 after 0.5 s waiting for a line"),
        "{report}"
    );
    assert!(words(&report).contains("did you flush stdout"), "{report}");
    // The prompt it did not answer: the opponent's gesture of round 1.
    let sent = report
        .lines()
        .find(|l| l.contains("the last line arena sent it before it failed: "))
        .unwrap_or_else(|| panic!("no last line sent in\n{report}"));
    assert!(
        ["'ROCK'", "'PAPER'", "'SCISSORS'"]
            .iter()
            .any(|g| sent.ends_with(g)),
        "{sent}"
    );
}

/// Issue 43: a bot still starting when the startup allowance is over, and late at its first
/// move, is told that its start-up is what is slow.
#[test]
fn a_start_up_longer_than_the_allowance_is_named_in_the_hint() {
    let (report, code) = check(
        &bot("start_rps.py", "sleep 5"),
        &["--games", "1", "--startup-timeout", "0.5"],
    );
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("timed out at move 1"), "{report}");
    assert!(
        words(&report).contains("had not reached its first read after 0.5 s"),
        "{report}"
    );
    assert!(words(&report).contains("startup_timeout"), "{report}");
}

#[test]
fn a_crash_quotes_the_last_lines_of_stderr_and_the_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let crasher = "sh -c 'read name; for i in 1 2 3 4 5 6 7; do echo \"debug line $i\" >&2; \
                   done; exit 4'";
    let (report, code) = check(crasher, &["--games", "1", "--out", out.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    assert!(
        report.contains("lost: exited with status 4 at move 1"),
        "{report}"
    );
    for i in 3..=7 {
        assert!(
            report.contains(&format!("    | debug line {i}\n")),
            "{report}"
        );
    }
    assert!(
        !report.contains("debug line 2"),
        "only the last 5: {report}"
    );
    assert!(
        words(&report).contains("hint: the bot exited with status 4: see its stderr above."),
        "{report}"
    );
    // With --out the logs stay, and the report says where.
    assert!(game_log(&out, 1).is_file());
    assert!(
        report.contains(&out.join("logs").display().to_string()),
        "{report}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let (report, code) = check("./no-such-bot.py", &[]);
    assert_eq!(code, Some(2), "{report}");
    let output = arena()
        .args([
            "check",
            "python3 bots/roshambo/random.py",
            "--game",
            "no-such-game",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown game"));
}

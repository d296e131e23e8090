//! What an SDK referee's command-line front end prints at the end of a game, read as
//! cg-brutaltester reads it, and what its stderr says when it failed.

/// The players' scores in `-p` order, and the seed the referee says it played.
#[derive(Debug, PartialEq)]
pub struct Printed {
    pub scores: Vec<i64>,
    pub seed: Option<i64>,
}

/// Read `players` scores from the referee's output: for each player in turn, the next line that
/// is an integer, any other line skipped (`League level: 4.`), as cg-brutaltester's `Scanner`
/// does; the lines after them are the game's parameters (`seed=N`). `null` is the referee's own
/// failure, as are too few scores.
pub fn read(lines: &[String], players: usize) -> Result<Printed, String> {
    let mut scores = Vec::with_capacity(players);
    let mut seed = None;
    for line in lines {
        let text = line.trim();
        if scores.len() < players {
            if text == "null" {
                return Err(
                    "printed null for a score: its game failed (the SDK says so when the \
                     referee thread died or waited in vain for its players)"
                        .into(),
                );
            }
            if let Ok(score) = text.parse::<i64>() {
                scores.push(score);
            }
        } else if let Some(n) = text.strip_prefix("seed=") {
            seed = seed.or(n.trim().parse::<i64>().ok());
        }
    }
    match scores.len() {
        n if n == players => Ok(Printed { scores, seed }),
        0 => Err("printed no scores".into()),
        1 => Err(format!("printed 1 score for {players} players")),
        n => Err(format!("printed {n} scores for {players} players")),
    }
}

/// A hint for the usual set-up mistakes, from what the referee wrote on its stderr.
pub fn hint(stderr: &str, players: usize) -> Option<String> {
    let lower = stderr.to_lowercase();
    if lower.contains("inaccessibleobjectexception") || lower.contains("does not \"opens java.") {
        return Some(
            "its JVM refuses the SDK's reflection: add --add-opens java.base/java.lang=ALL-UNNAMED \
             to the referee's command, before -jar"
                .into(),
        );
    }
    if players > 2 && (lower.contains("option: -p3") || lower.contains("option: p3")) {
        return Some(format!(
            "its command-line front end takes two players only, not {players}: play it with \
             two (players = 2 in a spec, two bots to arena match)"
        ));
    }
    if lower.contains("option: -d") || lower.contains("option: d") {
        return Some(
            "its command-line front end takes no -d: give the seed as it takes it, for instance \
             seed_form = \"-seed {seed}\", or seed = \"omit\""
                .into(),
        );
    }
    // The referee runs in an empty folder of its own: a relative class path or file in its
    // command finds nothing there (arena makes only the `-jar` file's path absolute).
    if lower.contains("classnotfoundexception")
        || lower.contains("could not find or load main class")
        || lower.contains("unable to access jarfile")
        || lower.contains("specified shared archive not found")
    {
        return Some(
            "it found no class or file: the referee runs in an empty folder of its own, so \
             give the paths in its command (-cp, -XX:SharedArchiveFile=...) as absolute paths"
                .into(),
        );
    }
    if lower.contains("unsupportedclassversionerror") {
        return Some(
            "it was built for a newer Java than the one that runs it: run it with that Java's \
             java"
                .into(),
        );
    }
    None
}

/// The line of the referee's stderr that says why it failed (an exception's), if any.
pub fn why(stderr: &str) -> Option<&str> {
    let lines = stderr.lines().map(str::trim);
    lines
        .clone()
        .find(|l| l.starts_with("Exception in thread") || l.starts_with("Caused by:"))
        .or_else(|| {
            lines
                .clone()
                .find(|l| l.contains("Exception") || l.contains("Error:"))
        })
        .or_else(|| stderr.lines().map(str::trim).rfind(|l| !l.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn scores_follow_the_league_line_and_precede_the_parameters() {
        let out = lines("League level: 4.\n12\n-1\nseed=42\n\n");
        assert_eq!(
            read(&out, 2),
            Ok(Printed {
                scores: vec![12, -1],
                seed: Some(42)
            })
        );
        let four = lines("3\n3\n0\n7\n");
        assert_eq!(read(&four, 4).unwrap().scores, vec![3, 3, 0, 7]);
        assert_eq!(read(&four, 4).unwrap().seed, None);
    }

    #[test]
    fn null_missing_or_too_few_scores_are_the_referees_failure() {
        assert!(read(&lines("League level: 1.\nnull\nnull\n"), 2).unwrap_err().contains("null"));
        assert_eq!(read(&lines(""), 2).unwrap_err(), "printed no scores");
        assert_eq!(
            read(&lines("5\nseed=3\n"), 2).unwrap_err(),
            "printed 1 score for 2 players"
        );
        assert!(read(&lines("java.lang.NullPointerException\n\tat x\n"), 2).is_err());
    }

    #[test]
    fn the_usual_mistakes_get_a_hint() {
        let jdk17 = "Exception in thread \"Thread-0\" java.lang.reflect.InaccessibleObjectException: \
                     Unable to make field accessible: module java.base does not \"opens java.lang\"";
        assert!(hint(jdk17, 2).unwrap().contains("--add-opens"));
        assert_eq!(why(jdk17), Some(jdk17));
        let two = "org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -p3";
        assert!(hint(two, 3).unwrap().contains("players = 2"));
        assert!(hint("Unrecognized option: -d", 2).unwrap().contains("seed_form"));
        let relative = "Error: Could not find or load main class Referee\nCaused by: \
                        java.lang.ClassNotFoundException: Referee";
        assert!(hint(relative, 2).unwrap().contains("absolute paths"));
        assert_eq!(hint("all fine", 2), None);
    }
}

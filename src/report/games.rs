//! `games.csv`: one row per finished game, the record every table and rating is computed from.
//!
//! A file holds games of one number of players, as its header says. Two-player games keep the
//! columns they always had (`id,round,seat0,seat1,score0,score1,winner,reason,plies,duration_ms,
//! seed,log`), so that old folders and the scripts that read them keep working. Games of N > 2
//! players have a seat, a place and a failure column per seat:
//! `id,round,seat0..seatN-1,place0..placeN-1,out0..outN-1,reason,plies,duration_ms,seed,log`,
//! where `outK` is empty, or the reason seat K failed (`timeout`, `crash`...); points and the
//! winner follow from the places (`Places::points`).

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Error, Result};
use crate::games::{MAX_SEATS, Places, Seat};
use crate::failure::Reason;
use crate::referee::GameRecord;
use crate::referee::times::AnswerTimes;

/// One finished game: a row of `games.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRow {
    pub id: u64,
    pub round: u32,
    /// The bot in each seat.
    pub seats: Vec<String>,
    /// Each seat's place, 1 the best.
    pub places: Places,
    /// Why each seat failed, for those that did.
    pub faults: Vec<Option<Reason>>,
    pub reason: Reason,
    pub plies: u32,
    pub duration_ms: u64,
    pub seed: u64,
    pub log: String,
    /// Each seat's answer times, from the game's record or its log's result (`times::fill`);
    /// empty where neither tells (a log gone, or written before arena timed answers). Not a
    /// column: `games.csv` keeps its columns (docs/design.md, section Answer times).
    pub times: Vec<AnswerTimes>,
}

#[cfg(test)]
impl GameRow {
    /// A game for the tests: `seats` in seat order, placed as `places` says, no one failed,
    /// in round `id`, its log where a run would write it.
    pub(crate) fn played(id: u64, seats: &[&str], places: &[u8]) -> GameRow {
        GameRow {
            id,
            round: id as u32,
            seats: seats.iter().map(|s| s.to_string()).collect(),
            places: crate::games::Places::try_from(places.to_vec()).unwrap(),
            faults: vec![None; seats.len()],
            reason: crate::failure::Reason::Normal,
            plies: 10,
            duration_ms: 1,
            seed: id,
            log: format!("logs/game-{id:05}.jsonl"),
            times: Vec::new(),
        }
    }
}

impl GameRow {
    pub fn new(id: u64, round: u32, r: &GameRecord) -> GameRow {
        let v = &r.verdict;
        let (places, faults) = match r.players.len() {
            // As a two-player row is read back: from its scores.
            2 => two_from_scores([v.scores[0], v.scores[1]], v.reason),
            n => {
                let mut faults = vec![None; n];
                for out in &v.out {
                    faults[out.seat.index()] = Some(out.reason);
                }
                (v.places.clone(), faults)
            }
        };
        GameRow {
            id,
            round,
            seats: r.players.clone(),
            places,
            faults,
            reason: v.reason,
            plies: v.plies,
            duration_ms: r.duration_ms,
            seed: r.seed,
            log: r.log.clone(),
            times: r.times.clone(),
        }
    }

    /// How many played.
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// The bots in seat order.
    pub fn names(&self) -> &[String] {
        &self.seats
    }

    /// Whether the game counts for its players: not when its referee program failed.
    pub fn counts(&self) -> bool {
        self.reason != Reason::Referee
    }

    /// Whether every seat failed: then no one scores, and no one is rated.
    pub fn all_failed(&self) -> bool {
        self.faults.iter().all(Option::is_some)
    }

    /// Each seat's points: 1-0, ½-½, 0-1 (0-0 when both lost) for two players; with more,
    /// (N - place) / (N - 1), ties sharing, and 0 for everyone when every seat failed.
    pub fn scores(&self) -> Vec<f64> {
        if self.all_failed() || !self.counts() {
            return vec![0.0; self.players()];
        }
        self.places.points()
    }

    /// The winner's name: the one seat alone in first place, unless every seat failed.
    pub fn winner(&self) -> Option<&str> {
        if self.all_failed() || !self.counts() {
            return None;
        }
        self.places.winner().map(|s| self.seats[s].as_str())
    }

    /// The seats whose failure decided the game.
    pub fn failed(&self) -> Vec<bool> {
        self.faults.iter().map(Option::is_some).collect()
    }

    /// How seat `me` did against seat `them`, from 0 to 1: with two players their scores (0-0
    /// when both lost); with more, whether `me` finished ahead of `them` (½ for a tie), which
    /// is the two-player result again for any pair.
    pub fn against(&self, me: Seat, them: Seat) -> f64 {
        if self.players() == 2 {
            return self.scores()[me];
        }
        match self.places.of(me).cmp(&self.places.of(them)) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        }
    }

    /// Every ordered pair of different seats.
    pub fn pairs(&self) -> impl Iterator<Item = (Seat, Seat)> + use<> {
        let n = self.players();
        Seat::all(n).flat_map(move |a| Seat::all(n).filter(move |&b| b != a).map(move |b| (a, b)))
    }

    /// The seat `name` sat in, if it played.
    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| s == name)
            .and_then(Seat::new)
    }
}

/// A two-player game's places and failures, from its scores and reason as `games.csv` has them.
fn two_from_scores(scores: [f64; 2], reason: Reason) -> (Places, Vec<Option<Reason>>) {
    let places = match scores {
        [a, b] if a > b => vec![1, 2],
        [a, b] if a < b => vec![2, 1],
        _ => vec![1, 1],
    };
    let faults = scores
        .iter()
        .map(|&s| (reason.is_fault() && s == 0.0).then_some(reason))
        .collect();
    (
        Places::try_from(places).expect("two places are a ranking"),
        faults,
    )
}

/// The header of a `games.csv` of games of `players`.
pub fn header(players: usize) -> String {
    if players == 2 {
        return "id,round,seat0,seat1,score0,score1,winner,reason,plies,duration_ms,seed,log\n"
            .into();
    }
    let mut columns = vec!["id".to_string(), "round".to_string()];
    for what in ["seat", "place", "out"] {
        columns.extend((0..players).map(|i| format!("{what}{i}")));
    }
    columns.extend(
        ["reason", "plies", "duration_ms", "seed", "log"]
            .iter()
            .map(|c| c.to_string()),
    );
    format!("{}\n", columns.join(","))
}

/// The number of players a header is for, if it is one arena writes.
fn players_of(headers: &csv::StringRecord) -> Option<usize> {
    let n = headers.iter().filter(|h| h.starts_with("seat")).count();
    let expected = header(n);
    let given: Vec<&str> = headers.iter().collect();
    ((2..=MAX_SEATS).contains(&n) && given.join(",") == expected.trim_end()).then_some(n)
}

/// One CSV line for a row (with its newline), to append to `games.csv`.
pub fn csv_line(row: &GameRow) -> Vec<u8> {
    let mut fields = vec![row.id.to_string(), row.round.to_string()];
    fields.extend(row.seats.iter().cloned());
    if row.players() == 2 {
        // As serde wrote them before: `1.0`, `0.5`, `0.0`.
        fields.extend(row.scores().iter().map(|s| format!("{s:?}")));
        fields.push(row.winner().unwrap_or_default().to_string());
    } else {
        fields.extend(row.places.as_slice().iter().map(u8::to_string));
        fields.extend(
            row.faults
                .iter()
                .map(|f| f.map(|r| r.as_str().to_string()).unwrap_or_default()),
        );
    }
    fields.extend([
        row.reason.as_str().to_string(),
        row.plies.to_string(),
        row.duration_ms.to_string(),
        row.seed.to_string(),
        row.log.clone(),
    ]);
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(&fields).expect("in memory");
    w.into_inner().expect("a Vec takes all")
}

/// A whole `games.csv` of games of `players`: its header and the rows.
pub fn games_csv(players: usize, rows: &[GameRow]) -> Vec<u8> {
    let mut bytes = header(players).into_bytes();
    bytes.extend(rows.iter().flat_map(csv_line));
    bytes
}

/// Read a `games.csv` the user names (`arena ratings FILE...`). A row that cannot be read, or
/// that no game could have written (a score such as 0.25, a place out of range, a bot in two
/// seats, a game recorded twice, a log outside the folder's `logs`), is an error naming the file
/// and line: the tables and ratings built on it would be wrong, or would not be built at all.
pub fn read_games(path: &Path) -> Result<Vec<GameRow>> {
    let bytes = crate::files::read_named_file(path, crate::files::MOST_GAMES_CSV)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    games_from(path, bytes)
}

/// Read a results folder's `games.csv`, as `read_games`, never through a link: a forged folder's
/// `games.csv -> /elsewhere/games.csv` would put another folder's games in its report.
pub fn read_folder_games(dir: &Path) -> Result<Vec<GameRow>> {
    let path = dir.join("games.csv");
    let bytes = crate::files::read_folder_file(&path, crate::files::MOST_GAMES_CSV)
        .map_err(Error::io(format!("reading {}", path.display())))?;
    games_from(&path, bytes)
}

fn games_from(path: &Path, bytes: Vec<u8>) -> Result<Vec<GameRow>> {
    let at = |line: u64, what: &dyn std::fmt::Display| {
        Error::Corrupt(format!("{}:{line}: {what}", path.display()))
    };
    let whole = |e: csv::Error| match e.position() {
        Some(p) => at(p.line(), &e),
        None => Error::Corrupt(format!("{}: {e}", path.display())),
    };
    // A row cut short by a run killed as it wrote it never counted: the run plays it again.
    let keep = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) if end + 1 < bytes.len() => {
            let header = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
            if is_whole_row(&bytes[..header], &bytes[end + 1..]) {
                bytes.len()
            } else {
                eprintln!(
                    "arena: {}: the last line is cut short (a run was killed while writing it); \
                     it is left out",
                    path.display()
                );
                end + 1
            }
        }
        _ => bytes.len(),
    };
    // Flexible: a row of the wrong width is told in words by `parse_row`.
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(&bytes[..keep]);
    let headers = reader.headers().map_err(whole)?.clone();
    let players = players_of(&headers).ok_or_else(|| {
        at(
            1,
            &"not the header of a games.csv arena writes (id,round,seat0,seat1,... as docs/outputs.md lists)",
        )
    })?;
    let mut rows = Vec::new();
    // Each id's line, to name the first when it comes again.
    let mut seen: BTreeMap<u64, u64> = BTreeMap::new();
    for record in reader.records() {
        let record = record.map_err(whole)?;
        let line = record.position().map_or(0, |p| p.line());
        let row = parse_row(&record, players).map_err(|e| at(line, &e))?;
        check_row(&row).map_err(|e| at(line, &e))?;
        if let Some(first) = seen.insert(row.id, line) {
            return Err(at(
                line,
                &format!(
                    "game {} is already on line {first}: a game is recorded once",
                    row.id
                ),
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// A row of a file of games of `players`, its fields read (`check_row` says whether a game
/// could have made it).
fn parse_row(record: &csv::StringRecord, players: usize) -> std::result::Result<GameRow, String> {
    let width = 2 + players * if players == 2 { 2 } else { 3 } + usize::from(players == 2) + 5;
    if record.len() != width {
        return Err(format!(
            "{} fields where a game of {players} has {width}",
            record.len()
        ));
    }
    let field = |i: usize| record.get(i).unwrap_or_default();
    let number = |i: usize, what: &str| {
        field(i)
            .parse::<u64>()
            .map_err(|_| format!("{what} is '{}', not a whole number", field(i)))
    };
    let reason = |text: &str, what: &str| {
        serde_json::from_value::<Reason>(serde_json::Value::String(text.into()))
            .map_err(|_| format!("{what} is '{text}', not a reason arena writes"))
    };
    let seats: Vec<String> = (2..2 + players).map(|i| field(i).to_string()).collect();
    let mut next = 2 + players;
    let (places, faults, reason_at) = if players == 2 {
        let score = |i: usize| {
            let s = field(i).parse::<f64>().unwrap_or(f64::NAN);
            (s.is_finite()).then_some(s).ok_or_else(|| {
                format!(
                    "score{} is {}; a game scores 1-0, 0.5-0.5 or 0-1",
                    i - next,
                    field(i)
                )
            })
        };
        let scores = [score(next)?, score(next + 1)?];
        check_scores(scores)?;
        let reason = reason(field(next + 3), "the reason")?;
        let (places, faults) = two_from_scores(scores, reason);
        (places, faults, next + 3)
    } else {
        let places: Vec<u8> = (next..next + players)
            .map(|i| {
                field(i)
                    .parse::<u8>()
                    .map_err(|_| format!("place{} is '{}', not a place", i - next, field(i)))
            })
            .collect::<std::result::Result<_, _>>()?;
        let places = Places::try_from(places)?;
        next += players;
        let faults = (next..next + players)
            .map(|i| match field(i) {
                "" => Ok(None),
                text => reason(text, &format!("out{}", i - next)).map(Some),
            })
            .collect::<std::result::Result<_, _>>()?;
        (places, faults, next + players)
    };
    Ok(GameRow {
        id: number(0, "the id")?,
        round: number(1, "the round")? as u32,
        seats,
        places,
        faults,
        reason: reason(field(reason_at), "the reason")?,
        plies: number(reason_at + 1, "plies")? as u32,
        duration_ms: number(reason_at + 2, "duration_ms")?,
        seed: number(reason_at + 3, "the seed")?,
        log: field(reason_at + 4).to_string(),
        times: Vec::new(),
    })
}

/// What a two-player game can score: one won, a draw, or both lost (failures on both sides).
const SCORES: [[f64; 2]; 4] = [[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.0, 0.0]];

fn check_scores(scores: [f64; 2]) -> std::result::Result<(), String> {
    if SCORES.contains(&scores) {
        return Ok(());
    }
    let odd = scores
        .iter()
        .enumerate()
        .find(|(_, s)| ![0.0, 0.5, 1.0].contains(*s));
    let what = match odd {
        Some((i, s)) => format!("score{i} is {s}"),
        None => format!("the scores are {}-{}", scores[0], scores[1]),
    };
    Err(format!(
        "{what}; a game scores 1-0, 0.5-0.5 or 0-1 (0-0 when both players lost)"
    ))
}

/// Whether `log` is where arena wrote game `id`'s log: `logs/game-NNNNN.jsonl` (`NNNN` in a
/// duel) in a results folder, wherever that folder was. Only the name is used (the report reads
/// `DIR/logs/NAME`, or in a merged folder a shard's that records the game: `logs::Logs`): a row
/// naming any other file (`/etc/shadow`, `../../x`) was not written by arena, and the report
/// must not read it.
fn is_log_of(id: u64, log: &Path) -> bool {
    let number = log
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("game-")?.strip_suffix(".jsonl"))
        .filter(|digits| digits.bytes().all(|b| b.is_ascii_digit()));
    number.and_then(|digits| digits.parse::<u64>().ok()) == Some(id)
        && log.parent().and_then(Path::file_name) == Some("logs".as_ref())
}

/// Whether arena could have written this row; if not, what is wrong with it.
fn check_row(row: &GameRow) -> std::result::Result<(), String> {
    if row.seats.iter().any(String::is_empty) {
        return Err("a seat has no bot's name".into());
    }
    for (i, name) in row.seats.iter().enumerate() {
        if row.seats[..i].contains(name) {
            return match row.players() {
                2 => Err(format!("{name} plays itself")),
                _ => Err(format!("{name} sits in two seats")),
            };
        }
    }
    if !is_log_of(row.id, Path::new(&row.log)) {
        return Err(format!(
            "the log of game {} is \"{}\", not logs/game-{:05}.jsonl: arena reads a game's log \
             only from the results folder's logs",
            row.id, row.log, row.id
        ));
    }
    if row.players() > 2 {
        check_places(row)?;
    }
    Ok(())
}

/// With more than two players: a failure's column holds a failure; a game no one failed in
/// ended by its rules; and a failed seat is not alone in first place unless every seat failed.
///
/// A seat that fails is out at that turn (docs/design.md, Games of more than two players): below
/// every seat still in, above every seat already out, tied with the seats out in the same turn.
/// So a failed seat may rank above a seat that did not fail (one out by the rules before it), and
/// failed seats may share first place (the last ones in, out in the same turn). What no game can
/// do is place a failed seat alone first while a seat played on: when it failed, another was
/// still in (else the game was over), and that one finished beside it or ahead.
fn check_places(row: &GameRow) -> std::result::Result<(), String> {
    if let Some((i, r)) = row
        .faults
        .iter()
        .enumerate()
        .find_map(|(i, f)| f.filter(|r| !r.is_fault()).map(|r| (i, r)))
    {
        return Err(format!(
            "out{i} is '{}', which is not a failure",
            r.as_str()
        ));
    }
    if row.reason.is_fault() && row.faults.iter().all(Option::is_none) {
        return Err(format!(
            "the reason is '{}' but no seat failed",
            row.reason.as_str()
        ));
    }
    if row.all_failed() {
        return Ok(());
    }
    if let Some(seat) = row.places.winner()
        && row.faults[seat.index()].is_some()
    {
        return Err(format!(
            "seat {seat} failed but is alone in first place, while a seat that did not fail \
             played on"
        ));
    }
    Ok(())
}

/// Whether `line`, the end of a `games.csv` after its last newline, is a whole row that only
/// lacks its newline (a hand edit) rather than a row cut short by a run that was killed. A cut
/// row can look whole up to its last field, the log's path: that one must end as arena ends it.
pub fn is_whole_row(headers: &[u8], line: &[u8]) -> bool {
    let mut text = headers.to_vec();
    text.extend_from_slice(line);
    text.push(b'\n');
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let Some(players) = reader.headers().ok().and_then(players_of) else {
        return false;
    };
    let Some(Ok(record)) = reader.records().next() else {
        return false;
    };
    parse_row(&record, players)
        .is_ok_and(|row| check_row(&row).is_ok() && row.log.ends_with(".jsonl"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROW1: &str = "1,1,a,b,1,0,a,normal,3,1,7,out/logs/game-00001.jsonl\n";
    const ROW2: &str = "2,1,b,a,0.5,0.5,,draw,3,1,8,out/logs/game-00002.jsonl\n";

    /// `games.csv` made of the header for `players` and `rows`, read back.
    fn read_n(players: usize, rows: &str) -> std::result::Result<Vec<GameRow>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, format!("{}{rows}", header(players))).unwrap();
        read_games(&path).map_err(|e| {
            let e = e.to_string();
            e.strip_prefix(&path.display().to_string())
                .unwrap_or(&e)
                .to_string()
        })
    }

    fn read(rows: &str) -> std::result::Result<Vec<GameRow>, String> {
        read_n(2, rows)
    }

    #[test]
    fn scores_no_game_gives_are_refused_with_their_line() {
        let cases = [
            (
                "0.25,0.75",
                ":3: score0 is 0.25; a game scores 1-0, 0.5-0.5 or 0-1",
            ),
            ("2,-1", ":3: score0 is 2; a game scores"),
            ("1,-1", ":3: score1 is -1; a game scores"),
            ("NaN,1", ":3: score0 is NaN; a game scores"),
            ("inf,0", ":3: score0 is inf; a game scores"),
            ("1,1", ":3: the scores are 1-1; a game scores"),
            ("0.5,0", ":3: the scores are 0.5-0; a game scores"),
        ];
        for (scores, expected) in cases {
            let row = ROW2.replace("0.5,0.5", scores);
            let e = read(&format!("{ROW1}{row}")).unwrap_err();
            assert!(e.starts_with(expected), "{scores}: {e}");
        }
        // Both players lost: a game arena records.
        let both_lost = ROW2.replace("0.5,0.5", "0,0");
        assert_eq!(read(&format!("{ROW1}{both_lost}")).unwrap().len(), 2);
    }

    #[test]
    fn a_game_recorded_twice_is_refused_and_a_missing_last_newline_is_not() {
        let e = read(&format!("{ROW1}{ROW2}{ROW1}")).unwrap_err();
        assert_eq!(
            e,
            ":4: game 1 is already on line 2: a game is recorded once"
        );
        let rows = read(&format!("{ROW1}{}", ROW2.trim_end())).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].log, "out/logs/game-00002.jsonl");
        // Cut short, in its log's path: it never counted.
        let rows = read(&format!("{ROW1}{}", &ROW2[..ROW2.len() - 4])).unwrap();
        assert_eq!(rows.len(), 1);
        let e = read(&ROW1.replace(",b,", ",a,")).unwrap_err();
        assert_eq!(e, ":2: a plays itself");
    }

    #[test]
    fn a_whole_last_row_is_told_from_one_cut_short() {
        let header = header(2);
        assert!(is_whole_row(header.as_bytes(), ROW2.trim_end().as_bytes()));
        // Cut anywhere before its end, the row is not whole.
        for cut in 1..ROW2.trim_end().len() {
            assert!(
                !is_whole_row(header.as_bytes(), &ROW2.as_bytes()[..cut]),
                "{}",
                &ROW2[..cut]
            );
        }
    }

    /// Two-player rows are written byte for byte as they always were.
    #[test]
    fn a_two_player_row_reads_and_writes_back_the_same() {
        let won = ROW1.replace(",1,0,", ",1.0,0.0,");
        let lost = ROW2.replace("0.5,0.5,,draw", "0.0,0.0,,timeout");
        for row in [&won, ROW2, &lost] {
            let read = read(row).unwrap();
            assert_eq!(String::from_utf8(csv_line(&read[0])).unwrap(), *row);
        }
        let r = &read(ROW1).unwrap()[0];
        assert_eq!(r.scores(), [1.0, 0.0]);
        assert_eq!(r.winner(), Some("a"));
    }

    const FOUR: &str = "3,1,a,b,c,d,2,1,4,2,,,timeout,,normal,40,5,9,x/logs/game-00003.jsonl\n";

    #[test]
    fn a_row_of_four_players_reads_and_writes_back_the_same() {
        assert_eq!(
            header(4),
            "id,round,seat0,seat1,seat2,seat3,place0,place1,place2,place3,out0,out1,out2,out3,\
             reason,plies,duration_ms,seed,log\n"
        );
        let rows = read_n(4, FOUR).unwrap();
        let r = &rows[0];
        assert_eq!(r.places.as_slice(), [2, 1, 4, 2]);
        assert_eq!(r.faults[2], Some(Reason::Timeout));
        assert_eq!(r.scores(), [0.5, 1.0, 0.0, 0.5]);
        assert_eq!(r.winner(), Some("b"));
        assert_eq!(String::from_utf8(csv_line(r)).unwrap(), FOUR);
    }

    /// Every reader refuses, with its line, a row of N players no game could write.
    #[test]
    fn rows_no_game_of_four_could_write_are_refused() {
        for (from, to, says) in [
            (",2,1,4,2,", ",2,1,5,2,", "place 5 follows 3 better seat(s)"),
            (",2,1,4,2,", ",1,1,4,2,", "place 2 follows 2 better seat(s)"),
            (",2,1,4,2,", ",0,1,4,2,", "place 0 follows"),
            (",2,1,4,2,", ",2,1,x,2,", "place2 is 'x', not a place"),
            ("a,b,c,d", "a,b,c,a", "a sits in two seats"),
            (
                ",,timeout,,",
                ",,normal,,",
                "out2 is 'normal', which is not a failure",
            ),
            (
                ",,timeout,,",
                ",,late,,",
                "out2 is 'late', not a reason arena writes",
            ),
            (
                ",2,1,4,2,,,timeout",
                ",2,3,1,3,,,timeout",
                "seat 2 failed but is alone in first place",
            ),
            (
                ",,timeout,,normal",
                ",,,,crash",
                "the reason is 'crash' but no seat failed",
            ),
            (",40,5,9,", ",40,5,", "18 fields where a game of 4 has 19"),
        ] {
            let row = FOUR.replace(from, to);
            let e = read_n(4, &row).unwrap_err();
            assert!(e.starts_with(":2: ") && e.contains(says), "{row}: {e}");
        }
        let e = read_n(4, &FOUR.replace("x/logs/game-00003", "/etc/shadow")).unwrap_err();
        assert!(e.contains("not logs/game-00003.jsonl"), "{e}");
    }

    /// A failure is an elimination at that turn: a failed seat above one put out before it by
    /// the rules, tied with one out in the same turn, or failed seats sharing first place (the
    /// last ones in), are what Tron writes, and read back (issue 42: they were refused).
    #[test]
    fn failed_seats_placed_where_they_went_out_are_read() {
        for (from, to) in [
            // Seat 2 failed after seat 3 was out: above it, tied with seat 0.
            (",2,1,4,2,,,timeout", ",2,1,2,4,,,timeout"),
            // Seat 2 failed after seats 0 and 3 were out, before seat 1.
            (",2,1,4,2,,,timeout", ",3,1,2,4,,,timeout"),
            // Seats 1 and 2, the last two in, failed in the same turn.
            (",2,1,4,2,,,timeout,", ",3,1,1,4,,crash,timeout,"),
            // Every seat failed, the last alone first.
            (
                ",2,1,4,2,,,timeout,,normal",
                ",2,3,1,4,crash,crash,timeout,crash,timeout",
            ),
        ] {
            let row = FOUR.replace(from, to);
            assert_ne!(row, FOUR);
            let read = read_n(4, &row).unwrap_or_else(|e| panic!("{row}: {e}"));
            assert_eq!(read.len(), 1);
        }
    }

    #[test]
    fn a_header_arena_does_not_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        for text in [
            "id,round,seat0\n",
            "name,score\nx,1\n",
            "id,round,seat0,seat1,seat2,place0\n",
        ] {
            std::fs::write(&path, text).unwrap();
            let e = read_games(&path).unwrap_err().to_string();
            assert!(
                e.contains(":1: not the header of a games.csv"),
                "{text}: {e}"
            );
        }
    }
}

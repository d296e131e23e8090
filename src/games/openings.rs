//! Openings: the positions the pairs of games of a match start from, so that two deterministic
//! bots do not play the same game again and again. Each opening is played twice, seats swapped,
//! so that neither bot gets the better side of it. The positions come from a file (one per line,
//! in the format `arena perft --position` takes), from random legal moves played from the start
//! (`random_plies`), or both: random moves played from each position of the file.

use std::path::Path;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::position::Positions;
use super::GameInfo;
use crate::seeds::derive_seed;

/// In which order a book's positions are played; spelled in specs and run.json as `as_str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// As the file lists them, from the first again after the last.
    #[default]
    Sequential,
    /// Shuffled once by the match's seed, then in that order.
    Random,
}

impl Order {
    pub fn as_str(self) -> &'static str {
        match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        }
    }
}

/// Seed streams of a match's openings, apart from its games' (which use the game numbers).
const SHUFFLE_STREAM: u64 = 1 << 40;
const PLIES_STREAM: u64 = (1 << 40) + 1;

/// Where the pairs of games of one match start.
#[derive(Debug, Clone)]
pub struct Book {
    positions: Positions,
    /// The file's positions, in the order they are played; empty for the usual start.
    listed: Vec<String>,
    random_plies: u32,
    seed: u64,
}

impl Book {
    /// A book for `game` from what was asked; `None` when neither a file nor random moves were.
    /// `file` is the file's name and its positions, as [`read`] gives them.
    pub fn new(
        game: &GameInfo,
        file: Option<Vec<String>>,
        order: Order,
        random_plies: u32,
        seed: u64,
    ) -> Result<Option<Book>, String> {
        if file.is_none() && random_plies == 0 {
            return Ok(None);
        }
        let positions = game.positions.ok_or_else(|| no_positions(game))?;
        let mut listed = file.unwrap_or_default();
        if order == Order::Random {
            listed.shuffle(&mut ChaCha8Rng::seed_from_u64(derive_seed(
                seed,
                SHUFFLE_STREAM,
            )));
        }
        Ok(Some(Book {
            positions,
            listed,
            random_plies,
            seed,
        }))
    }

    /// The opening of pair `pair` (0 is the first: games 1 and 2).
    pub fn opening(&self, pair: u64) -> String {
        let from = match self.listed.len() {
            0 => None,
            n => Some(self.listed[(pair % n as u64) as usize].as_str()),
        };
        let mut rng =
            ChaCha8Rng::seed_from_u64(derive_seed(derive_seed(self.seed, PLIES_STREAM), pair));
        (self.positions.random)(from, self.random_plies, &mut rng)
            .expect("the book's positions were read by the game")
    }
}

/// Why `game` takes no openings, with the games that do.
fn no_positions(game: &GameInfo) -> String {
    let with: Vec<&str> = super::ALL
        .iter()
        .filter(|g| g.positions.is_some())
        .map(|g| g.name)
        .collect();
    format!(
        "{} has no positions to start from (games with openings: {})",
        game.name,
        with.join(", ")
    )
}

/// The largest openings file arena reads, in bytes: hundreds of thousands of positions, far
/// beyond a real book (whose positions a tournament also keeps whole in `run.json`), and far
/// below what exhausts memory.
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The positions of an openings file for `game`: one per line, empty lines and lines starting
/// with `#` left out. A position the game cannot start from is an error naming the file and its
/// line.
pub fn read(game: &GameInfo, path: &Path) -> Result<Vec<String>, String> {
    let positions = game.positions.ok_or_else(|| no_positions(game))?;
    let text = read_text(path)?;
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        // Not trimmed: a blank is a cell in some formats (tictactoe's board string).
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = (positions.opening)(line)
            .map_err(|why| format!("{}:{}: {why}", path.display(), i + 1))?;
        found.push(position);
    }
    if found.is_empty() {
        return Err(format!("{}: no position in the file", path.display()));
    }
    Ok(found)
}

/// The text of an openings file, which must be a regular file of at most [`MAX_BYTES`]: a FIFO
/// or a terminal would hold the read until someone writes to it, a device such as `/dev/zero`
/// never ends, and a huge file would fill memory.
fn read_text(path: &Path) -> Result<String, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let reading = |e: std::io::Error| format!("reading {}: {e}", path.display());
    // Looked at before it is opened (opening some devices does something), and again once
    // open, without waiting: a FIFO put in its place meanwhile opens at once, and is refused.
    regular_file(path, &std::fs::metadata(path).map_err(reading)?)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(reading)?;
    regular_file(path, &file.metadata().map_err(reading)?)?;
    let mut bytes = Vec::new();
    // One byte more than the bound: a file that grew since it was looked at is caught here.
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(reading)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(too_large(path, bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not text: byte {} is not UTF-8",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        )
    })
}

/// Whether `meta` is a regular file's, of at most [`MAX_BYTES`]; if not, what it is instead.
fn regular_file(path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    let what = if kind.is_file() {
        return match meta.len() {
            n if n > MAX_BYTES => Err(too_large(path, n)),
            _ => Ok(()),
        };
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (a named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Err(format!(
        "{} is {what}: openings are read from a regular file",
        path.display()
    ))
}

fn too_large(path: &Path, bytes: u64) -> String {
    format!(
        "{} has {bytes} bytes, more than an openings file may have ({} MiB)",
        path.display(),
        MAX_BYTES >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tictactoe() -> &'static GameInfo {
        super::super::find("tictactoe").unwrap()
    }

    #[test]
    fn a_file_is_read_with_its_line_numbers_in_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.txt");
        let game = tictactoe();
        let start =
            (game.positions.unwrap().random)(None, 0, &mut ChaCha8Rng::seed_from_u64(1)).unwrap();
        std::fs::write(&path, format!("# openings\n\n{start}\nnot a board\n")).unwrap();
        let e = read(game, &path).unwrap_err();
        assert!(e.starts_with(&format!("{}:4: ", path.display())), "{e}");
        std::fs::write(&path, format!("{start}\r\n{start}\n")).unwrap();
        assert_eq!(read(game, &path).unwrap(), [start.clone(), start]);
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(
            read(game, &path)
                .unwrap_err()
                .ends_with("no position in the file")
        );
        let roshambo = super::super::find("roshambo").unwrap();
        let e = read(roshambo, &path).unwrap_err();
        assert!(
            e.contains("roshambo has no positions") && e.contains("tictactoe"),
            "{e}"
        );
    }

    /// A FIFO, a directory or a device is refused without being read (a FIFO would wait for a
    /// writer, /dev/zero never end), and so is a file over the bound, before it is read.
    #[test]
    fn only_a_regular_file_within_the_bound_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let game = tictactoe();
        let fifo = dir.path().join("book.fifo");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let cases = [
            (fifo, "a FIFO (a named pipe)"),
            (dir.path().to_path_buf(), "a directory"),
            ("/dev/zero".into(), "a character device"),
        ];
        for (path, what) in cases {
            assert_eq!(
                read(game, &path).unwrap_err(),
                format!(
                    "{} is {what}: openings are read from a regular file",
                    path.display()
                )
            );
        }
        let big = dir.path().join("big.txt");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_BYTES + 1).unwrap();
        assert_eq!(
            read(game, &big).unwrap_err(),
            format!(
                "{} has 16777217 bytes, more than an openings file may have (16 MiB)",
                big.display()
            )
        );
        std::fs::write(&big, b"\xff\n").unwrap();
        assert_eq!(
            read(game, &big).unwrap_err(),
            format!("{}: not text: byte 1 is not UTF-8", big.display())
        );
    }

    #[test]
    fn random_plies_differ_by_pair_and_repeat_by_seed() {
        let game = tictactoe();
        let book = Book::new(game, None, Order::Sequential, 4, 7)
            .unwrap()
            .unwrap();
        let openings: Vec<String> = (0..6).map(|k| book.opening(k)).collect();
        let again = Book::new(game, None, Order::Sequential, 4, 7)
            .unwrap()
            .unwrap();
        assert_eq!(
            openings,
            (0..6).map(|k| again.opening(k)).collect::<Vec<_>>()
        );
        let distinct: std::collections::HashSet<_> = openings.iter().collect();
        assert!(distinct.len() > 1, "{openings:?}");
        assert!(
            Book::new(game, None, Order::Sequential, 0, 7)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn listed_positions_cycle_in_order_or_shuffled() {
        let game = tictactoe();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let listed: Vec<String> = (0..5)
            .map(|_| (game.positions.unwrap().random)(None, 3, &mut rng).unwrap())
            .collect();
        let book = Book::new(game, Some(listed.clone()), Order::Sequential, 0, 1)
            .unwrap()
            .unwrap();
        let played: Vec<String> = (0..10).map(|k| book.opening(k)).collect();
        assert_eq!(played[..5], listed[..]);
        assert_eq!(played[5..], listed[..]);
        let shuffled = Book::new(game, Some(listed.clone()), Order::Random, 0, 1)
            .unwrap()
            .unwrap();
        let mut once: Vec<String> = (0..5).map(|k| shuffled.opening(k)).collect();
        assert_ne!(once, listed, "shuffled (for this seed)");
        once.sort();
        let mut sorted = listed;
        sorted.sort();
        assert_eq!(once, sorted, "each position once per cycle");
    }
}

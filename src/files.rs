//! Files in a results folder, which may be forged: handed in by a student, published by a
//! ladder, or made ready by another user in a shared `/tmp` before arena writes there. arena
//! never follows a symbolic link in one. Read, a link would put a file from outside the folder
//! into a report that is published (`logs/game-00001.seat0.stderr -> /etc/shadow`); written, it
//! would let arena, run as root, overwrite any file (`logs/game-00001.jsonl -> /etc/passwd`).
//!
//! Every file of a folder is opened without blocking (`O_NONBLOCK`: a FIFO would wait for ever
//! for a writer) and must be a regular file (a FIFO or a device never ends), and is read with a
//! bound that no real run's file reaches (a forged 3 GiB file would fill the memory): `MOST_*`.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path};

use rustix::fs::{Mode, OFlags};

const MIB: u64 = 1024 * 1024;

/// The most of a `games.csv` that is read: a row is about 100 bytes (95 measured for two
/// players, 112 for four), so this is millions of games, beyond any run (a round-robin of 100
/// bots, 100 games per pairing, is 495,000).
pub const MOST_GAMES_CSV: u64 = 512 * MIB;
/// The most of a `run.json` or `merged.json` that is read: a few KiB, and with an openings file
/// of 100,000 positions or a ladder of a thousand nights, some MiB.
pub const MOST_RECORD: u64 = 64 * MIB;
/// The most of a game log that is read whole (by the report and `arena replay`): measured, 27
/// KiB a game of checkers, 130 KiB a Tron game of four, 220 KiB a Lines of Action game; a
/// referee program's game of 1,000 turns, each at its 64 KiB line bound, would be 64 MiB.
pub const MOST_LOG: u64 = 256 * MIB;

/// Open a file of a results folder for reading: neither the file nor the folder it is in (the
/// folder's `logs`) may be a symbolic link, and it must be a regular file (a FIFO would block
/// the report, a device would never end). The folder above is the user's to name, link or not.
pub fn open_log_file(path: &Path) -> io::Result<File> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other("not a file name"))?;
    let dir = rustix::fs::open(
        folder,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| match std::fs::symlink_metadata(folder) {
        // A link met with O_DIRECTORY says ENOTDIR, as a file would.
        Ok(m) if m.is_symlink() => linked(io::Error::from_raw_os_error(libc::ELOOP), "its folder"),
        _ => e.into(),
    })?;
    let fd = rustix::fs::openat(
        &dir,
        name,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| linked(e.into(), "it"))?;
    regular(File::from(fd))
}

/// `file`, if it is a regular file.
fn regular(file: File) -> io::Result<File> {
    match file.metadata()?.is_file() {
        true => Ok(file),
        false => Err(not_regular()),
    }
}

fn not_regular() -> io::Error {
    io::Error::other("not a regular file: arena reads only its own files in a results folder")
}

/// A file of a results folder's `logs`, whole (`open_log_file`), at most `MOST_LOG` bytes.
pub fn read_log_file(path: &Path) -> io::Result<Vec<u8>> {
    read_most(open_log_file(path)?, MOST_LOG)
}

/// A file kept in a results folder itself (`games.csv`, `run.json`), whole, never through a
/// link (`games.csv -> /elsewhere/games.csv` would pass another folder's games for its own),
/// and at most `most` bytes (`MOST_GAMES_CSV`, `MOST_RECORD`).
pub fn read_folder_file(path: &Path, most: u64) -> io::Result<Vec<u8>> {
    read_most(open(options().read(true), path)?, most)
}

/// A file the user names (`arena ratings FILE`, `arena replay LOG`), whole: links are the
/// user's to follow, but it must be a regular file (a FIFO would wait for ever for a writer)
/// of at most `most` bytes.
pub fn read_named_file(path: &Path, most: u64) -> io::Result<Vec<u8>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(
            "not a regular file (a FIFO, a device or a folder)",
        ));
    }
    read_most(file, most)
}

/// The whole of `file`, refused when it is larger than `most` bytes (as it says, or as it
/// grows while read).
fn read_most(file: File, most: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let too_large = || {
        io::Error::other(format!(
            "larger than {} MiB, more than any run writes there: not read",
            most / MIB
        ))
    };
    let len = file.metadata()?.len();
    if len > most {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(most + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > most {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Refused unless `path`, a folder given relative to `base` (a merged folder's shard, as its
/// `merged.json` lists it), holds no symbolic link on the way from `base`: each of its
/// folders is opened in turn without following one. An absolute path is refused too: a
/// merged folder's shards are where arena wrote them, relative to it.
pub fn no_link_below(base: &Path, path: &Path) -> io::Result<()> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let mut dir = rustix::fs::open(base, flags, Mode::empty())?;
    for part in path.components() {
        let name = match part {
            Component::CurDir => continue,
            // `..` is never a link: it is the folder above, as the kernel knows it.
            Component::ParentDir => Path::new(".."),
            Component::Normal(name) => Path::new(name),
            Component::RootDir | Component::Prefix(_) => {
                return Err(io::Error::other(
                    "an absolute path: a merged folder's shards are relative to it",
                ));
            }
        };
        dir = rustix::fs::openat(&dir, name, flags, Mode::empty()).map_err(|e| {
            let e = io::Error::from(e);
            match e.raw_os_error() {
                // A link met with O_DIRECTORY|O_NOFOLLOW says ENOTDIR, as a file would.
                Some(libc::ELOOP | libc::ENOTDIR) if is_link(&dir, name) => io::Error::other(
                    format!(
                        "{} is a symbolic link, which arena never follows in a results folder",
                        name.display()
                    ),
                ),
                _ => e,
            }
        })?;
    }
    Ok(())
}

fn is_link(dir: &rustix::fd::OwnedFd, name: &Path) -> bool {
    rustix::fs::statat(dir, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
        .is_ok_and(|s| rustix::fs::FileType::from_raw_mode(s.st_mode) == rustix::fs::FileType::Symlink)
}

/// Make a file of a results folder anew for writing: it is created, never opened (`O_EXCL`,
/// which no link passes), and whatever had its name (a stale file, or a link planted there) is
/// removed first. Returns the file and whether something had its name. (Created first and
/// removed only when that fails: most games find no file there, and pay no system call more.)
pub fn create_anew(path: &Path) -> io::Result<(File, bool)> {
    let create = || OpenOptions::new().write(true).create_new(true).open(path);
    match create() {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            std::fs::remove_file(path)?;
            Ok((create()?, true))
        }
        made => Ok((made?, false)),
    }
}

/// Options for opening a file of a results folder that is kept from run to run (`games.csv`,
/// `.lock`): never through a symbolic link, nor waiting on a FIFO (`open` refuses it).
pub fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    options
}

/// Open `path` with `options` (from `options()`), a link named in words; a regular file only.
pub fn open(options: &OpenOptions, path: &Path) -> io::Result<File> {
    match options.open(path) {
        Ok(file) => regular(file),
        // A FIFO opened for writing, without a reader, and without waiting for one.
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => Err(not_regular()),
        Err(e) => Err(linked(e, "it")),
    }
}

/// The error of an open that met a symbolic link (`what`: the file, or its folder), in words.
fn linked(e: io::Error, what: &str) -> io::Error {
    match e.raw_os_error() {
        Some(libc::ELOOP) => io::Error::other(format!(
            "{what} is a symbolic link, which arena never follows in a results folder"
        )),
        _ => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_never_followed_to_read_or_to_write() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "secret").unwrap();
        let logs = dir.path().join("logs");
        std::fs::create_dir(&logs).unwrap();
        let own = logs.join("game-1.jsonl");
        std::fs::write(&own, "log").unwrap();
        assert!(open_log_file(&own).is_ok());

        let link = logs.join("game-2.jsonl");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let e = open_log_file(&link).unwrap_err().to_string();
        assert_eq!(
            e,
            "it is a symbolic link, which arena never follows in a results folder"
        );
        let linked_logs = dir.path().join("linked");
        std::os::unix::fs::symlink(&logs, &linked_logs).unwrap();
        let e = open_log_file(&linked_logs.join("game-1.jsonl")).unwrap_err();
        assert!(
            e.to_string().starts_with("its folder is a symbolic link"),
            "{e}"
        );
        let e = open_log_file(&logs).unwrap_err();
        assert!(e.to_string().starts_with("not a regular file"), "{e}");
        // A FIFO is refused at once, not waited on for a writer.
        let fifo = logs.join("game-3.jsonl");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        let e = open_log_file(&fifo).unwrap_err();
        assert!(e.to_string().starts_with("not a regular file"), "{e}");

        // Written: the link goes, the file it pointed to stays as it was.
        let (_, existed) = create_anew(&link).unwrap();
        assert!(existed);
        assert!(!link.symlink_metadata().unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "secret");
        let kept = logs.join("games.csv");
        std::os::unix::fs::symlink(&outside, &kept).unwrap();
        let e = open(options().append(true), &kept).unwrap_err();
        assert!(e.to_string().starts_with("it is a symbolic link"), "{e}");
    }

    #[test]
    fn a_file_beyond_its_bound_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_folder_file(&path, 10).unwrap(), b"0123456789");
        let e = read_folder_file(&path, 9).unwrap_err().to_string();
        assert!(e.starts_with("larger than 0 MiB"), "{e}");
        // Sparse: 3 GiB said, no disk used, nothing read.
        File::create(&path).unwrap().set_len(3 << 30).unwrap();
        let e = read_folder_file(&path, MOST_GAMES_CSV).unwrap_err().to_string();
        assert!(e.starts_with("larger than 512 MiB"), "{e}");
        let e = read_named_file(&path, MOST_GAMES_CSV).unwrap_err().to_string();
        assert!(e.starts_with("larger than 512 MiB"), "{e}");
        let fifo = dir.path().join("run.json");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for e in [
            read_folder_file(&fifo, MOST_RECORD).unwrap_err(),
            read_named_file(&fifo, MOST_RECORD).unwrap_err(),
            open(options().append(true), &fifo).unwrap_err(),
        ] {
            assert!(e.to_string().starts_with("not a regular file"), "{e}");
        }
    }

    #[test]
    fn a_shard_path_is_followed_only_where_it_holds_no_link() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        for folder in ["merged", "shards/1", "private"] {
            std::fs::create_dir_all(base.join(folder)).unwrap();
        }
        std::os::unix::fs::symlink("../private", base.join("shards/2")).unwrap();
        let merged = base.join("merged");
        assert!(no_link_below(&merged, Path::new("../shards/1")).is_ok());
        assert!(no_link_below(&merged, Path::new("./../shards/../shards/1")).is_ok());
        let e = no_link_below(&merged, Path::new("../shards/2")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "2 is a symbolic link, which arena never follows in a results folder"
        );
        let e = no_link_below(&merged, &base.join("private")).unwrap_err();
        assert!(e.to_string().starts_with("an absolute path"), "{e}");
        let e = no_link_below(&merged, Path::new("../shards/3")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}

//! Files in a results folder, which may be forged: handed in by a student, published by a
//! ladder, or made ready by another user in a shared `/tmp` before arena writes there. arena
//! never follows a symbolic link in one. Read, a link would put a file from outside the folder
//! into a report that is published (`logs/game-00001.seat0.stderr -> /etc/shadow`); written, it
//! would let arena, run as root, overwrite any file (`logs/game-00001.jsonl -> /etc/passwd`).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use rustix::fs::{Mode, OFlags};

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
    let file = File::from(fd);
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(
            "not a regular file: arena reads only its own files in a results folder",
        ));
    }
    Ok(file)
}

/// A file of a results folder's `logs`, whole (`open_log_file`).
pub fn read_log_file(path: &Path) -> io::Result<Vec<u8>> {
    read_all(open_log_file(path)?)
}

/// A file kept in a results folder itself (`games.csv`, `run.json`), whole, never through a
/// link (`games.csv -> /elsewhere/games.csv` would pass another folder's games for its own).
pub fn read_folder_file(path: &Path) -> io::Result<Vec<u8>> {
    read_all(open(options().read(true), path)?)
}

fn read_all(mut file: File) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
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
/// `.lock`): never through a symbolic link.
pub fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.custom_flags(libc::O_NOFOLLOW);
    options
}

/// Open `path` with `options` (from `options()`), a link named in words.
pub fn open(options: &OpenOptions, path: &Path) -> io::Result<File> {
    options.open(path).map_err(|e| linked(e, "it"))
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
}

//! The results folder's disk: a run starts no game on a disk nearly full, and a write that fails
//! there is arena's failure, never a bot's.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Free space on the file system holding `dir`, in bytes, as an unprivileged user may use it.
pub fn free_bytes(dir: &Path) -> std::io::Result<u64> {
    let s = nix::sys::statvfs::statvfs(dir)?;
    Ok((s.blocks_available() as u64).saturating_mul(s.fragment_size() as u64))
}

/// Why no game may start, if the disk of `dir` has less than `min_mb` MiB free (0: no check).
/// A disk that cannot be asked is not held against the run: its writes will tell.
pub fn too_full(dir: &Path, min_mb: u64) -> Option<String> {
    if min_mb == 0 {
        return None;
    }
    let free = free_bytes(dir).ok()?;
    (free < min_mb.saturating_mul(MIB)).then(|| {
        format!(
            "only {} free on the disk of {}, less than min_free_mb = {min_mb} MiB",
            mib(free),
            dir.display()
        )
    })
}

const MIB: u64 = 1024 * 1024;

/// A size for people, in MiB with one decimal.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB as f64)
}

/// Whether arena failed for want of space (a full disk, or the user's quota).
pub fn is_full(e: &Error) -> bool {
    let Error::Io { source, .. } = e else {
        return false;
    };
    source
        .raw_os_error()
        .is_some_and(|n| n == nix::libc::ENOSPC || n == nix::libc::EDQUOT)
}

/// Whether arena failed at its limit on file size (`ulimit -f`): a write past it fails with
/// EFBIG (arena ignores SIGXFSZ), and the remedy is to raise it.
pub fn is_past_file_size(e: &Error) -> bool {
    matches!(e, Error::Io { source, .. } if source.raw_os_error() == Some(nix::libc::EFBIG))
}

/// Append rows to games.csv and wait for the disk. Rows cut short (a full disk) are cut off
/// again, so that a resume plays their games rather than finding half a line.
pub fn append_synced(file: &File, bytes: &[u8]) -> std::io::Result<()> {
    let len = file.metadata()?.len();
    let written = (&*file).write_all(bytes).and_then(|()| file.sync_data());
    if written.is_err() {
        let _ = file.set_len(len);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disk_is_too_full_below_the_threshold_only() {
        let dir = tempfile::tempdir().unwrap();
        let free = free_bytes(dir.path()).unwrap();
        assert!(free > 0);
        assert_eq!(too_full(dir.path(), 0), None);
        assert_eq!(too_full(dir.path(), 1), None);
        let why = too_full(dir.path(), free / MIB + 1).expect("too full");
        assert!(why.contains(&dir.path().display().to_string()), "{why}");
        assert!(why.contains("min_free_mb"), "{why}");
        let full = Error::Io {
            context: "writing".into(),
            source: std::io::Error::from_raw_os_error(nix::libc::ENOSPC),
        };
        assert!(is_full(&full));
        assert!(!is_full(&Error::io("writing")(std::io::Error::other("no"))));
    }

    /// A tmpfs of 1 MiB, unmounted when dropped.
    struct Tmpfs(tempfile::TempDir);

    impl Drop for Tmpfs {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount")
                .arg(self.0.path())
                .status();
        }
    }

    /// Rows that do not fit are not left half written. A full disk is a small tmpfs: root only.
    #[test]
    fn rows_cut_short_by_a_full_disk_are_cut_off() {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: mounting a small tmpfs needs root");
            return;
        }
        let disk = Tmpfs(tempfile::tempdir().unwrap());
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(disk.0.path())
            .status()
            .unwrap();
        assert!(mounted.success());
        let path = disk.0.path().join("games.csv");
        std::fs::write(&path, "id,round\n").unwrap();
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        // The rest of the disk taken, but for the page games.csv already has.
        {
            let mut filler = File::create(disk.0.path().join("filler")).unwrap();
            while filler.write_all(&[0; 4096]).is_ok() {}
        }
        let rows = "1,1\n".repeat(4096);
        let err = append_synced(&file, rows.as_bytes()).unwrap_err();
        drop(file);
        assert_eq!(err.raw_os_error(), Some(nix::libc::ENOSPC), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "id,round\n");
    }
}

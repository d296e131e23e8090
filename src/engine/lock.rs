//! One run per results folder: an exclusive `flock` on `.lock`, which the kernel releases when
//! the holder exits however it exits (even `kill -9`), so a stale lock never blocks cron.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::Path;

use nix::fcntl::{Flock, FlockArg};

use crate::error::{Error, Result};

pub struct Lock {
    _file: Flock<File>,
}

impl Lock {
    pub fn acquire(dir: &Path) -> Result<Lock> {
        let path = dir.join(".lock");
        let file = crate::files::open(
            crate::files::options()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
            &path,
        )
        .map_err(Error::io(format!("opening {}", path.display())))?;
        let mut locked = match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
            Ok(l) => l,
            Err((mut file, _)) => {
                // The holder writes who it is just after it takes the lock: a run that starts
                // in the same instant may find the file still empty, and looks again.
                let mut holder = String::new();
                for _ in 0..20 {
                    holder.clear();
                    let _ = file.rewind();
                    let _ = file.read_to_string(&mut holder);
                    if !holder.trim().is_empty() {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                let holder = match holder.trim() {
                    "" => "one starting at the same moment",
                    said => said,
                };
                return Err(Error::Busy(format!(
                    "{} is in use by another run: {holder}",
                    dir.display(),
                )));
            }
        };
        // Say who holds it, for the message a second run prints. Not synced: the lock is the
        // kernel's `flock`, gone with the run however it ends, and a second run reads the words
        // while the first holds it, from memory. A sync here waited for the disk at every run's
        // start (a new file in a new folder: 3.3 ms at the median, up to 49 ms; issue 45).
        let host = nix::unistd::gethostname()
            .map(|h| h.to_string_lossy().into_owned())
            .unwrap_or_default();
        let who = format!(
            "arena pid {} on {host}, started {}",
            std::process::id(),
            humantime::format_rfc3339_seconds(std::time::SystemTime::now())
        );
        let _ = locked.set_len(0);
        let _ = locked.rewind();
        let _ = locked.write_all(who.as_bytes());
        Ok(Lock { _file: locked })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder whose `.lock` another holds: taken with `flock` alone, its words written
    /// `after` that, or never.
    fn held(dir: &Path, after: Option<std::time::Duration>) -> std::thread::JoinHandle<()> {
        let file = File::create(dir.join(".lock")).unwrap();
        let mut locked = Flock::lock(file, FlockArg::LockExclusiveNonblock).unwrap();
        std::thread::spawn(move || {
            if let Some(after) = after {
                std::thread::sleep(after);
                locked.write_all(b"arena pid 1 on here").unwrap();
            }
            std::thread::sleep(std::time::Duration::from_millis(300));
        })
    }

    #[test]
    fn a_run_that_finds_the_holder_still_starting_waits_for_its_words_or_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let holder = held(dir.path(), Some(std::time::Duration::from_millis(20)));
        let Err(Error::Busy(said)) = Lock::acquire(dir.path()) else {
            panic!("taken while held");
        };
        assert!(said.ends_with("in use by another run: arena pid 1 on here"), "{said}");
        holder.join().unwrap();

        let dir = tempfile::tempdir().unwrap();
        let holder = held(dir.path(), None);
        let Err(Error::Busy(said)) = Lock::acquire(dir.path()) else {
            panic!("taken while held");
        };
        assert!(said.ends_with("in use by another run: one starting at the same moment"), "{said}");
        holder.join().unwrap();
    }
}

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
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(Error::Busy(format!(
                    "{} is in use by another run: {}",
                    dir.display(),
                    holder.trim()
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

//! The seat relay: what an SDK referee runs instead of a player. The SDK starts each `-pK`
//! command itself (split on single spaces, no shell), so arena hands it a command of its own,
//! `arena sdk-relay SOCKET`, that connects the SDK's pipes to arena over a Unix socket; arena
//! starts and holds the real bot as it holds every bot. The relay only copies bytes: it never
//! buffers, parses or times anything, so the SDK sees the bot's bytes as the bot wrote them.

use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

/// The hidden subcommand's name, as the SDK runs it.
pub const SUBCOMMAND: &str = "sdk-relay";

/// Copy the SDK's input to arena and arena's bytes (the bot's answers) back, until either side
/// closes. Returns the process's exit code.
pub fn run(socket: &Path) -> i32 {
    let stream = match UnixStream::connect(socket) {
        Ok(s) => s,
        Err(e) => {
            // On the referee's stderr, where arena quotes it from.
            eprintln!("arena sdk-relay: cannot reach arena at {}: {e}", socket.display());
            return 2;
        }
    };
    let (mut input, mut stdout) = match (unbuffered_stdin(), unbuffered_stdout()) {
        (Ok(i), Ok(o)) => (i, o),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("arena sdk-relay: {e}");
            return 2;
        }
    };
    let Ok(mut up) = stream.try_clone() else {
        return 2;
    };
    std::thread::spawn(move || {
        pass_on(&mut input, &mut up);
        // The SDK closed the player's input (the game is over for it): arena hears the end.
        let _ = up.shutdown(std::net::Shutdown::Write);
    });
    let mut down = stream;
    pass_on(&mut down, &mut stdout);
    0
}

/// Copy each read as soon as it is read. (`std::io::copy` may splice, which can hold bytes
/// from a socket until more come.)
fn pass_on(from: &mut impl Read, to: &mut impl Write) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match from.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => {
                if to.write_all(&buf[..n]).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// Standard input and output as plain files: what arena sends is written through at once, not
/// held back until a newline (an answer ended by `\r` alone is an answer to the SDK).
fn unbuffered_stdin() -> std::io::Result<std::fs::File> {
    Ok(std::io::stdin().as_fd().try_clone_to_owned()?.into())
}

fn unbuffered_stdout() -> std::io::Result<std::fs::File> {
    Ok(std::io::stdout().as_fd().try_clone_to_owned()?.into())
}

/// Where a game's relays meet arena: a private folder whose path has no space (the SDK splits
/// player commands on spaces), holding a link to arena's binary and one socket per seat.
pub struct Rendezvous {
    dir: tempfile::TempDir,
    exe: PathBuf,
}

impl Rendezvous {
    /// A new folder in the temporary folder (or `/tmp` when that path has a space).
    pub fn new() -> Result<Rendezvous, String> {
        let tmp = std::env::temp_dir();
        let base = match tmp.to_str() {
            Some(s) if !s.contains(' ') && !s.is_empty() => tmp,
            _ => PathBuf::from("/tmp"),
        };
        let dir = tempfile::Builder::new()
            .prefix("arena-sdk-")
            .tempdir_in(&base)
            .map_err(|e| format!("making a folder for the seat relays in {}: {e}", base.display()))?;
        let me = std::env::current_exe()
            .map_err(|e| format!("finding arena's own program for the seat relays: {e}"))?;
        // The binary's own path may have spaces; a link in the folder has none.
        let exe = dir.path().join("arena");
        std::os::unix::fs::symlink(&me, &exe)
            .map_err(|e| format!("linking arena's program for the seat relays: {e}"))?;
        Ok(Rendezvous { dir, exe })
    }

    /// The socket seat `index` (from 0) relays through.
    pub fn socket(&self, index: usize) -> PathBuf {
        self.dir.path().join(format!("seat{}", index + 1))
    }

    /// The command the SDK is given for seat `index`: no argument holds a space.
    pub fn command(&self, index: usize) -> String {
        format!(
            "{} {SUBCOMMAND} {}",
            self.exe.display(),
            self.socket(index).display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_commands_split_on_single_spaces_into_three_arguments() {
        let r = Rendezvous::new().unwrap();
        for i in 0..4 {
            let cmd = r.command(i);
            let parts: Vec<&str> = cmd.split(' ').collect();
            assert_eq!(parts.len(), 3, "{cmd}");
            assert_eq!(parts[1], SUBCOMMAND);
            assert!(parts.iter().all(|p| !p.is_empty()));
            assert_eq!(Path::new(parts[2]), r.socket(i));
        }
    }
}

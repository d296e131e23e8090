//! The seat relay: what an SDK referee runs instead of a player. The SDK starts each `-pK`
//! command itself (split on single spaces, no shell), so arena hands it a command of its own,
//! `arena sdk-relay SOCKET`, that gives arena the SDK's pipes over a Unix socket: its standard
//! input and output, passed as file descriptors (`SCM_RIGHTS`). arena then reads and writes the
//! referee's pipes itself, and starts and holds the real bot as it holds every bot. The relay
//! copies nothing: a turn's bytes go from the referee to arena to the bot and back, as with any
//! other referee, not through one more process each way. It closes its own copies of the pipes,
//! so that the referee sees the player's output end when arena closes it, and waits for arena to
//! close the socket, so that the player's process lives as long as the game. A referee that gives
//! its players something other than pipes (a socket pair, a terminal) gets the relay of old: it
//! says so and copies the bytes both ways over the socket.

use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

/// The hidden subcommand's name, as the SDK runs it.
pub const SUBCOMMAND: &str = "sdk-relay";

/// The relay's first byte: its pipes come with it.
const PIPES: u8 = b'P';
/// The relay's first byte: no descriptors; it copies the bytes itself.
const COPY: u8 = b'C';

/// Whether a descriptor is a pipe (a FIFO).
fn is_pipe(fd: RawFd) -> bool {
    // SAFETY: fstat writes into the struct given; an invalid descriptor is an error.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFIFO
    }
}

/// Hand arena this process's standard input and output, then wait until arena closes the
/// socket. Returns the process's exit code.
pub fn run(socket: &Path) -> i32 {
    let mut stream = match UnixStream::connect(socket) {
        Ok(s) => s,
        Err(e) => {
            // On the referee's stderr, where arena quotes it from.
            eprintln!("arena sdk-relay: cannot reach arena at {}: {e}", socket.display());
            return 2;
        }
    };
    if !(is_pipe(0) && is_pipe(1)) {
        return copy(stream);
    }
    if let Err(e) = send_fds(stream.as_raw_fd(), PIPES, &[0, 1]) {
        eprintln!("arena sdk-relay: cannot hand the player's pipes to arena: {e}");
        return 2;
    }
    // Only arena holds the pipes now: /dev/null in their place.
    // SAFETY: plain system calls on descriptors this process owns.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
        if null >= 0 {
            libc::dup2(null, 0);
            libc::dup2(null, 1);
            libc::close(null);
        } else {
            libc::close(0);
            libc::close(1);
        }
    }
    let mut buf = [0u8; 64];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return 0,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return 0,
        }
    }
}

/// The relay of old, for players that are not given pipes: copy the SDK's input to arena and
/// arena's bytes (the bot's answers) back, until either side closes.
fn copy(stream: UnixStream) -> i32 {
    if (&stream).write_all(&[COPY]).is_err() {
        return 2;
    }
    let as_file = |fd: std::os::fd::BorrowedFd| fd.try_clone_to_owned().map(std::fs::File::from);
    // Unbuffered: what arena sends is written through at once (an answer ended by `\r` alone is
    // an answer to the SDK).
    let (mut input, mut stdout) = match (
        as_file(std::io::stdin().as_fd()),
        as_file(std::io::stdout().as_fd()),
    ) {
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
    let mut buf = vec![0u8; 16 * 1024];
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

/// One byte, `kind`, with `fds` attached.
fn send_fds(socket: RawFd, kind: u8, fds: &[RawFd]) -> std::io::Result<()> {
    let byte = [kind; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_ptr() as *mut libc::c_void,
        iov_len: 1,
    };
    let data_len = std::mem::size_of_val(fds) as u32;
    // SAFETY: CMSG_SPACE only computes a size.
    let space = unsafe { libc::CMSG_SPACE(data_len) } as usize;
    let mut control = vec![0u64; space.div_ceil(8)];
    // SAFETY: the header points at live buffers of the sizes given; the control message is
    // written within `control`, which CMSG_SPACE sized for it.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        msg.msg_controllen = space as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(data_len) as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg) as *mut RawFd, fds.len());
        loop {
            if libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL) >= 0 {
                return Ok(());
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

/// One byte and the file descriptors that came with it (close-on-exec).
fn receive_fds(socket: RawFd) -> std::io::Result<(u8, Vec<OwnedFd>)> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr() as *mut libc::c_void,
        iov_len: 1,
    };
    let mut control = [0u64; 16];
    let mut fds = Vec::new();
    // SAFETY: the header points at live buffers of the sizes given; the kernel writes at most
    // msg_controllen bytes of control messages, read back through the CMSG macros within it.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr() as *mut libc::c_void;
        msg.msg_controllen = std::mem::size_of_val(&control) as _;
        let n = libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n < 0 {
            return Err(std::io::Error::last_os_error());
        }
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg) as *const RawFd;
                let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                for i in 0..count {
                    fds.push(OwnedFd::from_raw_fd(std::ptr::read_unaligned(data.add(i))));
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
        if n == 0 && fds.is_empty() {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
    }
    Ok((byte[0], fds))
}

/// What the relay that just connected handed over.
pub enum Handed {
    /// The referee's pipes to the player: what the referee writes the player, and where the
    /// player's answers go.
    Pipes(tokio::net::unix::pipe::Receiver, tokio::net::unix::pipe::Sender),
    /// Nothing: the relay copies the bytes over the socket itself.
    Copy,
}

/// The relay's first message.
pub fn poll_receive(
    stream: &tokio::net::UnixStream,
    cx: &mut std::task::Context<'_>,
) -> std::task::Poll<std::io::Result<Handed>> {
    use std::task::{Poll, ready};
    use tokio::io::Interest;
    let (kind, fds) = loop {
        ready!(stream.poll_read_ready(cx))?;
        match stream.try_io(Interest::READABLE, || receive_fds(stream.as_raw_fd())) {
            Ok(got) => break got,
            // Its readiness cleared: the next poll waits for it again.
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Poll::Ready(Err(e)),
        }
    };
    Poll::Ready(handed(kind, fds))
}

/// What the relay's first message, its kind and descriptors, hands over.
fn handed(kind: u8, mut fds: Vec<OwnedFd>) -> std::io::Result<Handed> {
    match (kind, fds.len()) {
        (COPY, 0) => Ok(Handed::Copy),
        (PIPES, 2) => {
            let output = fds.pop().expect("two");
            let input = fds.pop().expect("two");
            Ok(Handed::Pipes(
                tokio::net::unix::pipe::Receiver::from_owned_fd(input)?,
                tokio::net::unix::pipe::Sender::from_owned_fd(output)?,
            ))
        }
        (k, n) => Err(std::io::Error::other(format!(
            "the relay said {k} with {n} descriptors"
        ))),
    }
}

/// Where a game's relays meet arena: a private folder whose path has no space (the SDK splits
/// player commands on spaces), holding a link to arena's binary and one socket per seat.
pub struct Rendezvous {
    dir: tempfile::TempDir,
    exe: PathBuf,
}

impl Rendezvous {
    /// A new folder in arena's scratch folder, which the next start removes if this run is
    /// killed (or `/tmp` when that path has a space, or is too long for a socket's path, where
    /// a killed run leaves it).
    pub fn new() -> Result<Rendezvous, String> {
        // A socket's path holds 107 bytes at most (`sun_path`); the folder and a seat's socket
        // add this much to the base's.
        const ADDED: usize = "/arena-sdk-XXXXXX/seat9".len();
        let base = match crate::bot::scratch() {
            Ok(s) if s.to_str().is_some_and(|s| !s.contains(' ') && s.len() + ADDED <= 107) => {
                s.to_path_buf()
            }
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

//! The small files of /proc that arena reads about its bots (`stat`, `children`, `syscall`),
//! read for every bot at every look, so read cheaply and whatever bytes they hold.
//!
//! - Cheaply: the kernel gives their size as 0, so `std::fs::read_to_string` asks for it, then
//!   reads 32 bytes, 32 more, 64, 128...: eight system calls for a 300-byte `stat`. Here a page
//!   is asked for at once: an open, a read, the read that finds the end, a close.
//! - Whatever bytes: a process names itself (`prctl(PR_SET_NAME)`, its `comm`, which its
//!   children inherit) with any bytes, and `stat` quotes that name. A reader that insists on
//!   UTF-8 loses sight of such a process: its tree looks gone, so it is neither frozen nor
//!   killed. The bytes that are not UTF-8 become U+FFFD; arena only parses the numbers after the
//!   name's closing parenthesis.

use std::io::Read;
use std::path::Path;

/// One page: more than a `stat` line or a `syscall` line; a `children` list of hundreds of pids
/// takes a few more reads.
const FIRST_READ: usize = 4096;

/// The whole of a /proc file, as text.
pub fn read(path: impl AsRef<Path>) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut buf = vec![0u8; FIRST_READ];
    let mut len = 0;
    loop {
        if len == buf.len() {
            buf.resize(len * 2, 0);
        }
        match file.read(&mut buf[len..]) {
            Ok(0) => break,
            Ok(n) => len += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(len);
    Ok(match String::from_utf8(buf) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_process_stat_and_files_longer_than_the_first_read() {
        let stat = read("/proc/self/stat").unwrap();
        let (_, rest) = stat.rsplit_once(')').unwrap();
        let pid: u32 = stat.split_whitespace().next().unwrap().parse().unwrap();
        assert_eq!(pid, std::process::id());
        assert!(rest.split_whitespace().count() > 40, "{stat}");
        // Several pages, read whole.
        let maps = read("/proc/self/smaps").unwrap();
        assert!(maps.len() > FIRST_READ, "{}", maps.len());
    }

    #[test]
    fn bytes_that_are_not_utf8_do_not_hide_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stat");
        std::fs::write(&path, b"42 (\xff\xfe) S 1 42 42 0 -1\n").unwrap();
        let stat = read(&path).unwrap();
        let (_, rest) = stat.rsplit_once(')').unwrap();
        assert_eq!(rest.split_whitespace().nth(1), Some("1"));
        assert!(read(dir.path().join("gone")).is_err());
    }
}

//! Reading what a pipe holds without a buffer per pipe. A game holds several pipes for its whole
//! length (each bot's stderr, each SDK seat's input), most of them idle most of the time; a
//! buffer of its own for each was most of arena's memory per game (bench/sdk.sh, issue 43).
//! The read lands in one scratch buffer per thread and only the bytes read are kept. Games are
//! pinned to a thread each (`engine::threads`), and the buffer is borrowed only inside one
//! poll, so no two reads ever share it.

use std::cell::RefCell;
use std::pin::Pin;
use std::task::Poll;

use tokio::io::{AsyncRead, ReadBuf};

/// As large as a pipe's default capacity: one read takes all a pipe can hold.
const SCRATCH: usize = 64 * 1024;

thread_local! {
    static BUF: RefCell<Box<[u8]>> = RefCell::new(vec![0; SCRATCH].into_boxed_slice());
}

/// The next bytes `source` gives, as many as are there: empty at its end.
pub async fn read_chunk<R: AsyncRead + Unpin + ?Sized>(source: &mut R) -> std::io::Result<Vec<u8>> {
    std::future::poll_fn(|cx| {
        BUF.with_borrow_mut(|buf| {
            let mut read = ReadBuf::new(buf);
            match Pin::new(&mut *source).poll_read(cx, &mut read) {
                Poll::Ready(Ok(())) => Poll::Ready(Ok(read.filled().to_vec())),
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            }
        })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn gives_what_is_there_then_empty_at_the_end() {
        let (mut a, mut b) = tokio::io::duplex(1 << 20);
        let big = vec![7u8; 3 * SCRATCH];
        a.write_all(b"one line\n").await.unwrap();
        assert_eq!(read_chunk(&mut b).await.unwrap(), b"one line\n");
        a.write_all(&big).await.unwrap();
        drop(a);
        let mut got = Vec::new();
        loop {
            let chunk = read_chunk(&mut b).await.unwrap();
            if chunk.is_empty() {
                break;
            }
            assert!(chunk.len() <= SCRATCH);
            got.extend(chunk);
        }
        assert_eq!(got, big);
    }
}

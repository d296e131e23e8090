//! Reading what a pipe holds without a buffer per pipe. A game holds several pipes for its whole
//! length (each bot's output and stderr, each SDK seat's input), most of them idle most of the
//! time; a buffer of its own for each was most of arena's memory per game (bench/sdk.sh, issue
//! 43). The read lands in one scratch buffer per thread and only the bytes read are kept: whole
//! as a chunk (`read_chunk`), or, for a bot's frames (`FrameReader`), only the part of a frame
//! not yet ended. Games are pinned to a thread each (`engine::threads`), and the buffer is
//! borrowed only inside one poll, so no two reads ever share it.

use std::cell::RefCell;
use std::pin::Pin;
use std::task::Poll;

use futures_util::Stream;
use tokio::io::{AsyncRead, ReadBuf};
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, LinesCodecError};

use super::framing::FrameCodec;

/// As large as a pipe's default capacity: one read takes all a pipe can hold.
const SCRATCH: usize = 64 * 1024;

/// The most room a frame reader's spare buffer keeps for the next frame.
const SPARE: usize = 4 * 1024;

thread_local! {
    static BUF: RefCell<Box<[u8]>> = RefCell::new(vec![0; SCRATCH].into_boxed_slice());
    /// The room of a frame ended, for the next frame read on this thread: without it, each
    /// line cost two allocations and two frees more than with `FramedRead` (the room, and the
    /// header `BytesMut` makes to share it when a frame is split off).
    static SPARE_ROOM: RefCell<BytesMut> = RefCell::new(BytesMut::new());
}

/// Read what `source` has into the thread's scratch buffer and hand it to `take` (empty at the
/// end of `source`).
fn poll_read_with<R: AsyncRead + Unpin + ?Sized, T>(
    source: &mut R,
    cx: &mut std::task::Context<'_>,
    take: impl FnOnce(&[u8]) -> T,
) -> Poll<std::io::Result<T>> {
    BUF.with_borrow_mut(|buf| {
        let mut read = ReadBuf::new(buf);
        match Pin::new(&mut *source).poll_read(cx, &mut read) {
            Poll::Ready(Ok(())) => Poll::Ready(Ok(take(read.filled()))),
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => Poll::Pending,
        }
    })
}

/// The next bytes `source` gives, as many as are there: empty at its end.
pub async fn read_chunk<R: AsyncRead + Unpin + ?Sized>(source: &mut R) -> std::io::Result<Vec<u8>> {
    std::future::poll_fn(|cx| poll_read_chunk(source, cx)).await
}

/// `read_chunk`, for a caller that polls several sources itself.
pub fn poll_read_chunk<R: AsyncRead + Unpin + ?Sized>(
    source: &mut R,
    cx: &mut std::task::Context<'_>,
) -> Poll<std::io::Result<Vec<u8>>> {
    poll_read_with(source, cx, <[u8]>::to_vec)
}

/// A bot's output as frames (lines, or JSON values), as tokio-util's `FramedRead` gives them,
/// except that between frames it holds no memory: `FramedRead` kept a buffer for each bot of
/// each running game, waiting or not (bench/README.md, issue 43). Cancel-safe: bytes read stay
/// pending until their frame ends. After an error or the end it gives nothing more.
pub struct FrameReader {
    source: Box<dyn AsyncRead + Send + Unpin>,
    codec: FrameCodec,
    /// What was read of frames not yet ended; no room is held while it is empty.
    pending: BytesMut,
    ended: bool,
    done: bool,
}

impl FrameReader {
    pub fn new(source: Box<dyn AsyncRead + Send + Unpin>, codec: FrameCodec) -> Self {
        FrameReader {
            source,
            codec,
            pending: BytesMut::new(),
            ended: false,
            done: false,
        }
    }

    fn stop(&mut self) {
        self.done = true;
        self.pending = BytesMut::new();
    }

    /// No frame partly read: the room goes back to the thread's spare (if it has none, and
    /// the room is not that of a frame far longer than most).
    fn give_back(&mut self) {
        let room = std::mem::take(&mut self.pending);
        if room.capacity() <= SPARE {
            SPARE_ROOM.with_borrow_mut(|spare| {
                if spare.capacity() == 0 {
                    *spare = room;
                }
            });
        }
    }
}

impl Stream for FrameReader {
    type Item = Result<String, LinesCodecError>;

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if this.done {
                return Poll::Ready(None);
            }
            if !this.pending.is_empty() || this.ended {
                let frame = match this.ended {
                    true => this.codec.decode_eof(&mut this.pending),
                    false => this.codec.decode(&mut this.pending),
                };
                match frame {
                    Ok(Some(frame)) => {
                        if this.pending.is_empty() {
                            this.give_back();
                        }
                        return Poll::Ready(Some(Ok(frame)));
                    }
                    Ok(None) if this.ended => {
                        this.stop();
                        return Poll::Ready(None);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        this.stop();
                        return Poll::Ready(Some(Err(e)));
                    }
                }
            }
            let pending = &mut this.pending;
            let read = poll_read_with(&mut this.source, cx, |bytes| {
                // Taken only once there are bytes: a reader waiting holds no room.
                if pending.capacity() == 0 && !bytes.is_empty() {
                    *pending = SPARE_ROOM.with_borrow_mut(std::mem::take);
                }
                pending.extend_from_slice(bytes);
                bytes.is_empty()
            });
            match read {
                Poll::Ready(Ok(end)) => this.ended = end,
                Poll::Ready(Err(e)) => {
                    this.stop();
                    return Poll::Ready(Some(Err(LinesCodecError::Io(e))));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
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

    fn reader(framing: crate::failure::Framing, max: usize) -> (tokio::io::DuplexStream, FrameReader) {
        let (a, b) = tokio::io::duplex(1 << 20);
        (a, FrameReader::new(Box::new(b), FrameCodec::new(framing, max)))
    }

    #[tokio::test]
    async fn frames_come_whole_however_the_bytes_arrive_and_no_room_is_held_between_them() {
        use futures_util::StreamExt;
        let (mut a, mut frames) = reader(crate::failure::Framing::Lines, 100);
        a.write_all(b"one\ntwo\nthr").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "one");
        assert_eq!(frames.next().await.unwrap().unwrap(), "two");
        // "thr" is pending: a read for the rest is under way.
        assert!(futures_util::FutureExt::now_or_never(frames.next()).is_none());
        assert_eq!(&frames.pending[..], b"thr");
        a.write_all(b"ee\r\n").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "three");
        assert_eq!(frames.pending.capacity(), 0, "a reader between frames holds no buffer");
        // Its room is the thread's, for the next frame read here.
        assert!(SPARE_ROOM.with_borrow(BytesMut::capacity) > 0);
        // The last line without its newline, at the end, as FramedRead gives it.
        a.write_all(b"last").await.unwrap();
        drop(a);
        assert_eq!(frames.next().await.unwrap().unwrap(), "last");
        assert!(frames.next().await.is_none());
        assert!(frames.next().await.is_none());
    }

    #[tokio::test]
    async fn a_frame_past_the_limit_is_an_error_and_then_nothing_more() {
        use futures_util::StreamExt;
        let (mut a, mut frames) = reader(crate::failure::Framing::Lines, 8);
        a.write_all(b"ok\n0123456789abcdef\nmore\n").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "ok");
        assert!(matches!(
            frames.next().await,
            Some(Err(LinesCodecError::MaxLineLengthExceeded))
        ));
        assert!(frames.next().await.is_none());
        assert_eq!(frames.pending.capacity(), 0);
    }

    #[tokio::test]
    async fn json_values_without_newlines_and_sdk_line_ends_are_cut_as_their_codecs_say() {
        use futures_util::StreamExt;
        let (mut a, mut frames) = reader(crate::failure::Framing::Json, 100);
        a.write_all(b"{\"a\":[1,").await.unwrap();
        assert!(futures_util::FutureExt::now_or_never(frames.next()).is_none());
        a.write_all(b"2]}{\"b\":2}").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "{\"a\":[1,2]}");
        assert_eq!(frames.next().await.unwrap().unwrap(), "{\"b\":2}");
        assert_eq!(frames.pending.capacity(), 0);

        let (mut a, mut frames) = reader(crate::failure::Framing::AnyLineEnd, 100);
        a.write_all(b"x\r").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "x");
        a.write_all(b"\ny\rz").await.unwrap();
        assert_eq!(frames.next().await.unwrap().unwrap(), "y");
        drop(a);
        // A last line without its end is no answer: the SDK waits for the end.
        assert!(frames.next().await.is_none());
    }
}

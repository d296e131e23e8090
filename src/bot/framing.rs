//! How a bot's output is cut into the "lines" a game receives.
//!
//! Most games read newline-terminated lines ([`Framing::Lines`], tokio-util's `LinesCodec`). The
//! JSON games ([`Framing::Json`]) also take a JSON object or array that no newline follows, as the
//! adversarial game server did: it read one object per receive, and its own clients never wrote
//! a newline. Either way a frame is bounded by the same length limit, and the move deadline
//! bounds the wait for it.
//!
//! The JSON framing, from the first byte that is not whitespace:
//! - `{` or `[` starts a JSON value. It ends where its brackets balance (strings and escapes
//!   followed), and that text, checked by serde_json, is the frame, whatever follows it: a
//!   newline, another value in the same write, or nothing. Whitespace around values is skipped.
//! - A newline before the brackets balance ends the frame as it ends a line: a value is sent on
//!   one line, or without a newline, as before (a truncated line still arrives at once).
//! - What serde_json refuses is still handed over, as a line, for the game to refuse with its own
//!   words ("Player 1 submitted ill-formed json"): the balanced text and the rest of its line if
//!   the newline is in, else the balanced text alone.
//! - Anything else (a bare number or string, plain text) is a line: up to its newline, or to the
//!   end of the output.
//!
//! A frame longer than the limit is refused as a too-long line is, as soon as it passes the
//! limit. Scanning is incremental: each byte is looked at once, and serde_json checks a frame
//! only when its brackets balance, so a bot dribbling bytes costs no more than one sending them
//! at once.

use serde::de::IgnoredAny;
use tokio_util::bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, LinesCodec, LinesCodecError};

pub use crate::failure::Framing;

/// The decoder of a bot's output: lines or JSON values, with `LinesCodec`'s errors.
#[derive(Debug)]
pub enum FrameCodec {
    Lines(LinesCodec),
    Json(JsonCodec),
    AnyLineEnd(AnyLineEndCodec),
}

impl FrameCodec {
    pub fn new(framing: Framing, max_length: usize) -> Self {
        match framing {
            Framing::Lines => FrameCodec::Lines(LinesCodec::new_with_max_length(max_length)),
            Framing::Json => FrameCodec::Json(JsonCodec::new(max_length)),
            Framing::AnyLineEnd => FrameCodec::AnyLineEnd(AnyLineEndCodec {
                max_length,
                after_cr: false,
            }),
        }
    }
}

impl Decoder for FrameCodec {
    type Item = String;
    type Error = LinesCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        match self {
            FrameCodec::Lines(c) => c.decode(buf),
            FrameCodec::Json(c) => c.decode(buf),
            FrameCodec::AnyLineEnd(c) => c.decode(buf),
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        match self {
            FrameCodec::Lines(c) => c.decode_eof(buf),
            FrameCodec::Json(c) => c.decode_eof(buf),
            FrameCodec::AnyLineEnd(c) => match c.decode(buf)? {
                Some(line) => Ok(Some(line)),
                // A last line without its end is no answer: the SDK waits for the end.
                None => Ok(None),
            },
        }
    }
}

/// Lines ended by `\n`, `\r` or `\r\n`, the `\n` of a `\r\n` skipped even when it comes in a
/// later read.
#[derive(Debug)]
pub struct AnyLineEndCodec {
    max_length: usize,
    after_cr: bool,
}

impl Decoder for AnyLineEndCodec {
    type Item = String;
    type Error = LinesCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        if self.after_cr && !buf.is_empty() {
            self.after_cr = false;
            if buf[0] == b'\n' {
                buf.advance(1);
            }
        }
        let Some(end) = buf.iter().position(|&b| b == b'\n' || b == b'\r') else {
            if buf.len() > self.max_length {
                return Err(LinesCodecError::MaxLineLengthExceeded);
            }
            return Ok(None);
        };
        if end > self.max_length {
            return Err(LinesCodecError::MaxLineLengthExceeded);
        }
        self.after_cr = buf[end] == b'\r';
        let line = buf.split_to(end);
        buf.advance(1);
        text(&line).map(Some)
    }
}

/// Where the scan of the frame at the start of the buffer stands.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
enum Scan {
    /// No frame begun: skipping whitespace.
    #[default]
    Idle,
    /// A line (not a JSON container): looking for its newline from `at`.
    Line { at: usize },
    /// A JSON container: bytes before `at` are scanned.
    Value {
        at: usize,
        depth: usize,
        in_string: bool,
        escaped: bool,
    },
}

/// Decodes JSON values with or without a newline after them; see the module's comment.
#[derive(Debug)]
pub struct JsonCodec {
    max_length: usize,
    scan: Scan,
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Whether `text` is one JSON value and nothing else.
fn is_json(text: &[u8]) -> bool {
    let mut values = serde_json::Deserializer::from_slice(text).into_iter::<IgnoredAny>();
    matches!(values.next(), Some(Ok(_)))
        && text[values.byte_offset()..].iter().all(|&b| is_space(b))
}

/// The text of `bytes`, without a line's `\r`; not UTF-8 is the error `LinesCodec` gives.
fn text(bytes: &[u8]) -> Result<String, LinesCodecError> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8(bytes.to_vec()).map_err(|_| {
        LinesCodecError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not valid UTF-8",
        ))
    })
}

impl JsonCodec {
    pub fn new(max_length: usize) -> Self {
        JsonCodec {
            max_length,
            scan: Scan::Idle,
        }
    }

    /// Hand over `buf[..len]` and drop it and `skip` more bytes (a newline) from the buffer.
    fn take(
        &mut self,
        buf: &mut BytesMut,
        len: usize,
        skip: usize,
    ) -> Result<String, LinesCodecError> {
        let frame = buf.split_to(len);
        buf.advance(skip);
        self.scan = Scan::Idle;
        text(&frame)
    }

    fn too_long(&mut self, buf: &mut BytesMut) -> LinesCodecError {
        buf.clear();
        self.scan = Scan::Idle;
        LinesCodecError::MaxLineLengthExceeded
    }

    fn newline_from(buf: &[u8], at: usize) -> Option<usize> {
        buf[at..].iter().position(|&b| b == b'\n').map(|i| at + i)
    }
}

impl Decoder for JsonCodec {
    type Item = String;
    type Error = LinesCodecError;

    fn decode(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        if self.scan == Scan::Idle {
            let spaces = buf.iter().take_while(|&&b| is_space(b)).count();
            buf.advance(spaces);
            self.scan = match buf.first() {
                None => return Ok(None),
                Some(b'{' | b'[') => Scan::Value {
                    at: 0,
                    depth: 0,
                    in_string: false,
                    escaped: false,
                },
                Some(_) => Scan::Line { at: 0 },
            };
        }
        match self.scan {
            Scan::Idle => unreachable!("a frame has begun"),
            Scan::Line { at } => match Self::newline_from(buf, at) {
                Some(nl) if nl > self.max_length => Err(self.too_long(buf)),
                Some(nl) => self.take(buf, nl, 1).map(Some),
                None if buf.len() > self.max_length => Err(self.too_long(buf)),
                None => {
                    self.scan = Scan::Line { at: buf.len() };
                    Ok(None)
                }
            },
            Scan::Value {
                mut at,
                mut depth,
                mut in_string,
                mut escaped,
            } => {
                while at < buf.len() {
                    let b = buf[at];
                    at += 1;
                    if at > self.max_length {
                        return Err(self.too_long(buf));
                    }
                    if in_string {
                        match (escaped, b) {
                            (true, _) => escaped = false,
                            (false, b'\\') => escaped = true,
                            (false, b'"') => in_string = false,
                            _ => {}
                        }
                        // A raw newline inside a string is not JSON: it ends the line below.
                        if b != b'\n' {
                            continue;
                        }
                    }
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                let end = at;
                                if is_json(&buf[..end]) {
                                    return self.take(buf, end, 0).map(Some);
                                }
                                // Not JSON: the rest of its line, if the line is in.
                                return match Self::newline_from(buf, end) {
                                    Some(nl) if nl <= self.max_length => {
                                        self.take(buf, nl, 1).map(Some)
                                    }
                                    _ => self.take(buf, end, 0).map(Some),
                                };
                            }
                        }
                        // A newline ends the frame as it ends a line: a value is on one
                        // line, or has no newline after it.
                        b'\n' => return self.take(buf, at - 1, 1).map(Some),
                        _ => {}
                    }
                }
                self.scan = Scan::Value {
                    at,
                    depth,
                    in_string,
                    escaped,
                };
                Ok(None)
            }
        }
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> Result<Option<String>, LinesCodecError> {
        if let Some(frame) = self.decode(buf)? {
            return Ok(Some(frame));
        }
        if buf.is_empty() {
            self.scan = Scan::Idle;
            return Ok(None);
        }
        // The output ended inside a frame: what there is, as a last line.
        let len = buf.len();
        self.take(buf, len, 0).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feed `chunks` one after the other (as separate reads), then the end of the output;
    /// collect the frames or the first error.
    fn frames(max: usize, chunks: &[&str]) -> Result<Vec<String>, String> {
        let mut codec = FrameCodec::new(Framing::Json, max);
        let mut buf = BytesMut::new();
        let mut out = Vec::new();
        let err = |e: LinesCodecError| match e {
            LinesCodecError::MaxLineLengthExceeded => "too long".to_string(),
            LinesCodecError::Io(e) => format!("io: {e}"),
        };
        for chunk in chunks {
            buf.extend_from_slice(chunk.as_bytes());
            while let Some(f) = codec.decode(&mut buf).map_err(err)? {
                out.push(f);
            }
        }
        while let Some(f) = codec.decode_eof(&mut buf).map_err(err)? {
            out.push(f);
        }
        Ok(out)
    }

    /// Frames available before the output ends (what a bot that keeps its output open gets).
    fn before_eof(max: usize, chunks: &[&str]) -> Vec<String> {
        let mut codec = JsonCodec::new(max);
        let mut buf = BytesMut::new();
        let mut out = Vec::new();
        for chunk in chunks {
            buf.extend_from_slice(chunk.as_bytes());
            while let Some(f) = codec.decode(&mut buf).unwrap() {
                out.push(f);
            }
        }
        out
    }

    #[test]
    fn an_object_without_a_newline_is_a_frame_at_once() {
        let one = r#"{"token": "ab}c", "move": [21, 28]}"#;
        assert_eq!(before_eof(1000, &[one]), vec![one]);
        // Cut anywhere, the same frame once the last byte is in.
        for cut in 1..one.len() {
            let (a, b) = one.split_at(cut);
            assert_eq!(before_eof(1000, &[a]), Vec::<String>::new(), "cut at {cut}");
            assert_eq!(before_eof(1000, &[a, b]), vec![one], "cut at {cut}");
        }
    }

    #[test]
    fn newlines_whitespace_and_several_values_in_one_write() {
        let got = before_eof(
            1000,
            &[
                "  {\"a\": 1}\n\r\n{\"b\": \"x\\\"}\"}{\"c\":[1,{\"d\":2}]}  [3]\n",
                "\n {\"e\"",
                ": 4}",
            ],
        );
        assert_eq!(
            got,
            vec![
                r#"{"a": 1}"#,
                r#"{"b": "x\"}"}"#,
                r#"{"c":[1,{"d":2}]}"#,
                "[3]",
                r#"{"e": 4}"#
            ]
        );
        // Windows line ends.
        assert_eq!(
            before_eof(1000, &["{\"a\": 1}\r\n[2]\r\nx\r\n"]),
            vec!["{\"a\": 1}", "[2]", "x"]
        );
    }

    #[test]
    fn what_is_not_json_still_arrives_as_a_line() {
        // Not a container: a line, up to its newline.
        assert_eq!(
            before_eof(1000, &["hello there\n", "42\n"]),
            vec!["hello there", "42"]
        );
        assert_eq!(before_eof(1000, &["hello"]), Vec::<String>::new());
        // Python's repr instead of JSON, no newline: the balanced text, at once.
        assert_eq!(before_eof(1000, &["{'move': 3}"]), vec!["{'move': 3}"]);
        // Broken JSON with a newline: up to the newline, without waiting for brackets.
        assert_eq!(
            before_eof(1000, &["{\"move\": oops\n"]),
            vec!["{\"move\": oops"]
        );
        assert_eq!(
            frames(1000, &["{\"move\": 3\n", "}"]).unwrap(),
            vec!["{\"move\": 3", "}"]
        );
        assert_eq!(
            before_eof(1000, &["{\"move\": \"a\nb\"}\n"]),
            vec!["{\"move\": \"a", "b\"}"]
        );
        // A valid start then garbage on the same line: the whole line.
        assert_eq!(
            before_eof(1000, &["{\"a\": 1 2} x\n{}"]),
            vec!["{\"a\": 1 2} x", "{}"]
        );
        // At the end of the output, whatever is left.
        assert_eq!(
            frames(1000, &["{\"move\": 3", ""]).unwrap(),
            vec!["{\"move\": 3"]
        );
        assert_eq!(frames(1000, &["bye"]).unwrap(), vec!["bye"]);
        assert_eq!(frames(1000, &["  \n "]).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn a_frame_longer_than_the_limit_is_refused_early() {
        let flood = format!("{{\"move\": \"{}", "a".repeat(100));
        assert_eq!(frames(50, &[&flood]).unwrap_err(), "too long");
        assert_eq!(frames(50, &[&"[".repeat(51)]).unwrap_err(), "too long");
        assert_eq!(frames(50, &[&"x".repeat(51)]).unwrap_err(), "too long");
        // Exactly at the limit is fine, as for lines.
        let fits = format!("{{\"a\":\"{}\"}}", "b".repeat(42));
        assert_eq!(fits.len(), 50);
        assert_eq!(frames(50, &[&fits]).unwrap(), vec![fits.clone()]);
        // Whitespace between values does not count.
        let spaced = format!("{}{fits}{}{fits}", " ".repeat(200), "\n".repeat(200));
        assert_eq!(frames(50, &[&spaced]).unwrap(), vec![fits.clone(), fits]);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_the_lines_codecs_error() {
        let mut codec = FrameCodec::new(Framing::Json, 100);
        let mut buf = BytesMut::from(&b"{\"a\": \"\xff\"}"[..]);
        match codec.decode(&mut buf) {
            Err(LinesCodecError::Io(e)) => assert_eq!(e.kind(), std::io::ErrorKind::InvalidData),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn any_line_end_takes_cr_lf_and_crlf_split_across_reads() {
        let mut codec = FrameCodec::new(Framing::AnyLineEnd, 100);
        let mut buf = BytesMut::from("a\rb\nc\r");
        let mut got = Vec::new();
        while let Some(l) = codec.decode(&mut buf).unwrap() {
            got.push(l);
        }
        buf.extend_from_slice(b"\nd\r\ne");
        while let Some(l) = codec.decode(&mut buf).unwrap() {
            got.push(l);
        }
        assert_eq!(got, ["a", "b", "c", "d"]);
        assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
        let mut long = BytesMut::from(&"x".repeat(101)[..]);
        assert!(codec.decode(&mut long).is_err());
    }

    #[test]
    fn lines_framing_is_the_lines_codec() {
        let mut codec = FrameCodec::new(Framing::Lines, 100);
        let mut buf = BytesMut::from("{\"a\": 1}");
        assert_eq!(codec.decode(&mut buf).unwrap(), None);
        buf.extend_from_slice(b"\n");
        assert_eq!(
            codec.decode(&mut buf).unwrap().as_deref(),
            Some("{\"a\": 1}")
        );
    }
}

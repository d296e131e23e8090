//! The seats' relays as the game's loop hears them: each seat's socket listened on, its relay's
//! first message (the referee's pipes to the player, or nothing when it copies), then what the
//! referee writes to the player, the relay's end, and any second relay of the same seat.
//!
//! Polled by the game's own loop, not run as a task per seat with a channel to the loop: a
//! running game holds its links for its whole length, and a task and a channel cost each game
//! about 4 KiB (docs/design.md, Memory; issue 43). What the loop has not taken yet waits in the
//! pipes and sockets themselves, so a referee that writes faster than a bot reads is held back,
//! not buffered in arena.

use std::task::{Context, Poll, ready};

use futures_util::FutureExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{UnixListener, UnixStream};

use super::relay::{self, Handed};
use crate::bot::chunk::poll_read_chunk;
use crate::games::Seat;

/// What a seat's relay did.
pub enum Relayed {
    /// The relay connected: where the bot's answers go (its standard output, or the socket).
    Connected(Seat, RelayWriter),
    /// Bytes the referee wrote to the player.
    Input(Seat, Vec<u8>),
    /// The referee closed the player's input.
    Ended(Seat),
    /// The relay's process ended (or it never handed its pipes over): its pipes are closed, as
    /// a player's are when it dies.
    Died(Seat),
    /// Another process ran the seat's relay command again.
    Again(Seat),
}

/// Where a seat's answers go: the referee's pipe, or the relay's socket.
pub type RelayWriter = Box<dyn AsyncWrite + Send + Unpin>;

/// Every seat's link, in seat order.
pub struct Links {
    links: Vec<Link>,
    /// The seat polled first next time, so that a seat that is always ready starves no other.
    first: usize,
}

struct Link {
    /// Open until the link is over, or a second relay of the seat has connected (reported, and
    /// refused, as any later one is).
    listener: Option<UnixListener>,
    state: State,
}

enum State {
    /// No relay has connected yet.
    Listening,
    /// The relay connected; its first message is not in yet.
    Greeting(UnixStream),
    /// Passing on what the referee writes. With the referee's pipes handed over, the socket
    /// (`watch`) stays open only to tell the relay's death; copying, the socket is the bytes'
    /// way (`read` and the writer), and its end is the relay's.
    Relaying {
        read: Box<dyn AsyncRead + Send + Unpin>,
        watch: Option<UnixStream>,
        input_open: bool,
    },
    /// Nothing more will come from this seat, and its socket is closed.
    Over,
}

impl Links {
    /// The links of sockets already listened on, one a seat, before the referee starts.
    pub fn new(listeners: Vec<UnixListener>) -> Links {
        Links {
            links: listeners
                .into_iter()
                .map(|l| Link {
                    listener: Some(l),
                    state: State::Listening,
                })
                .collect(),
            first: 0,
        }
    }

    /// What the next seat's relay did; `None` once every link is over.
    pub async fn next(&mut self) -> Option<Relayed> {
        std::future::poll_fn(|cx| self.poll_next(cx, true)).await
    }

    /// What the relays did that is already known, except input: the referee has ended, and
    /// what it wrote last no longer matters, but who was run does. Only what is there: a
    /// referee's leftover process may go on writing.
    pub fn settled(&mut self) -> Option<Relayed> {
        std::future::poll_fn(|cx| self.poll_next(cx, false))
            .now_or_never()
            .flatten()
    }

    fn poll_next(&mut self, cx: &mut Context<'_>, inputs: bool) -> Poll<Option<Relayed>> {
        let n = self.links.len();
        for k in 0..n {
            let i = (self.first + k) % n;
            let seat = Seat::new(i).expect("seat");
            if let Poll::Ready(what) = self.links[i].poll(seat, cx, inputs) {
                self.first = (i + 1) % n;
                return Poll::Ready(Some(what));
            }
        }
        if self.links.iter().all(|l| matches!(l.state, State::Over)) {
            return Poll::Ready(None);
        }
        Poll::Pending
    }
}

impl Link {
    fn poll(&mut self, seat: Seat, cx: &mut Context<'_>, inputs: bool) -> Poll<Relayed> {
        loop {
            match &mut self.state {
                State::Over => return Poll::Pending,
                State::Listening => {
                    let listener = self.listener.as_ref().expect("a link not over listens");
                    match ready!(listener.poll_accept(cx)) {
                        Ok((stream, _)) => self.state = State::Greeting(stream),
                        // The seat's relay is never heard: the referee finds its player gone.
                        Err(_) => self.end(),
                    }
                }
                State::Greeting(stream) => {
                    let handed = ready!(relay::poll_receive(stream, cx));
                    let State::Greeting(stream) = std::mem::replace(&mut self.state, State::Over)
                    else {
                        unreachable!("greeting")
                    };
                    let (read, write, watch): (Box<dyn AsyncRead + Send + Unpin>, RelayWriter, _) =
                        match handed {
                            Ok(Handed::Pipes(read, write)) => {
                                (Box::new(read), Box::new(write), Some(stream))
                            }
                            Ok(Handed::Copy) => {
                                let (read, write) = stream.into_split();
                                (Box::new(read), Box::new(write), None)
                            }
                            Err(_) => {
                                self.end();
                                return Poll::Ready(Relayed::Died(seat));
                            }
                        };
                    self.state = State::Relaying {
                        read,
                        watch,
                        input_open: true,
                    };
                    return Poll::Ready(Relayed::Connected(seat, write));
                }
                State::Relaying {
                    read,
                    watch,
                    input_open,
                } => {
                    if *input_open
                        && inputs
                        && let Poll::Ready(got) = poll_read_chunk(read, cx)
                    {
                        return Poll::Ready(match got {
                            Ok(k) if !k.is_empty() => Relayed::Input(seat, k),
                            // Its end or an error, the same to the seat. Copying, that is the
                            // socket's: the referee closed the input, or the relay ended.
                            _ if watch.is_none() => {
                                self.end();
                                Relayed::Ended(seat)
                            }
                            _ => {
                                *input_open = false;
                                Relayed::Ended(seat)
                            }
                        });
                    }
                    // Said once: the game is the referee's failure already, and a process that
                    // kept connecting would keep the loop busy.
                    if let Some(listener) = &self.listener
                        && let Poll::Ready(Ok((other, _))) = listener.poll_accept(cx)
                    {
                        drop(other);
                        self.listener = None;
                        return Poll::Ready(Relayed::Again(seat));
                    }
                    // The relay writes nothing on the socket: readable, it has ended.
                    if let Some(socket) = watch {
                        while socket.poll_read_ready(cx).is_ready() {
                            match socket.try_read(&mut [0u8; 1]) {
                                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                                _ => {
                                    self.end();
                                    return Poll::Ready(Relayed::Died(seat));
                                }
                            }
                        }
                    }
                    return Poll::Pending;
                }
            }
        }
    }

    /// Its socket, pipes and listener closed: the referee's writes to the player now fail, as
    /// to a dead one, and a second relay of the seat finds no one.
    fn end(&mut self) {
        self.state = State::Over;
        self.listener = None;
    }
}

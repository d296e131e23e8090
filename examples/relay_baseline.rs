//! Minimal roshambo relay: the floor any referee must pay.
//!
//! Usage: `relay_baseline BOT_CMD ROUNDS [GAMES [JOBS]]`
//!
//! Plays GAMES games (default 1), JOBS at a time on as many threads (default 1). For each game it
//! spawns `BOT_CMD` twice (as players "a" and "b") with piped stdin/stdout,
//! sends each the three header lines (own name, opponent name, rounds), then
//! for every round reads one line from each bot and writes each bot the
//! other's line. No validation, no timeouts, no scoring, no logging: the
//! least work a referee can do. At the end both stdins are closed and both
//! bots are waited for. Exits non-zero if a bot misbehaves (EOF early or a
//! non-zero exit status). Prints nothing on success.
//!
//! Used by `benches/relay.rs` as the baseline for `arena duel`, and by `benches/throughput.rs`
//! (many one-round games at once) as the baseline for `arena run`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio, exit};
use std::sync::atomic::{AtomicU64, Ordering};

struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

fn spawn(cmd: &str) -> Bot {
    let mut child = Command::new(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap_or_else(|e| die(&format!("cannot spawn {cmd}: {e}")));
    let stdin = child.stdin.take();
    let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    Bot {
        child,
        stdin,
        stdout,
    }
}

fn die(msg: &str) -> ! {
    eprintln!("relay_baseline: {msg}");
    exit(1)
}

fn send(bot: &mut Bot, who: &str, data: &[u8]) {
    let w = bot.stdin.as_mut().expect("stdin open");
    if let Err(e) = w.write_all(data).and_then(|_| w.flush()) {
        die(&format!("write to {who}: {e}"));
    }
}

fn recv(bot: &mut Bot, who: &str, buf: &mut String, round: u64) {
    buf.clear();
    match bot.stdout.read_line(buf) {
        Ok(0) => die(&format!("{who} closed stdout in round {round}")),
        Ok(_) => {
            if !buf.ends_with('\n') {
                buf.push('\n');
            }
        }
        Err(e) => die(&format!("read from {who}: {e}")),
    }
}

fn play(cmd: &str, rounds: u64) {
    let mut a = spawn(cmd);
    let mut b = spawn(cmd);
    send(&mut a, "a", format!("a\nb\n{rounds}\n").as_bytes());
    send(&mut b, "b", format!("b\na\n{rounds}\n").as_bytes());

    let mut ma = String::with_capacity(16);
    let mut mb = String::with_capacity(16);
    for round in 1..=rounds {
        recv(&mut a, "a", &mut ma, round);
        recv(&mut b, "b", &mut mb, round);
        send(&mut a, "a", mb.as_bytes());
        send(&mut b, "b", ma.as_bytes());
    }

    // Close stdins so the bots see EOF, then reap them.
    drop(a.stdin.take());
    drop(b.stdin.take());
    for (who, bot) in [("a", &mut a), ("b", &mut b)] {
        match bot.child.wait() {
            Ok(s) if s.success() => {}
            Ok(s) => die(&format!("{who} exited with {s}")),
            Err(e) => die(&format!("wait for {who}: {e}")),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !(3..=5).contains(&args.len()) {
        die("usage: relay_baseline BOT_CMD ROUNDS [GAMES [JOBS]]");
    }
    let number = |i: usize, what: &str| -> u64 {
        args.get(i).map_or(1, |a| {
            a.parse()
                .ok()
                .filter(|&n| n > 0)
                .unwrap_or_else(|| die(&format!("bad {what}: {a}")))
        })
    };
    let cmd = &args[1];
    let (rounds, games, jobs) = (number(2, "ROUNDS"), number(3, "GAMES"), number(4, "JOBS"));
    let next = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                while next.fetch_add(1, Ordering::Relaxed) < games {
                    play(cmd, rounds);
                }
            });
        }
    });
}

#!/usr/bin/env python3
"""A Tron bot for the tests (CodinGame's protocol, stdio): the first move that keeps it in, and
at its move AT (1 is its first) it misbehaves as MODE says:

- `legal`: never; it plays every move.
- `crash`: exits with status 3 instead of answering.
- `hang`: never answers (sleeps).
- `garbage`: answers `NORTH`.
- `burn S N`: not hostile: before each of its first N moves it computes for S seconds of its own
  CPU, and says on stderr when it thought (`tron_bot: thought from START to END`, times from
  `time.time()`); then it plays at once.
- `spin MARKER BEAT`: after each move it makes sure 8 processes of its own spin on the CPU (its
  children, each in a session of its own), each appending the time to the file BEAT every 20 ms
  it runs; every process gives up 60 s after the bot started.
- `sleep S`: not hostile: a slow start (a JVM's, an interpreter's): it sleeps S seconds before
  it reads anything, then plays every move.
- `spin_from_start BEAT`: spins on the CPU from the moment it starts and never reads, appending
  the time to BEAT every 20 ms it runs; gives up 60 s after it started.

Usage: tron_bot.py MODE [AT | S N | MARKER BEAT | S | BEAT]
"""
import os
import sys
import time

WIDTH, HEIGHT = 30, 20
MOVES = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
mode = sys.argv[1]
T0 = time.time()


def spin(beat):
    fd = os.open(beat, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
    null = os.open(os.devnull, os.O_RDWR)
    for f in (0, 1, 2):
        os.dup2(null, f)
    n, last = 0, 0.0
    while True:
        n += 1
        if n % 2000 == 0:
            now = time.time()
            if now - T0 > 60:
                os._exit(0)
            if now - last >= 0.02:
                last = now
                os.write(fd, f"{now}\n".encode())


spinners = []


def top_up(marker, beat):
    global spinners
    spinners = [p for p in spinners if os.waitpid(p, os.WNOHANG) == (0, 0)]
    while len(spinners) < 8:
        pid = os.fork()
        if pid == 0:
            os.setsid()
            sys.argv[0] = f"tron_bot spinner {marker}"
            spin(beat)
        spinners.append(pid)


def burn(seconds):
    start = time.process_time()
    x = 0
    while time.process_time() - start < seconds:
        for i in range(1000):
            x += i * i


def main():
    if mode == "sleep":
        time.sleep(float(sys.argv[2]))
    if mode == "spin_from_start":
        beat = os.open(sys.argv[2], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        last = 0.0
        while time.time() - T0 < 60:
            for i in range(2000):
                pass
            if time.time() - last >= 0.02:
                last = time.time()
                os.write(beat, f"{last}\n".encode())
        return
    owner = {}
    move_no = 0
    at = int(sys.argv[2]) if mode in ("crash", "hang", "garbage") else 0
    while True:
        n, p = [int(i) for i in input().split()]
        rows = [[int(j) for j in input().split()] for _ in range(n)]
        out = {i for i, row in enumerate(rows) if row[0] == -1}
        owner = {cell: o for cell, o in owner.items() if o not in out}
        for i, (x0, y0, x1, y1) in enumerate(rows):
            if i not in out:
                owner[(x0, y0)] = owner[(x1, y1)] = i
        move_no += 1
        if move_no == at:
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                print("NORTH", flush=True)
                continue
        if mode == "burn" and move_no <= int(sys.argv[3]):
            start = time.time()
            burn(float(sys.argv[2]))
            sys.stderr.write(f"tron_bot: thought from {start} to {time.time()}\n")
            sys.stderr.flush()
        x, y = rows[p][2], rows[p][3]
        safe = [
            w
            for w, (dx, dy) in MOVES.items()
            if 0 <= x + dx < WIDTH and 0 <= y + dy < HEIGHT and (x + dx, y + dy) not in owner
        ]
        print((safe or ["UP"])[0], flush=True)
        if mode == "spin":
            top_up(sys.argv[2], sys.argv[3])


if __name__ == "__main__":
    try:
        main()
    except (EOFError, BrokenPipeError):
        pass

#!/usr/bin/env python3
"""Royal Game of Ur: plays its first legal token, and after writing each move makes sure 8
processes of its own spin on the CPU (busy loops, forked after the move is written, topped up if
some were killed), to take the CPU its opponent is timed on.

MODE `children` (default): the spinners are its children (in its session: where the kernel
shares the CPU between sessions, autogroup, they get one session's share). MODE `sessions`: each
spinner is a child that calls setsid (a session, and a CPU share, of its own). MODE `orphans`: each
spinner is double-forked into a session of its own (the middle exits), so it is re-parented to
arena and is no longer below the bot. MODE `orphans_files`: as `orphans`, and in the first game the
bot first fills its working folder with 50,000 empty files, which arena removes after that game
while the next one plays (whose freezes must still sweep the orphans at once). MODE `badname`: as `sessions`, and the bot renames itself
(its `comm`, which its spinners inherit) to bytes that are not UTF-8, as any process may, so that
/proc/PID/stat is not valid UTF-8 and a reader that insists on text loses sight of the processes.

Every process is a fork of the bot (its command line holds the MARKER); each gives up 60 s after
the bot started, so a failed test does not leave them running for ever.

With a BEAT file, each spinner appends the time (`time.time()`, one line) to it every 20 ms that
it gets to run, so that a test can tell when they ran.

Usage: spin_after_move.py MARKER [MODE [BEAT]]
Expected: without `ponder`, its spinners are stopped (or, orphans, killed) while the opponent
thinks: an opponent that needs 0.3 s of CPU per move never misses a 1 s deadline. With `ponder`
it does. Nothing left after the game.
"""
import os
import sys
import time

marker = sys.argv[1]
mode = sys.argv[2] if len(sys.argv) > 2 else "children"
BEAT = os.open(sys.argv[3], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666) if len(sys.argv) > 3 else None
T0 = time.time()
FILES = 50000
if mode == "orphans_files":
    mode = "orphans"
    # In the first game only (the BEAT file's `.filled` beside it says it was done), so that the
    # next game starts while arena removes them.
    filled = (sys.argv[3] if len(sys.argv) > 3 else "spin") + ".filled"
    if not os.path.exists(filled):
        for i in range(FILES):
            os.close(os.open(f"f{i}", os.O_CREAT | os.O_WRONLY, 0o600))
        os.close(os.open(filled, os.O_CREAT | os.O_WRONLY, 0o666))
if mode == "badname":
    import ctypes

    ctypes.CDLL(None).prctl(15, b"\xff\xfe\xfd", 0, 0, 0)  # PR_SET_NAME
SPINNERS = 8
ROSETTES = (4, 8, 14)
SHARED = range(5, 13)
DONE = 15


def spin():
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    n = 0
    last = 0.0
    while True:
        n += 1
        if n % 2000 == 0:
            now = time.time()
            if now - T0 > 60:
                os._exit(0)
            if BEAT is not None and now - last >= 0.02:
                last = now
                try:
                    os.write(BEAT, f"{now:.4f}\n".encode())
                except OSError:
                    pass


def spinner():
    """Start one spinner; returns its pid when it is a child."""
    pid = os.fork()
    if pid == 0:
        if mode in ("sessions", "badname"):
            os.setsid()
        if mode == "orphans":
            os.setsid()
            if os.fork() == 0:
                spin()
            os._exit(0)
        spin()
    if mode == "orphans":
        os.waitpid(pid, 0)
        return None
    return pid


alive = set()


def top_up():
    for pid in list(alive):
        try:
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                alive.discard(pid)
        except ChildProcessError:
            alive.discard(pid)
    want = SPINNERS - len(alive) if mode != "orphans" else SPINNERS
    for _ in range(want):
        pid = spinner()
        if pid:
            alive.add(pid)


def legal_moves(mine, theirs, n):
    moves = []
    for token, p in enumerate(mine):
        t = p + n
        if n == 0 or p == DONE or t > DONE:
            continue
        if t != DONE and t in mine:
            continue
        if t == 8 and 8 in theirs:
            continue
        moves.append(token)
    return moves


def main():
    sys.stdin.readline()
    sys.stdin.readline()
    me = int(sys.stdin.readline())
    pos = [[0] * 7, [0] * 7]
    turn = 0
    while True:
        roll = sys.stdin.readline()
        if not roll:
            return
        n = roll.split().count("1")
        mover, other = pos[turn], pos[1 - turn]
        moves = legal_moves(mover, other, n)
        if not moves:
            turn = 1 - turn
            continue
        if turn == me:
            token = moves[0]
            print(token, flush=True)
            top_up()
        else:
            line = sys.stdin.readline().strip()
            if not line.isdigit():
                return
            token = int(line)
        t = mover[token] + n
        mover[token] = t
        if t in SHARED and t in other:
            other[other.index(t)] = 0
        if t not in ROSETTES:
            turn = 1 - turn


try:
    main()
except BrokenPipeError:
    pass

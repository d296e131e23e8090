#!/usr/bin/env python3
"""Looks for arena among its ancestors (walking up the parent pids until `/proc/PID/comm` is
`arena`), then tries to read its environment (`/proc/PID/environ`), its open files
(`/proc/PID/fd`), its memory map and its memory. Each attempt is reported on stderr as
`read_arena: WHAT: done DATA` or `read_arena: WHAT: refused (ERROR)`. Then it plays the whole game
well (ROCK).

Usage: read_arena.py MARKER
Expected: arena is not dumpable: every attempt is refused, and no secret of arena's environment
reaches the bot.
"""
import os
import sys


def say(what, ok, detail):
    sys.stderr.write(f"read_arena: {what}: {'done' if ok else 'refused'} {detail}\n")


def attempt(what, action):
    try:
        say(what, True, action())
    except Exception as e:
        say(what, False, f"({e})")


def parent_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def comm(pid):
    with open(f"/proc/{pid}/comm") as f:
        return f.read().strip()


def find_arena():
    pid = os.getpid()
    while pid > 1:
        pid = parent_of(pid)
        if comm(pid) == "arena":
            return pid
    return None


def read(path, n=1 << 16):
    with open(path, "rb") as f:
        return repr(f.read(n))


def fds(pid):
    found = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            found.append(f"{fd}->{os.readlink(f'/proc/{pid}/fd/{fd}')}")
        except OSError as e:
            found.append(f"{fd}: {e}")
    return repr(found)


def memory(pid):
    # The first readable mapping's first bytes.
    with open(f"/proc/{pid}/maps") as f:
        first = f.readline().split()[0].split("-")[0]
    with open(f"/proc/{pid}/mem", "rb") as f:
        f.seek(int(first, 16))
        return repr(f.read(64))


arena = find_arena()
sys.stderr.write(f"read_arena: uid {os.getuid()}, arena is {arena}\n")
if arena:
    attempt("environ", lambda: read(f"/proc/{arena}/environ"))
    attempt("fd", lambda: fds(arena))
    attempt("maps", lambda: read(f"/proc/{arena}/maps", 256))
    attempt("mem", lambda: memory(arena))
sys.stderr.flush()
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break

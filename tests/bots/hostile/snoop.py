#!/usr/bin/env python3
"""Tries to read the other bot's files, then plays the game well. Targets: each PATH given, and
what it can find of the other bots arena runs (its parent's other children): their working
directory's files, their environment. Whatever it reads goes to its stderr, where the test looks
for the other bot's secret.

Usage: snoop.py MARKER [PATH...]; more PATHs, separated by ':', in TARGETS (a sandbox shows a bot
the files its command line names).
Expected (with the sandbox): it reads nothing of the other bot's. Without a sandbox the bot runs as
the user running arena, and reads it all.
"""
import os
import sys


def show(what, data):
    sys.stderr.write(f"snoop: {what}: {data[:200]!r}\n")


def read(path):
    try:
        with open(path, "rb") as f:
            show(path, f.read(4096))
    except OSError as e:
        sys.stderr.write(f"snoop: {path}: {e}\n")


def siblings():
    me, parent = os.getpid(), os.getppid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent:
            yield entry


for path in [t for t in sys.argv[2:] + os.environ.get("TARGETS", "").split(":") if t]:
    read(path)
for pid in siblings():
    read(f"/proc/{pid}/environ")
    try:
        cwd = os.readlink(f"/proc/{pid}/cwd")
        for name in os.listdir(cwd):
            if os.path.isfile(os.path.join(cwd, name)):
                read(os.path.join(cwd, name))
    except OSError as e:
        sys.stderr.write(f"snoop: cwd of {pid}: {e}\n")
sys.stderr.flush()
rounds = int([sys.stdin.readline() for _ in range(3)][2])
for _ in range(rounds):
    print("SCISSORS", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break

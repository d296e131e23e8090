#!/usr/bin/env python3
"""Starts a process as its own sibling: clone(CLONE_PARENT) makes the new process a child of the
bot's parent (arena, the thread that started the bot), not of the bot; it is neither below the bot
nor an orphan. It leaves the bot's process group and session (setsid) and runs
`sleep 3601.MARKER`. Then the bot plays the whole game well (ROCK).

Usage: clone_parent.py MARKER
Expected: normal or draw, all rounds; nothing left after `duel` or `run`.
"""
import ctypes
import os
import sys

marker = sys.argv[1]
CLONE_PARENT = 0x00008000
SIGCHLD = 17
SYS_CLONE = 56  # x86_64
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
rounds = int([sys.stdin.readline() for _ in range(3)][2])
pid = libc.syscall(SYS_CLONE, ctypes.c_ulong(CLONE_PARENT | SIGCHLD), None, None, None, None)
if pid == 0:
    os.setsid()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.execvp("sleep", ["sleep", f"3601.{marker}"])
    os._exit(1)
if pid < 0:
    sys.stderr.write(f"clone_parent: clone failed: {os.strerror(ctypes.get_errno())}\n")
else:
    sys.stderr.write(f"clone_parent: sibling {pid}\n")
sys.stderr.flush()
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break

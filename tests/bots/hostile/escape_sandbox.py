#!/usr/bin/env python3
"""Tries to break out of arena's sandbox, as root would, then plays roshambo (ROCK) properly.
Each attempt is reported on stderr as `escape: WHAT: done ...` or `escape: WHAT: refused ...`.

Targets come from the environment (so that arena does not show them to the bot as files of its
command line): RESULTS (games.csv to forge), FIFO (another run's FIFO to write into), SECRET_FILE
(another bot's file). With the sandbox every attempt must be refused.
"""
import ctypes
import errno
import os
import subprocess
import sys


def say(what, ok, detail=""):
    sys.stderr.write(f"escape: {what}: {'done' if ok else 'refused'} {detail}\n")


def attempt(what, action):
    try:
        detail = action()
        say(what, True, detail or "")
    except Exception as e:  # every failure is a refusal, whatever its kind
        say(what, False, f"({e})")


def read(path):
    with open(path, "rb") as f:
        return repr(f.read(64))


def forge(path):
    with open(path, "a") as f:
        f.write("999,1,forged,forged,1,0,forged,normal,1,1,1,x\n")


def libc_call(name, *args):
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def remount_root():
    # MS_REMOUNT | MS_BIND: make / writable again.
    libc_call("mount", None, b"/", None, ctypes.c_ulong(32 | 4096), None)


def unmount_tmp():
    libc_call("umount2", b"/tmp", 2)  # MNT_DETACH


def write_fifo(path):
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    os.write(fd, b"forged line\n")
    os.close(fd)


def fill_tmp():
    written = 0
    chunk = b"x" * (1 << 20)
    try:
        with open("/tmp/fill", "wb") as f:
            while written < (64 << 20):
                f.write(chunk)
                f.flush()
                written += len(chunk)
    except OSError as e:
        if e.errno != errno.ENOSPC:
            raise
    finally:
        try:
            os.remove("/tmp/fill")
        except OSError:
            pass
    # More than the limit written means the limit did not hold.
    if written >= (64 << 20):
        return f"{written} bytes"
    raise OSError(errno.ENOSPC, f"disk full after {written >> 20} MiB")


def capabilities():
    with open("/proc/self/status") as f:
        eff = [l.split()[1] for l in f if l.startswith("CapEff")][0]
    if int(eff, 16) == 0:
        raise PermissionError(f"CapEff {eff}")
    return f"CapEff {eff}"


def host_tmp():
    # Its own script is shown where it lies, which may be under /tmp: that is not the host's.
    own = os.path.abspath(sys.argv[0])
    seen = []
    for top, dirs, files in os.walk("/tmp"):
        for name in dirs + files:
            path = os.path.join(top, name)
            if path != "/tmp/fill" and not own.startswith(path):
                seen.append(path)
    if seen:
        return repr(seen[:5])
    raise FileNotFoundError("an empty /tmp of its own")


def processes():
    mine = {os.getpid(), os.getppid()}
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in mine and int(p) > 2]
    for p in others:
        try:
            with open(f"/proc/{p}/cmdline", "rb") as f:
                if f.read().strip():
                    return f"sees process {p}"
        except OSError:
            pass
    raise PermissionError("no process but its own")


sys.stderr.write(f"escape: uid {os.getuid()} gid {os.getgid()}\n")
attempt("capabilities", capabilities)
attempt("read /etc/shadow", lambda: read("/etc/shadow"))
attempt("remount / read-write", remount_root)
attempt("unmount /tmp", unmount_tmp)
attempt("list /root", lambda: repr(os.listdir("/root")))
attempt("list /home", lambda: repr(os.listdir("/home")))
attempt("see the host's /tmp", host_tmp)
attempt("see other processes", processes)
attempt("fill the disk", fill_tmp)
for var, act in (("RESULTS", forge), ("SECRET_FILE", read), ("FIFO", write_fifo)):
    if os.environ.get(var):
        attempt(f"{var} {os.environ[var]}", lambda: act(os.environ[var]))
attempt("mount with the mount program",
        lambda: subprocess.run(["mount", "-o", "remount,rw", "/"], check=True,
                               capture_output=True).stdout)
sys.stderr.flush()

sys.stdin.readline()
sys.stdin.readline()
rounds = int(sys.stdin.readline())
for _ in range(rounds):
    print("ROCK", flush=True)
    if sys.stdin.readline() in ("", "RETIRE\n"):
        break

#!/usr/bin/env python3
"""Self-check of the fake SDK referee (bots/sdk/referee.py), run as cg-brutaltester runs a
referee: `REFEREE -p1 CMD1 -p2 CMD2 -d seed=N -l FILE`, scores read from stdout.

Usage (from anywhere): python3 tests/bots/sdk/selfcheck.py
Each game runs in a session of its own, killed afterwards, so that nothing a faulty player leaves
(a forked spinner, a hung player of a hung referee) outlives the check.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
REFEREE = ["python3", "bots/sdk/referee.py"]
GREEDY = "python3 bots/sdk/greedy.py"
STARTER = "python3 bots/sdk/starter.py"
PLAYER = "python3 tests/bots/sdk/player.py"
LOGS = tempfile.mkdtemp(prefix="sdkref-")
failures = []


def run(args, timeout=30, log=None):
    """Runs the referee; returns (exit code or None when it timed out, stdout, stderr, log text)."""
    log = log or os.path.join(LOGS, f"game{len(os.listdir(LOGS))}.json")
    proc = subprocess.Popen(REFEREE + args + ["-l", log], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # whatever the game left behind
    except ProcessLookupError:
        pass
    text = open(log, encoding="utf-8").read() if os.path.exists(log) else None
    return code, out, err, text


def scores(out, n):
    """What cg-brutaltester does with stdout: the first integer per player, other lines skipped."""
    found = []
    for line in out.splitlines():
        try:
            found.append(int(line))
        except ValueError:
            continue
    return found[:n]


def check(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f"  [{detail}]"))
    if not condition:
        failures.append(name)


def game(mode, seed=5, opponent=STARTER, **kw):
    """A 2-player game, the test player in seat 0; returns (code, scores, gameResult, stdout)."""
    code, out, err, text = run(["-p1", f"{PLAYER} {mode}", "-p2", opponent, "-d", f"seed={seed}"], **kw)
    result = json.loads(text)["gameResult"] if text else None
    return code, scores(out, 2), result, out


def turns(result, seat):
    """The player's own frames: its answers (None for a timeout) and its stderr, turn by turn."""
    summaries, outputs = result["summaries"], result["outputs"][str(seat)]
    frames = [i for i in range(1, len(summaries))
              if outputs[i] is not None or summaries[i].startswith(f"${seat} ")]
    return [result["outputs"][str(seat)][i] for i in frames], [result["errors"][str(seat)][i] for i in frames]


def main():
    # The basic game, twice: same seed, same bots, same bytes.
    base = ["-p1", GREEDY, "-p2", STARTER, "-d", "seed=5"]
    code, out, err, log = run(base)
    lines = out.split("\n")
    check("exit 0", code == 0, (code, err))
    check("first line is the league level", lines[0].startswith("League level"), lines[:1])
    check("two integer scores, then seed=5 and an empty line",
          len(lines) == 6 and all(l.lstrip("-").isdigit() for l in lines[1:3]) and lines[3:] == ["seed=5", "", ""],
          lines)
    check("log is one line of JSON", log is not None and "\n" not in log.strip() and json.loads(log)["gameResult"])
    code2, out2, _, log2 = run(base)
    check("same seed twice: identical scores and log bytes", (code2, out2, log2) == (code, out, log))
    honest = scores(out, 2)
    code3, out3, _, log3 = run(["-p1", GREEDY, "-p2", STARTER, "-seed", "5"])
    check("-seed 5 is -d seed=5", (out3, log3) == (out, log))
    code4, out4, _, _ = run(["-p1", GREEDY, "-p2", STARTER, "-d", "seed=6"])
    check("another seed, another game", code4 == 0 and out4 != out)
    g = json.loads(log)["gameResult"]
    check("log keys", set(g) == {"errors", "outputs", "summaries", "views", "scores", "uinput", "metadata",
                                 "tooltips", "ids", "agents", "failCause"} and g["failCause"] is None
          and g["scores"] == {"0": honest[0], "1": honest[1]}
          and g["agents"] == [{"index": 0, "name": GREEDY}, {"index": 1, "name": STARTER}], sorted(g))
    check("log frames line up", len({len(v) for v in (g["summaries"], g["views"], *g["outputs"].values(),
                                                      *g["errors"].values())}) == 1)

    # 2 to 4 players; --max-players; Cellularena's -d; a referee starting its own players.
    code, out, err, _ = run(["-p1", GREEDY, "-p2", STARTER, "-p3", f"{PLAYER} honest", "-p4", GREEDY, "-d", "seed=9"])
    four = scores(out, 4)
    check("4 players", code == 0 and len(four) == 4 and all(s >= 0 for s in four), (code, out, err))
    code, out, err, _ = run(["--max-players", "2", "-p1", GREEDY, "-p2", STARTER, "-p3", GREEDY])
    check("--max-players 2 refuses -p3 (exit 1)", code == 1 and out == "" and err.startswith(
        'Exception in thread "main" org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: -p3'),
        (code, err))
    code, out, _, _ = run(["--ignore-d", "-p1", GREEDY, "-p2", STARTER, "-d", "seed=5"])
    check("--ignore-d: -d seed=5 is ignored, the seed is random", code == 0 and "\nseed=5\n" not in out, out)
    code, out2, _, _ = run(["--ignore-d", "-p1", GREEDY, "-p2", STARTER, "-seed", "5"])
    check("--ignore-d: -seed 5 works", code == 0 and scores(out2, 2) == honest and "\nseed=5\n" in out2, out2)
    code, out, _, log = run(["--own-players", STARTER, "-p1", GREEDY, "-p2", GREEDY, "-d", "seed=5"])
    answers = json.loads(log)["gameResult"]["outputs"]["0"] if log else []
    check("--own-players: its own players play, named after -p",
          code == 0 and any(a and "first one" in a for a in answers) and GREEDY in log, answers)
    code, out, _, _ = run(["--twice", "-p1", GREEDY, "-p2", STARTER, "-d", "seed=5"])
    check("--twice: the spare copy of -p1 changes nothing in the game", code == 0
          and scores(out, 2) == honest, out)
    code, out, err, _ = run(["-p1", "./no-such-bot", "-p2", STARTER])
    check("a player that cannot start: exit 1", code == 1 and "Failed to launch ./no-such-bot" in err, err)

    code, out, err, _ = run(["-p1", GREEDY, "-p2", STARTER, "-d", "seed=five"])
    check("a seed that is no number: exit 1", code == 1 and "NumberFormatException" in err, err)

    # Player faults, the faulty player in seat 0 against the starter.
    cases = [("honest", honest[0], ""), ("cr", honest[0], ""), ("late 2 50", honest[0], ""),
             ("late 1 900", honest[0], ""), ("late 1 1200", -1, "$0 timeout!"),
             ("late 2 150", -1, "$0 timeout!"), ("late 2 250", -1, "$0 timeout!"),
             ("crash 2", -1, "$0 timeout!"), ("hang 2", -1, "$0 timeout!"),
             ("invalid 2", -1, "$0 invalid action: 99"), ("stderr 2 100000", -1, "$0 timeout!"),
             ("stderr 2 6000", honest[0], ""), ("slowstart 500", honest[0], ""),
             ("slowstart 1500", -1, "$0 timeout!"), ("spin", -1, "$0 timeout!"), ("fork 2", honest[0], "")]
    for mode, want, summary in cases:
        code, got, result, out = game(mode)
        ok = code == 0 and len(got) == 2 and got[0] == want and got[1] >= 0
        if summary:
            ok = ok and summary in result["summaries"]
        check(f"player {mode}: score {want}" + (f", {summary!r}" if summary else ""), ok, (code, out))
        if mode == "stderr 2 6000" and result:
            _, errs = turns(result, 0)
            check("stderr: 4 KB read a turn, the rest on the next",
                  [len(e or "") for e in errs[1:3]] == [4096, 1904], [len(e or "") for e in errs])
        if mode == "cr" and result:
            check("cr: answers logged with \\n", all(a.endswith("\n") for a in turns(result, 0)[0]))
    code, got, result, _ = game("extra 2")
    answers, _ = turns(result, 0)
    check("extra: the second line of turn 2 is read as the answer of turn 3 (one line behind)",
          code == 0 and len(answers) >= 3 and answers[2].endswith(" extra\n"), answers)

    # Referee faults.
    code, out, err, log = run(["--need-add-opens"] + base)
    check("--need-add-opens: null scores, exit 0, trace on stderr, failCause in the log",
          code == 0 and out.split("\n")[1:3] == ["null", "null"] and scores(out, 2) == []
          and "java.lang.reflect.InaccessibleObjectException" in err and 'does not "opens java.lang"' in err
          and json.loads(log)["gameResult"]["failCause"], (code, out))
    code, out, err, _ = run(["--hang"] + base, timeout=3)
    check("--hang: still running after 3 s, nothing printed", code is None and out == "", (code, out))
    code, out, err, _ = run(["--crash"] + base)
    check("--crash: exit 1, Java stack trace, no scores",
          code == 1 and out == "" and err.startswith('Exception in thread "main" java.lang.NullPointerException'),
          (code, out, err))
    code, out, err, _ = run(base, log="/nonexistent/dir/game.json")
    check("unwritable -l: exit 1 after the scores",
          code == 1 and scores(out, 2) == honest and "FileNotFoundException" in err, (code, err))

    print(f"\n{'FAILED: ' + ', '.join(failures) if failures else 'all checks passed'} (logs in {LOGS})")
    sys.exit(1 if failures else 0)


main()

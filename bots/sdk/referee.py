#!/usr/bin/env python3
"""Gem Heist: a made-up contest refereed the way a CodinGame game engine SDK referee behaves when it
is run through a community `CommandLineInterface` (cg-brutaltester's default mode).

Java is not needed: this stands in for `java -jar referee.jar` in arena's tests and shows what an
SDK referee does with its players (docs: bots/sdk/README.md; the facts: the SDK's Agent and
GameRunner classes, summed up in PROTOCOL-NOTES.md, "CodinGame's game engine SDK").

Usage: referee.py [SWITCHES] -p1 CMD -p2 CMD [-p3 CMD -p4 CMD] [-d seed=N | -seed N] [-l FILE]
Switches: --max-players N, --turn-ms N (100), --first-ms N (1000), and faults: --ignore-d,
--need-add-opens, --own-players CMD, --twice, --hang, --crash.
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

LEAGUE_LEVEL = 3
GEMS = 12
MAX_ROUNDS = 12
MAX_OUTPUT_BYTES = 10_000  # Agent.AGENT_MAX_BUFFER_SIZE
STDERR_CHUNK = 4096        # Agent.readError reads at most this much a turn
BOOTSTRAP_WAIT = 0.3       # GameRunner.bootstrapPlayersWait: "arbitrary time to wait for bootstrap"
JAVA_INT = re.compile(r"[+-]?[0-9]+\Z")  # what Integer.parseInt accepts (Python's int() takes more)


class JavaError(Exception):
    """An exception the CLI's main() does not catch: the JVM prints it and exits 1."""

    def __init__(self, java_class, message, where):
        super().__init__(f"{java_class}: {message}")
        self.where = where


def die(error):
    print(f'Exception in thread "main" {error}', file=sys.stderr)
    for frame in error.where:
        print(f"\tat {frame}", file=sys.stderr)
    sys.stderr.flush()
    os._exit(1)  # no cleanup: a dying JVM leaves its players running (they see EOF on stdin)


def parse_args(argv):
    """Option parsing as Apache commons-cli's DefaultParser does it: options in any order, an
    unknown option is an error, a token that is no option is left over and ignored."""
    opts = {"max": 4, "turn": 100, "first": 1000, "seed": None, "log": None, "players": {},
            "ignore_d": False, "add_opens": False, "own": None, "twice": False, "hang": False,
            "crash": False}
    flags = {"--ignore-d": "ignore_d", "--need-add-opens": "add_opens", "--twice": "twice",
             "--hang": "hang", "--crash": "crash"}
    valued = {"-d", "-seed", "-l", "--own-players", "--max-players", "--turn-ms", "--first-ms"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in flags:
            opts[flags[arg]] = True
            i += 1
            continue
        # Cellularena's CLI declares -d without a value: `seed=N` is then a left-over token.
        if not arg.startswith("-") or (arg == "-d" and opts["ignore_d"]):
            i += 1
            continue
        player = re.fullmatch(r"-p([1-9])", arg)
        if not (arg in valued or player and int(player[1]) <= opts["max"]):
            raise JavaError("org.apache.commons.cli.UnrecognizedOptionException",
                            f"Unrecognized option: {arg}",
                            ["org.apache.commons.cli.DefaultParser.handleUnknownToken(DefaultParser.java:360)",
                             "org.apache.commons.cli.DefaultParser.handleToken(DefaultParser.java:256)",
                             "com.codingame.gameengine.runner.CommandLineInterface.main(CommandLineInterface.java:33)"])
        if i + 1 >= len(argv):
            raise JavaError("org.apache.commons.cli.MissingArgumentException",
                            f"Missing argument for option: {arg.lstrip('-')}",
                            ["org.apache.commons.cli.DefaultParser.checkRequiredArgs(DefaultParser.java:231)"])
        value = argv[i + 1]
        i += 2
        try:
            if player:
                opts["players"][int(player[1])] = value
            elif arg == "-d":
                for pair in value.split():  # java.util.Properties-like `key=value` lines
                    key, _, val = pair.partition("=")
                    if key == "seed":
                        opts["seed"] = int(val)
            elif arg in ("-l", "--own-players"):
                opts["log" if arg == "-l" else "own"] = value
            else:  # -seed, --max-players, --turn-ms, --first-ms
                opts[arg.lstrip("-").split("-")[0]] = int(value)
        except ValueError:
            raise JavaError("java.lang.NumberFormatException", f'For input string: "{value}"',
                            ["java.base/java.lang.Long.parseLong(Long.java:692)"])
    count = 0
    while count + 1 in opts["players"]:
        count += 1
    if count < 2:
        raise JavaError("java.lang.IllegalArgumentException", "Gem Heist needs 2 to 4 players (-p1 -p2 ...)",
                        ["com.codingame.gameengine.runner.CommandLineInterface.main(CommandLineInterface.java:41)"])
    opts["players"] = [opts["players"][k] for k in range(1, count + 1)]
    return opts


class Player:
    """One player process, handled as CommandLinePlayerAgent and Agent handle it."""

    def __init__(self, index, command):
        self.index = index
        self.active = True
        self.first_turn = True
        self.after_cr = False  # Agent.lastAgentByteIsCarriageReturn: kept from one turn to the next
        # Runtime.exec(command.split(" ")): no shell, so no quotes, no redirection, no VAR=x.
        try:
            self.process = subprocess.Popen(command.split(" "), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError:
            raise JavaError("java.lang.RuntimeException", f"Failed to launch {command}",
                            ["com.codingame.gameengine.runner.CommandLinePlayerAgent.initialize(CommandLinePlayerAgent.java:57)"])
        self.out = self.process.stdout.fileno()
        self.err = self.process.stderr.fileno()
        os.set_blocking(self.out, False)
        os.set_blocking(self.err, False)

    def send(self, lines):
        # The SDK's writer trims the turn's block and ends it with one newline; a player that has
        # died makes the write fail, silently.
        try:
            self.process.stdin.write(("\n".join(lines).strip() + "\n").encode())
            self.process.stdin.flush()
        except OSError:
            pass

    def read_output(self, lines_wanted, timeout_ms):
        """Agent.getOutput: one byte at a time, so that nothing past the last line wanted leaves the
        pipe (extra lines become the next turn's answer). \\n, \\r and \\r\\n end a line."""
        data = bytearray()
        lines = 0
        start = time.monotonic()
        while len(data) < MAX_OUTPUT_BYTES and lines < lines_wanted:
            if time.monotonic() - start > timeout_ms / 1000:
                break
            try:
                byte = os.read(self.out, 1)
            except BlockingIOError:
                byte = b""
            if not byte:  # nothing yet, or the player died: Java's available() says 0 to both
                time.sleep(0.001)
                continue
            if not (byte == b"\n" and self.after_cr):
                data += byte
                lines += byte in b"\r\n"
            self.after_cr = byte == b"\r"
        return data.decode("utf-8", "replace").replace("\r", "\n")

    def read_errors(self):
        # A single read of what is there, 4 KB at most: a player writing more fills its stderr
        # pipe, blocks in its write and so misses its deadline.
        try:
            chunk = os.read(self.err, STDERR_CHUNK)
        except BlockingIOError:
            return None
        return chunk.decode("utf-8", "replace") if chunk else None

    def ask(self, lines, timeout_ms):
        """One turn (GameRunner.getNextPlayerOutput). The clock starts when the input is queued;
        an answer that is not exactly one complete line is a timeout, after one more period given
        to the player "to crash cleanly". Returns (answer or None, stderr read or None)."""
        self.send(lines)
        answer = self.read_output(1, timeout_ms)
        if answer.count("\n") != 1:
            time.sleep(timeout_ms / 1000)
            return None, self.read_errors()
        return answer, self.read_errors()

    def terminate(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # Process.destroy(); never waited for


class Log:
    """The `-l` file: the SDK's GameResult as Gson writes it. Frame 0 is the start-up frame, then
    one frame per player turn; player inputs are not logged."""

    def __init__(self, names):
        self.keys = [str(i) for i in range(len(names))] + ["referee"]
        self.outputs = {k: [] for k in self.keys}
        self.errors = {k: [] for k in self.keys}
        self.summaries, self.views = [], []
        self.names = names
        self.fail_cause = None

    def frame(self, outputs, errors, summary, view):
        """outputs, errors: one entry per seat, None for the players not asked in this frame."""
        for k, out, err in zip(self.keys, outputs + [""], errors + [""]):
            self.outputs[k].append(out)
            self.errors[k].append(err)
        self.summaries.append(summary)
        self.views.append(view)

    def write(self, path, scores):
        result = {"errors": self.errors, "outputs": self.outputs, "summaries": self.summaries,
                  "views": self.views, "scores": {str(i): s for i, s in enumerate(scores) if s is not None},
                  "uinput": [], "metadata": {}, "tooltips": [],
                  "ids": {str(i): i for i in range(len(self.names))},
                  "agents": [{"index": i, "name": n} for i, n in enumerate(self.names)],
                  "failCause": self.fail_cause}
        text = json.dumps({"gameResult": result}, ensure_ascii=False, separators=(",", ":"))
        # Gson escapes these by default, even inside a bot's output.
        for ch in "<>&='":
            text = text.replace(ch, "\\u%04x" % ord(ch))
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise JavaError("java.io.FileNotFoundException", f"{path} ({e.strerror})",
                            ["java.base/java.io.FileOutputStream.open0(Native Method)",
                             "com.codingame.gameengine.runner.CommandLineInterface.main(CommandLineInterface.java:88)"])


def play(players, seed, opts, log):
    """The game itself. Returns the final scores, -1 for a deactivated player."""
    rng = random.Random(seed)
    gems = [rng.randint(1, 9) for _ in range(GEMS)]
    scores = [0] * len(players)
    row = lambda: " ".join(map(str, gems))  # noqa: E731
    # Start-up frame: no output yet, but what the players wrote to stderr while starting.
    log.frame([None] * len(players), [p.read_errors() for p in players], "", row())
    for _ in range(MAX_ROUNDS):
        for p in players:
            if not p.active or not any(gems):
                continue
            lines = [f"{len(players)} {p.index}"] if p.first_turn else []
            lines += [row(), " ".join(str(s if q.active else -1) for s, q in zip(scores, players))]
            answer, errors = p.ask(lines, opts["first"] if p.first_turn else opts["turn"])
            p.first_turn = False
            summary = ""
            if answer is None:
                p.active, summary = False, f"${p.index} timeout!"
            else:
                text = answer.split("\n")[0]
                head = text.split(" ")[0]
                gem = int(head) if JAVA_INT.match(head) else -1
                if 0 <= gem < GEMS and gems[gem]:
                    scores[p.index] += gems[gem]
                    gems[gem] = 0
                else:
                    p.active, summary = False, f"${p.index} invalid action: {text}"
            asked = [q is p for q in players]
            log.frame([answer if a else None for a in asked], [errors if a else None for a in asked],
                      summary, row())
        if not any(gems) or not any(p.active for p in players):
            break
    return [s if p.active else -1 for s, p in zip(scores, players)]


ADD_OPENS_TRACE = (
    'java.lang.reflect.InaccessibleObjectException: Unable to make field private final java.lang.Class '
    'java.lang.Object.klass accessible: module java.base does not "opens java.lang" to unnamed module @4e50df2e\n'
    "\tat java.base/java.lang.reflect.AccessibleObject.checkCanSetAccessible(AccessibleObject.java:354)\n"
    "\tat java.base/java.lang.reflect.Field.setAccessible(Field.java:172)\n"
    "\tat com.google.inject.internal.cglib.core.$ReflectUtils$1.run(ReflectUtils.java:52)")


def run(opts):
    seed = opts["seed"] if opts["seed"] is not None else random.randint(-2**63, 2**63 - 1)
    log = Log(opts["players"])
    # Every player is started before the game, in our own directory and environment, and given
    # 300 ms; --own-players stands for a referee that starts players of its own choosing.
    players = [Player(i, opts["own"] or command) for i, command in enumerate(opts["players"])]
    # --twice stands for one that starts the first player's command a second time, and leaves it.
    spare = [Player(0, opts["players"][0])] if opts["twice"] else []
    time.sleep(BOOTSTRAP_WAIT)
    if opts["add_opens"]:
        # JDK 17 without --add-opens: the SDK's dependency injection cannot reflect into java.lang,
        # the referee thread dies before the first turn and no score is ever set. (The real
        # runner then waits its 150 s read timeout; we do not.)
        print(f'Exception in thread "Thread-0" {ADD_OPENS_TRACE}', file=sys.stderr, flush=True)
        log.fail_cause = ADD_OPENS_TRACE
        scores = [None] * len(players)
    else:
        scores = play(players, seed, opts, log)
    if opts["hang"]:
        while True:  # stuck after the game, its players still alive: whoever ran us must clean up
            time.sleep(3600)
    if opts["crash"]:
        raise JavaError("java.lang.NullPointerException",
                        'Cannot invoke "java.lang.Integer.intValue()" because "score" is null',
                        ["com.codingame.game.Referee.onEnd(Referee.java:211)",
                         "com.codingame.gameengine.runner.CommandLineInterface.main(CommandLineInterface.java:74)"])
    for p in players + spare:
        p.terminate()
    # cg-brutaltester reads the first integer per player, skipping any line that is not one.
    print(f"League level: {LEAGUE_LEVEL}.")
    for s in scores:
        print("null" if s is None else s)
    print(f"seed={seed}")
    print(flush=True)
    if opts["log"]:
        log.write(opts["log"], scores)


def main():
    try:
        run(parse_args(sys.argv[1:]))
    except JavaError as e:
        die(e)


if __name__ == "__main__":
    main()

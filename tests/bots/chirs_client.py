"""What the test clients written to the original adversarial game server's conventions share
(chirs_checkers.py, chirs_connect4.py): messages written as one JSON object with Python's default
separators and no newline, the server's messages read one per line, and a strict look at each.
Anything unexpected ends the client with status 3."""
import json
import re
import sys


def fail(why):
    sys.stderr.write(sys.argv[0] + ": " + why + "\n")
    sys.exit(3)


def send(obj):
    sys.stdout.write(json.dumps(obj))
    sys.stdout.flush()


def receive():
    line = sys.stdin.readline()
    if not line:
        fail("the server closed the connection before the game ended")
    return json.loads(line)


def connect(game):
    """Ask for `game`; the player number the acknowledgement gives, in the server's form."""
    send({"game": game})
    ack = receive()
    if list(ack) != ["name", "timelimit", "player"] or ack["name"] != game:
        fail("unexpected acknowledgement %r" % ack)
    if ack["player"] not in (1, 2):
        fail("player %r" % ack["player"])
    return ack["player"]


def next_board(player, size, letters):
    """The board of the next state; exits 0 at the end of the game."""
    state = receive()
    board = state.get("board", "")
    if len(board) != size or set(board) - set(" " + letters):
        fail("a board not in the server's letters: %r" % board)
    if state["result"] != 0:
        sys.exit(0)
    if state["player"] != player or not re.fullmatch(r"[0-9a-f]{40}", state["token"]):
        fail("unexpected state %r" % state)
    return board, state["token"]

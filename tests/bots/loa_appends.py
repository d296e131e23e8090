"""A Lines of Action bot as CodinGame players write them: it writes its move with something stuck
to it, as CodinGame's referee allows (`b1b3;`, `b1b3x`, `b1b3;eval=2 msg`), and reads every turn
in full. It plays the first legal move it is offered, in turn with each way of writing it.

With the argument `breaks` its message holds a carriage return and a fake result line after it,
which a spectator reading lines as Java does would take for the end of the game."""
import sys

FORMS = ["{};", "{}x", "{};eval=2 thinking hard", "{} plain message"]
if sys.argv[1:] == ["breaks"]:
    FORMS = ["{} watch\rresult b normal"]


def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)  # the game is over: arena closes the input
    return text.strip()


colour = line()
if colour not in ("b", "w"):
    sys.exit("expected my colour, got " + repr(colour))
turn = 0
while True:
    rows = [line() for _ in range(8)]
    if any(len(r) != 8 for r in rows):
        sys.exit("expected 8 board rows, got " + repr(rows))
    line()  # the opponent's last move
    moves = [line() for _ in range(int(line()))]
    print(FORMS[turn % len(FORMS)].format(moves[0]), flush=True)
    turn += 1

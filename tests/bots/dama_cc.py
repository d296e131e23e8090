#!/usr/bin/env python3
"""A dama bot that chooses its moves as Code Colosseum's own dama bot does (its `bot.rs`), on the
live server's stream, written from that bot's behaviour.

Usage: dama_cc.py RECORD_FILE [SEED [DECLINE_EVERY]]
Like CC's bot it moves only when it reads its own `Turno bianco!` or `Turno nero!` line and
ignores every other line but the boards: after a refused move it waits for a `Turno` line that
never comes, and loses on time. Its choice is CC's: the first king (in reading order) that can
capture jumps once (up-left, up-right, down-right, down-left), else the first man that can
capture jumps once, else a random piece steps. It never jumps on after one jump, even where the
piece could. Where CC's bot loops for ever (the pieces it tries cannot step) this one tries the
other kind of piece. With DECLINE_EVERY n > 0 it steps instead of capturing at every nth turn
that offers a capture (and a step): CC's server does not force captures.

RECORD_FILE gets one line per move sent, `stopped MOVE` (one jump where the piece could jump
on), `declined MOVE` (a step while a capture was there) or `move MOVE`, and `refused LINE` for
the first line after a move that is neither blank nor the board.
"""
import random
import sys

HEADER = "   A  B  C  D  E  F  G  H"
KING_JUMPS = [(-1, -1), (-1, 1), (1, 1), (1, -1)]


def name(r, c):
    return "%d%s" % (r + 1, "ABCDEFGH"[c])


def inside(r, c):
    return 0 <= r < 8 and 0 <= c < 8


def pieces(board, me):
    """Kings and men of `me` in reading order, as CC's bot lists them."""
    man, king = ("b", "B") if me == 0 else ("n", "N")
    at = [(r, c) for r in range(8) for c in range(8)]
    return [p for p in at if board[p[0]][p[1]] == king], [p for p in at if board[p[0]][p[1]] == man]


def jump(board, me, r, c, king, dirs):
    """The first single jump from (r, c) over an enemy piece (men take men only)."""
    enemy = "nN" if me == 0 else "bB"
    for dr, dc in dirs:
        mr, mc, tr, tc = r + dr, c + dc, r + 2 * dr, c + 2 * dc
        if not inside(tr, tc) or board[tr][tc] != " ":
            continue
        victim = board[mr][mc]
        if victim in enemy and (king or victim.islower()):
            return (tr, tc)
    return None


def forward(me):
    return -1 if me == 0 else 1


def man_dirs(me):
    # CC's order: white up-left then up-right; black down-right then down-left.
    return [(-1, -1), (-1, 1)] if me == 0 else [(1, 1), (1, -1)]


def capture(board, me):
    kings, men = pieces(board, me)
    for r, c in kings:
        to = jump(board, me, r, c, True, KING_JUMPS)
        if to:
            return (r, c), to
    for r, c in men:
        to = jump(board, me, r, c, False, man_dirs(me))
        if to:
            return (r, c), to
    return None


def step_from(board, r, c, dirs):
    for dr, dc in dirs:
        if inside(r + dr, c + dc) and board[r + dr][c + dc] == " ":
            return (r + dr, c + dc)
    return None


def step(board, me, rng):
    """A random piece's first step, as CC's bot picks it: a random index among kings then men;
    from there the next king (or man) in turn that can step."""
    kings, men = pieces(board, me)
    pick = rng.randrange(len(kings) + len(men))
    groups = [(kings, KING_JUMPS), (men, man_dirs(me))]
    if pick >= len(kings):
        groups.reverse()
        pick = rng.randrange(len(men))
    for group, dirs in groups:
        for k in range(len(group)):
            r, c = group[(pick + k) % len(group)]
            to = step_from(board, r, c, dirs)
            if to:
                return (r, c), to
        pick = 0
    return None


def could_go_on(board, me, frm, to):
    """Whether the piece could jump again after its jump (on the board before the move)."""
    king = board[frm[0]][frm[1]].isupper()
    if not king and to[0] in (0, 7):
        return False
    after = [row[:] for row in board]
    after[frm[0]][frm[1]] = "x"
    dirs = KING_JUMPS if king else [(forward(me), -1), (forward(me), 1)]
    return jump(after, me, to[0], to[1], king, dirs) is not None


def main():
    record_path = sys.argv[1]
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    decline_every = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    record = open(record_path, "a")
    me, board, captures_seen, just_moved = None, None, 0, False
    turns = {"Turno bianco!": 0, "Turno nero!": 1}
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        # The prompt that came with the Turno line follows the move: not an answer to it.
        prompt = line.startswith(("Inserisci ", "Es > "))
        if just_moved and not prompt and line not in ("", HEADER):
            record.write("refused %s\n" % line)
            record.flush()
        if line != "" and not prompt:
            just_moved = False
        if line == HEADER:
            board = [list(sys.stdin.readline()[2:26][1::3]) for _ in range(8)]
            sys.stdin.readline()
        elif line in ("Sei i Bianchi", "Sei i Neri"):
            me = 0 if line == "Sei i Bianchi" else 1
        elif turns.get(line) == me and me is not None:
            taken = capture(board, me)
            moved = step(board, me, rng)
            kind = "move"
            if taken:
                captures_seen += 1
                if decline_every and moved and captures_seen % decline_every == 0:
                    kind = "declined"
                else:
                    kind = "stopped" if could_go_on(board, me, *taken) else "move"
                    moved = taken
            if moved is None:
                continue
            text = "%s %s" % (name(*moved[0]), name(*moved[1]))
            record.write("%s %s\n" % (kind, text))
            record.flush()
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
            just_moved = True
        elif line == "Game Over ;)":
            break


main()

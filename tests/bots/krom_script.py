#!/usr/bin/env python3
"""A scripted KROM bot, for tests.

Usage: krom_script.py RECORD NICK TURN...
Sends {"msg": "hello", "nick": NICK}, then {"msg": "join"} after the welcome, then answers each
`you` with the next TURN: a JSON array of actions, sent as {"msg": "move", "moves": TURN}. A TURN
written 'raw:TEXT' sends TEXT as it is; 'hang' sleeps (and never answers); 'exit' exits with
status 3. When the turns run out it answers with empty turns. It reads to the end of its input.
Every line read goes to RECORD, every line sent too, prefixed with '>'. A NICK written
'nonl:NAME' is NAME, and the bot then sends its messages without a newline, as bots written for
8ixi8's frames may.
"""
import json
import sys
import time

record = open(sys.argv[1], "w")
nick, turns = sys.argv[2], sys.argv[3:]
end = "\n"
if nick.startswith("nonl:"):
    nick, end = nick[5:], ""


def send(text):
    record.write(">" + text + "\n")
    record.flush()
    sys.stdout.write(text + end)
    sys.stdout.flush()


send(json.dumps({"msg": "hello", "nick": nick}))
for line in sys.stdin:
    record.write(line)
    record.flush()
    msg = json.loads(line)
    if msg["msg"] == "welcome":
        send(json.dumps({"msg": "join"}))
    elif msg["msg"] == "you":
        turn = turns.pop(0) if turns else "[]"
        if turn == "hang":
            time.sleep(3600)
        elif turn == "exit":
            sys.exit(3)
        elif turn.startswith("raw:"):
            send(turn[4:])
        else:
            send(json.dumps({"msg": "move", "moves": json.loads(turn)}))

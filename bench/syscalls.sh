#!/bin/sh
# System calls per roshambo round: the C floor (bench/relay_floor.c) against `arena duel`.
#
# Usage: bench/syscalls.sh [ARENA [ROUNDS [TOP]]]
#   ARENA   the arena binary (default: $CARGO_TARGET_DIR/release/arena, else target/release/arena;
#           build it first with `cargo build --release`)
#   ROUNDS  rounds of the long game (default 9999, the most a roshambo game allows)
#   TOP     how many system calls to list by name (default 12)
#
# Runs each referee under `strace -f -ff` twice, one game of 1 round and one of ROUNDS rounds,
# between two copies of bots/roshambo/random.c (cc -O2), and counts every traced call by the
# process it was made in: the referee's own threads, and each child up to its execve of the bot
# (the referee's set-up of the bot), are the referee's; what a child does after execve is the
# bot's. Per round = (calls in the long game - calls in the 1-round game) / (ROUNDS - 1), so the
# start and the end of a game are left out; "per game" is what the 1-round game cost in all.
# strace slows everything down: these are counts, not times. Needs cc and strace.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
arena=${1:-${CARGO_TARGET_DIR:-$root/target}/release/arena}
rounds=${2:-9999}
top=${3:-12}
[ -x "$arena" ] || { echo "syscalls.sh: no arena binary at $arena (cargo build --release)" >&2; exit 1; }
[ "$rounds" -ge 2 ] || { echo "syscalls.sh: ROUNDS must be at least 2" >&2; exit 1; }
command -v strace >/dev/null || { echo "syscalls.sh: needs strace" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-syscalls-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
bot=$tmp/rps
cc -O2 -o "$bot" "$root/bots/roshambo/random.c"
cc -O2 -pthread -o "$tmp/relay_floor" "$root/bench/relay_floor.c"

# count LABEL COMMAND...: prints "LABEL SIDE NAME CALLS" for every system call made.
count() {
    label=$1
    shift
    rm -rf "$tmp/trace" "$tmp/out"
    mkdir "$tmp/trace"
    strace -f -ff -o "$tmp/trace/t" "$@" >/dev/null 2>"$tmp/stderr" ||
        { cat "$tmp/stderr" >&2; echo "syscalls.sh: $label failed" >&2; exit 1; }
    awk -v bot="$bot" -v label="$label" '
        FNR == 1 { in_bot = 0 }
        match($0, /^[a-z0-9_]+\(/) {
            name = substr($0, 1, RLENGTH - 1)
            n[(in_bot ? "bot " : "referee ") name]++
            if (name == "execve" && index($0, "execve(\"" bot "\"") == 1 && $0 ~ /= 0$/)
                in_bot = 1
        }
        END { for (k in n) print label, k, n[k] }
    ' "$tmp"/trace/t.*
}

game() { # game REFEREE ROUNDS
    case $1 in
    floor) count "floor$2" "$tmp/relay_floor" "$bot" "$2" 1 1 rps-1 rps-2 ;;
    arena) count "arena$2" "$arena" duel "$bot" "$bot" --game roshambo -a "rounds=$2" \
        --timeout 10 --seed 1 --out "$tmp/out" ;;
    esac
}

{
    for r in floor arena; do
        game $r 1
        game $r "$rounds"
    done
} >"$tmp/counts"

echo "system calls, roshambo between two C bots: per round (a game of $rounds rounds less one of 1)"
echo "and per game (the 1-round game); referee = its threads and its children until they exec the bot"
echo "arena: $arena"
echo
awk -v rounds="$rounds" -v top="$top" -v sorted="$tmp/sorted" '
    {
        ref = ($1 ~ /^floor/) ? "floor" : "arena"
        long = $1 != ref "1"
        key = $2 " " $3
        if (long) l[ref, key] += $4; else s[ref, key] += $4
        keys[key] = 1
    }
    END {
        for (k in keys) {
            split(k, p, " ")
            for (i = 1; i <= 2; i++) {
                ref = (i == 1) ? "floor" : "arena"
                pr = (l[ref, k] - s[ref, k]) / (rounds - 1)
                per[ref, k] = pr
                tot[ref, p[1]] += pr
                game[ref, p[1]] += s[ref, k]
            }
        }
        printf "  %-28s %10s %10s\n", "per round", "floor", "arena"
        printf "  %-28s %10.2f %10.2f\n", "referee, all calls", tot["floor", "referee"], tot["arena", "referee"]
        printf "  %-28s %10.2f %10.2f\n", "bots, all calls", tot["floor", "bot"], tot["arena", "bot"]
        printf "  %-28s %10d %10d\n", "per game: referee", game["floor", "referee"], game["arena", "referee"]
        printf "  %-28s %10d %10d\n", "per game: bots", game["floor", "bot"], game["arena", "bot"]
        table("per round", per)
        table("per game (the 1-round game)", s)
    }
    # Calls of the referee by name, the largest (in either referee) first.
    function table(title, v,    k, m, line, p, shown) {
        print ""
        print "  the referee " title ", by system call:"
        printf "  %-28s %10s %10s\n", "", "floor", "arena"
        for (k in keys) if (k ~ /^referee /) {
            m = v["floor", k] > v["arena", k] ? v["floor", k] : v["arena", k]
            if (m >= 0.005) printf "%012.4f %s\n", m, k | ("sort -r > " sorted)
        }
        close("sort -r > " sorted)
        while ((getline line < sorted) > 0 && shown < top) {
            split(line, p, " ")
            k = p[2] " " p[3]
            printf "  %-28s %10.2f %10.2f\n", p[3], v["floor", k], v["arena", k]
            shown++
        }
        close(sorted)
    }
' "$tmp/counts"

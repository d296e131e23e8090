#!/bin/sh
# SDK referees: a game's wall time under arena against the floor, cg-brutaltester's way of
# running the same referee and bots; and arena's own peak memory with many SDK games at once.
#
# Usage: bench/sdk.sh [ARENA [RUNS]]
#   ARENA   the arena binary (default: $CARGO_TARGET_DIR/release/arena, else target/release/arena;
#           build it first with `cargo build --release`)
#   RUNS    runs of each workload, alternating floor and arena (default $ARENA_BENCH_REPS, else 7;
#           the Java workloads run max(RUNS - 2, 3) times)
#   SDK_BENCH_JAVA=0 leaves the Java workloads out; SDK_BENCH_MEMORY=0 the memory runs;
#   SDK_BENCH_ONLY="c1 c20" runs only those workloads (names below, in `workload`).
#   SDK_BENCH_MEMORY_JOBS="1 8" sets the memory runs' games at once (2 x JOBS games each; by
#   default 1, 32, 128 and 256).
#
# The referee is bench/sdk_referee.c, a C referee that behaves as an SDK referee's command line
# (it starts its players from -p1/-p2, split on single spaces; 200 turns of one line each way,
# answers read byte by byte with a deadline; it prints `League level: 1.`, the scores and
# `seed=N`), the players two copies of bench/sdk_bot.c, which answer at once: so what arena adds
# to a turn shows. All are compiled here with cc -O2.
#   floor   bench/sdk_floor.c: runs the referee with the bots' commands, `REFEREE -p1 BOT -p2 BOT
#           -d seed=G`, reads its stdout to the end and the two scores, as cg-brutaltester's
#           default mode does per game (no arena); GAMES games, JOBS at a time, seats swapped
#           every other game.
#   arena   `arena duel BOT BOT --referee REFEREE --referee-protocol sdk --games GAMES --jobs
#           JOBS`: arena starts the bots, the referee gets seat relays (`arena sdk-relay`).
# Workloads: one game of 200 turns; one of 2,000 (per turn = the difference / 1,800); 20 games of
# 200 turns 2 at a time; one game of 200 turns with --sleep-poll (the referee reads as the Java
# SDK does: a byte if one is available, else sleep 1 ms), and the same with bots that think 2 ms
# a turn (bench/sdk_bot.c 2000: 1 to 3 ms), as real bots do. With javac: bench/SdkReferee.java, the
# same referee in Java reading as the SDK does, one game of 200 turns with the JVM's default
# options, with `-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto`, and with those and an
# AppCDS archive (-XX:SharedArchiveFile, made once here with -XX:ArchiveClassesAtExit); and 20
# games 2 at a time with the default options.
# Each run of a workload times the floor, then arena (wall clock around the whole command, so
# arena's start-up and end count), RUNS times; the fastest of each is printed with the ratio
# arena / floor, the floor's figure beside it. A machine's noise only slows a run down.
#
# Memory: `arena duel` of 2 x JOBS games, JOBS at a time (1, 32, 128, then 256), the bots thinking 1 to 3 ms a
# turn so that the games overlap; arena's own peak RSS is the `VmHWM` of arena's process in
# /proc (its bots, its referees and the referees' relays are other processes), read every 10 ms
# until it exits, with the most games seen running (arena's children / 3: two bots and a referee
# a game). The relays are the arena binary too (`arena sdk-relay`, two a game, children of the
# referee): the largest relay's VmHWM and RssAnon (its own pages, not the binary's shared ones)
# are printed beside. Goal: arena under 20 MiB however many games run at once.
# Needs cc; javac and java for the Java rows. Takes about two minutes with the default RUNS.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
arena=${1:-${CARGO_TARGET_DIR:-$root/target}/release/arena}
runs=${2:-${ARENA_BENCH_REPS:-7}}
[ -x "$arena" ] || { echo "sdk.sh: no arena binary at $arena (cargo build --release)" >&2; exit 1; }
arena=$(cd "$(dirname "$arena")" && pwd)/$(basename "$arena")
jruns=$((runs > 5 ? runs - 2 : 3))

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arena-sdkbench-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/ref" "$root/bench/sdk_referee.c"
cc -O2 -o "$tmp/bot" "$root/bench/sdk_bot.c"
cc -O2 -pthread -o "$tmp/floor" "$root/bench/sdk_floor.c"
java=
if [ "${SDK_BENCH_JAVA:-1}" != 0 ] && command -v javac >/dev/null && command -v java >/dev/null &&
    command -v jar >/dev/null; then
    mkdir "$tmp/classes"
    javac -d "$tmp/classes" "$root/bench/SdkReferee.java"
    jar cf "$tmp/ref.jar" -C "$tmp/classes" .
    # AppCDS: classes loaded by one game, archived at its exit (a directory cannot be archived).
    java -XX:ArchiveClassesAtExit="$tmp/ref.jsa" -cp "$tmp/ref.jar" SdkReferee --turns 2 \
        -p1 "$tmp/bot" -p2 "$tmp/bot" >/dev/null 2>&1
    [ -f "$tmp/ref.jsa" ] && java=yes || echo "sdk.sh: java could not make an AppCDS archive; no Java rows" >&2
fi
# No space in these: the SDK splits player commands on single spaces.
case "$tmp" in *" "*) echo "sdk.sh: the temp folder's path has a space" >&2; exit 1 ;; esac

fast="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto"
# A turn's deadline of 1 s, not the SDK's 100 ms: on a loaded machine a turn now and then took
# longer through arena, the player was out and the game ended early. This bench is about speed.
t="--turns 200 --turn-ms 1000"
# workload NAME: "GAMES JOBS REFEREE..." (the referee's command, split on spaces)
workload() {
    case $1 in
    c1) echo "1 1 $tmp/ref $t" ;;
    c1long) echo "1 1 $tmp/ref --turns 2000 --turn-ms 1000" ;;
    c20) echo "20 2 $tmp/ref $t" ;;
    c1sleep) echo "1 1 $tmp/ref $t --sleep-poll" ;;
    c1think) echo "1 1 $tmp/ref $t --sleep-poll" ;;
    j1) echo "1 1 java -cp $tmp/ref.jar SdkReferee $t" ;;
    j1fast) echo "1 1 java $fast -cp $tmp/ref.jar SdkReferee $t" ;;
    j1cds) echo "1 1 java $fast -XX:SharedArchiveFile=$tmp/ref.jsa -cp $tmp/ref.jar SdkReferee $t" ;;
    j20) echo "20 2 java -cp $tmp/ref.jar SdkReferee $t" ;;
    esac
}
label() {
    case $1 in
    c1) echo "C referee, 1 game of 200 turns" ;;
    c1long) echo "C referee, 1 game of 2,000 turns" ;;
    c20) echo "C referee, 20 games, 2 at a time" ;;
    c1sleep) echo "C referee reading as the SDK, 1 game" ;;
    c1think) echo "the same, bots thinking 1 to 3 ms a turn" ;;
    j1) echo "Java referee, 1 game, default JVM" ;;
    j1fast) echo "Java, 1 game, C1 + SerialGC + CDS" ;;
    j1cds) echo "Java, 1 game, the same + AppCDS" ;;
    j20) echo "Java, 20 games, 2 at a time" ;;
    esac
}

# timed floor|arena NAME: prints the wall time in microseconds.
timed() {
    side=$1 name=$2
    set -- $(workload "$name")
    games=$1 jobs=$2
    shift 2
    fail=0
    bot=$tmp/bot
    case $name in *think) bot="$tmp/bot 2000" ;; esac
    start=$(date +%s%N)
    # A new folder each run, all removed at the end: on ext4 a file made near files deleted in
    # the last minutes is slow to make (README, `throughput`), which deleting each run's folder
    # before the next would cost arena alone.
    out=$tmp/out-$name-$start
    if [ "$side" = floor ]; then
        "$tmp/floor" "$games" "$jobs" "$bot" "$bot" "$@" >/dev/null 2>"$tmp/err" || fail=1
    else
        "$arena" duel "$bot" "$bot" --referee "$*" --referee-protocol sdk --games "$games" \
            --jobs "$jobs" --seed 1 --out "$out" >/dev/null 2>"$tmp/err" || fail=1
    fi
    end=$(date +%s%N)
    # Every game must be played to its end: a player out would shorten it.
    if [ "$side" = arena ] && [ $fail = 0 ] &&
        [ "$(grep -c ',normal,' "$out/games.csv")" != "$games" ]; then
        fail=1
        cat "$out/games.csv" >>"$tmp/err"
    fi
    if [ $fail = 1 ]; then
        echo "sdk.sh: $side, $(label "$name"): failed:" >&2
        tail -5 "$tmp/err" >&2
        rm -rf "${TMPDIR:-/tmp}/sdk-bench-failed"
        [ -d "$out" ] && cp -r "$out" "${TMPDIR:-/tmp}/sdk-bench-failed" &&
            echo "sdk.sh: its logs are in ${TMPDIR:-/tmp}/sdk-bench-failed" >&2
        exit 1
    fi
    echo $(((end - start) / 1000))
}

names="c1 c1long c20 c1sleep c1think"
[ -n "$java" ] && names="$names j1 j1fast j1cds j20"
names=${SDK_BENCH_ONLY:-$names}
echo "SDK referee bench: the floor (the referee run with the bots' commands, as cg-brutaltester does)"
echo "against arena duel --referee-protocol sdk, fastest of $runs alternating runs ($jruns for Java)"
echo "arena: $arena"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in $names; do
    r=$runs
    case $name in j*) r=$jruns ;; esac
    best_f= best_a=
    i=0
    while [ $i -lt "$r" ]; do
        f=$(timed floor "$name")
        a=$(timed arena "$name")
        [ -z "$best_f" ] || [ "$f" -lt "$best_f" ] && best_f=$f
        [ -z "$best_a" ] || [ "$a" -lt "$best_a" ] && best_a=$a
        i=$((i + 1))
    done
    echo "$name $best_f $best_a" >>"$tmp/best"
done
echo
awk -v label="$(for x in $names; do printf '%s=%s;' "$x" "$(label "$x")"; done)" '
    BEGIN { n = split(label, l, ";"); for (i = 1; i <= n; i++) { split(l[i], p, "="); lab[p[1]] = p[2] } }
    { f[$1] = $2; a[$1] = $3; order[++k] = $1 }
    END {
        printf "  %-40s %12s %12s %8s\n", "workload (wall time, fastest run)", "floor ms", "arena ms", "ratio"
        for (i = 1; i <= k; i++) {
            w = order[i]
            printf "  %-40s %12.1f %12.1f %7.2fx\n", lab[w], f[w] / 1000, a[w] / 1000, a[w] / f[w]
        }
        if ("c1" in f && "c1long" in f) {
            pf = (f["c1long"] - f["c1"]) / 1800; pa = (a["c1long"] - a["c1"]) / 1800
            printf "\n  per turn (C referee, 2,000 less 200 turns / 1,800): floor %.1f us, arena %.1f us (%.2fx), arena adds %.1f us\n", pf, pa, pa / pf, pa - pf
            sf = f["c1"] - 200 * pf; sa = a["c1"] - 200 * pa
            printf "  a game less its turns (start and end):                floor %.1f ms, arena %.1f ms, arena adds %.1f ms\n", sf / 1000, sa / 1000, (sa - sf) / 1000
        }
        if ("j1" in f) {
            printf "  JVM share of a 1-game Java run (Java less C reading as the SDK, floor): %.0f ms of %.0f ms\n", (f["j1"] - f["c1sleep"]) / 1000, f["j1"] / 1000
        }
    }
' "$tmp/best"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

[ "${SDK_BENCH_MEMORY:-1}" = 0 ] && exit 0
echo
echo "memory: arena's own peak RSS (VmHWM of its process), 2 x JOBS games of 200 turns, JOBS at a time,"
echo "bots thinking 1 to 3 ms a turn; the games seen running at once; the largest seat relay (arena sdk-relay)"
# sample PID: until it exits, every 10 ms: "HWM_KIB MOST_GAMES RELAY_HWM RELAY_ANON" at its end.
sample() {
    pid=$1 hwm=0 most=0 rhwm=0 ranon=0 k=0
    # Until it has exited (a zombie, until the caller's wait, has no VmHWM line).
    while read -r _ _ state _ 2>/dev/null <"/proc/$pid/stat" && [ "$state" != Z ]; do
        { while IFS=' 	' read -r key value _; do
            [ "$key" = VmHWM: ] && [ "$value" -gt "$hwm" ] && hwm=$value
        done <"/proc/$pid/status"; } 2>/dev/null || true
        kids=0
        for f in /proc/"$pid"/task/*/children; do
            line=
            { read -r line <"$f"; } 2>/dev/null || : # one line, no newline at its end
            set -- $line
            kids=$((kids + $#))
        done
        [ $kids -gt $most ] && most=$kids
        k=$((k + 1))
        # Now and then, the relays: children of the referees, the arena binary.
        if [ $((k % 10)) = 5 ]; then
            for r in $(pgrep -f "$tmp/rdv/" || true); do
                { while IFS=' 	' read -r key value _; do
                    case $key in
                    VmHWM:) [ "$value" -gt "$rhwm" ] && rhwm=$value ;;
                    RssAnon:) [ "$value" -gt "$ranon" ] && ranon=$value ;;
                    esac
                done <"/proc/$r/status"; } 2>/dev/null || true
            done
        fi
        sleep 0.01
    done
    echo "$hwm $((most / 3)) $rhwm $ranon"
}
mkdir "$tmp/rdv"
base=
for jobs in ${SDK_BENCH_MEMORY_JOBS:-1 32 128 256}; do
    games=$((jobs * 2))
    TMPDIR=$tmp/rdv "$arena" duel "$tmp/bot 2000" "$tmp/bot 2000" --referee "$tmp/ref $t" \
        --referee-protocol sdk --games "$games" --jobs "$jobs" --seed 1 --out "$tmp/mem-$jobs" \
        >/dev/null 2>"$tmp/err" &
    pid=$!
    set -- $(sample $pid)
    wait $pid || { echo "sdk.sh: the memory run failed:" >&2; tail -5 "$tmp/err" >&2; exit 1; }
    verdict=PASS
    [ "$1" -lt $((20 * 1024)) ] || verdict=MISS
    # What each game at once adds, over the first run's (one game at a time).
    each=
    [ -n "$base" ] && [ "$2" -gt 1 ] && each=$(echo "$1 $base $2" | awk '{ printf ", %+.0f KiB a game", ($1 - $2) / ($3 - 1) }')
    [ -n "$base" ] || base=$1
    printf "  --jobs %-3s %3s games: arena %5.1f MiB, %3s games seen at once%s; a relay %4.1f MiB (own pages %4.1f MiB)  goal < 20 MiB: %s\n" \
        "$jobs" "$games" "$(echo "$1" | awk '{ print $1 / 1024 }')" "$2" "$each" \
        "$(echo "$3" | awk '{ print $1 / 1024 }')" "$(echo "$4" | awk '{ print $1 / 1024 }')" "$verdict"
    rm -rf "$tmp/mem-$jobs"
done

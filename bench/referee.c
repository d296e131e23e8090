/* referee: the least a cg-brutaltester "old mode" referee can cost, for benches/referee.rs, so
 * that what a driver adds per turn shows (`arena games referee` has the protocol).
 *
 * Usage: referee [TURNS]   (default 20000)
 *
 * Reads `###Seed N` if it comes first, then requires `###Start 2`. Then TURNS turns, the players
 * in turn (0, 1, 0, ...): it writes `###Input P`, one line "TURN SCORE0 SCORE1" (what
 * bench/sdk_bot.c reads), `###Output P 1`, and reads the answer, whose integer is added to P's
 * score. Then `###End 0 1`, `###End 1 0` or `###End 01` by score, and exit 0. If its input ends
 * first (the driver gave up on a player), it exits 1 without an `###End`, as real referees do not
 * send one either. Built by the bench: cc -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *what) {
    fprintf(stderr, "referee: %s\n", what);
    exit(1);
}

int main(int argc, char **argv) {
    long turns = argc > 1 ? atol(argv[1]) : 20000, score[2] = {0, 0};
    char line[256];
    if (turns < 1) die("usage: referee [TURNS]");
    if (!fgets(line, sizeof line, stdin)) die("no ###Start");
    if (!strncmp(line, "###Seed", 7) && !fgets(line, sizeof line, stdin)) die("no ###Start");
    if (strcmp(line, "###Start 2\n")) die("expected ###Start 2");
    for (long t = 0; t < turns; t++) {
        int p = t % 2;
        printf("###Input %d\n%ld %ld %ld\n###Output %d 1\n", p, t, score[0], score[1], p);
        /* One flush a turn, when the referee starts to wait: a referee writing a line at a time
         * (Java's println) would make the driver read three times where once is enough, and the
         * bench is about what the driver costs, not the referee. */
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) die("input ended before the game did");
        score[p] += atol(line);
    }
    printf("###End %s\n", score[0] > score[1] ? "0 1" : score[1] > score[0] ? "1 0" : "01");
    fflush(stdout);
    return 0;
}

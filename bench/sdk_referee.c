/* sdk_referee: a referee that behaves as a CodinGame game-engine SDK referee's command line does,
 * in C, for bench/sdk.sh: the least a referee can cost, so that what arena adds per turn shows.
 *
 * Usage: sdk_referee [--turns N] [--first-ms MS] [--turn-ms MS] [--sleep-poll]
 *                    -p1 CMD -p2 CMD [-d seed=N | -seed N] [-l LOG]
 *
 * As the SDK (and bots/sdk/referee.py): each -pK command is split on single spaces and started
 * without a shell (fork and exec, stdin, stdout and stderr on pipes), both before the game. Then
 * N turns (default 200), the players in turn: the player is written one line, "TURN SCORE0
 * SCORE1", and its answer is read byte by byte until a line end (\n, \r or \r\n), 10,000 bytes
 * or the deadline (1,000 ms for a player's first turn, 100 ms later, from the write): poll(2)
 * with the time left before each byte, or with --sleep-poll as the Java SDK reads (bytes
 * available? read one : sleep 1 ms). Up to 4 KB of the player's stderr is read after each turn,
 * as the SDK does. The answer, an integer, is added to the player's score. A player that misses
 * its deadline, or answers something that is not an integer, is out (score -1) and the game ends.
 * Then it prints, as the SDK's CommandLineInterface does,
 *     League level: 1.
 *     SCORE0
 *     SCORE1
 *     seed=N
 *     (an empty line)
 * writes {"gameResult":{"scores":{...}}} to LOG when -l is given, sends SIGTERM to its players
 * (never waits for them) and exits 0. Built by bench/sdk.sh: cc -O2. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PLAYERS 2
#define MAX_ANSWER 10000

struct player {
    pid_t pid;
    int in, out, err; /* its stdin (we write), stdout and stderr (we read) */
    int turns, last_cr;
    long score;
};

static void die(const char *what) {
    fprintf(stderr, "Exception in thread \"main\" java.lang.RuntimeException: sdk_referee: %s\n", what);
    exit(1);
}

static long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Split on single spaces, as the SDK does (two spaces make an empty argument). */
static char **split(const char *cmd) {
    size_t n = 2;
    for (const char *c = cmd; *c; c++) n += *c == ' ';
    char **argv = calloc(n, sizeof *argv), *copy = strdup(cmd);
    size_t i = 0;
    for (char *part = copy, *sp;; part = sp + 1) {
        argv[i++] = part;
        if (!(sp = strchr(part, ' '))) break;
        *sp = 0;
    }
    argv[i] = NULL;
    return argv;
}

static void start(struct player *p, const char *cmd) {
    int in[2], out[2], err[2];
    char **argv = split(cmd);
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) die("pipe2");
    p->pid = fork();
    if (p->pid < 0) die("fork");
    if (p->pid == 0) {
        dup2(in[0], 0), dup2(out[1], 1), dup2(err[1], 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(in[0]), close(out[1]), close(err[1]);
    p->in = in[1], p->out = out[0], p->err = err[0];
    fcntl(p->err, F_SETFL, O_NONBLOCK);
}

/* One answer line into buf (its end stripped); 0 on a timeout or the end of its output. */
static int answer(struct player *p, char *buf, long deadline, int sleep_poll) {
    size_t n = 0;
    for (;;) {
        long left = deadline - now_ms();
        if (left < 0) return 0;
        if (sleep_poll) { /* processStdout.available() > 0 ? read(1) : Thread.sleep(1) */
            int avail = 0;
            if (ioctl(p->out, FIONREAD, &avail) < 0) return 0;
            if (avail == 0) {
                struct pollfd pf = {p->out, POLLIN, 0};
                if (poll(&pf, 1, 0) == 1 && (pf.revents & (POLLHUP | POLLERR))) return 0;
                struct timespec ms = {0, 1000000L};
                nanosleep(&ms, NULL);
                continue;
            }
        } else {
            struct pollfd pf = {p->out, POLLIN, 0};
            int r = poll(&pf, 1, (int)left);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return 0;
        }
        char c;
        ssize_t r = read(p->out, &c, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return 0;
        /* A \n right after a \r ends nothing: \r\n is one line end (as the SDK reads). */
        int skip = c == '\n' && p->last_cr;
        p->last_cr = c == '\r';
        if (skip) continue;
        if (c == '\n' || c == '\r') {
            buf[n] = 0;
            return 1;
        }
        if (n + 1 >= MAX_ANSWER) {
            buf[n] = 0;
            return 1;
        }
        buf[n++] = c;
    }
}

int main(int argc, char **argv) {
    long turns = 200, first_ms = 1000, turn_ms = 100, seed = 0;
    int sleep_poll = 0, seeded = 0;
    const char *cmds[PLAYERS] = {0}, *log = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--sleep-poll")) sleep_poll = 1;
        else if (!v) die("an option without its value");
        else if (!strcmp(a, "--turns")) turns = atol(v), i++;
        else if (!strcmp(a, "--first-ms")) first_ms = atol(v), i++;
        else if (!strcmp(a, "--turn-ms")) turn_ms = atol(v), i++;
        else if (!strcmp(a, "-p1")) cmds[0] = v, i++;
        else if (!strcmp(a, "-p2")) cmds[1] = v, i++;
        else if (!strcmp(a, "-seed")) seed = atol(v), seeded = 1, i++;
        else if (!strcmp(a, "-l")) log = v, i++;
        else if (!strcmp(a, "-d")) {
            const char *s = strstr(v, "seed=");
            if (s) seed = atol(s + 5), seeded = 1;
            i++;
        } else die("unknown option");
    }
    if (!cmds[0] || !cmds[1] || turns < 1) die("usage: sdk_referee [--turns N] -p1 CMD -p2 CMD");
    if (!seeded) seed = (long)getpid();
    signal(SIGPIPE, SIG_IGN);

    struct player ps[PLAYERS] = {0};
    for (int i = 0; i < PLAYERS; i++) start(&ps[i], cmds[i]);

    static char buf[MAX_ANSWER], errbuf[4096];
    int over = 0;
    for (long t = 0; t < turns && !over; t++) {
        struct player *p = &ps[t % PLAYERS];
        char line[96];
        int len = snprintf(line, sizeof line, "%ld %ld %ld\n", t, ps[0].score, ps[1].score);
        long deadline = now_ms() + (p->turns++ == 0 ? first_ms : turn_ms);
        int ok = write(p->in, line, len) == len && answer(p, buf, deadline, sleep_poll);
        (void)!read(p->err, errbuf, sizeof errbuf); /* readError: at most 4 KB a turn */
        char *end;
        long value = ok ? strtol(buf, &end, 10) : 0;
        if (!ok || end == buf) {
            fprintf(stderr, "sdk_referee: player %d %s at turn %ld\n", (int)(p - ps),
                    ok ? "answered no integer" : "timed out", t);
            p->score = -1;
            over = 1;
        } else {
            p->score += value;
        }
    }

    printf("League level: 1.\n");
    for (int i = 0; i < PLAYERS; i++) printf("%ld\n", ps[i].score);
    printf("seed=%ld\n\n", seed);
    fflush(stdout);
    if (log) {
        FILE *f = fopen(log, "w");
        if (f) {
            fprintf(f, "{\"gameResult\":{\"scores\":{\"0\":%ld,\"1\":%ld}}}\n", ps[0].score, ps[1].score);
            fclose(f);
        }
    }
    for (int i = 0; i < PLAYERS; i++) kill(ps[i].pid, SIGTERM);
    return 0;
}

/* relay_floor: the least work a roshambo referee can do, the floor arena is measured against.
 *
 * Usage: relay_floor BOT ROUNDS GAMES JOBS NAME0 NAME1
 *
 * Plays GAMES games of ROUNDS rounds, JOBS at a time (one thread each, taking the next game when
 * one ends). A game: spawn BOT twice (posix_spawn, stdin and stdout on pipes, the environment as
 * given), write each seat its header as arena does (own name, opponent's name, rounds; one line
 * each), then each round read one line from seat 0, then from seat 1 (blocking reads), and write
 * each seat the other's line. Then close both stdins and reap both bots. No checks, timeouts,
 * scores or logs. Exits 1 if a bot ends early or fails. Built by the benchmarks: cc -O2 -pthread. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char *bot, *names[2];
static long rounds, games, next_game;

static void die(const char *what) { fprintf(stderr, "relay_floor: %s\n", what); exit(1); }

static void put(int fd, const char *buf, size_t n) {
    for (ssize_t w; n > 0; buf += w, n -= w)
        if ((w = write(fd, buf, n)) <= 0) die("write to a bot failed");
}

/* One line (a move fits in one read: the bot writes it whole and waits for the reply). */
static size_t get(int fd, char *buf, size_t size) {
    size_t n = 0;
    do {
        ssize_t r = read(fd, buf + n, size - n);
        if (r <= 0) die("a bot closed its output early");
        n += r;
    } while (buf[n - 1] != '\n' && n < size);
    return n;
}

static pid_t spawn(int *to, int *from) {
    int in[2], out[2];
    pid_t pid;
    char *argv[] = {bot, NULL};
    posix_spawn_file_actions_t fa;
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe2 failed");
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (posix_spawn(&pid, bot, &fa, NULL, argv, environ)) die("cannot start the bot");
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]), close(out[1]);
    *to = in[1], *from = out[0];
    return pid;
}

static void *worker(void *unused) {
    while (__atomic_fetch_add(&next_game, 1, __ATOMIC_RELAXED) < games) {
        int to[2], from[2], status;
        pid_t pid[2];
        char line[2][64];
        size_t len[2];
        for (int s = 0; s < 2; s++) pid[s] = spawn(&to[s], &from[s]);
        for (int s = 0; s < 2; s++) {
            char head[512];
            int n = snprintf(head, sizeof head, "%s\n%s\n%ld\n", names[s], names[1 - s], rounds);
            if (n < 0 || n >= (int)sizeof head) die("names too long");
            put(to[s], head, n);
        }
        for (long r = 0; r < rounds; r++) {
            for (int s = 0; s < 2; s++) len[s] = get(from[s], line[s], sizeof line[s]);
            for (int s = 0; s < 2; s++) put(to[s], line[1 - s], len[1 - s]);
        }
        for (int s = 0; s < 2; s++) close(to[s]);
        for (int s = 0; s < 2; s++) {
            if (waitpid(pid[s], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
                die("a bot failed");
            close(from[s]);
        }
    }
    return unused;
}

int main(int argc, char **argv) {
    long jobs;
    pthread_t threads[64];
    if (argc != 7) die("usage: relay_floor BOT ROUNDS GAMES JOBS NAME0 NAME1");
    bot = argv[1], rounds = atol(argv[2]), games = atol(argv[3]), jobs = atol(argv[4]);
    names[0] = argv[5], names[1] = argv[6];
    if (rounds < 1 || games < 1 || jobs < 1 || jobs > 64) die("bad ROUNDS, GAMES or JOBS");
    for (long j = 1; j < jobs; j++) /* the main thread is the first worker */
        if (pthread_create(&threads[j], NULL, worker, NULL)) die("pthread_create failed");
    worker(NULL);
    for (long j = 1; j < jobs; j++) pthread_join(threads[j], NULL);
    return 0;
}

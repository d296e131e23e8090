/* sdk_floor: what cg-brutaltester does per game with an SDK referee, and nothing more: the floor
 * arena's SDK games are measured against in bench/sdk.sh.
 *
 * Usage: sdk_floor GAMES JOBS BOT1 BOT2 REFEREE [REFEREE ARGS...]
 *
 * Plays GAMES games, JOBS at a time (one thread each, taking the next game when one ends). A
 * game: start the referee (posix_spawn, its stdout on a pipe, stderr and the environment as
 * given) as `REFEREE... -p1 A -p2 B -d seed=G`, the bots' seats swapped every other game as
 * arena's duel does (G the game's number, from 1); read its stdout to the end and reap it; read
 * the two scores as cg-brutaltester does (the first two lines that are integers). The referee
 * starts the bots itself. Prints the number of games whose referee failed or gave a player -1 on
 * stderr and exits 1 if there was any. Built by bench/sdk.sh: cc -O2 -pthread. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static char **referee, *bots[2];
static int referee_args;
static long games, next_game, failed;

static void die(const char *what) { fprintf(stderr, "sdk_floor: %s\n", what); exit(1); }

static void *worker(void *unused) {
    long g;
    while ((g = __atomic_add_fetch(&next_game, 1, __ATOMIC_RELAXED)) <= games) {
        char seed[32], out[4096], *argv[64];
        int n = 0, pipefd[2], status;
        pid_t pid;
        for (int i = 0; i < referee_args; i++) argv[n++] = referee[i];
        int swap = (g - 1) % 2;
        snprintf(seed, sizeof seed, "seed=%ld", g);
        argv[n++] = "-p1", argv[n++] = bots[swap];
        argv[n++] = "-p2", argv[n++] = bots[1 - swap];
        argv[n++] = "-d", argv[n++] = seed;
        argv[n] = NULL;
        posix_spawn_file_actions_t fa;
        if (pipe2(pipefd, O_CLOEXEC)) die("pipe2 failed");
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
        if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) die("cannot start the referee");
        posix_spawn_file_actions_destroy(&fa);
        close(pipefd[1]);
        size_t len = 0;
        for (ssize_t r; (r = read(pipefd[0], out + len, sizeof out - 1 - len)) > 0;) len += r;
        out[len] = 0;
        close(pipefd[0]);
        if (waitpid(pid, &status, 0) < 0) die("waitpid failed");
        long scores[2];
        int got = 0;
        for (char *line = strtok(out, "\n"); line && got < 2; line = strtok(NULL, "\n")) {
            char *end;
            long v = strtol(line, &end, 10);
            if (end != line && *end == 0) scores[got++] = v;
        }
        if (!WIFEXITED(status) || WEXITSTATUS(status) || got < 2 || scores[0] < 0 || scores[1] < 0)
            __atomic_add_fetch(&failed, 1, __ATOMIC_RELAXED);
    }
    return unused;
}

int main(int argc, char **argv) {
    long jobs;
    pthread_t threads[64];
    if (argc < 6) die("usage: sdk_floor GAMES JOBS BOT1 BOT2 REFEREE [ARGS...]");
    games = atol(argv[1]), jobs = atol(argv[2]);
    bots[0] = argv[3], bots[1] = argv[4];
    referee = argv + 5, referee_args = argc - 5;
    if (games < 1 || jobs < 1 || jobs > 64 || referee_args > 50) die("bad GAMES, JOBS or REFEREE");
    for (long j = 1; j < jobs; j++) /* the main thread is the first worker */
        if (pthread_create(&threads[j], NULL, worker, NULL)) die("pthread_create failed");
    worker(NULL);
    for (long j = 1; j < jobs; j++) pthread_join(threads[j], NULL);
    if (failed) {
        fprintf(stderr, "sdk_floor: %ld of %ld games failed (a player out, or the referee)\n", failed, games);
        return 1;
    }
    return 0;
}

/* referee_floor: the least work a driver of a cg-brutaltester "old mode" referee can do, the floor
 * arena is measured against in benches/referee.rs.
 *
 * Usage: referee_floor SEED BOT0 BOT1 REFEREE [ARG...]
 *
 * Spawns the referee (REFEREE with its ARGs) and the two bots (posix_spawn, no shell, stdin and
 * stdout on pipes, stderr and the environment as given), writes the referee `###Seed SEED` (none
 * if SEED is `-`) and `###Start 2` in one write, then does what the referee's lines say until
 * `###End`: the lines after `###Input i` go to bot i, in one write when the next command comes;
 * `###Output i n` reads n lines from bot i and writes them to the referee in one write;
 * `###Error` is skipped. Blocking reads and writes, no deadlines, checks or logs. At the end it
 * prints the `###End` line and `turns N` (the `###Output`s answered), closes everyone's stdin
 * and reaps all three. Exits 1 if anyone fails, ends early or breaks the protocol. Built by the
 * bench: cc -O2. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct reader {
    int fd;
    size_t start, end;
    char buf[1 << 16];
};

/* A growing buffer for one write: an input block, or an answer of n lines. */
struct pending {
    char *data;
    size_t len, cap;
};

static void die(const char *what) {
    fprintf(stderr, "referee_floor: %s\n", what);
    exit(1);
}

static void put(int fd, const char *buf, size_t n) {
    for (ssize_t w; n > 0; buf += w, n -= w)
        if ((w = write(fd, buf, n)) <= 0) die("write failed");
}

static void append(struct pending *p, const char *s, size_t n) {
    if (p->len + n > p->cap) {
        p->cap = (p->len + n) * 2;
        if (!(p->data = realloc(p->data, p->cap))) die("out of memory");
    }
    memcpy(p->data + p->len, s, n);
    p->len += n;
}

/* The next line, its LF included, valid until the next call; NULL at the end of input. Reads
 * only when no whole line is buffered, so a turn written at once costs one read. */
static char *next_line(struct reader *r, size_t *len) {
    for (;;) {
        char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
        if (nl) {
            char *line = r->buf + r->start;
            *len = nl + 1 - line;
            r->start += *len;
            return line;
        }
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start, r->start = 0;
        }
        if (r->end == sizeof r->buf) die("a line longer than 64 KiB");
        ssize_t n = read(r->fd, r->buf + r->end, sizeof r->buf - r->end);
        if (n <= 0) return NULL;
        r->end += n;
    }
}

static pid_t spawn(char **argv, int *to, struct reader *from) {
    int in[2], out[2];
    pid_t pid;
    posix_spawn_file_actions_t fa;
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) die("pipe2 failed");
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) die("cannot start a program");
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]), close(out[1]);
    *to = in[1];
    from->fd = out[0], from->start = from->end = 0;
    return pid;
}

static int player(const char *s, const char *line) {
    if (*s != '0' && *s != '1') {
        fprintf(stderr, "referee_floor: no player 0 or 1 in: %s", line);
        exit(1);
    }
    return *s - '0';
}

int main(int argc, char **argv) {
    static struct reader ref, bot[2];
    struct pending input = {0}, answer = {0};
    int to_ref, to_bot[2], target = -1, status;
    pid_t pid[3];
    long turns = 0;
    char head[64], *line, *end_line = NULL;
    size_t len;
    if (argc < 5) die("usage: referee_floor SEED BOT0 BOT1 REFEREE [ARG...]");
    for (int s = 0; s < 2; s++) {
        char *bot_argv[] = {argv[2 + s], NULL};
        pid[s] = spawn(bot_argv, &to_bot[s], &bot[s]);
    }
    pid[2] = spawn(argv + 4, &to_ref, &ref);
    int n = strcmp(argv[1], "-") ? snprintf(head, sizeof head, "###Seed %s\n###Start 2\n", argv[1])
                                  : snprintf(head, sizeof head, "###Start 2\n");
    if (n < 0 || n >= (int)sizeof head) die("SEED too long");
    put(to_ref, head, n);
    while ((line = next_line(&ref, &len))) {
        if (strncmp(line, "###", 3)) {
            if (target < 0) die("a line outside an ###Input block");
            append(&input, line, len);
            continue;
        }
        /* Any command ends the input block before it. */
        if (input.len) put(to_bot[target], input.data, input.len), input.len = 0;
        target = -1;
        if (!strncmp(line, "###Input ", 9)) {
            target = player(line + 9, line);
        } else if (!strncmp(line, "###Output ", 10)) {
            int p = player(line + 10, line);
            long want = atol(line + 12);
            if (line[11] != ' ' || want < 1) die("a malformed ###Output");
            answer.len = 0;
            for (long i = 0; i < want; i++) {
                char *a;
                size_t alen;
                if (!(a = next_line(&bot[p], &alen))) die("a bot ended its output early");
                append(&answer, a, alen);
            }
            put(to_ref, answer.data, answer.len);
            turns++;
        } else if (!strncmp(line, "###End", 6)) {
            end_line = strndup(line, len);
            break;
        } else if (strncmp(line, "###Error", 8)) {
            die("an unknown command");
        }
    }
    if (!end_line) die("the referee ended without ###End");
    printf("%sturns %ld\n", end_line, turns);
    close(to_ref), close(to_bot[0]), close(to_bot[1]);
    for (int i = 0; i < 3; i++)
        if (waitpid(pid[i], &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
            die("a program failed");
    return 0;
}

/* The floor under the hot table's target (10,000 sockets on one table, push p99 <= 100 ms):
 * how soon this machine's kernel can deliver one update to N loopback TCP sockets, with no
 * Python, no WebSocket and no framework on either side.
 *
 * S sender processes share the N server sockets (as S gateway processes would); R reader
 * processes share the N client sockets (as the bench's audience does). Every `interval` ms an
 * update of `bytes` bytes is written to every socket in turn, as the gateway's fan-out does;
 * each reader stamps each arrival against the update's planned start (CLOCK_MONOTONIC, one
 * clock for all the processes). Prints p50, p99 and the worst delay over all N x U arrivals.
 *
 *   cc -O2 -o fanout_floor bench/fanout_floor.c
 *   ./fanout_floor N UPDATES SENDERS READERS [interval_ms=500] [bytes=300]
 *
 * Run by bench/fanout_floor.py, which compiles it. C, not Python: it measures what the
 * kernel and the two cores allow, the floor any gateway stands on.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void sleep_until(double at_ms) {
    double left = at_ms - now_ms();
    if (left > 0) {
        struct timespec t = {(time_t)(left / 1e3), (long)((left - (time_t)(left / 1e3) * 1e3) * 1e6)};
        nanosleep(&t, NULL);
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what) { perror(what); exit(1); }

/* Connects its `n` sockets, then reads them until each has had every update; writes its
 * delays to `out`. */
static void reader(struct sockaddr_in *addr, int n, int updates, size_t size, int out) {
    int *fds = malloc(n * sizeof *fds);
    for (int i = 0; i < n; i++) {
        fds[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(fds[i], (struct sockaddr *)addr, sizeof *addr)) die("connect");
    }
    int ep = epoll_create1(0);
    for (int i = 0; i < n; i++) {
        struct epoll_event e = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &e)) die("epoll_ctl");
    }
    long total = (long)n * updates, got = 0;
    size_t *have = calloc(n, sizeof *have); /* bytes of the update being read */
    double *delays = malloc(total * sizeof *delays);
    char buf[65536];
    struct epoll_event events[256];
    while (got < total) {
        int k = epoll_wait(ep, events, 256, 5000);
        if (k <= 0) { fprintf(stderr, "reader: %ld of %ld arrived\n", got, total); break; }
        for (int j = 0; j < k; j++) {
            int i = (int)events[j].data.u32;
            ssize_t r = read(fds[i], buf, sizeof buf);
            if (r <= 0) continue;
            double at = now_ms();
            for (ssize_t off = 0; off < r;) {
                size_t take = size - have[i] < (size_t)(r - off) ? size - have[i] : (size_t)(r - off);
                if (have[i] == 0) { /* an update starts with the time it was planned for */
                    double planned;
                    memcpy(&planned, buf + off, sizeof planned);
                    delays[got++] = at - planned;
                }
                have[i] = (have[i] + take) % size;
                off += (ssize_t)take;
            }
        }
    }
    if (write(out, &got, sizeof got) < 0 || write(out, delays, got * sizeof *delays) < 0)
        die("write");
    exit(0);
}

static void sender(int *fds, int n, int updates, double start, double interval, size_t size) {
    char *msg = calloc(1, size);
    for (int u = 0; u < updates; u++) {
        double planned = start + u * interval;
        memcpy(msg, &planned, sizeof planned);
        sleep_until(planned);
        for (int i = 0; i < n; i++)
            for (size_t off = 0; off < size;) {
                ssize_t w = write(fds[i], msg + off, size - off);
                if (w < 0) die("send");
                off += (size_t)w;
            }
    }
    exit(0);
}

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: %s N UPDATES SENDERS READERS [interval_ms] [bytes]\n", argv[0]); return 2; }
    int n = atoi(argv[1]), updates = atoi(argv[2]), senders = atoi(argv[3]), readers = atoi(argv[4]);
    double interval = argc > 5 ? atof(argv[5]) : 500;
    size_t size = argc > 6 ? (size_t)atoi(argv[6]) : 300;
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    if (lim.rlim_max < (rlim_t)n + 64) { fprintf(stderr, "%d sockets need more open files than the limit (%ld)\n", n, (long)lim.rlim_max); return 2; }
    lim.rlim_cur = lim.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &lim)) die("setrlimit (file descriptors)");

    int lsn = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(lsn, (struct sockaddr *)&addr, sizeof addr) || listen(lsn, 4096)) die("listen");
    socklen_t len = sizeof addr;
    getsockname(lsn, (struct sockaddr *)&addr, &len);
    int pipes[64][2];
    for (int r = 0; r < readers && r < 64; r++) {
        if (pipe(pipes[r])) die("pipe");
        if (fork() == 0) {
            int lo = (int)((long)n * r / readers), hi = (int)((long)n * (r + 1) / readers);
            reader(&addr, hi - lo, updates, size, pipes[r][1]);
        }
        close(pipes[r][1]);
    }
    int *server = malloc(n * sizeof *server);
    int one = 1;
    for (int i = 0; i < n; i++) {
        server[i] = accept(lsn, NULL, NULL);
        if (server[i] < 0) die("accept");
        setsockopt(server[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* as uvloop's */
    }
    double start = now_ms() + 1000;
    for (int s = 0; s < senders; s++)
        if (fork() == 0) {
            int lo = (int)((long)n * s / senders), hi = (int)((long)n * (s + 1) / senders);
            sender(server + lo, hi - lo, updates, start, interval, size);
        }
    for (int i = 0; i < n; i++) close(server[i]);
    long total = (long)n * updates, got = 0;
    double *all = malloc(total * sizeof *all);
    for (int r = 0; r < readers; r++) {
        long k;
        FILE *f = fdopen(pipes[r][0], "r");
        if (fread(&k, sizeof k, 1, f) != 1 || fread(all + got, sizeof *all, k, f) != (size_t)k)
            die("read a reader's delays");
        got += k;
    }
    while (wait(NULL) > 0) {}
    qsort(all, got, sizeof *all, cmp);
    printf("%d sockets, %d senders, %d readers, %d updates of %zu bytes: %ld of %ld arrived; "
           "p50 %.1f ms, p99 %.1f ms, worst %.1f ms\n", n, senders, readers, updates, size,
           got, total, all[got / 2], all[(long)(got * 0.99)], all[got - 1]);
    return got == total ? 0 : 1;
}

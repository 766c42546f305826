/* The audience of bench/feed_bench.py (`--client c`), in C: thousands of feed sockets read
 * with as little of the shared cores' CPU as can be, so that what the bench times is the
 * gateways' fan-out and not its own reading (the Python raw client costs 65-80 ms of CPU per
 * update of a table 10,000 sockets follow: docs/performance-log.md).
 *
 * stdin, one line each: "HOST PORT PATH" for every socket, then an empty line. The sockets are
 * opened 200 at a time (the WebSocket handshake by hand, RFC 6455 section 4.1); each is open
 * once its first text frame (the table's current state) has come. Then on stdout: "opened".
 * stdin then says "start" (count from now) and "finish N" (N updates expected over all the
 * sockets); the reader goes on until N have come or 30 s have passed, and prints
 * "received R", "closed CODE COUNT" lines, "cpu SECONDS" (its own since "start"), "bytes B"
 * (the updates' frames, header and payload, as they came over the sockets), then one
 * latency a line
 * (seconds from the update's "written" stamp to its receipt, both wall-clock time) and "end".
 * Pings are answered (uvicorn's keepalive), masked with a zero key as a client's frames are.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { AWAITING_101, AWAITING_STATE, LIVE, GONE };

typedef struct {
    int fd, state;
    char *pending; /* the bytes of a frame cut by the last read */
    size_t npending;
} Sock;

static Sock *socks;
static int nsocks, counting;
static long received, closed_codes[5000];
static long long update_bytes; /* the updates' frames, header and payload, since "start" */
static double *latencies;
static long nlat, caplat;

static double cpu_seconds(void) {
    struct rusage use;
    getrusage(RUSAGE_SELF, &use);
    return use.ru_utime.tv_sec + use.ru_utime.tv_usec / 1e6 + use.ru_stime.tv_sec +
           use.ru_stime.tv_usec / 1e6;
}

static double wall(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what) { perror(what); exit(1); }

static void record(double latency) {
    if (nlat == caplat) {
        caplat = caplat ? caplat * 2 : 1 << 16;
        latencies = realloc(latencies, caplat * sizeof *latencies);
    }
    latencies[nlat++] = latency;
}

/* One update's payload: its "written" stamp. */
static void update(const char *p, size_t n, double at) {
    static const char key[] = "\"written\":";
    const char *found = memmem(p, n, key, sizeof key - 1);
    if (found == NULL) return;
    received++;
    record(at - strtod(found + sizeof key - 1, NULL));
}

/* Frames in `p[0..n)`; returns how many bytes were whole frames. */
static size_t frames(Sock *s, const char *p, size_t n, double at) {
    size_t at_ = 0;
    while (n - at_ >= 2) {
        const unsigned char *h = (const unsigned char *)p + at_;
        size_t len = h[1] & 0x7F, start = at_ + 2;
        if (len == 126) {
            if (n - at_ < 4) break;
            len = (size_t)h[2] << 8 | h[3];
            start = at_ + 4;
        } else if (len == 127) {
            if (n - at_ < 10) break;
            len = 0;
            for (int i = 2; i < 10; i++) len = len << 8 | h[i];
            start = at_ + 10;
        }
        if (n < start + len) break;
        int opcode = h[0] & 0x0F;
        if (opcode == 1) {
            if (s->state == AWAITING_STATE) s->state = LIVE;
            else if (counting) {
                update(p + start, len, at);
                update_bytes += (long long)(start + len - at_);
            }
        } else if (opcode == 9 && len < 126) {
            char pong[2 + 4 + 125] = {(char)0x8A, (char)(0x80 | len)};
            memcpy(pong + 6, p + start, len);
            if (write(s->fd, pong, 6 + len) < 0) { /* the socket's end comes by its read */ }
        } else if (opcode == 8) {
            int code = len >= 2 ? ((unsigned char)p[start] << 8 | (unsigned char)p[start + 1]) : 1005;
            if (code >= 0 && code < 5000) closed_codes[code]++;
            s->state = GONE;
        }
        at_ = start + len;
    }
    return at_;
}

static char buf[1 << 18];

static void readable(Sock *s) {
    ssize_t r = read(s->fd, buf, sizeof buf);
    if (r <= 0) {
        if (r < 0 && errno == EAGAIN) return;
        s->state = GONE;
        close(s->fd);
        return;
    }
    double at = wall();
    char *data = buf;
    size_t n = (size_t)r;
    if (s->npending) { /* the cut frame first */
        s->pending = realloc(s->pending, s->npending + n);
        memcpy(s->pending + s->npending, buf, n);
        data = s->pending;
        n += s->npending;
    }
    size_t used = 0;
    if (s->state == AWAITING_101) {
        char *end = memmem(data, n, "\r\n\r\n", 4);
        if (end == NULL) used = 0;
        else if (strncmp(data, "HTTP/1.1 101", 12) != 0) {
            fprintf(stderr, "feed_reader: refused: %.60s\n", data);
            exit(1);
        } else {
            s->state = AWAITING_STATE;
            used = (size_t)(end + 4 - data);
        }
    }
    if (s->state != AWAITING_101) used += frames(s, data + used, n - used, at);
    size_t left = n - used;
    if (left) {
        char *kept = malloc(left);
        memcpy(kept, data + used, left);
        free(s->pending);
        s->pending = kept;
    } else {
        free(s->pending);
        s->pending = NULL;
    }
    s->npending = left;
}

static int ep;

static void poll_once(int timeout_ms) {
    struct epoll_event events[512];
    int k = epoll_wait(ep, events, 512, timeout_ms);
    for (int j = 0; j < k; j++)
        if (events[j].data.u32 != (unsigned)-1) readable(&socks[events[j].data.u32]);
}

static int open_count(int lo, int hi) {
    int open = 0;
    for (int i = lo; i < hi; i++) open += socks[i].state == LIVE;
    return open;
}

int main(void) {
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim);
    char line[4096];
    char (*hosts)[64] = NULL, (*paths)[1024] = NULL;
    int *ports = NULL, cap = 0;
    while (fgets(line, sizeof line, stdin) && line[0] != '\n') {
        if (nsocks == cap) {
            cap = cap ? cap * 2 : 1024;
            hosts = realloc(hosts, cap * sizeof *hosts);
            paths = realloc(paths, cap * sizeof *paths);
            ports = realloc(ports, cap * sizeof *ports);
        }
        if (sscanf(line, "%63s %d %1023s", hosts[nsocks], &ports[nsocks], paths[nsocks]) != 3) {
            fprintf(stderr, "feed_reader: not HOST PORT PATH: %s", line);
            return 2;
        }
        nsocks++;
    }
    socks = calloc(nsocks, sizeof *socks);
    ep = epoll_create1(0);
    for (int lo = 0; lo < nsocks; lo += 200) {
        int hi = lo + 200 < nsocks ? lo + 200 : nsocks;
        for (int i = lo; i < hi; i++) {
            struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(ports[i])};
            inet_pton(AF_INET, hosts[i], &addr.sin_addr);
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr)) die("connect");
            char request[1400];
            int len = snprintf(request, sizeof request,
                               "GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
                               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                               "Sec-WebSocket-Version: 13\r\n\r\n", paths[i], hosts[i], ports[i]);
            if (write(fd, request, (size_t)len) != len) die("handshake");
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
            socks[i] = (Sock){.fd = fd, .state = AWAITING_101};
            struct epoll_event e = {.events = EPOLLIN, .data.u32 = (unsigned)i};
            epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
        }
        double deadline = wall() + 120;
        while (open_count(lo, hi) < hi - lo) {
            if (wall() > deadline) { fprintf(stderr, "feed_reader: sockets not open in 120 s\n"); return 1; }
            poll_once(100);
        }
    }
    printf("opened\n");
    fflush(stdout);
    /* stdin's commands, read as the sockets are */
    struct epoll_event e = {.events = EPOLLIN, .data.u32 = (unsigned)-1};
    epoll_ctl(ep, EPOLL_CTL_ADD, 0, &e);
    long expected = -1;
    double deadline = 0, cpu_at_start = 0;
    char command[256];
    size_t ncommand = 0;
    for (;;) {
        struct epoll_event events[512];
        int k = epoll_wait(ep, events, 512, 100);
        for (int j = 0; j < k; j++) {
            if (events[j].data.u32 != (unsigned)-1) { readable(&socks[events[j].data.u32]); continue; }
            ssize_t r = read(0, command + ncommand, sizeof command - 1 - ncommand);
            if (r <= 0) return 0; /* the bench went */
            ncommand += (size_t)r;
            command[ncommand] = 0;
            char *nl;
            while ((nl = strchr(command, '\n')) != NULL) {
                *nl = 0;
                if (strcmp(command, "start") == 0) {
                    counting = 1;
                    received = nlat = 0;
                    update_bytes = 0;
                    cpu_at_start = cpu_seconds();
                }
                else if (strncmp(command, "finish ", 7) == 0) { expected = atol(command + 7); deadline = wall() + 30; }
                size_t rest = ncommand - (size_t)(nl + 1 - command);
                memmove(command, nl + 1, rest + 1);
                ncommand = rest;
            }
        }
        if (expected >= 0 && (received >= expected || wall() > deadline)) break;
    }
    printf("received %ld\n", received);
    for (int code = 0; code < 5000; code++)
        if (closed_codes[code]) printf("closed %d %ld\n", code, closed_codes[code]);
    printf("cpu %.3f\n", cpu_seconds() - cpu_at_start);
    printf("bytes %lld\n", update_bytes);
    for (long i = 0; i < nlat; i++) printf("%.6f\n", latencies[i]);
    printf("end\n");
    fflush(stdout);
    return 0;
}

/* cmtlab delay line: one emulated path between two network namespaces over two TUN devices.
 *
 * Each direction (a->b: packets read from the TUN in namespace A are written to the TUN in
 * namespace B; b->a the reverse) has a bottleneck rate (bit/s), a drop-tail queue (packets
 * and/or bytes, counting every packet that has not finished serialisation), a one-way
 * propagation delay and an independent random drop probability with its own seed (drop at
 * arrival, before the queue, as netem's loss).  A packet arriving at t starts serialisation at
 * max(t, end of the previous packet), finishes after size*8/rate and leaves the line one
 * propagation delay later.  No Python is in the packet path: one thread, epoll, an absolute
 * CLOCK_MONOTONIC timerfd, 1 ns timer slack, SCHED_FIFO where allowed and a
 * /dev/cpu_dma_latency request while running (cmtlab MECHANISMS.md, "The kernel here").
 *
 * Usage: delayline --ns-a PATH --dev-a NAME --ns-b PATH --dev-b NAME
 *          [--rate-ab BPS] [--delay-ab-ns NS] [--queue-ab-pkts N] [--queue-ab-bytes N]
 *          [--loss-ab P] [--seed-ab S] [--sched-ab R1,R2,... --sched-interval-ab-ns N]
 *          [--jitter-ab-ns J]
 *          (same with -ba)   [--max-runtime-s T] [--owner-pid PID]
 * --jitter-*: per-packet delay variation: each packet's propagation delay is the delay plus an
 * independent uniform draw in [0, J) ns (its own random stream, so the loss draws do not change);
 * packets leave in the order of their delivery times, so a later packet may overtake an earlier
 * one (reordering).  Without it packets leave in FIFO order, as before.
 * --sched-*: the rate follows the schedule (bit/s per interval of N ns, repeating) from the moment
 * the line prints READY; a packet's serialisation is integrated across interval boundaries.  A
 * scheduled direction also measures its replay, per interval since READY (not repeating; the first
 * MAX_SCHED_BINS): the bytes written out, binned by write time minus the propagation delay
 * ("interval_bytes"), and how long the serialiser had nothing to send ("interval_idle_s"); with the
 * counters it prints "t0_s", READY's CLOCK_MONOTONIC time (the endpoints' time.monotonic clock).
 * The TUN devices are created (non-persistent) inside the namespaces; they vanish when the
 * process exits.  Prints "READY\n" once both exist; on SIGTERM/SIGINT (or the runtime bound)
 * prints the counters as one JSON line on stdout and exits 0.  Dies with its parent
 * (PR_SET_PDEATHSIG; with --owner-pid it exits at once if its parent is already not PID, the race
 * between fork and prctl).  --max-runtime-s must be a finite number in (0, 1e6] s: an infinite or
 * huge value would overflow the deadline and stop the line at once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_PKT 65536
#define MAX_SCHED_BINS 7200

typedef struct pkt {
    struct pkt *next;
    int64_t tx_end_ns;   /* end of serialisation */
    int64_t deliver_ns;  /* tx_end + delay */
    uint32_t len;
    unsigned char data[];
} pkt;

typedef struct {
    const char *name;
    int in_fd, out_fd;
    double rate_bps;        /* 0 = unlimited */
    int64_t delay_ns;
    int64_t queue_pkts;     /* 0 = unlimited */
    int64_t queue_bytes;    /* 0 = unlimited */
    double loss;
    double *sched;          /* rate schedule (bit/s per interval), NULL = constant rate_bps */
    int64_t nsched;
    int64_t sched_ns;       /* interval of the schedule */
    int64_t t0;             /* the schedule's time 0: when the line is READY */
    int64_t jitter_ns;      /* per-packet delay variation: uniform in [0, jitter_ns) */
    uint64_t jrng;
    uint64_t rng;
    int64_t link_free_ns;
    pkt *head, *tail;       /* FIFO of packets not yet delivered */
    pkt *q_head;            /* first packet whose serialisation has not ended */
    int64_t q_pkts, q_bytes;/* backlog (not finished serialisation) */
    uint64_t rx_pkts, rx_bytes, fwd_pkts, fwd_bytes, queue_drops, random_drops, write_errors;
    int64_t max_q_pkts, max_q_bytes;
    uint64_t *bin_bytes;    /* scheduled: bytes written out per interval since t0 (write time - delay) */
    int64_t *bin_idle_ns;   /* scheduled: time per interval the serialiser had nothing to send */
    int64_t max_late_ns;    /* latest write after a packet's delivery time */
} dir_t;

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* xorshift64* seeded through splitmix64: a uniform double in [0, 1). */
static double urand(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    *s = x;
    return (double)((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}
static uint64_t seed_state(uint64_t seed) {
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z ? z : 1;
}

static void die(const char *what) {
    fprintf(stderr, "delayline: %s: %s\n", what, strerror(errno));
    exit(2);
}

static int open_tun_in(const char *ns_path, const char *dev, int self_ns) {
    int nsfd = open(ns_path, O_RDONLY | O_CLOEXEC);
    if (nsfd < 0) die(ns_path);
    if (setns(nsfd, CLONE_NEWNET) < 0) die("setns");
    close(nsfd);
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) die("/dev/net/tun");
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, dev, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) die("TUNSETIFF");
    if (setns(self_ns, CLONE_NEWNET) < 0) die("setns back");
    return fd;
}

static void advance_queue(dir_t *d, int64_t t) {
    while (d->q_head && d->q_head->tx_end_ns <= t) {
        d->q_pkts--; d->q_bytes -= d->q_head->len;
        d->q_head = d->q_head->next;
    }
}

static unsigned char buf[MAX_PKT];

/* Replay measurement of a scheduled direction: the serialiser idle over [from, to). */
static void add_idle(dir_t *d, int64_t from, int64_t to) {
    if (!d->bin_idle_ns) return;
    if (from < d->t0) from = d->t0;
    while (from < to) {
        int64_t i = (from - d->t0) / d->sched_ns;
        if (i >= MAX_SCHED_BINS) return;
        int64_t end = d->t0 + (i + 1) * d->sched_ns;
        int64_t stop = to < end ? to : end;
        d->bin_idle_ns[i] += stop - from;
        from = stop;
    }
}

/* Replay measurement: a packet of len bytes written at t (due at deliver_ns). */
static void count_out(dir_t *d, int64_t t, int64_t deliver_ns, uint32_t len) {
    if (t - deliver_ns > d->max_late_ns) d->max_late_ns = t - deliver_ns;
    if (!d->bin_bytes) return;
    int64_t x = t - d->delay_ns - d->t0;
    if (x < 0) return;
    int64_t i = x / d->sched_ns;
    if (i < MAX_SCHED_BINS) d->bin_bytes[i] += len;
}

/* End of serialisation of n bytes starting at `start`: constant rate, or the schedule integrated
 * across interval boundaries (an interval of rate 0 is an outage: the packet waits); it repeats. */
static int64_t ser_end(const dir_t *d, int64_t start, uint32_t n) {
    if (!d->nsched)
        return start + (d->rate_bps > 0 ? (int64_t)((double)n * 8e9 / d->rate_bps + 0.5) : 0);
    double bits = (double)n * 8.0;
    int64_t t = start < d->t0 ? d->t0 : start;
    for (;;) {
        int64_t i = (t - d->t0) / d->sched_ns;
        int64_t end = d->t0 + (i + 1) * d->sched_ns;
        double rate = d->sched[i % d->nsched];
        if (rate > 0) {
            double need = bits * 1e9 / rate;
            if ((double)t + need <= (double)end) {
                int64_t ns = (int64_t)(need + 0.5);
                return t + (ns > 0 ? ns : 1);
            }
            bits -= rate * (double)(end - t) / 1e9;
        }
        t = end;
    }
}

static void parse_sched(dir_t *d, const char *v) {
    int64_t n = 1;
    for (const char *c = v; *c; c++) n += *c == ',';
    d->sched = malloc(sizeof(double) * (size_t)n);
    if (!d->sched) die("malloc");
    const char *c = v;
    double mx = 0;
    for (int64_t i = 0; i < n; i++) {
        char *e;
        d->sched[i] = strtod(c, &e);
        if (e == c || d->sched[i] < 0) { fprintf(stderr, "bad --sched value\n"); exit(2); }
        if (d->sched[i] > mx) mx = d->sched[i];
        c = *e == ',' ? e + 1 : e;
    }
    if (mx <= 0) { fprintf(stderr, "--sched: every rate is 0\n"); exit(2); }
    d->nsched = n;
}

static void on_readable(dir_t *d) {
    for (;;) {
        ssize_t n = read(d->in_fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            if (errno == EINTR) continue;
            die("read");
        }
        if (n == 0) return;
        int64_t t = now_ns();
        d->rx_pkts++; d->rx_bytes += (uint64_t)n;
        if (d->loss > 0 && urand(&d->rng) < d->loss) { d->random_drops++; continue; }
        advance_queue(d, t);
        if ((d->queue_pkts && d->q_pkts + 1 > d->queue_pkts) ||
            (d->queue_bytes && d->q_bytes + n > d->queue_bytes)) {
            d->queue_drops++;
            continue;
        }
        pkt *p = malloc(sizeof(pkt) + (size_t)n);
        if (!p) die("malloc");
        p->next = NULL; p->len = (uint32_t)n;
        memcpy(p->data, buf, (size_t)n);
        if (t > d->link_free_ns) add_idle(d, d->link_free_ns, t);
        int64_t start = d->link_free_ns > t ? d->link_free_ns : t;
        p->tx_end_ns = ser_end(d, start, (uint32_t)n);
        d->link_free_ns = p->tx_end_ns;
        p->deliver_ns = p->tx_end_ns + d->delay_ns;
        if (d->jitter_ns > 0) p->deliver_ns += (int64_t)(urand(&d->jrng) * (double)d->jitter_ns);
        if (d->tail) d->tail->next = p; else d->head = p;
        d->tail = p;
        if (!d->q_head) d->q_head = p;
        d->q_pkts++; d->q_bytes += n;
        if (d->q_pkts > d->max_q_pkts) d->max_q_pkts = d->q_pkts;
        if (d->q_bytes > d->max_q_bytes) d->max_q_bytes = d->q_bytes;
    }
}

static void deliver_one(dir_t *d, pkt *prev, pkt *p, int64_t t) {
    ssize_t w = write(d->out_fd, p->data, p->len);
    if (w < 0) d->write_errors++;
    else { d->fwd_pkts++; d->fwd_bytes += p->len; count_out(d, t, p->deliver_ns, p->len); }
    if (prev) prev->next = p->next; else d->head = p->next;
    if (d->tail == p) d->tail = prev;
    free(p);
}

/* With jitter: deliver every due packet in the order of its delivery time.  Only packets whose
 * serialisation has ended (before q_head) can be due. */
static void deliver_due_jitter(dir_t *d, int64_t t) {
    for (;;) {
        pkt *best = NULL, *best_prev = NULL, *prev = NULL;
        for (pkt *p = d->head; p && p != d->q_head; prev = p, p = p->next)
            if (p->deliver_ns <= t && (!best || p->deliver_ns < best->deliver_ns)) { best = p; best_prev = prev; }
        if (!best) return;
        deliver_one(d, best_prev, best, t);
    }
}

static int64_t next_delivery(const dir_t *d) {
    if (!d->jitter_ns) return d->head ? d->head->deliver_ns : INT64_MAX;
    int64_t next = INT64_MAX;
    for (const pkt *p = d->head; p; p = p->next)
        if (p->deliver_ns < next) next = p->deliver_ns;
    return next;
}

static void deliver_due(dir_t *d, int64_t t) {
    advance_queue(d, t);
    if (d->jitter_ns > 0) { deliver_due_jitter(d, t); return; }
    while (d->head && d->head->deliver_ns <= t) {
        pkt *p = d->head;
        ssize_t w = write(d->out_fd, p->data, p->len);
        if (w < 0) d->write_errors++;
        else { d->fwd_pkts++; d->fwd_bytes += p->len; count_out(d, t, p->deliver_ns, p->len); }
        d->head = p->next;
        if (!d->head) d->tail = NULL;
        if (d->q_head == p) d->q_head = p->next;  /* cannot happen: delivered after tx_end */
        free(p);
    }
}

static void print_dir(FILE *f, dir_t *d, int64_t now) {
    fprintf(f, "\"%s\": {\"rx_packets\": %llu, \"rx_bytes\": %llu, \"forwarded_packets\": %llu, "
               "\"forwarded_bytes\": %llu, \"queue_drops\": %llu, \"random_drops\": %llu, "
               "\"write_errors\": %llu, \"max_queue_packets\": %lld, \"max_queue_bytes\": %lld, "
               "\"max_late_s\": %.9f",
            d->name, (unsigned long long)d->rx_pkts, (unsigned long long)d->rx_bytes,
            (unsigned long long)d->fwd_pkts, (unsigned long long)d->fwd_bytes,
            (unsigned long long)d->queue_drops, (unsigned long long)d->random_drops,
            (unsigned long long)d->write_errors, (long long)d->max_q_pkts, (long long)d->max_q_bytes,
            d->max_late_ns / 1e9);
    if (d->bin_bytes) {
        if (now > d->link_free_ns) add_idle(d, d->link_free_ns, now);
        int64_t n = (now - d->t0) / d->sched_ns + 1;
        if (n > MAX_SCHED_BINS) n = MAX_SCHED_BINS;
        fprintf(f, ", \"interval_s\": %.9f, \"interval_bytes\": [", d->sched_ns / 1e9);
        for (int64_t i = 0; i < n; i++) fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)d->bin_bytes[i]);
        fprintf(f, "], \"interval_idle_s\": [");
        for (int64_t i = 0; i < n; i++) fprintf(f, "%s%.6f", i ? ", " : "", d->bin_idle_ns[i] / 1e9);
        fprintf(f, "]");
    }
    fprintf(f, "}");
}

static void usage(void) {
    fprintf(stderr, "usage: delayline --ns-a PATH --dev-a NAME --ns-b PATH --dev-b NAME "
                    "[--rate-ab BPS --delay-ab-ns NS --queue-ab-pkts N --queue-ab-bytes N "
                    "--loss-ab P --seed-ab S] [same with -ba] [--max-runtime-s T]\n");
    exit(64);
}

int main(int argc, char **argv) {
    const char *ns_a = NULL, *ns_b = NULL, *dev_a = NULL, *dev_b = NULL;
    double max_runtime_s = 3600;
    long owner_pid = 0;
    dir_t d[2];
    memset(d, 0, sizeof d);
    d[0].name = "ab"; d[1].name = "ba";
    uint64_t seeds[2] = {1, 2};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        if (i + 1 >= argc) usage();
        const char *v = argv[++i];
        int di = -1;
        if (strstr(k, "-ab")) di = 0;
        else if (strstr(k, "-ba")) di = 1;
        if (!strcmp(k, "--ns-a")) ns_a = v;
        else if (!strcmp(k, "--ns-b")) ns_b = v;
        else if (!strcmp(k, "--dev-a")) dev_a = v;
        else if (!strcmp(k, "--dev-b")) dev_b = v;
        else if (!strcmp(k, "--max-runtime-s")) {
            char *end = NULL;
            max_runtime_s = strtod(v, &end);
            if (!end || *end || !(max_runtime_s > 0 && max_runtime_s <= 1e6)) {
                fprintf(stderr, "delayline: --max-runtime-s must be a number in (0, 1e6] s, got '%s'\n", v);
                exit(64);
            }
        }
        else if (!strcmp(k, "--owner-pid")) owner_pid = atol(v);
        else if (di >= 0 && !strncmp(k, "--sched-interval-", 17)) d[di].sched_ns = atoll(v);
        else if (di >= 0 && !strncmp(k, "--sched-", 8)) parse_sched(&d[di], v);
        else if (di >= 0 && !strncmp(k, "--rate-", 7)) d[di].rate_bps = atof(v);
        else if (di >= 0 && !strncmp(k, "--delay-", 8)) d[di].delay_ns = atoll(v);
        else if (di >= 0 && !strncmp(k, "--queue-", 8) && strstr(k, "pkts")) d[di].queue_pkts = atoll(v);
        else if (di >= 0 && !strncmp(k, "--queue-", 8) && strstr(k, "bytes")) d[di].queue_bytes = atoll(v);
        else if (di >= 0 && !strncmp(k, "--loss-", 7)) d[di].loss = atof(v);
        else if (di >= 0 && !strncmp(k, "--seed-", 7)) seeds[di] = strtoull(v, NULL, 10);
        else if (di >= 0 && !strncmp(k, "--jitter-", 9)) d[di].jitter_ns = atoll(v);
        else usage();
    }
    if (!ns_a || !ns_b || !dev_a || !dev_b) usage();
    for (int i = 0; i < 2; i++) {
        if (d[i].rate_bps < 0 || d[i].delay_ns < 0 || d[i].loss < 0 || d[i].loss > 1) usage();
        if (d[i].nsched && d[i].sched_ns <= 0) usage();
        if (d[i].jitter_ns < 0) usage();
        d[i].rng = seed_state(seeds[i]);
        d[i].jrng = seed_state(seeds[i] ^ 0x6a09e667f3bcc908ULL);
    }

    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (owner_pid > 0 && getppid() != (pid_t)owner_pid) {
        fprintf(stderr, "delayline: owner %ld is gone\n", owner_pid);
        exit(3);
    }
    prctl(PR_SET_TIMERSLACK, 1UL);
    struct sched_param sp = {.sched_priority = 50};
    int fifo = sched_setscheduler(0, SCHED_FIFO, &sp) == 0;
    int32_t lat = 0;
    int dma = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
    if (dma >= 0 && write(dma, &lat, sizeof lat) != sizeof lat) { close(dma); dma = -1; }

    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM); sigaddset(&mask, SIGINT); sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sfd < 0) die("signalfd");

    int self_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (self_ns < 0) die("/proc/self/ns/net");
    int fa = open_tun_in(ns_a, dev_a, self_ns);
    int fb = open_tun_in(ns_b, dev_b, self_ns);
    close(self_ns);
    d[0].in_fd = fa; d[0].out_fd = fb;
    d[1].in_fd = fb; d[1].out_fd = fa;

    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (tfd < 0 || ep < 0) die("timerfd/epoll");
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.u32 = 0; epoll_ctl(ep, EPOLL_CTL_ADD, fa, &ev);
    ev.data.u32 = 1; epoll_ctl(ep, EPOLL_CTL_ADD, fb, &ev);
    ev.data.u32 = 2; epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
    ev.data.u32 = 3; epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);

    for (int i = 0; i < 2; i++)
        if (d[i].nsched) {
            d[i].bin_bytes = calloc(MAX_SCHED_BINS, sizeof(uint64_t));
            d[i].bin_idle_ns = calloc(MAX_SCHED_BINS, sizeof(int64_t));
            if (!d[i].bin_bytes || !d[i].bin_idle_ns) die("calloc");
        }
    int64_t t0 = now_ns();
    d[0].t0 = d[1].t0 = t0;
    int64_t deadline = t0 + (int64_t)(max_runtime_s * 1e9);
    int64_t armed = -1;
    printf("READY sched_fifo=%d dma_latency=%d\n", fifo, dma >= 0);
    fflush(stdout);

    int running = 1;
    while (running) {
        struct epoll_event evs[8];
        int n = epoll_wait(ep, evs, 8, 1000);
        if (n < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < n; i++) {
            uint32_t w = evs[i].data.u32;
            if (w < 2) on_readable(&d[w]);
            else if (w == 2) { uint64_t x; while (read(tfd, &x, sizeof x) > 0) {} armed = -1; }
            else { struct signalfd_siginfo si; while (read(sfd, &si, sizeof si) > 0) {} running = 0; }
        }
        int64_t t = now_ns();
        deliver_due(&d[0], t);
        deliver_due(&d[1], t);
        if (t >= deadline) running = 0;
        int64_t next = deadline;
        for (int i = 0; i < 2; i++) {
            int64_t nd = next_delivery(&d[i]);
            if (nd < next) next = nd;
        }
        if (next != armed) {
            struct itimerspec its;
            memset(&its, 0, sizeof its);
            its.it_value.tv_sec = next / 1000000000LL;
            its.it_value.tv_nsec = next % 1000000000LL;
            timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);
            armed = next;
        }
    }
    int64_t t_end = now_ns();
    printf("{\"runtime_s\": %.6f, \"t0_s\": %.9f, \"sched_fifo\": %s, \"dma_latency\": %s, ",
           (t_end - t0) / 1e9, t0 / 1e9, fifo ? "true" : "false", dma >= 0 ? "true" : "false");
    print_dir(stdout, &d[0], t_end);
    printf(", ");
    print_dir(stdout, &d[1], t_end);
    printf("}\n");
    fflush(stdout);
    if (dma >= 0) close(dma);
    return 0;
}

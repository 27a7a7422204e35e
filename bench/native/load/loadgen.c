/*
 * Load generator for Berth-format echo servers (u32 little-endian body length, then the body): the same client
 * drives every server in `berth bench --compare`, so its cost is small and identical for each of them.
 *
 * Load mode: N connections, each keeping D frames of S body bytes in flight; a warm-up, then a measured window.
 * Every echoed frame is compared byte-for-byte with what was sent (a mismatch counts as an error), and its round
 * trip goes into a log-linear histogram. Prints "measuring" when the window opens and one JSON line when it closes.
 *
 *   berth-load --port P [--host 127.0.0.1] [--connections 1] [--pipeline 16] [--size 64]
 *              [--warmup 1] [--duration 4] [--threads 1] [--rate 0]
 *
 * With --rate R, each connection sends R frames per second on a fixed schedule instead of keeping D in flight (at
 * most D pending; a frame due while D are pending goes out when an echo makes room). The connections' schedules are
 * spread evenly over one interval, and each round trip is timed from when its frame was due, not from when it went
 * out, so a stalled server shows as every frame that fell due during the stall (no coordinated omission).
 *
 * Idle mode: opens N connections, makes one round trip on each, prints one JSON line, then holds them open until
 * stdin closes, SIGINT/SIGTERM arrives or --hold seconds pass: the server's memory per idle connection is measured
 * meanwhile.
 *
 *   berth-load --idle --port P [--host 127.0.0.1] [--connections 1000] [--size 64] [--hold 120]
 *
 * The byte stream a connection sends is a fixed cycle of FRAME_VARIANTS distinct frames, so sending needs no copy
 * and checking needs no receive buffer per connection: received bytes are compared in place with the cycle.
 *
 * Built with -DLOAD_SPIN (berth-load-spin), the load mode's threads poll epoll with timeout 0 for up to SPIN_NS after
 * their previous turn before they sleep in it, as berth-echo-spin does: the round trip without waking a halted vCPU.
 *
 * With --message-id ID (either mode), each body is a typed message as `berth serve --typed` reads it: the id (int32
 * LE), the frame's variant number as a sequence (int32 LE), then a string field filling the rest of the --size bytes
 * (its byte count as an unsigned LEB128 varint, then random ASCII, which is valid UTF-8). The echo must still match
 * byte for byte. Without it the body is random bytes, as before.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Not a multiple of any pipeline depth in use, so an echo shifted by whole frames does not match by accident. */
#define FRAME_VARIANTS 17
#define MAX_THREADS 8
#define MAX_EVENTS 256
#define MAX_IOV 64
#define SCRATCH_BYTES (256 * 1024)
#define MAX_BODY (16u << 20)
/* How long a load thread built with -DLOAD_SPIN keeps polling after its previous turn before it sleeps in epoll_wait. */
#define SPIN_NS 50000u

/* Log-linear histogram of nanoseconds: 2^SUB_BITS buckets per power of two, about 3 % wide. */
#define SUB_BITS 5
#define SUB_COUNT (1 << SUB_BITS)
#define EXPONENTS 48
#define BUCKETS (EXPONENTS * SUB_COUNT)

struct histogram {
    uint64_t counts[BUCKETS];
};

struct conn {
    int fd;
    int open;
    uint64_t sent_bytes;
    uint64_t received_bytes;
    uint64_t frames_received;
    int frame_bad;
    uint64_t phase_ns; /* with --rate: offset of this connection's schedule within one interval */
    uint64_t *sent_at; /* send time of each in-flight frame, indexed by frame number % pipeline */
};

struct worker {
    pthread_t thread;
    int epoll_fd;
    struct conn *conns;
    int count;
    uint8_t *scratch;
    struct histogram latency;
    uint64_t messages;
    uint64_t errors;
};

static struct {
    const char *host;
    int port;
    int connections;
    int pipeline;
    uint32_t size;
    double warmup;
    double duration;
    double hold;
    int threads;
    int idle;
    double rate;
    long message_id; /* -1: raw bodies */
} config = { "127.0.0.1", 0, 1, 16, 64, 1, 4, 120, 1, 0, 0, -1 };


static uint8_t *cycle;      /* FRAME_VARIANTS frames back to back, each header + body */
static size_t frame_bytes;  /* 4 + size */
static size_t cycle_bytes;  /* FRAME_VARIANTS * frame_bytes */
static uint64_t measure_from_ns;
static uint64_t measure_to_ns;
static uint64_t schedule_start_ns; /* with --rate: when every connection's schedule starts */
static uint64_t interval_ns;       /* with --rate: 1e9 / rate */
static volatile sig_atomic_t stop_requested;

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void record(struct histogram *h, uint64_t value)
{
    int bucket;
    if (value < SUB_COUNT) {
        bucket = (int)value;
    } else {
        int exponent = 63 - __builtin_clzll(value); /* >= SUB_BITS */
        int sub = (int)((value >> (exponent - SUB_BITS)) & (SUB_COUNT - 1));
        bucket = (exponent - SUB_BITS + 1) * SUB_COUNT + sub;
        if (bucket >= BUCKETS)
            bucket = BUCKETS - 1;
    }
    h->counts[bucket]++;
}

/* Midpoint of a bucket, in nanoseconds. */
static double bucket_value(int bucket)
{
    if (bucket < SUB_COUNT)
        return bucket;
    int exponent = bucket / SUB_COUNT + SUB_BITS - 1;
    int sub = bucket % SUB_COUNT;
    double width = ldexp(1.0, exponent - SUB_BITS);
    return ldexp(1.0, exponent) + (sub + 0.5) * width;
}

static double percentile(const struct histogram *h, double p)
{
    uint64_t total = 0;
    for (int i = 0; i < BUCKETS; i++)
        total += h->counts[i];
    if (total == 0)
        return 0;
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)total);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
        seen += h->counts[i];
        if (seen >= rank)
            return bucket_value(i);
    }
    return bucket_value(BUCKETS - 1);
}

static size_t varint_length(uint32_t value)
{
    size_t length = 1;
    while (value >= 0x80) {
        value >>= 7;
        length++;
    }
    return length;
}

/*
 * The string's byte count in a typed body of `size` bytes: what is left after the id, the sequence and the count's
 * own shortest varint. -1 for the few sizes no count fills exactly (137: 128 needs two varint bytes, 127 leaves one over).
 */
static int64_t typed_text_length(uint32_t size)
{
    for (uint32_t prefix = 1; prefix <= 5 && size >= 8 + prefix; prefix++) {
        uint32_t text = size - 8 - prefix;
        if (varint_length(text) == prefix)
            return text;
    }
    return -1;
}

/* Writes the typed header of a body of `size` bytes (id, sequence, string length) and returns its length. */
static size_t write_typed_header(uint8_t *body, uint32_t size, uint32_t sequence)
{
    uint32_t id = (uint32_t)config.message_id;
    memcpy(body, &id, 4);
    memcpy(body + 4, &sequence, 4);
    uint32_t text = (uint32_t)typed_text_length(size);
    size_t at = 8;
    uint32_t value = text;
    while (value >= 0x80) {
        body[at++] = (uint8_t)(value | 0x80);
        value >>= 7;
    }
    body[at++] = (uint8_t)value;
    return at;
}

static void build_cycle(void)
{
    frame_bytes = 4 + (size_t)config.size;
    cycle_bytes = FRAME_VARIANTS * frame_bytes;
    cycle = malloc(cycle_bytes);
    if (!cycle) {
        fprintf(stderr, "berth-load: out of memory\n");
        exit(1);
    }
    uint32_t state = 2463534242u;
    for (int v = 0; v < FRAME_VARIANTS; v++) {
        uint8_t *frame = cycle + (size_t)v * frame_bytes;
        uint32_t length = config.size;
        memcpy(frame, &length, 4); /* little-endian hosts only, as the servers under test */
        size_t header = config.message_id >= 0 ? write_typed_header(frame + 4, config.size, (uint32_t)v) : 0;
        for (uint32_t i = (uint32_t)header; i < config.size; i++) {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            frame[4 + i] = config.message_id >= 0 ? (uint8_t)(state & 0x7F) : (uint8_t)state;
        }
    }
}

static void on_signal(int signal_number)
{
    (void)signal_number;
    stop_requested = 1;
}

/* A blocking connect, then non-blocking with TCP_NODELAY; -1 when the server refuses. */
static int connect_one(void)
{
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)config.port) };
    if (inet_pton(AF_INET, config.host, &address.sin_addr) != 1) {
        fprintf(stderr, "berth-load: '%s' is not an IPv4 address\n", config.host);
        exit(2);
    }
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void close_conn(struct worker *w, struct conn *c)
{
    if (!c->open)
        return;
    epoll_ctl(w->epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->open = 0;
}

/* When frame number `frame` of the connection falls due under --rate. */
static uint64_t due_at(const struct conn *c, uint64_t frame)
{
    return schedule_start_ns + c->phase_ns + frame * interval_ns;
}

/*
 * Starts frames up to `frames_started_target` and writes as much of them as the socket takes; -1 when the socket
 * failed. A frame's round trip counts from `now`, or under --rate from when it was due.
 */
static int pump_send(struct conn *c, uint64_t frames_started_target, uint64_t *frames_started, uint64_t now)
{
    while (*frames_started < frames_started_target) {
        c->sent_at[*frames_started % (uint64_t)config.pipeline] = config.rate > 0 ? due_at(c, *frames_started) : now;
        (*frames_started)++;
    }
    uint64_t target_bytes = frames_started_target * frame_bytes;
    while (c->sent_bytes < target_bytes) {
        struct iovec iov[MAX_IOV];
        int count = 0;
        uint64_t at = c->sent_bytes;
        while (at < target_bytes && count < MAX_IOV) {
            size_t offset = (size_t)(at % cycle_bytes);
            size_t length = cycle_bytes - offset;
            if (length > target_bytes - at)
                length = (size_t)(target_bytes - at);
            iov[count].iov_base = cycle + offset;
            iov[count].iov_len = length;
            count++;
            at += length;
        }
        ssize_t n = writev(c->fd, iov, count);
        if (n < 0)
            return errno == EAGAIN ? 0 : -1;
        c->sent_bytes += (uint64_t)n;
    }
    return 0;
}

/*
 * Compares received bytes with the cycle at the connection's stream position; one error per frame that differs.
 * Returns the number of frames completed by these bytes, or -1 when the server sent more than it was sent.
 */
static int64_t check_echo(struct worker *w, struct conn *c, const uint8_t *bytes, size_t length, uint64_t now, int measuring)
{
    if (c->received_bytes + length > c->sent_bytes)
        return -1;
    int64_t completed = 0;
    size_t offset = 0;
    while (offset < length) {
        size_t in_frame = (size_t)(c->received_bytes % frame_bytes);
        size_t take = frame_bytes - in_frame;
        if (take > length - offset)
            take = length - offset;
        if (memcmp(bytes + offset, cycle + (c->received_bytes % cycle_bytes), take) != 0)
            c->frame_bad = 1;
        c->received_bytes += take;
        offset += take;
        if (in_frame + take == frame_bytes) {
            uint64_t frame = c->frames_received++;
            if (c->frame_bad)
                w->errors++;
            c->frame_bad = 0;
            if (measuring) {
                w->messages++;
                record(&w->latency, now - c->sent_at[frame % (uint64_t)config.pipeline]);
            }
            completed++;
        }
    }
    return completed;
}

/* Reads and checks every echo the socket has; -1 when the connection failed or the server sent what it was not sent. */
static int receive_echoes(struct worker *w, struct conn *c)
{
    for (;;) {
        ssize_t n = recv(c->fd, w->scratch, SCRATCH_BYTES, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN))
            return -1;
        if (n < 0)
            return 0;
        uint64_t at = now_ns();
        int measuring = at >= measure_from_ns && at < measure_to_ns;
        if (check_echo(w, c, w->scratch, (size_t)n, at, measuring) < 0)
            return -1;
    }
}

/*
 * The load mode's wait for events, at most timeout_ms. Built with -DLOAD_SPIN, polls without sleeping for up to SPIN_NS
 * first: a sleeping thread wakes only after its idle vCPU was woken (a halt exit on a virtual machine), which at one
 * connection costs more than the round trip itself.
 */
static int wait_events(int epoll_fd, struct epoll_event *events, int timeout_ms)
{
#ifdef LOAD_SPIN
    uint64_t since = now_ns();
    do {
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, 0);
        if (ready != 0)
            return ready;
    } while (now_ns() - since < SPIN_NS);
#endif
    return epoll_wait(epoll_fd, events, MAX_EVENTS, timeout_ms);
}

struct load_conn_state {
    uint64_t frames_started;
};

static void *run_load_worker(void *arg)
{
    struct worker *w = arg;
    struct load_conn_state *state = calloc((size_t)w->count, sizeof *state);
    uint64_t start = now_ns();
    for (int i = 0; i < w->count; i++) {
        struct conn *c = &w->conns[i];
        if (c->open && pump_send(c, (uint64_t)config.pipeline, &state[i].frames_started, start) < 0) {
            w->errors++;
            close_conn(w, c);
        }
    }

    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        uint64_t now = now_ns();
        if (now >= measure_to_ns || stop_requested)
            break;
        int timeout_ms = (int)((measure_to_ns - now) / 1000000u) + 1;
        if (timeout_ms > 100)
            timeout_ms = 100;
        int ready = wait_events(w->epoll_fd, events, timeout_ms);
        for (int e = 0; e < ready; e++) {
            int index = (int)events[e].data.u32;
            struct conn *c = &w->conns[index];
            if (!c->open)
                continue;
            int failed = (events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && receive_echoes(w, c) < 0;
            if (!failed) {
                uint64_t target = c->frames_received + (uint64_t)config.pipeline;
                failed = pump_send(c, target, &state[index].frames_started, now_ns()) < 0;
            }
            if (failed) {
                w->errors++;
                close_conn(w, c);
            }
        }
    }
    free(state);
    return NULL;
}

/* Under --rate: the frames due by `now`, but no more than `pipeline` beyond the last echo. */
static uint64_t rate_target(const struct conn *c, uint64_t now)
{
    uint64_t first = schedule_start_ns + c->phase_ns;
    uint64_t due = now < first ? 0 : (now - first) / interval_ns + 1;
    uint64_t room = c->frames_received + (uint64_t)config.pipeline;
    return due < room ? due : room;
}

static void *run_rate_worker(void *arg)
{
    struct worker *w = arg;
    if (w->count == 0)
        return NULL;
    struct load_conn_state *state = calloc((size_t)w->count, sizeof *state);
    /* Phases rise with the index, so the connection due next is always the one at the cursor. */
    int cursor = 0;
    uint64_t round = 0;
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        uint64_t now = now_ns();
        if (now >= measure_to_ns || stop_requested)
            break;
        while (due_at(&w->conns[cursor], round) <= now) {
            struct conn *c = &w->conns[cursor];
            if (c->open && pump_send(c, rate_target(c, now), &state[cursor].frames_started, now) < 0) {
                w->errors++;
                close_conn(w, c);
            }
            if (++cursor == w->count) {
                cursor = 0;
                round++;
            }
        }
        uint64_t next = due_at(&w->conns[cursor], round);
        if (next > measure_to_ns)
            next = measure_to_ns;
        /* Nanosecond timeout: a millisecond one would make every frame up to 1 ms late, and count it. */
        uint64_t wait = next > now ? next - now : 0;
        struct timespec timeout = { .tv_sec = (time_t)(wait / 1000000000u), .tv_nsec = (long)(wait % 1000000000u) };
        int ready = epoll_pwait2(w->epoll_fd, events, MAX_EVENTS, &timeout, NULL);
        for (int e = 0; e < ready; e++) {
            int index = (int)events[e].data.u32;
            struct conn *c = &w->conns[index];
            if (!c->open)
                continue;
            int failed = (events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) && receive_echoes(w, c) < 0;
            if (!failed) {
                uint64_t at = now_ns();
                failed = pump_send(c, rate_target(c, at), &state[index].frames_started, at) < 0;
            }
            if (failed) {
                w->errors++;
                close_conn(w, c);
            }
        }
    }
    free(state);
    return NULL;
}

static int open_connections(struct worker *workers, int worker_count, uint64_t *errors)
{
    int opened = 0;
    for (int i = 0; i < config.connections; i++) {
        struct worker *w = &workers[i % worker_count];
        struct conn *c = &w->conns[w->count];
        c->sent_at = calloc((size_t)config.pipeline, sizeof *c->sent_at);
        c->phase_ns = config.rate > 0 ? (uint64_t)((double)i * (double)interval_ns / config.connections) : 0;
        c->fd = connect_one();
        if (c->fd < 0) {
            (*errors)++;
            continue;
        }
        struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLET, .data.u32 = (uint32_t)w->count };
        epoll_ctl(w->epoll_fd, EPOLL_CTL_ADD, c->fd, &ev);
        c->open = 1;
        w->count++;
        opened++;
    }
    return opened;
}

static struct worker *make_workers(int count, int per_worker)
{
    struct worker *workers = calloc((size_t)count, sizeof *workers);
    for (int t = 0; t < count; t++) {
        workers[t].epoll_fd = epoll_create1(0);
        workers[t].conns = calloc((size_t)per_worker, sizeof *workers[t].conns);
        workers[t].scratch = malloc(SCRATCH_BYTES);
        if (workers[t].epoll_fd < 0 || !workers[t].conns || !workers[t].scratch) {
            fprintf(stderr, "berth-load: cannot set up worker %d\n", t);
            exit(1);
        }
    }
    return workers;
}

static void sleep_until(uint64_t deadline)
{
    uint64_t now;
    while ((now = now_ns()) < deadline && !stop_requested) {
        uint64_t wait = deadline - now;
        struct timespec t = { .tv_sec = (time_t)(wait / 1000000000u), .tv_nsec = (long)(wait % 1000000000u) };
        nanosleep(&t, NULL);
    }
}

static int run_load(void)
{
    int threads = config.threads;
    int per_worker = (config.connections + threads - 1) / threads;
    struct worker *workers = make_workers(threads, per_worker);
    uint64_t errors = 0;
    int opened = open_connections(workers, threads, &errors);
    if (opened == 0) {
        fprintf(stderr, "berth-load: cannot connect to %s:%d\n", config.host, config.port);
        return 1;
    }

    measure_from_ns = now_ns() + (uint64_t)(config.warmup * 1e9);
    measure_to_ns = measure_from_ns + (uint64_t)(config.duration * 1e9);
    schedule_start_ns = now_ns();
    for (int t = 0; t < threads; t++)
        pthread_create(&workers[t].thread, NULL, config.rate > 0 ? run_rate_worker : run_load_worker, &workers[t]);
    sleep_until(measure_from_ns);
    printf("measuring\n");
    fflush(stdout);
    for (int t = 0; t < threads; t++)
        pthread_join(workers[t].thread, NULL);

    struct histogram *total = calloc(1, sizeof *total);
    uint64_t messages = 0;
    for (int t = 0; t < threads; t++) {
        messages += workers[t].messages;
        errors += workers[t].errors;
        for (int b = 0; b < BUCKETS; b++)
            total->counts[b] += workers[t].latency.counts[b];
    }
    double seconds = (double)(measure_to_ns - measure_from_ns) / 1e9;
    printf("{\"mode\":\"load\",\"connections\":%d,\"connected\":%d,\"pipeline\":%d,\"size\":%u,\"threads\":%d,"
           "\"rate\":%.3f,\"seconds\":%.3f,\"messages\":%llu,\"msg_per_s\":%.1f,\"mb_per_s\":%.3f,"
           "\"p50_us\":%.1f,\"p99_us\":%.1f,\"p999_us\":%.1f,\"errors\":%llu}\n",
           config.connections, opened, config.pipeline, config.size, threads, config.rate, seconds,
           (unsigned long long)messages, (double)messages / seconds,
           (double)messages * config.size / seconds / 1e6,
           percentile(total, 50) / 1e3, percentile(total, 99) / 1e3, percentile(total, 99.9) / 1e3,
           (unsigned long long)errors);
    fflush(stdout);
    return errors == 0 ? 0 : 3;
}

/* Waits until stdin closes, a signal arrives or the hold time passes. */
static void hold_until_told(void)
{
    uint64_t deadline = now_ns() + (uint64_t)(config.hold * 1e9);
    char discard[256];
    int watch_stdin = 1;
    while (!stop_requested && now_ns() < deadline) {
        struct pollfd in = { .fd = 0, .events = POLLIN };
        int ready = poll(&in, watch_stdin ? 1 : 0, 200);
        if (ready > 0) {
            if (in.revents & POLLNVAL)
                watch_stdin = 0;
            else if (read(0, discard, sizeof discard) <= 0)
                return;
        }
    }
}

static int run_idle(void)
{
    config.pipeline = 1;
    struct worker *worker = make_workers(1, config.connections);
    uint64_t errors = 0;
    int opened = open_connections(worker, 1, &errors);
    uint64_t frames_started = 0;
    for (int i = 0; i < worker->count; i++) {
        struct conn *c = &worker->conns[i];
        frames_started = 0;
        if (pump_send(c, 1, &frames_started, 0) < 0 || c->sent_bytes != frame_bytes) {
            errors++;
            close_conn(worker, c);
        }
    }

    /* One echo per connection, within a bounded time. */
    int echoed = 0;
    uint64_t deadline = now_ns() + 60000000000u;
    struct epoll_event events[MAX_EVENTS];
    while (echoed + (int)errors < config.connections && now_ns() < deadline && !stop_requested) {
        int ready = epoll_wait(worker->epoll_fd, events, MAX_EVENTS, 100);
        for (int e = 0; e < ready; e++) {
            struct conn *c = &worker->conns[events[e].data.u32];
            if (!c->open || !(events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                continue;
            for (;;) {
                ssize_t n = recv(c->fd, worker->scratch, SCRATCH_BYTES, 0);
                if (n < 0 && errno == EAGAIN)
                    break;
                int64_t completed = n > 0 ? check_echo(worker, c, worker->scratch, (size_t)n, 0, 0) : -1;
                if (completed < 0) {
                    errors++;
                    close_conn(worker, c);
                    break;
                }
                echoed += (int)completed;
            }
        }
    }
    errors += worker->errors;
    printf("{\"mode\":\"idle\",\"connections\":%d,\"connected\":%d,\"echoed\":%d,\"errors\":%llu}\n",
           config.connections, opened, echoed, (unsigned long long)errors);
    fflush(stdout);
    hold_until_told();
    return errors == 0 && echoed == config.connections ? 0 : 3;
}

static void raise_file_limit(void)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

static void usage(void)
{
    fprintf(stderr,
            "usage: berth-load --port P [--host 127.0.0.1] [--connections 1] [--pipeline 16] [--size 64]\n"
            "                  [--warmup 1] [--duration 4] [--threads 1] [--rate 0] [--message-id ID]\n"
            "       berth-load --idle --port P [--connections 1000] [--size 64] [--hold 120] [--message-id ID]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i];
        if (strcmp(name, "--idle") == 0) {
            config.idle = 1;
            continue;
        }
        if (i + 1 >= argc)
            usage();
        const char *value = argv[++i];
        if (strcmp(name, "--host") == 0)
            config.host = value;
        else if (strcmp(name, "--port") == 0)
            config.port = atoi(value);
        else if (strcmp(name, "--connections") == 0)
            config.connections = atoi(value);
        else if (strcmp(name, "--pipeline") == 0)
            config.pipeline = atoi(value);
        else if (strcmp(name, "--size") == 0)
            config.size = (uint32_t)strtoul(value, NULL, 10);
        else if (strcmp(name, "--warmup") == 0)
            config.warmup = atof(value);
        else if (strcmp(name, "--duration") == 0)
            config.duration = atof(value);
        else if (strcmp(name, "--hold") == 0)
            config.hold = atof(value);
        else if (strcmp(name, "--threads") == 0)
            config.threads = atoi(value);
        else if (strcmp(name, "--rate") == 0)
            config.rate = atof(value);
        else if (strcmp(name, "--message-id") == 0)
            config.message_id = strtol(value, NULL, 10);
        else
            usage();
    }
    if (config.port <= 0 || config.port > 65535 || config.connections < 1 || config.pipeline < 1
        || config.size > MAX_BODY || config.warmup < 0 || config.duration <= 0 || config.hold < 0
        || config.threads < 1 || config.threads > MAX_THREADS || config.threads > config.connections
        || config.rate < 0 || config.rate > 1e6 || config.message_id < -1 || config.message_id > INT32_MAX)
        usage();
    if (config.message_id >= 0 && typed_text_length(config.size) < 0) {
        fprintf(stderr, "berth-load: a typed message cannot fill exactly %u bytes (at least 9; not a size where the string's varint grows)\n", config.size);
        exit(2);
    }
    if (config.rate > 0)
        interval_ns = (uint64_t)(1e9 / config.rate);

    raise_file_limit();
    signal(SIGPIPE, SIG_IGN);
    struct sigaction action = { .sa_handler = on_signal };
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    /* A hard bound however the server behaves: SIGALRM's default action ends the process. */
    alarm((unsigned)(config.idle ? config.hold + 120 : config.warmup + config.duration + 120));

    build_cycle();
    return config.idle ? run_idle() : run_load();
}

/* ROUTER/DEALER throughput against libzmq, what a broker's front end runs.
 * One process: a DEALER thread sends COUNT messages of SIZE bytes (by default zmq_msg_init_size + zmq_msg_send, as
 * push_pull_thr does) to a ROUTER socket bound on tcp://127.0.0.1:*, which receives each as two frames, the
 * dealer's routing id and the payload, with zmq_msg_recv. The clock runs from the first message received to the last.
 * A warm-up of WARMUP messages (default 0) goes through the same sockets and threads before the first counted one,
 * so the heap that the frames in flight need is already there when the clock starts.
 * The sender makes its frames in one of the styles of send_style.h (msg unless STYLE is given).
 * usage: router_dealer_thr SIZE COUNT [WARMUP [STYLE]]     prints: size=SIZE count=COUNT seconds=S msgs_per_sec=M minor_faults=F
 * (F: the process's minor page faults while the clock ran) */
#include "send_style.h"
#include <pthread.h>
#include <time.h>
#include <sys/resource.h>

static size_t size;
static long count;
static long warmup;
static enum send_style style = STYLE_MSG;
static char endpoint[256];
static void *context;

/* Minor page faults of the whole process so far. */
static long minor_faults(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *sender(void *unused)
{
    (void)unused;
    void *dealer = zmq_socket(context, ZMQ_DEALER);
    if (zmq_connect(dealer, endpoint) != 0) { fprintf(stderr, "zmq_connect: %s\n", zmq_strerror(zmq_errno())); exit(1); }
    for (long i = 0; i < warmup + count; i++) {
        send_frame(dealer, style, size, i);
    }
    zmq_close(dealer);
    return NULL;
}

/* One message: the routing id frame, then the payload frame. */
static int receive(void *router, zmq_msg_t *id, zmq_msg_t *payload)
{
    if (zmq_msg_recv(id, router, 0) < 0 || zmq_msg_recv(payload, router, 0) < 0) {
        fprintf(stderr, "zmq_msg_recv: %s\n", zmq_strerror(zmq_errno()));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5 || (argc == 5 && parse_style(argv[4], &style) != 0)) {
        fprintf(stderr, "usage: router_dealer_thr SIZE COUNT [WARMUP [msg|send|zerocopy]]\n");
        return 2;
    }
    size = (size_t)atol(argv[1]);
    count = atol(argv[2]);
    warmup = argc >= 4 ? atol(argv[3]) : 0;
    context = zmq_ctx_new();
    void *router = zmq_socket(context, ZMQ_ROUTER);
    if (zmq_bind(router, "tcp://127.0.0.1:*") != 0) { fprintf(stderr, "zmq_bind: %s\n", zmq_strerror(zmq_errno())); return 1; }
    size_t length = sizeof endpoint;
    zmq_getsockopt(router, ZMQ_LAST_ENDPOINT, endpoint, &length);

    pthread_t thread;
    pthread_create(&thread, NULL, sender, NULL);
    zmq_msg_t id, payload;
    zmq_msg_init(&id);
    zmq_msg_init(&payload);
    for (long i = 0; i <= warmup; i++) {
        if (receive(router, &id, &payload) != 0) return 1;
    }
    long faults = minor_faults();
    double start = now();
    for (long i = 1; i < count; i++) {
        if (receive(router, &id, &payload) != 0) return 1;
    }
    double seconds = now() - start;
    faults = minor_faults() - faults;
    zmq_msg_close(&id);
    zmq_msg_close(&payload);
    pthread_join(thread, NULL);
    zmq_close(router);
    zmq_ctx_term(context);
    printf("size=%zu count=%ld seconds=%.6f msgs_per_sec=%.0f minor_faults=%ld\n", size, count, seconds, (count - 1) / seconds, faults);
    return 0;
}

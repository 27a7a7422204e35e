/* PUSH/PULL throughput against libzmq, the limit Berth.Zmq is measured against.
 * Same workload as libzmq's local_thr/remote_thr, in one process: a PUSH thread sends COUNT messages of SIZE bytes
 * (by default zmq_msg_init_size + zmq_msg_send, as remote_thr does) to a PULL socket bound on tcp://127.0.0.1:*, which receives
 * them with zmq_msg_recv (as local_thr does). The clock runs from the first message received to the last.
 * A warm-up of WARMUP messages (default 0) goes through the same sockets and threads before the first counted one,
 * so the heap that the frames in flight need is already there when the clock starts.
 * The sender makes its frames in one of the styles of send_style.h (msg unless STYLE is given).
 * usage: push_pull_thr SIZE COUNT [WARMUP [STYLE]]     prints: size=SIZE count=COUNT seconds=S msgs_per_sec=M minor_faults=F
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
    void *push = zmq_socket(context, ZMQ_PUSH);
    if (zmq_connect(push, endpoint) != 0) { fprintf(stderr, "zmq_connect: %s\n", zmq_strerror(zmq_errno())); exit(1); }
    for (long i = 0; i < warmup + count; i++) {
        send_frame(push, style, size, i);
    }
    zmq_close(push);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5 || (argc == 5 && parse_style(argv[4], &style) != 0)) {
        fprintf(stderr, "usage: push_pull_thr SIZE COUNT [WARMUP [msg|send|zerocopy]]\n");
        return 2;
    }
    size = (size_t)atol(argv[1]);
    count = atol(argv[2]);
    warmup = argc >= 4 ? atol(argv[3]) : 0;
    context = zmq_ctx_new();
    void *pull = zmq_socket(context, ZMQ_PULL);
    if (zmq_bind(pull, "tcp://127.0.0.1:*") != 0) { fprintf(stderr, "zmq_bind: %s\n", zmq_strerror(zmq_errno())); return 1; }
    size_t length = sizeof endpoint;
    zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, endpoint, &length);

    pthread_t thread;
    pthread_create(&thread, NULL, sender, NULL);
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    for (long i = 0; i <= warmup; i++) {
        if (zmq_msg_recv(&msg, pull, 0) < 0) { fprintf(stderr, "zmq_msg_recv: %s\n", zmq_strerror(zmq_errno())); return 1; }
    }
    long faults = minor_faults();
    double start = now();
    for (long i = 1; i < count; i++) {
        if (zmq_msg_recv(&msg, pull, 0) < 0) { fprintf(stderr, "zmq_msg_recv: %s\n", zmq_strerror(zmq_errno())); return 1; }
    }
    double seconds = now() - start;
    faults = minor_faults() - faults;
    zmq_msg_close(&msg);
    pthread_join(thread, NULL);
    zmq_close(pull);
    zmq_ctx_term(context);
    printf("size=%zu count=%ld seconds=%.6f msgs_per_sec=%.0f minor_faults=%ld\n", size, count, seconds, (count - 1) / seconds, faults);
    return 0;
}

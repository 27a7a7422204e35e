/* REQ/REP round-trip latency against libzmq, the limit Berth.Zmq is measured against.
 * Same workload as libzmq's local_lat/remote_lat, in one process: a REP thread echoes each message; the REQ side
 * times every round trip of a SIZE-byte message (zmq_send / zmq_recv into a buffer) and reports percentiles.
 * usage: req_rep_lat SIZE COUNT      prints: size=SIZE count=COUNT p50_us=A p99_us=B mean_us=C */
#include <zmq.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t size;
static long count;
static char endpoint[256];
static void *context;

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void *echo(void *rep)
{
    char *buffer = malloc(size + 1);
    for (long i = 0; i < count; i++) {
        int n = zmq_recv(rep, buffer, size + 1, 0);
        if (n < 0) { fprintf(stderr, "zmq_recv: %s\n", zmq_strerror(zmq_errno())); exit(1); }
        zmq_send(rep, buffer, (size_t)n, 0);
    }
    free(buffer);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: req_rep_lat SIZE COUNT\n"); return 2; }
    size = (size_t)atol(argv[1]);
    count = atol(argv[2]);
    context = zmq_ctx_new();
    void *rep = zmq_socket(context, ZMQ_REP);
    if (zmq_bind(rep, "tcp://127.0.0.1:*") != 0) { fprintf(stderr, "zmq_bind: %s\n", zmq_strerror(zmq_errno())); return 1; }
    size_t length = sizeof endpoint;
    zmq_getsockopt(rep, ZMQ_LAST_ENDPOINT, endpoint, &length);
    pthread_t thread;
    pthread_create(&thread, NULL, echo, rep);

    void *req = zmq_socket(context, ZMQ_REQ);
    zmq_connect(req, endpoint);
    char *buffer = calloc(size + 1, 1);
    double *samples = malloc(sizeof(double) * (size_t)count);
    double total = 0;
    for (long i = 0; i < count; i++) {
        double start = now_us();
        zmq_send(req, buffer, size, 0);
        zmq_recv(req, buffer, size + 1, 0);
        samples[i] = now_us() - start;
        total += samples[i];
    }
    pthread_join(thread, NULL);
    qsort(samples, (size_t)count, sizeof(double), compare);
    printf("size=%zu count=%ld p50_us=%.2f p99_us=%.2f mean_us=%.2f\n", size, count,
           samples[count / 2], samples[(long)(count * 0.99)], total / count);
    zmq_close(req);
    zmq_close(rep);
    zmq_ctx_term(context);
    free(samples);
    free(buffer);
    return 0;
}

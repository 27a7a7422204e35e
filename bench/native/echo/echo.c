/*
 * Framed echo server on epoll: the practical limit Berth's transport is compared with, kept as plain as the
 * fastest simple echo can be (docs/decisions/c-echo-anchor.md says why each choice was made).
 * Frames are Berth's default (u32 little-endian body length, then the body); every whole frame is sent back
 * byte-identical, and a peer announcing more than MAX_BODY bytes is disconnected.
 * Each thread has its own epoll loop and its own SO_REUSEPORT listener, so threads share nothing.
 *
 * One buffer per connection. Whole frames are written back straight from it, all of a read's frames in one send;
 * the steady state is one recv and one send per readiness, and epoll_ctl is called only when a send is cut short.
 * Built by default level-triggered with one recv per readiness; built with -DECHO_DRAIN, edge-triggered, reading
 * until EAGAIN; built with -DECHO_SPIN, level-triggered but polling epoll for up to SPIN_NS before each sleep
 * (build.sh builds all three: berth-echo, berth-echo-drain and berth-echo-spin).
 *
 * usage: berth-echo [--port 7001] [--threads 1]
 * prints "listening on 127.0.0.1:PORT" once it accepts; with --port 0 the first listener picks the port and the
 * others share it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_BODY (1u << 20)
#define MAX_FRAME ((size_t)MAX_BODY + 4)
#define FIRST_CAPACITY 65536
#define MAX_EVENTS 256
/* How long a thread built with -DECHO_SPIN keeps polling after its last event before it sleeps in epoll_wait. */
#define SPIN_NS 50000L

#ifdef ECHO_DRAIN
#define READ_EVENTS (EPOLLIN | EPOLLOUT | EPOLLET | EPOLLRDHUP)
#else
#define READ_EVENTS EPOLLIN
#endif

/*
 * Any event while a reply is held up (EPOLLOUT, or EPOLLHUP/EPOLLERR) retries the send first: a gone peer fails it.
 * buf[start, sent_end) is being sent back, buf[sent_end, end) is read but not yet a whole frame. */
struct conn {
    int fd;
    uint8_t *buf;
    size_t cap, start, sent_end, end;
};

static int port = 7001;

static void close_conn(struct conn *c)
{
    close(c->fd); /* closing the only descriptor removes it from the epoll set */
    free(c->buf);
    free(c);
}

#ifndef ECHO_DRAIN
static void watch(int ep, struct conn *c, uint32_t events)
{
    struct epoll_event ev = { .events = events, .data.ptr = c };
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
}
#endif

/* Sends buf[start, sent_end); returns 1 when all of it left, 0 when the socket is full, -1 when the peer is gone. */
static int send_pending(struct conn *c)
{
    while (c->start < c->sent_end) {
        ssize_t n = send(c->fd, c->buf + c->start, c->sent_end - c->start, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN ? 0 : -1;
        c->start += (size_t)n;
    }
    return 1;
}

/* Makes room after the partial frame: moves it to the front, and grows the buffer when the frame announced needs it. */
static int make_room(struct conn *c)
{
    size_t partial = c->end - c->start;
    if (c->start > 0) {
        memmove(c->buf, c->buf + c->start, partial);
        c->start = c->sent_end = 0;
        c->end = partial;
    }
    if (c->end < c->cap)
        return 0;
    size_t cap = c->cap * 2 < MAX_FRAME ? c->cap * 2 : MAX_FRAME;
    uint8_t *grown = realloc(c->buf, cap);
    if (!grown)
        return -1;
    c->buf = grown;
    c->cap = cap;
    return 0;
}

/*
 * One recv, then every whole frame it completed goes back in one send. Returns 1 when more may be read now, 0 when
 * it must wait (socket empty, or the reply did not all leave), -1 to close.
 */
static int echo_once(struct conn *c)
{
    if (c->end == c->cap && make_room(c) < 0)
        return -1;
    ssize_t n = recv(c->fd, c->buf + c->end, c->cap - c->end, 0);
    if (n == 0)
        return -1;
    if (n < 0)
        return errno == EAGAIN ? 0 : -1;
    c->end += (size_t)n;

    size_t at = c->sent_end;
    while (c->end - at >= 4) {
        uint32_t body;
        memcpy(&body, c->buf + at, 4);
        if (body > MAX_BODY)
            return -1;
        if (c->end - at < 4 + (size_t)body)
            break;
        at += 4 + (size_t)body;
    }
    c->sent_end = at;
    int sent = send_pending(c);
    if (sent <= 0)
        return sent;
    if (c->start == c->end)
        c->start = c->sent_end = c->end = 0;
    return 1;
}

#ifdef ECHO_DRAIN
/*
 * Edge-triggered: read until the socket is empty or a reply is held up; EPOLLOUT's edge resumes a held-up reply. An
 * EPOLLOUT edge with nothing held up and nothing to read (the kernel raises one as acknowledgements free space) costs
 * no system call.
 */
static int on_event(int ep, struct conn *c, uint32_t events)
{
    (void)ep;
    if (c->start < c->sent_end) {
        int sent = send_pending(c);
        if (sent <= 0)
            return sent;
        if (c->start == c->end)
            c->start = c->sent_end = c->end = 0;
    } else if (!(events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) {
        return 0;
    }
    int more;
    while ((more = echo_once(c)) > 0)
        ;
    return more;
}
#else
/* Level-triggered: one recv per readiness; while a reply is held up, wait for EPOLLOUT instead of reading more. */
static int on_event(int ep, struct conn *c, uint32_t events)
{
    (void)events;
    if (c->start < c->sent_end) {
        int sent = send_pending(c);
        if (sent <= 0)
            return sent;
        if (c->start == c->end)
            c->start = c->sent_end = c->end = 0;
        watch(ep, c, EPOLLIN);
        return 0;
    }
    int result = echo_once(c);
    if (result == 0 && c->start < c->sent_end)
        watch(ep, c, EPOLLOUT);
    return result < 0 ? -1 : 0;
}
#endif

static int open_listener(void)
{
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    setsockopt(listener, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 1024) < 0) {
        perror("berth-echo: cannot listen");
        exit(1);
    }
    socklen_t length = sizeof address;
    getsockname(listener, (struct sockaddr *)&address, &length);
    port = ntohs(address.sin_port);
    return listener;
}

static void accept_all(int ep, int listener)
{
    int one = 1;
    int fd;
    while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct conn *fresh = calloc(1, sizeof *fresh);
        uint8_t *buf = malloc(FIRST_CAPACITY);
        if (!fresh || !buf) {
            free(fresh);
            free(buf);
            close(fd);
            continue;
        }
        fresh->fd = fd;
        fresh->buf = buf;
        fresh->cap = FIRST_CAPACITY;
        struct epoll_event ev = { .events = READ_EVENTS, .data.ptr = fresh };
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    }
}

#ifdef ECHO_SPIN
static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}
#endif

/*
 * Built with -DECHO_SPIN, polls without sleeping for up to SPIN_NS after the previous turn before blocking: a sleeping
 * thread wakes only after its idle vCPU was woken (a halt exit on a virtual machine), which at one pipelined connection
 * costs more than the turn itself. An idle thread pays one bounded spin after its last event, then sleeps.
 */
static int wait_events(int ep, struct epoll_event *events)
{
#ifdef ECHO_SPIN
    struct timespec since;
    clock_gettime(CLOCK_MONOTONIC, &since);
    do {
        int ready = epoll_wait(ep, events, MAX_EVENTS, 0);
        if (ready != 0)
            return ready;
    } while (elapsed_ns(&since) < SPIN_NS);
#endif
    return epoll_wait(ep, events, MAX_EVENTS, -1);
}

static void *serve(void *listener_fd)
{
    int listener = (int)(intptr_t)listener_fd;
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = wait_events(ep, events);
        for (int i = 0; i < ready; i++) {
            struct conn *c = events[i].data.ptr;
            if (c == NULL)
                accept_all(ep, listener);
            else if (on_event(ep, c, events[i].events) < 0)
                close_conn(c);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--port") == 0)
            port = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--threads") == 0)
            threads = atoi(argv[i + 1]);
    }
    signal(SIGPIPE, SIG_IGN);
    threads = threads < 1 ? 1 : threads > 64 ? 64 : threads;
    int listeners[64];
    for (int t = 0; t < threads; t++)
        listeners[t] = open_listener();
    printf("listening on 127.0.0.1:%d\n", port);
    fflush(stdout);
    pthread_t id;
    for (int t = 1; t < threads; t++)
        pthread_create(&id, NULL, serve, (void *)(intptr_t)listeners[t]);
    serve((void *)(intptr_t)listeners[0]);
    return 0;
}

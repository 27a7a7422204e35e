/*
 * Framed echo server on epoll: the practical limit Berth's transport is compared with.
 * Frames are Berth's default (u32 little-endian body length, then the body); every whole frame is
 * sent back byte-identical, and a peer announcing more than MAX_BODY bytes is disconnected.
 * Each thread has its own epoll loop and its own SO_REUSEPORT listener, so threads share nothing.
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
#include <unistd.h>

#define MAX_BODY (1u << 20)
#define IN_CAPACITY (MAX_BODY + 4 + 65536)
#define MAX_EVENTS 256

struct conn {
    int fd;
    uint8_t *in;
    size_t in_len;
    uint8_t *out;
    size_t out_len, out_cap, out_sent;
};

static int port = 7001;

static void close_conn(int ep, struct conn *c)
{
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->in);
    free(c->out);
    free(c);
}

/* Writes what is pending; returns -1 when the peer is gone. Watches EPOLLOUT only while bytes wait. */
static int flush_out(int ep, struct conn *c)
{
    while (c->out_sent < c->out_len) {
        ssize_t n = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN) {
                struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.ptr = c };
                epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
                return 0;
            }
            return -1;
        }
        c->out_sent += (size_t)n;
    }
    c->out_len = c->out_sent = 0;
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
    epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
    return 0;
}

static int queue_out(struct conn *c, const uint8_t *bytes, size_t len)
{
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 65536;
        while (cap < c->out_len + len)
            cap *= 2;
        uint8_t *grown = realloc(c->out, cap);
        if (!grown)
            return -1;
        c->out = grown;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, bytes, len);
    c->out_len += len;
    return 0;
}

/* Reads what is there, echoes every whole frame, keeps a partial one; returns -1 to close. */
static int on_readable(int ep, struct conn *c)
{
    for (;;) {
        ssize_t n = recv(c->fd, c->in + c->in_len, IN_CAPACITY - c->in_len, 0);
        if (n == 0)
            return -1;
        if (n < 0)
            return errno == EAGAIN ? flush_out(ep, c) : -1;
        c->in_len += (size_t)n;

        size_t at = 0;
        while (c->in_len - at >= 4) {
            uint32_t body;
            memcpy(&body, c->in + at, 4);
            if (body > MAX_BODY)
                return -1;
            if (c->in_len - at < 4 + (size_t)body)
                break;
            if (queue_out(c, c->in + at, 4 + (size_t)body) < 0)
                return -1;
            at += 4 + (size_t)body;
        }
        memmove(c->in, c->in + at, c->in_len - at);
        c->in_len -= at;
        if (flush_out(ep, c) < 0)
            return -1;
    }
}

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

static void *serve(void *listener_fd)
{
    int listener = (int)(intptr_t)listener_fd;
    int one = 1;
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.ptr = NULL };
    epoll_ctl(ep, EPOLL_CTL_ADD, listener, &ev);
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = epoll_wait(ep, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            struct conn *c = events[i].data.ptr;
            if (c == NULL) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct conn *fresh = calloc(1, sizeof *fresh);
                    fresh->fd = fd;
                    fresh->in = malloc(IN_CAPACITY);
                    struct epoll_event cev = { .events = EPOLLIN, .data.ptr = fresh };
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &cev);
                }
                continue;
            }
            int result = 0;
            if (events[i].events & EPOLLOUT)
                result = flush_out(ep, c);
            if (result == 0 && (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                result = on_readable(ep, c);
            if (result < 0)
                close_conn(ep, c);
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

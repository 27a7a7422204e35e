/* How the throughput programs' sender makes each frame, chosen on the command line, so that `berth zmq bench` can take
 * the fastest C per cell as its anchor (docs/decisions/zmq-c-anchor.md):
 *   msg       zmq_msg_init_size, filled in place, zmq_msg_send (libzmq's remote_thr; the default)
 *   send      zmq_send from one reused buffer, which libzmq copies into a frame it mallocs (Berth's Send(span) below
 *             its zero-copy threshold, Net.Zmq's span send)
 *   zerocopy  zmq_msg_init_data over a ring of buffers allocated once; libzmq's free callback hands each back, so no
 *             frame is malloced by the sender and freed by the I/O thread (Berth's pooled zero-copy)
 * Every style writes the same 8 bytes per frame. */
#include <zmq.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum send_style { STYLE_MSG, STYLE_SEND, STYLE_ZEROCOPY };

/* More slots than frames a sender can have in flight at the default SNDHWM of 1000 (plus the one being encoded). */
#define RING_SLOTS 1100

static char *ring_buffers[RING_SLOTS];
static atomic_int ring_busy[RING_SLOTS];
static char *send_buffer;

static int parse_style(const char *text, enum send_style *style)
{
    if (strcmp(text, "msg") == 0) *style = STYLE_MSG;
    else if (strcmp(text, "send") == 0) *style = STYLE_SEND;
    else if (strcmp(text, "zerocopy") == 0) *style = STYLE_ZEROCOPY;
    else return -1;
    return 0;
}

/* Called by libzmq, usually on its I/O thread, once the frame's bytes are written. */
static void ring_release(void *data, void *hint)
{
    (void)data;
    atomic_store_explicit(&ring_busy[(intptr_t)hint], 0, memory_order_release);
}

/* Sends frame number i of size bytes in the chosen style; exits on failure. */
static void send_frame(void *socket, enum send_style style, size_t size, long i)
{
    size_t stamp = size < 8 ? size : 8;
    int rc;
    if (style == STYLE_SEND) {
        if (send_buffer == NULL) send_buffer = calloc(1, size ? size : 1);
        memset(send_buffer, (int)i, stamp);
        rc = zmq_send(socket, send_buffer, size, 0);
    } else {
        zmq_msg_t msg;
        if (style == STYLE_MSG) {
            zmq_msg_init_size(&msg, size);
        } else {
            long slot = i % RING_SLOTS;
            /* Frames leave in order, so the oldest slot is the next to come back; waiting here is the ring's bound. */
            while (atomic_load_explicit(&ring_busy[slot], memory_order_acquire)) sched_yield();
            if (ring_buffers[slot] == NULL) ring_buffers[slot] = calloc(1, size ? size : 1);
            atomic_store_explicit(&ring_busy[slot], 1, memory_order_relaxed);
            zmq_msg_init_data(&msg, ring_buffers[slot], size, ring_release, (void *)(intptr_t)slot);
        }
        memset(zmq_msg_data(&msg), (int)i, stamp);
        rc = zmq_msg_send(&msg, socket, 0);
    }
    if (rc < 0) { fprintf(stderr, "send: %s\n", zmq_strerror(zmq_errno())); exit(1); }
}

// hls_stream.h -- pyhls's hls::stream<T> for C++ kernels.
//
// pyhls's own header (not a vendor's), written for source compatibility with the
// hls::stream<T> of Vitis HLS.  pyhls puts this directory on the include path of every
// C++ input (synthesis and the native testbench).
//
// Interface: hls::stream<T> s; hls::stream<T> s("name"); s.read(), s.read(x),
// s.write(x), s >> x, s << x, s.read_nb(x), s.write_nb(x), s.empty(), s.full(),
// s.size().  Streams are passed by reference, never copied.
//
// Semantics:
//  * natively (the testbench, and the golden model pyhls runs) a stream is an unbounded
//    queue: write appends, read takes the oldest element, full() is always false,
//    read_nb(x) is false on an empty stream (x unchanged), write_nb(x) always true.
//    Reading an empty stream prints "WARNING: hls::stream 'name' is read while empty"
//    on stderr and gives an element of zero bytes (Vitis HLS warns too: in hardware
//    that read would wait forever).
//  * in synthesis the frontend lowers the calls below (hls/frontend/_streams.py): each
//    function reads and writes a stream's elements 0, 1, 2, ... of an array, from its
//    own read and write positions.  A stream local to a dataflow region
//    (#pragma HLS dataflow) passed from one task to the next is a FIFO channel (depth:
//    #pragma HLS stream variable=s depth=N, else chosen from the schedules); a stream
//    argument of the top is an AXI4-Stream on --target alveo and a BRAM-style port of
//    its elements in order elsewhere.  What cannot be built that way (empty(), full(),
//    size(), read_nb() and write_nb() in hardware, elements of other than 1, 2, 4 or 8 bytes, a
//    stream shared by functions outside a dataflow region) is a synthesis error at its
//    line.
//
// The element type must be trivially copyable (it is copied byte for byte).

#ifndef PYHLS_HLS_STREAM_H
#define PYHLS_HLS_STREAM_H

#if !defined(__cplusplus)
#error "hls_stream.h is a C++ header"
#endif

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {

// the native queue: elements of `size` bytes in data[head..tail) (bytes), cap bytes
// allocated.  pyhls's golden model reads this layout for stream arguments of the top.
struct __pyhls_queue {
    unsigned char *data;
    size_t head, tail, cap;
    const char *name;
    size_t size;
};

// Out of line (noinline) and weak: the frontend recognises the calls by name and lowers
// them; natively they are the queue's operations (one definition across files).
#define PYHLS_STREAM_FN extern "C" __attribute__((noinline, weak))

PYHLS_STREAM_FN void __pyhls_stream_init(__pyhls_queue *q, const char *name, size_t size) {
    q->data = 0;
    q->head = q->tail = q->cap = 0;
    q->name = name;
    q->size = size;
}

PYHLS_STREAM_FN void __pyhls_stream_fini(__pyhls_queue *q) {
    free(q->data);
    q->data = 0;
    q->head = q->tail = q->cap = 0;
}

PYHLS_STREAM_FN void __pyhls_stream_put(__pyhls_queue *q, const void *v, size_t n) {
    if (q->tail + n > q->cap) {
        size_t live = q->tail - q->head;
        if (q->head && live + n <= q->cap / 2) {       // slide down
            memmove(q->data, q->data + q->head, live);
        } else {
            size_t cap = q->cap ? q->cap : 64;
            while (cap < live + n) cap *= 2;
            unsigned char *d = (unsigned char *)malloc(cap * 2);
            if (live) memcpy(d, q->data + q->head, live);
            free(q->data);
            q->data = d;
            q->cap = cap * 2;
        }
        q->head = 0;
        q->tail = live;
    }
    memcpy(q->data + q->tail, v, n);
    q->tail += n;
}

PYHLS_STREAM_FN void __pyhls_stream_get(__pyhls_queue *q, void *v, size_t n) {
    if (q->tail - q->head < n) {
        fprintf(stderr, "WARNING: hls::stream '%s' is read while empty, which may result "
                        "in RTL simulation hanging\n", q->name ? q->name : "?");
        memset(v, 0, n);
        return;
    }
    memcpy(v, q->data + q->head, n);
    q->head += n;
}

PYHLS_STREAM_FN int __pyhls_stream_empty(__pyhls_queue *q) { return q->tail == q->head; }

// an unbounded queue is never full (out of line: in synthesis an error, as empty())
PYHLS_STREAM_FN int __pyhls_stream_full(__pyhls_queue *) { return 0; }

// the non-blocking accesses: natively a read of an empty queue fails (v unchanged) and a
// write always succeeds; in synthesis an error (a stream there is in-order accesses of an
// array, each waiting for its element: "is one there" has no value in hardware)
PYHLS_STREAM_FN int __pyhls_stream_read_nb(__pyhls_queue *q, void *v, size_t n) {
    if (q->tail - q->head < n) return 0;
    __pyhls_stream_get(q, v, n);
    return 1;
}
PYHLS_STREAM_FN int __pyhls_stream_write_nb(__pyhls_queue *q, const void *v, size_t n) {
    __pyhls_stream_put(q, v, n);
    return 1;
}

PYHLS_STREAM_FN size_t __pyhls_stream_size(__pyhls_queue *q) {
    return (q->tail - q->head) / (q->size ? q->size : 1);
}

// the element accesses the frontend lowers, by element size in bytes
#define PYHLS_STREAM_RW(N, T)                                                            \
    PYHLS_STREAM_FN T __pyhls_stream_read##N(__pyhls_queue *q) {                         \
        T v;                                                                             \
        __pyhls_stream_get(q, &v, N);                                                    \
        return v;                                                                        \
    }                                                                                    \
    PYHLS_STREAM_FN void __pyhls_stream_write##N(__pyhls_queue *q, T v) {                \
        __pyhls_stream_put(q, &v, N);                                                    \
    }
PYHLS_STREAM_RW(1, unsigned char)
PYHLS_STREAM_RW(2, unsigned short)
PYHLS_STREAM_RW(4, unsigned int)
PYHLS_STREAM_RW(8, unsigned long long)
#undef PYHLS_STREAM_RW

// elements of other sizes: natively fine, a synthesis error
PYHLS_STREAM_FN void __pyhls_stream_readn(__pyhls_queue *q, void *v, size_t n) {
    __pyhls_stream_get(q, v, n);
}
PYHLS_STREAM_FN void __pyhls_stream_writen(__pyhls_queue *q, const void *v, size_t n) {
    __pyhls_stream_put(q, v, n);
}
#undef PYHLS_STREAM_FN

}  // extern "C"

namespace pyhls_stream {

// element copies by size: 1, 2, 4 and 8 bytes go through the calls synthesis lowers
template <size_t N> struct io {
    static void put(__pyhls_queue *q, const void *v) { __pyhls_stream_writen(q, v, N); }
    static void get(__pyhls_queue *q, void *v) { __pyhls_stream_readn(q, v, N); }
};
#define PYHLS_STREAM_IO(N, B)                                                            \
    template <> struct io<N> {                                                           \
        static void put(__pyhls_queue *q, const void *v) {                               \
            B b;                                                                         \
            memcpy(&b, v, N);                                                            \
            __pyhls_stream_write##N(q, b);                                               \
        }                                                                                \
        static void get(__pyhls_queue *q, void *v) {                                     \
            B b = __pyhls_stream_read##N(q);                                             \
            memcpy(v, &b, N);                                                            \
        }                                                                                \
    };
PYHLS_STREAM_IO(1, unsigned char)
PYHLS_STREAM_IO(2, unsigned short)
PYHLS_STREAM_IO(4, unsigned int)
PYHLS_STREAM_IO(8, unsigned long long)
#undef PYHLS_STREAM_IO

}  // namespace pyhls_stream

namespace hls {

template <typename T>
class stream {
    __pyhls_queue q_;

    stream(const stream &);                 // streams are passed by reference
    stream &operator=(const stream &);

public:
    stream() { __pyhls_stream_init(&q_, "hls::stream", sizeof(T)); }
    explicit stream(const char *name) { __pyhls_stream_init(&q_, name, sizeof(T)); }
    ~stream() { __pyhls_stream_fini(&q_); }

    void write(const T &v) { pyhls_stream::io<sizeof(T)>::put(&q_, &v); }
    void read(T &v) { pyhls_stream::io<sizeof(T)>::get(&q_, &v); }
    T read() {
        T v;
        pyhls_stream::io<sizeof(T)>::get(&q_, &v);
        return v;
    }
    bool read_nb(T &v) { return __pyhls_stream_read_nb(&q_, &v, sizeof(T)) != 0; }
    bool write_nb(const T &v) { return __pyhls_stream_write_nb(&q_, &v, sizeof(T)) != 0; }
    bool empty() { return __pyhls_stream_empty(&q_) != 0; }
    bool full() { return __pyhls_stream_full(&q_) != 0; }
    size_t size() { return __pyhls_stream_size(&q_); }

    stream &operator<<(const T &v) {
        write(v);
        return *this;
    }
    stream &operator>>(T &v) {
        read(v);
        return *this;
    }
};

}  // namespace hls

#endif  // PYHLS_HLS_STREAM_H

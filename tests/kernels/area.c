/* Kernels for the Yosys area estimate (tests/test_estimate_area.py): both keep a
 * 1024-word local buffer (32 Kib: block RAM, not flip-flops); mul_buf multiplies two
 * 32-bit words (DSPs), xor_buf has no multiplier at all (not even by a constant:
 * Yosys maps those to DSPs too). */
#include <stdint.h>

#define N 1024

uint32_t mul_buf(const uint32_t *a, const uint32_t *b)
{
    uint32_t buf[N];
    for (int i = 0; i < N; i++)
        buf[i] = a[i] * b[i];
    uint32_t s = 0;
    for (uint32_t i = 0; i < N; i++)
        s += buf[N - 1 - i] ^ i;
    return s;
}

uint32_t xor_buf(const uint32_t *a)
{
    uint32_t buf[N];
    for (int i = 0; i < N; i++)
        buf[i] = a[i] ^ (a[i] >> 3);
    uint32_t s = 0;
    for (uint32_t i = 0; i < N; i++)
        s += buf[N - 1 - i] ^ i;
    return s;
}

/* rmw_buf: the buffer is written by a store-only loop and by a read-modify-write loop.
 * Both stores must take the same port (tests/test_estimate_area.py), or Yosys merges
 * the two write ports into one whose address matches neither read port and builds
 * the memory twice. */
uint64_t rmw_buf(const uint64_t *a, uint64_t k)
{
    uint64_t buf[N];
    for (int i = 0; i < N; i++)
        buf[i] = a[i];
    for (int i = 0; i < N; i++)
        buf[i] = (buf[i] ^ k) + (uint64_t)i;
    uint64_t s = 0;
    for (uint32_t i = 0; i < N; i++)
        s += buf[N - 1 - i] ^ buf[i];
    return s;
}

/* sdp_buf: at most one store and one load of the buffer in any cycle (without
 * unrolling), so it is a simple dual-port memory: 1331 x 64 bits in three RAMB36
 * of 512 x 72 rather than four of 1K x 36. */
uint64_t sdp_buf(const uint64_t *a, uint64_t k)
{
    uint64_t buf[1331];
    for (int i = 0; i < 1331; i++)
        buf[i] = a[i] ^ k;
    for (int i = 1; i < 1331; i++)
        buf[i] = buf[i - 1] + (buf[i] >> 1);
    uint64_t s = 0;
    for (int i = 0; i < 1331; i++)
        s += buf[1330 - i] * (uint64_t)i;
    return s;
}

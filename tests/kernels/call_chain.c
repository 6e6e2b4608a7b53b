/* Regression kernel: back-to-back calls of one noinline callee, the first result used
 * after the second call (the callee's return register changes in between), a callee
 * writing through an offset pointer, and a global written by a callee. */
#include <stdint.h>

int32_t hits;

static __attribute__((noinline)) int32_t mix(int32_t a, int32_t b)
{
    hits += 1;
    return a * 3 + (b ^ 0x55);
}

static __attribute__((noinline)) void fill(int32_t *p, int32_t n, int32_t v)
{
    for (int32_t i = 0; i < n; i++)
        p[i] = v + i;
}

int32_t call_chain(int32_t *buf, int32_t x, int32_t y)
{
    int32_t r1 = mix(x, y);
    int32_t r2 = mix(r1, x);
    int32_t r3 = mix(y, r2);
    fill(buf + 2, 4, r1);
    fill(buf + 8, 3, r3);
    return r1 - r2 + r3 + hits;
}

int main(void)
{
    static int32_t b[16];
    int32_t s = 0;
    hits = 40; /* the testbench changes a global before the first call */
    for (int k = 0; k < 3; k++)
        s += call_chain(b, k * 7 - 5, 1000 - k);
    return s & 0x7f;
}

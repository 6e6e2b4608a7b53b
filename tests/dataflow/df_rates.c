/* df_rates: a fast producer feeding a slow consumer and a fast branch that continues
 * into a long ping-pong stage.  The FIFO to the slow consumer must absorb what the
 * producer writes ahead of it, or the producer (and with it the fast branch and the
 * long stage after it) is held to the slow consumer's pace. */
#include <stdint.h>
#define FN 64

static void rt_split(const uint32_t *in, uint32_t *x, uint32_t *y)
{
    for (int i = 0; i < FN; i++) {
        uint32_t v = in[i];
        x[i] = v;
        y[i] = v ^ 0x55u;
    }
}

static void rt_slow(const uint32_t *x, uint32_t *o1)
{
    for (int i = 0; i < FN; i++)
        o1[i] = x[i] / (uint32_t)(i + 3);     /* a sequential divider: a long II */
}

static void rt_fast(const uint32_t *y, uint32_t *z)
{
    for (int i = 0; i < FN; i++)
        z[i] = y[i] * 3u;
}

static void rt_tail(const uint32_t *z, uint32_t *o2)
{
    for (int i = 0; i < FN; i++) {
        uint32_t v = z[FN - 1 - i];
        o2[i] = v / (v % 13u + 1u);            /* long, and reads backwards */
    }
}

void df_rates(const uint32_t *in, uint32_t *o1, uint32_t *o2)
{
    uint32_t x[FN], y[FN], z[FN];
    rt_split(in, x, y);
    rt_slow(x, o1);
    rt_fast(y, z);
    rt_tail(z, o2);
}

static uint32_t src[FN], d1[FN], d2[FN];

int main(void)
{
    for (int i = 0; i < FN; i++)
        src[i] = (uint32_t)i * 2654435761u;
    df_rates(src, d1, d2);
    return 0;
}

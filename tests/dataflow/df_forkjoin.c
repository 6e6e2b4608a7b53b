/* df_forkjoin: a fork into two unequal branches that join again, over FRAMES frames.
 * The short branch streams its input; the long one reads its input backwards (a
 * ping-pong channel) and does more work per element.  The channels of the short
 * branch lie on a reconvergent path: they must hold a whole frame. */
#include <stdint.h>
#ifndef FRAMES
#define FRAMES 8
#endif
#define FN 64

static void fj_split(const int16_t *in, int16_t *x, int16_t *y)
{
    for (int i = 0; i < FN; i++) {
        int16_t v = in[i];
        x[i] = v;
        y[i] = (int16_t)(v + 3);
    }
}

static void fj_short(const int16_t *x, int32_t *p)
{
    for (int i = 0; i < FN; i++)
        p[i] = x[i] * 2;
}

static void fj_long(const int16_t *y, int32_t *q)
{
    for (int i = 0; i < FN; i++) {
        int32_t v = y[FN - 1 - i];
        int32_t acc = 0;
        for (int k = 0; k < 4; k++)
            acc += (v >> k) * (k + 1);
        q[i] = acc / 3;
    }
}

static void fj_join(const int32_t *p, const int32_t *q, int32_t *out)
{
    for (int i = 0; i < FN; i++)
        out[i] = p[i] - q[i];
}

void df_forkjoin(const int16_t *in, int32_t *out)
{
    int16_t x[FN], y[FN];
    int32_t p[FN], q[FN];
    for (int f = 0; f < FRAMES; f++) {
        fj_split(in + f * FN, x, y);
        fj_short(x, p);
        fj_long(y, q);
        fj_join(p, q, out + f * FN);
    }
}

static int16_t src[FRAMES * FN];
static int32_t dst[FRAMES * FN];

int main(void)
{
    uint32_t s = 777u;
    for (int i = 0; i < FRAMES * FN; i++) {
        s = s * 1664525u + 1013904223u;
        src[i] = (int16_t)(s >> 17);
    }
    df_forkjoin(src, dst);
    return 0;
}

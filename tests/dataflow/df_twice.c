/* df_twice: a graph that calls one function twice (two tasks, two instances), over
 * FRAMES frames: scale, mix with a running sum, scale again. */
#include <stdint.h>
#ifndef FRAMES
#define FRAMES 8
#endif
#define FN 48

static void tw_scale(const int32_t *in, int32_t *out, int32_t k)
{
    for (int i = 0; i < FN; i++)
        out[i] = in[i] * k + (k >> 1);
}

static void tw_mix(const int32_t *a, int32_t *b)
{
    int32_t run = 0;
    for (int i = 0; i < FN; i++) {
        run += a[i];
        b[i] = run - a[i] / 2;
    }
}

void df_twice(const int32_t *in, int32_t *out, int32_t k)
{
    int32_t a[FN], b[FN];
    for (int f = 0; f < FRAMES; f++) {
        tw_scale(in + f * FN, a, k);
        tw_mix(a, b);
        tw_scale(b, out + f * FN, k + 2);
    }
}

static int32_t src[FRAMES * FN], dst[FRAMES * FN];

int main(void)
{
    for (int i = 0; i < FRAMES * FN; i++)
        src[i] = (i * 37) % 101 - 50;
    df_twice(src, dst, 3);
    df_twice(src, dst, -5);
    return 0;
}

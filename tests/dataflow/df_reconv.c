/* df_reconv: reconvergent paths.  The source feeds the join directly (channel `a`, in
 * order) and through a stage that reads its input backwards (channel `b`, a ping-pong
 * buffer); the join reads `a` and `c` in step.  The join cannot go past its first
 * element until the middle stage has run, which needs the whole frame of `b`, so `a`
 * must hold a whole frame: with `a` at depth 2 the region deadlocks. */
#include <stdint.h>
#ifndef FRAMES
#define FRAMES 1
#endif
#define FN 32

static void rc_src(const int32_t *in, int32_t *a, int32_t *b)
{
    for (int i = 0; i < FN; i++) {
        int32_t v = in[i];
        a[i] = v + 1;
        b[i] = v * 5;
    }
}

static void rc_mid(const int32_t *b, int32_t *c)
{
    for (int i = 0; i < FN; i++)
        c[i] = b[FN - 1 - i] - i;
}

static void rc_join(const int32_t *a, const int32_t *c, int32_t *out)
{
    for (int i = 0; i < FN; i++)
        out[i] = a[i] ^ c[i];
}

void df_reconv(const int32_t *in, int32_t *out)
{
    int32_t a[FN], b[FN], c[FN];
    for (int f = 0; f < FRAMES; f++) {
        rc_src(in + f * FN, a, b);
        rc_mid(b, c);
        rc_join(a, c, out + f * FN);
    }
}

static int32_t src[FRAMES * FN], dst[FRAMES * FN];

int main(void)
{
    for (int i = 0; i < FRAMES * FN; i++)
        src[i] = i * 7 - 100;
    df_reconv(src, dst);
    return 0;
}

/* df_chain4: four stages over FRAMES frames of FN samples, linked by three local
 * arrays that every stage writes and reads in order (FIFO channels). */
#include <stdint.h>
#ifndef FRAMES
#define FRAMES 8
#endif
#define FN 64

static void ch_load(const int32_t *in, int32_t *a)
{
    for (int i = 0; i < FN; i++)
        a[i] = in[i] * 3 - 7;
}

static void ch_smooth(const int32_t *a, int32_t *b)
{
    int32_t prev = 0;
    for (int i = 0; i < FN; i++) {
        int32_t x = a[i];
        b[i] = (x + prev) >> 1;
        prev = x;
    }
}

static void ch_clamp(const int32_t *b, int32_t *c)
{
    for (int i = 0; i < FN; i++) {
        int32_t x = b[i];
        c[i] = x < -1000 ? -1000 : (x > 1000 ? 1000 : x);
    }
}

static void ch_store(const int32_t *c, int32_t *out)
{
    for (int i = 0; i < FN; i++)
        out[i] = c[i] ^ (i << 4);
}

void df_chain4(const int32_t *in, int32_t *out)
{
    int32_t a[FN], b[FN], c[FN];
    for (int f = 0; f < FRAMES; f++) {
        ch_load(in + f * FN, a);
        ch_smooth(a, b);
        ch_clamp(b, c);
        ch_store(c, out + f * FN);
    }
}

static int32_t src[FRAMES * FN], dst[FRAMES * FN];

int main(void)
{
    uint32_t s = 12345u;
    for (int i = 0; i < FRAMES * FN; i++) {
        s = s * 1103515245u + 12345u;
        src[i] = (int32_t)(s >> 20) - 2048;
    }
    df_chain4(src, dst);
    uint32_t h = 2166136261u;
    for (int i = 0; i < FRAMES * FN; i++)
        h = (h ^ (uint32_t)dst[i]) * 16777619u;
    return h == 0;   /* the checksum is compared by co-simulation, not here */
}

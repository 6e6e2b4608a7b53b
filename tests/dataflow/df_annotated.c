/* A dataflow region marked in the source: two stages through a local array. */
#include <stdint.h>
#define FN 32

static void an_sq(const int32_t *in, int32_t *t)
{
    for (int i = 0; i < FN; i++)
        t[i] = in[i] * in[i];
}

static void an_acc(const int32_t *t, int32_t *out)
{
    int32_t s = 0;
    for (int i = 0; i < FN; i++) {
        s += t[i];
        out[i] = s;
    }
}

__attribute__((annotate("pyhls_dataflow")))
void df_annotated(const int32_t *in, int32_t *out)
{
    int32_t t[FN];
    for (int f = 0; f < 4; f++) {
        an_sq(in + f * FN, t);
        an_acc(t, out + f * FN);
    }
}

static int32_t src[4 * FN], dst[4 * FN];

int main(void)
{
    for (int i = 0; i < 4 * FN; i++)
        src[i] = (i * 13) % 29 - 14;
    df_annotated(src, dst);
    return 0;
}

/* df_nframes: a frames loop whose count is an argument (0 and negative counts run no
 * frame). */
#include <stdint.h>
#define FN 16

static void nf_scale(const int32_t *in, int32_t *a)
{
    for (int i = 0; i < FN; i++)
        a[i] = in[i] * 3;
}

static void nf_add(const int32_t *a, int32_t *out)
{
    for (int i = 0; i < FN; i++)
        out[i] = a[i] + 1;
}

void df_nframes(const int32_t *in, int32_t *out, int n)
{
    int32_t a[FN];
    for (int f = 0; f < n; f++) {
        nf_scale(in + f * FN, a);
        nf_add(a, out + f * FN);
    }
}

static int32_t src[128], dst[128];

int main(void)
{
    for (int i = 0; i < 128; i++)
        src[i] = i * 5 - 300;
    df_nframes(src, dst, 3);
    df_nframes(src, dst, 0);
    df_nframes(src, dst, 8);
    df_nframes(src, dst, -2);
    return 0;
}

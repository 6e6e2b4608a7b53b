/* A dataflow region called (twice) by a plain top: the region is a noinline callee
 * marked in the source; the top's FSMD starts it through the same handshake. */
#include <stdint.h>
#define FN 32
static void st1(const int32_t *in, int32_t *t) { for (int i = 0; i < FN; i++) t[i] = in[i] * 7; }
static void st2(const int32_t *t, int32_t *o) { for (int i = 0; i < FN; i++) o[i] = t[i] - 3; }
__attribute__((noinline, annotate("pyhls_dataflow")))
void region(const int32_t *in, int32_t *o)
{
    int32_t t[FN];
    st1(in, t);
    st2(t, o);
}
void top(const int32_t *in, int32_t *o)
{
    region(in, o);
    region(in + FN, o + FN);
    o[0] += 1;
}
static int32_t a[64], b[64];
int main(void) { for (int i = 0; i < 64; i++) a[i] = i * 3 - 50; top(a, b); return 0; }

#include <stdint.h>
static void make(int32_t *t, const int32_t *in) { for (int i = 0; i < 16; i++) t[i] = in[i] * 2; }
static void use(const int32_t *t, int32_t *o) { for (int i = 0; i < 16; i++) o[i] = t[i] + 1; }

void top(const int32_t *in, int32_t *o, int n)
{
    int32_t t[16];
    for (int f = 0; f < n; f += 2) {
        make(t, in);
        use(t, o);
    }
}

#include <stdint.h>

#define N 16

void dsp_heavy(const int32_t *a, const int32_t *b, int32_t *x, int32_t *y, int32_t *z)
{
    for (int i = 0; i < N; i++)
        x[i] = a[i] * b[i] + (a[i] + 1) * (b[i] - 3) + (a[i] ^ 5) * (b[i] + 7);
    for (int i = 0; i < N; i++)
        y[i] = a[i] * 1000003 + (b[i] - a[i]) * (b[i] + a[i]);
    for (int i = 0; i < N; i++)
        z[i] = (a[i] >> 1) * (b[i] >> 2) + (a[i] | 9) * b[i] * 3;
}

int main(void)
{
    int32_t a[N], b[N], x[N], y[N], z[N];
    uint32_t s = 12345u;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (int32_t)s >> (i & 7);
        s = s * 1103515245u + 12345u;
        b[i] = (int32_t)s >> (i & 3);
    }
    dsp_heavy(a, b, x, y, z);
    uint32_t h = 0;
    for (int i = 0; i < N; i++)
        h = h * 31u + (uint32_t)x[i] + 7u * (uint32_t)y[i] + 13u * (uint32_t)z[i];
    return (int)(h & 0x7f);
}

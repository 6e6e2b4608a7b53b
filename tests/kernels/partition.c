/* Array partitioning: static banks (a[4*i + c], loc[2*i], loc[2*i + 1]), dynamic banks
 * (loc[(7*i + k) & 31]), a local array, argument arrays and a global. */
#include <stdint.h>

#define N 32

int32_t table[N];

int32_t quad_sum(const int32_t *a, int32_t *out, int32_t k)
{
    int32_t loc[N];
    for (int i = 0; i < N; i++)
        loc[i] = a[i] * 3 + k;
    int32_t s = 0;
    for (int i = 0; i < N / 2; i++)
        s += loc[2 * i] * loc[2 * i + 1];
    for (int i = 0; i < N / 4; i++)
        out[i] = a[4 * i] + a[4 * i + 1] - a[4 * i + 2] + (a[4 * i + 3] ^ k);
    for (int i = 0; i < N; i++)
        table[i] += loc[(7 * i + k) & (N - 1)];
    return s + table[k & (N - 1)];
}

int main(void)
{
    int32_t a[N], out[N];
    uint32_t x = 12345u;
    int32_t acc = 0;
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++) {
            x = x * 1103515245u + 12345u;
            a[i] = (int32_t)(x >> 8) - (1 << 22);
            out[i] = 0;
        }
        acc += quad_sum(a, out, r * 5 + 1);
        for (int i = 0; i < N; i++)
            acc ^= out[i] + i;
    }
    return acc & 0xff;
}

/* Loop unrolling by pragma: an exact partial unroll (64 % 4 == 0), a partial unroll of a
 * loop with a run-time trip count (guarded copies), and a fully unrolled inner loop whose
 * enclosing loop then becomes a single block and is pipelined. */
#include <stdint.h>

#define N 64

int32_t unroll_k(const int32_t *a, int32_t *b, int32_t n)
{
    int32_t s = 0;
#pragma clang loop unroll_count(4)
    for (int i = 0; i < N; i++)
        s += a[i] * (i + 1);
#pragma clang loop unroll_count(3)
    for (int i = 0; i < n; i++)
        b[i] = a[i] ^ s;
    int32_t m = 0;
    for (int j = 0; j < 8; j++) {
#pragma clang loop unroll(full)
        for (int k = 0; k < 4; k++)
            m += a[j * 4 + k] * (k + 1);
    }
    return s + m;
}

int main(void)
{
    int32_t a[N], b[N];
    int32_t acc = 0;
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < N; i++) {
            a[i] = (i * 37 + r * 11) % 101 - 50;
            b[i] = -1;
        }
        acc += unroll_k(a, b, r * 7 + (r == 3 ? 0 : 1));   /* n = 1, 8, 15, 0 */
        for (int i = 0; i < N; i++)
            acc ^= b[i] * (i + 3);
    }
    return acc & 0xff;
}

/* Loops unrolled by the directives file (tests/test_unroll.py), not by pragmas. */
#include <stdint.h>

int32_t dir_k(const int32_t *a, int32_t *b, int32_t n)
{
    int32_t s = 0;
    for (int i = 0; i < 64; i++)
        s += a[i] * (i + 1);
    for (int i = 0; i < n; i++)
        b[i] = (a[i] ^ s) + (i > 5 ? a[i - 5] : 0);
    int32_t m = 0;
    for (int j = 0; j < 8; j++)
        for (int k = 0; k < 4; k++)
            m += a[j * 4 + k] * (k + 1);
    return s + m;
}

int main(void)
{
    int32_t a[64], b[64];
    int32_t acc = 0;
    for (int r = 0; r < 4; r++) {
        for (int i = 0; i < 64; i++) {
            a[i] = (i * 37 + r * 11) % 101 - 50;
            b[i] = -1;
        }
        acc += dir_k(a, b, r * 7 + (r == 3 ? 0 : 1));   /* n = 1, 8, 15, 0 */
        for (int i = 0; i < 64; i++)
            acc ^= b[i] * (i + 3);
    }
    return acc & 0xff;
}

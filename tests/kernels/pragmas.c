/* clang loop pragmas: a required II on one loop, pipelining disabled on the other. */
#include <stdint.h>
int32_t f(const int32_t *a, int32_t *b, int32_t n)
{
    int32_t s = 0;
#pragma clang loop pipeline_initiation_interval(3)
    for (int32_t i = 0; i < n; i++)
        s += a[i] * 3;
#pragma clang loop pipeline(disable)
    for (int32_t i = 0; i < n; i++)
        b[i] = a[i] + s;
    return s;
}

static int32_t A[16], B[16];

int main(void)
{
    int32_t h = 0;
    for (int n = 0; n <= 16; n += 5) {
        for (int i = 0; i < 16; i++)
            A[i] = i * 7 - n;
        h = h * 3 + f(A, B, n);
    }
    return h;
}

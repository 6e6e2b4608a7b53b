/* gemm_ncubed: the naive triple-loop matrix product of MachSuite's gemm/ncubed,
   on int32 16x16 matrices (MachSuite: double 64x64). */
#include <stdint.h>

#define N 16

void gemm(const int32_t m1[N * N], const int32_t m2[N * N], int32_t prod[N * N])
{
outer:
    for (int i = 0; i < N; i++) {
    middle:
        for (int j = 0; j < N; j++) {
            int32_t sum = 0;
        inner:
            for (int k = 0; k < N; k++)
                sum += m1[i * N + k] * m2[k * N + j];
            prod[i * N + j] = sum;
        }
    }
}

static int32_t a[N * N], b[N * N], c[N * N];

int main(void)
{
    uint32_t r = 11u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N * N; i++) {
            r = r * 1103515245u + 12345u;
            a[i] = (int32_t)(r >> 12) - (1 << 19);
            r = r * 1103515245u + 12345u;
            b[i] = (int32_t)(r >> 20) - (1 << 11);
        }
        gemm(a, b, c);
    }
    return 0;
}

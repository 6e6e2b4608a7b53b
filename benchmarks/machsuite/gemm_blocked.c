/* gemm_blocked: MachSuite's gemm/blocked (bbgemm), the product computed block by block
   (jj, kk) with the row of m1 kept in a temporary, on int32 16x16 matrices in 4x4
   blocks (MachSuite: double 64x64 in 8x8 blocks).  prod is cleared first. */
#include <stdint.h>

#define N 16
#define BS 4

void bbgemm(const int32_t m1[N * N], const int32_t m2[N * N], int32_t prod[N * N])
{
clear:
    for (int i = 0; i < N * N; i++)
        prod[i] = 0;
loopjj:
    for (int jj = 0; jj < N; jj += BS) {
    loopkk:
        for (int kk = 0; kk < N; kk += BS) {
        loopi:
            for (int i = 0; i < N; i++) {
            loopk:
                for (int k = 0; k < BS; k++) {
                    int32_t temp_x = m1[i * N + k + kk];
                loopj:
                    for (int j = 0; j < BS; j++)
                        prod[i * N + j + jj] += temp_x * m2[(k + kk) * N + j + jj];
                }
            }
        }
    }
}

static int32_t a[N * N], b[N * N], c[N * N];

int main(void)
{
    uint32_t r = 5u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N * N; i++) {
            r = r * 1103515245u + 12345u;
            a[i] = (int32_t)(r >> 12) - (1 << 19);
            r = r * 1103515245u + 12345u;
            b[i] = (int32_t)(r >> 20) - (1 << 11);
        }
        bbgemm(a, b, c);
    }
    return 0;
}

/* gemm_i32: C = A * B + C over 16x16 int32 matrices (a gemm-like benchmark kernel). */
#include <stdint.h>

#define N 16

void gemm_i32(const int32_t *A, const int32_t *B, int32_t *C)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int32_t acc = C[i * N + j];
            for (int k = 0; k < N; k++)
                acc += A[i * N + k] * B[k * N + j];
            C[i * N + j] = acc;
        }
}

volatile uint32_t result_checksum;
static int32_t a[N * N], b[N * N], c[N * N];

int main(void)
{
    uint32_t r = 12345u;
    for (int i = 0; i < N * N; i++) {
        r = r * 1103515245u + 12345u;
        a[i] = (int32_t)(r >> 16) - 32768;
        r = r * 1103515245u + 12345u;
        b[i] = (int32_t)(r >> 16) - 32768;
        c[i] = i;
    }
    gemm_i32(a, b, c);
    gemm_i32(c, b, a);
    uint32_t h = 0;
    for (int i = 0; i < N * N; i++)
        h = (h ^ (uint32_t)a[i]) * 0x01000193u;
    result_checksum = h;
    return 0;
}

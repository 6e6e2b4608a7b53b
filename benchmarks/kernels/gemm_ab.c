/* gemm_ab: C = alpha*A*B + beta*C on int32 matrices (10x14 by 14x12), the GEMM of issue 22
   that reached 79.1 MHz on ECP5 at a claimed 100 MHz with the generic model. */
#include <stdint.h>

#define NI 10
#define NJ 12
#define NK 14

void gemm_ab(int32_t alpha, int32_t beta, int32_t C[NI * NJ], const int32_t A[NI * NK],
             const int32_t B[NK * NJ])
{
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++) {
            int32_t acc = beta * C[i * NJ + j];
            for (int k = 0; k < NK; k++)
                acc += alpha * A[i * NK + k] * B[k * NJ + j];
            C[i * NJ + j] = acc;
        }
}

volatile uint32_t result_checksum;
static int32_t a[NI * NK], b[NK * NJ], c[NI * NJ];

int main(void)
{
    uint32_t r = 7u;
    for (int i = 0; i < NI * NK; i++) { r = r * 1103515245u + 12345u; a[i] = (int32_t)(r >> 8); }
    for (int i = 0; i < NK * NJ; i++) { r = r * 1103515245u + 12345u; b[i] = (int32_t)(r >> 8); }
    for (int i = 0; i < NI * NJ; i++) { r = r * 1103515245u + 12345u; c[i] = (int32_t)(r >> 8); }
    gemm_ab(3, -2, c, a, b);
    gemm_ab(-5, 7, c, a, b);
    uint32_t h = 0;
    for (int i = 0; i < NI * NJ; i++)
        h = (h ^ (uint32_t)c[i]) * 0x01000193u;
    result_checksum = h;
    return 0;
}

/*
 * vadd_stream: c[i] = a[i] + b[i] over n 32-bit elements, the streaming kernel of the
 * Alveo m_axi throughput measurement (benchmarks/run_alveo.py --stream).  The testbench
 * main calls it once over 4096 elements.
 *
 *   pyhls cosim examples/alveo/vadd_stream.c --top vadd_stream --tb examples/alveo/vadd_stream.c \
 *       --target alveo --depth a=4096 --depth b=4096 --depth c=4096
 */
#include <stdint.h>

#define N 4096

void vadd_stream(const int32_t *a, const int32_t *b, int32_t *c, int n)
{
    for (int i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

static int32_t A[N], B[N], C[N];
volatile uint32_t result_checksum;

int main(void)
{
    uint32_t x = 2463534242u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        A[i] = (int32_t)x;
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        B[i] = (int32_t)x;
    }
    vadd_stream(A, B, C, N);
    uint32_t s = 0;
    for (int i = 0; i < N; i++)
        s = s * 31u + (uint32_t)C[i];
    result_checksum = s;
    return 0;
}

/*
 * Kernels for AXI4-Stream arguments (tests/test_axis.py, benchmarks/run_alveo.py
 * --stream): every pointer they use as a stream is read (or written) once per loop
 * iteration at the iteration number, from 0.  The testbench main calls each a few times.
 *
 *   pyhls cosim examples/alveo/stream_kernels.c --top vadd_axis --tb examples/alveo/stream_kernels.c \
 *       --target alveo --interface a=axis --interface b=axis --interface c=axis
 */
#include <stdint.h>

#define N 64

/* c = a + b, element by element */
void vadd_axis(const int32_t *a, const int32_t *b, int32_t *c)
{
    for (int i = 0; i < N; i++)
        c[i] = a[i] + b[i];
}

/* 4-tap FIR over x with the taps in registers; also returns the sum of y */
int32_t fir_axis(const int16_t *x, int32_t *y, int32_t h0, int32_t h1, int32_t h2, int32_t h3)
{
    int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0, sum = 0;
    for (int i = 0; i < N; i++) {
        s3 = s2; s2 = s1; s1 = s0; s0 = x[i];
        int32_t v = h0 * s0 + h1 * s1 + h2 * s2 + h3 * s3;
        y[i] = v;
        sum += v;
    }
    return sum;
}

/* not a stream: x is read backwards (rejected by --interface x=axis) */
void reverse_copy(const int32_t *x, int32_t *y)
{
    for (int i = 0; i < N; i++)
        y[i] = x[N - 1 - i];
}

/* not a stream: a is read and written */
void scale_in_place(int32_t *a, int32_t k)
{
    for (int i = 0; i < N; i++)
        a[i] = a[i] * k;
}

static int32_t A[N], B[N], C[N];
static int16_t X[N];

int main(void)
{
    uint32_t r = 12345u;
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < N; i++) {
            r = r * 1103515245u + 12345u;
            A[i] = (int32_t)r;
            r = r * 1103515245u + 12345u;
            B[i] = (int32_t)r;
            X[i] = (int16_t)(r >> 7);
        }
        vadd_axis(A, B, C);
        fir_axis(X, C, 3 + k, -5, 7, 11 * k);
        reverse_copy(A, C);
        scale_in_place(A, k + 2);
    }
    return 0;
}

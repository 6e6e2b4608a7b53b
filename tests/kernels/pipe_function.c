/* Function pipelining (#pragma HLS pipeline in a function's body, --pipeline-function):
   the function's loop unrolled, the function inlined, the loops that call it pipelined
   (tests/test_pipeline_function.py).  Each top is called by main with n = 64, then 17. */
#include <stdint.h>

static const int32_t W[4] = {3, -5, 7, 11};

static int32_t mac4(int32_t x)
{
#pragma HLS pipeline II=2
    int32_t s = 0;
    for (int k = 0; k < 4; k++)
        s += W[k] * (x >> k);
    return s;
}

static int32_t poly(int32_t x)     /* pipelined by --pipeline-function */
{
    int32_t s = 1;
    for (int k = 0; k < 3; k++)
        s = s * x + W[k];
    return s;
}

/* back to back: one call an iteration */
void run(const int32_t a[66], int32_t b[64], int n)
{
calls:
    for (int i = 0; i < n; i++)
        b[i] = mac4(a[i]) + i;
}

/* calls at irregular intervals: only where the element is odd */
void sparse(const int32_t a[66], int32_t b[64], int n)
{
odd:
    for (int i = 0; i < n; i++)
        b[i] = (a[i] & 1) ? poly(a[i]) : -a[i];
}

/* the memory holds the caller back: three reads of a an iteration (none the same word
   as another iteration's) on two ports */
void window(const int32_t a[66], int32_t b[64], int n)
{
win:
    for (int i = 0; i < n; i++)
        b[i] = poly(a[i]) ^ poly(a[65 - i]) ^ a[(i * 5) & 63];
}

/* the caller holds the calls back: each call needs the last one's result */
int32_t chain(const int32_t a[66], int n)
{
    int32_t s = 0;
dep:
    for (int i = 0; i < n; i++)
        s = poly(s ^ a[i]);
    return s;
}

int main(void)
{
    static int32_t a[66], b[64];
    int32_t s = 0;
    for (int i = 0; i < 66; i++)
        a[i] = i * 977 - 20000 + (i % 3);
    for (int t = 0; t < 2; t++) {
        int n = t ? 17 : 64;
        run(a, b, n);
        sparse(a, b, n);
        window(a, b, n);
        s ^= chain(a, n);
    }
    return s & 1;
}

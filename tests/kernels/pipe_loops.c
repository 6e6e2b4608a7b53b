/* Loops for the pipelining tests: reductions, in-place updates, memory recurrences at
 * distance 1 and 2, a histogram (read-modify-write through a data-dependent address),
 * nested loops (the inner one is re-entered), dividers in the loop body, branches in
 * the body (if-conversion), and a
 * data-dependent exit with live-out values.  main() calls each with trip counts 0, 1, 2
 * and larger; --tb replays those calls. */
#include <stdint.h>

#define N 64

int32_t reduce(const int32_t *a, int32_t n)
{
    int32_t s = 0;
    for (int32_t i = 0; i < n; i++)
        s += a[i] * 3;
    return s;
}

void inplace(int32_t *a, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        a[i] = a[i] * 5 + (a[i] >> 3);
}

void shift2(int32_t *a, int32_t n)
{
    for (int32_t i = 2; i < n; i++)
        a[i] = a[i - 2] + (a[i] ^ 0x55);
}

void prefix(int32_t *a, int32_t n)
{
    for (int32_t i = 1; i < n; i++)
        a[i] = a[i - 1] + a[i];
}

void hist(const uint8_t *x, uint16_t *h, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        h[x[i] & 15]++;
}

int32_t nested(const int16_t *m, int32_t *out, int32_t rows, int32_t cols)
{
    int32_t t = 0;
    for (int32_t r = 0; r < rows; r++) {
        int32_t s = 0;
        for (int32_t c = 0; c < cols; c++)
            s += m[r * cols + c];
        out[r] = s;
        t ^= s;
    }
    return t;
}

uint32_t divloop(const uint32_t *a, const uint32_t *b, uint32_t *q, int32_t n)
{
    uint32_t acc = 0;
    for (int32_t i = 0; i < n; i++) {
        q[i] = a[i] / (b[i] | 1u);
        acc += a[i] % 7u;
    }
    return acc;
}

int32_t first_negative(const int32_t *a, int32_t n)
{
    int32_t i = 0, v = 0;
    do {
        v = a[i];
        i++;
    } while (v >= 0 && i < n);
    return v * 1000 + i;
}

/* branches in the body: if-converted (predicated stores, phis become selects) */
int32_t clip_count(int32_t *a, int32_t *b, int32_t n, int32_t t)
{
    int32_t c = 0;
    for (int32_t i = 0; i < n; i++) {
        int32_t v = a[i];
        if (v > t) {
            a[i] = t;
            c++;
        } else if (v < -t) {
            b[i] = v;
            c += 2;
        }
    }
    return c;
}

static int32_t A[N], B[N];
static uint32_t UA[N], UB[N], UQ[N];
static uint8_t X[N];
static uint16_t H[16];
static int16_t M[N];
static uint32_t seed = 12345u;

static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 7;
}

int main(void)
{
    uint32_t h = 0;
    const int32_t ns[5] = {0, 1, 2, 7, N};
    for (int k = 0; k < 5; k++) {
        int32_t n = ns[k];
        for (int i = 0; i < N; i++) {
            A[i] = (int32_t)rnd() - (1 << 23);
            B[i] = (int32_t)rnd();
            UA[i] = rnd() * 977u;
            UB[i] = rnd() & 0xFFFu;
            X[i] = (uint8_t)rnd();
            M[i] = (int16_t)rnd();
        }
        h += (uint32_t)reduce(A, n);
        inplace(A, n);
        shift2(B, n);
        prefix(A, n);
        hist(X, H, n);
        h += (uint32_t)nested(M, B, n / 8 + 1, n % 8 + 1);
        h += divloop(UA, UB, UQ, n);
        h += (uint32_t)clip_count(A, B, n, 1 << 22);
        if (n > 0) {
            A[n / 2] = -5 - k;
            h += (uint32_t)first_negative(A, n);
            A[n / 2] = 1;
            h += (uint32_t)first_negative(A, n);
        }
    }
    return (int)(h & 0x7fffffff);
}

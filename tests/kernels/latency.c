/* Latency model kernels (tests/test_latency.py): report.json's latency against the
 * cycles co-simulation measures per call. */
#include <stdint.h>

#define N 8

static __attribute__((noinline)) int32_t scale(int32_t v, int32_t k)
{
    int32_t s = 0;
    for (int t = 0; t < 4; t++)
        s += (v >> t) * k;
    return s;
}

/* constant trip counts: a pipelined inner loop entered N times per call, and a call to
 * a non-inlined function in the outer loop: exact */
void nest(const int32_t *a, int32_t *out)
{
    for (int i = 0; i < N; i++) {
        int32_t acc = 0;
        for (int j = 0; j < N; j++)
            acc += a[i * N + j] * (j + 1);
        out[i] = scale(acc, i + 1);
    }
}

/* data-dependent: a branch whose sides differ (one calls) in a counted loop, a search
 * loop with an early exit (bounded by its counted test), and a while loop whose trip
 * count nothing bounds (Collatz steps): bounds only, no maximum */
int32_t search(const int32_t *a, int32_t key)
{
    int32_t s = 0;
    for (int i = 0; i < N; i++) {
        if (a[i] & 1)
            s += scale(a[i], 3);
        else
            s -= a[i];
    }
    int32_t k = 0;
    while (k < 64 && a[k] != key)
        k++;
    uint32_t v = (uint32_t)key & 255u;
    while (v > 1u) {
        v = (v & 1u) ? 3u * v + 1u : v >> 1;
        k++;
    }
    return s + k;
}

int32_t va[72], vo[N];

int main(void)
{
    uint32_t r = 7;
    for (int i = 0; i < 72; i++) {
        r = r * 1103515245u + 12345u;
        va[i] = (int32_t)(r >> 20);
    }
    nest(va, vo);
    nest(va + 8, vo);
    int32_t s = search(va, va[5]) + search(va, va[40]) + search(va, -1);
    return (s + vo[3]) & 0x7f;
}

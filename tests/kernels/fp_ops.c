/* Every floating-point operation the flow maps to a unit: sqrt, fma, minnum/maxnum,
 * copysign, fabs, fneg, division, float<->double, float<->int conversions, all ordered
 * comparisons, and a loop-carried accumulation.  Stimulus stays finite (no NaN), with
 * signed zeros, equal operands and tiny (subnormal) values. */
#include <stdint.h>
#pragma STDC FP_CONTRACT OFF

#define N 32

float fops(const float *a, const float *b, float *o, int32_t *k, int32_t n)
{
    float acc = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        float x = a[i], y = b[i];
        o[8 * i + 0] = __builtin_sqrtf(__builtin_fabsf(x));
        o[8 * i + 1] = __builtin_fmaf(x, y, 1.5f);
        o[8 * i + 2] = __builtin_fminf(x + 1.0f, y); /* minnum(+0, -0) may be either zero */
        o[8 * i + 3] = __builtin_fmaxf(x, -y);
        o[8 * i + 4] = __builtin_copysignf(x, y) / (y + 3.5f);
        o[8 * i + 5] = (float)((double)x * 1.1 + (double)y);
        o[8 * i + 6] = (float)(int32_t)(x * 100.0f) + (float)(uint32_t)(y > 0 ? y * 7 : 0);
        o[8 * i + 7] = -x;
        k[i] = (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * (x != y) + 16 * (x > y) + 32 * (x >= y);
        acc = acc * 0.5f + x - y;
    }
    return acc;
}

static float A[N], B[N], O[8 * N];
static int32_t K[N];
static uint32_t s = 2463534242u;

static uint32_t rnd(void)
{
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
}

int main(void)
{
    uint32_t h = 0;
    for (int i = 0; i < N; i++) {
        A[i] = (float)((int32_t)(rnd() % 2001u) - 1000) * 0.013f;
        B[i] = (i % 5 == 0) ? A[i] : (float)((int32_t)(rnd() % 2001u) - 1000) * 0.0071f;
    }
    A[1] = 0.0f;
    B[1] = -0.0f;
    A[2] = 1.0e-39f; /* subnormal */
    B[3] = -2.5e-40f;
    for (int t = 0; t < 2; t++) {
        float r = fops(A, B, O, K, t ? 5 : N);
        h = h * 31u + (uint32_t)(int32_t)(r * 1000.0f);
        for (int i = 0; i < N; i++)
            h = h * 31u + (uint32_t)K[i];
    }
    return (int)(h & 0x7fffffff);
}

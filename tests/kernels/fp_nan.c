/* NaNs: inf * 0 and inf - inf give NaN; the hardware's NaN is the canonical quiet NaN,
 * the host's may differ in sign and payload, and co-simulation compares NaN-ness only
 * for float data. */
#include <stdint.h>

float nanny(const float *a, float *o, int32_t n)
{
    float s = 0.0f;
    for (int32_t i = 0; i < n; i++) {
        o[i] = a[i] * 0.0f;
        s += a[i];
    }
    return s - s;
}

static float A[8], O[8];

int main(void)
{
    for (int i = 0; i < 8; i++)
        A[i] = (float)i;
    A[3] = 1.0f / 0.0f;
    A[5] = -1.0f / 0.0f;
    float r = nanny(A, O, 8);
    A[5] = 2.0f;
    r += nanny(A, O, 8);
    return r == r;
}

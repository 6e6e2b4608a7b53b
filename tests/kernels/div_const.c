/* Signed and unsigned division and remainder by constants (the reciprocal rewrite),
 * negative dividends included: x / 4096, x / 7 and x / 2**30 came out wrong for
 * negative x before the quotient was kept w bits wide. */
#include <stdint.h>

int32_t div_const(int32_t x, int32_t *o)
{
    o[0] = x % 4096;
    o[1] = x / 7;
    o[2] = x % 7;
    o[3] = x / 1073741824;
    o[4] = x / -10;
    o[5] = (int32_t)((uint32_t)x / 641u);
    o[6] = (int32_t)((int64_t)x * 3 / 1000003);
    o[7] = (int8_t)x / 3 + (int16_t)x % -5;
    return x / 4096;
}

int32_t vals[8] = {-387633152, -1, -4095, -4096, -4097, 2147483647, -2147483647, 12345};
int32_t res[8][8];

int main(void)
{
    int32_t s = 0;
    for (int i = 0; i < 8; i++)
        s += div_const(vals[i], res[i]);
    return s;
}

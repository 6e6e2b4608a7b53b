// A Vitis-style loop whose helper recomputes invariants every iteration: a * b, a / 7
// and a table entry at a fixed index (clang's own LICM runs before pyhls inlines the
// helper, so they stay in the loop without the licm pass).
#include <stdint.h>
#include <stdio.h>

static const int32_t LUT[8] = {3, -5, 7, 11, -13, 17, 19, -23};

static int32_t scale(int32_t a, int32_t b, int32_t s, int32_t v) {
    return v * (a * b) + a / 7 + LUT[s & 7];
}

void scale_helper(const int32_t x[64], int32_t y[64], int32_t a, int32_t b, int32_t s, int n) {
    for (int i = 0; i < n; i++)
        y[i] = scale(a, b, s, x[i]);
}

int main(void) {
    int32_t x[64], y[64];
    for (int i = 0; i < 64; i++) x[i] = i * 37 - 900;
    scale_helper(x, y, 13, -3, 5, 64);
    scale_helper(x, y, -1000, 77, 2, 40);
    int32_t s = 0;
    for (int i = 0; i < 64; i++) s ^= y[i] * (i + 1);
    printf("%d\n", (int)s);
    return 0;
}

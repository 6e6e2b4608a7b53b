// Coefficients in a struct passed by value, read through a helper: after inlining, the
// five loads of the struct are loop-invariant (and take the memory's two ports for
// three cycles of every iteration).
#include <stdint.h>
#include <stdio.h>

typedef struct { int32_t b0, b1, b2, b3, b4; } coefs;

static int32_t taps(const coefs *c, int32_t a, int32_t b, int32_t d, int32_t e, int32_t f) {
    return c->b0 * a + c->b1 * b + c->b2 * d + c->b3 * e + c->b4 * f;
}

void fir_taps(const int16_t x[128], int32_t y[128], coefs c, int n) {
    int32_t x1 = 0, x2 = 0, x3 = 0, x4 = 0;
    for (int i = 0; i < n; i++) {
        y[i] = taps(&c, x[i], x1, x2, x3, x4);
        x4 = x3; x3 = x2; x2 = x1; x1 = x[i];
    }
}

int main(void) {
    int16_t x[128];
    int32_t y[128];
    coefs c = {3, -7, 12, -7, 3};
    for (int i = 0; i < 128; i++) x[i] = (int16_t)((i * 97) % 251 - 125);
    fir_taps(x, y, c, 128);
    coefs d = {1, 2, 4, 2, 1};
    fir_taps(x, y, d, 50);
    int32_t s = 0;
    for (int i = 0; i < 128; i++) s += y[i] * (i & 7);
    printf("%d\n", (int)s);
    return 0;
}

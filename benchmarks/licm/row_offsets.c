// A nested loop whose element helper recomputes the row's base offset (r * cols + off)
// and a scale factor (num / den: a division) in every inner iteration.
#include <stdint.h>
#include <stdio.h>

static int32_t at(const int32_t *m, int r, int c, int cols, int off) { return m[r * cols + off + c]; }
static int32_t factor(int32_t num, int32_t den) { return den ? num / den : 0; }

int32_t row_offsets(const int32_t m[256], int32_t out[16], int rows, int cols, int off,
                    int32_t num, int32_t den) {
    int32_t total = 0;
    for (int r = 0; r < rows; r++) {
        int32_t acc = 0;
        for (int c = 0; c < cols; c++)
            acc += at(m, r, c, cols, off) * factor(num, den);
        out[r] = acc;
        total += acc;
    }
    return total;
}

int main(void) {
    int32_t m[256], out[16];
    for (int i = 0; i < 256; i++) m[i] = (i * 31) % 97 - 40;
    int32_t t = row_offsets(m, out, 8, 12, 3, 1000, 7);
    t += row_offsets(m, out, 16, 15, 0, -500, 3);
    printf("%d\n", (int)t);
    return 0;
}

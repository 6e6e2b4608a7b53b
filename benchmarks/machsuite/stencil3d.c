/* stencil3d: MachSuite's stencil/stencil3d, a 7-point stencil over an 8x8x8 int32
   grid (MachSuite: 32x32x16): the boundary copied, the interior weighted by C[0]
   (centre) and C[1] (the six neighbours).  As in MachSuite, the row index k is the
   fastest-varying one (INDX(k, j, i)) and the innermost loop walks it. */
#include <stdint.h>

#define H 8
#define C_ 8
#define R 8
#define INDX(k, j, i) ((k) + R * ((j) + C_ * (i)))

void stencil3d(const int32_t C[2], const int32_t orig[R * C_ * H], int32_t sol[R * C_ * H])
{
height_bound_col:
    for (int j = 0; j < C_; j++) {
    height_bound_row:
        for (int k = 0; k < R; k++) {
            sol[INDX(k, j, 0)] = orig[INDX(k, j, 0)];
            sol[INDX(k, j, H - 1)] = orig[INDX(k, j, H - 1)];
        }
    }
col_bound_height:
    for (int i = 1; i < H - 1; i++) {
    col_bound_row:
        for (int k = 0; k < R; k++) {
            sol[INDX(k, 0, i)] = orig[INDX(k, 0, i)];
            sol[INDX(k, C_ - 1, i)] = orig[INDX(k, C_ - 1, i)];
        }
    }
row_bound_height:
    for (int i = 1; i < H - 1; i++) {
    row_bound_col:
        for (int j = 1; j < C_ - 1; j++) {
            sol[INDX(0, j, i)] = orig[INDX(0, j, i)];
            sol[INDX(R - 1, j, i)] = orig[INDX(R - 1, j, i)];
        }
    }
loop_height:
    for (int i = 1; i < H - 1; i++) {
    loop_col:
        for (int j = 1; j < C_ - 1; j++) {
        loop_row:
            for (int k = 1; k < R - 1; k++) {
                int32_t sum0 = orig[INDX(k, j, i)];
                int32_t sum1 = orig[INDX(k + 1, j, i)] + orig[INDX(k - 1, j, i)]
                             + orig[INDX(k, j + 1, i)] + orig[INDX(k, j - 1, i)]
                             + orig[INDX(k, j, i + 1)] + orig[INDX(k, j, i - 1)];
                sol[INDX(k, j, i)] = sum0 * C[0] + sum1 * C[1];
            }
        }
    }
}

static int32_t c[2], orig[R * C_ * H], sol[R * C_ * H];

int main(void)
{
    uint32_t s = 9u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < R * C_ * H; i++) {
            s = s * 1103515245u + 12345u;
            orig[i] = (int32_t)(s >> 16) - 32768;
        }
        c[0] = 7 - 3 * t;
        c[1] = -2 + t;
        stencil3d(c, orig, sol);
    }
    return 0;
}

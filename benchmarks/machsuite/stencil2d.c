/* stencil2d: MachSuite's stencil/stencil2d, a 3x3 filter over the interior of a
   16x16 int32 grid (MachSuite: 128x64). */
#include <stdint.h>

#define ROW 16
#define COL 16
#define F 3

void stencil(const int32_t orig[ROW * COL], int32_t sol[ROW * COL], const int32_t filter[F * F])
{
stencil_label1:
    for (int r = 0; r < ROW - 2; r++) {
    stencil_label2:
        for (int c = 0; c < COL - 2; c++) {
            int32_t temp = 0;
        stencil_label3:
            for (int k1 = 0; k1 < F; k1++) {
            stencil_label4:
                for (int k2 = 0; k2 < F; k2++)
                    temp += filter[k1 * F + k2] * orig[(r + k1) * COL + c + k2];
            }
            sol[r * COL + c] = temp;
        }
    }
}

static int32_t orig[ROW * COL], sol[ROW * COL], filter[F * F];

int main(void)
{
    uint32_t s = 3u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < ROW * COL; i++) {
            s = s * 1103515245u + 12345u;
            orig[i] = (int32_t)(s >> 16) - 32768;
        }
        for (int i = 0; i < F * F; i++) {
            s = s * 1103515245u + 12345u;
            filter[i] = (int32_t)(s >> 24) - 128;
        }
        stencil(orig, sol, filter);
    }
    return 0;
}

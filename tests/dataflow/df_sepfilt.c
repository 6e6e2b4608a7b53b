/* df_sepfilt: a separable 3x3 smoothing filter over FRAMES frames of H x W pixels.
 * The first pass runs along rows; the second along columns, reading the
 * intermediate image column-major (a ping-pong channel). */
#include <stdint.h>
#ifndef FRAMES
#define FRAMES 4
#endif
#define H 12
#define W 16

static void sf_rows(const uint8_t *img, uint16_t *t)
{
    for (int r = 0; r < H; r++)
        for (int c = 0; c < W; c++) {
            int l = c > 0 ? img[r * W + c - 1] : img[r * W + c];
            int m = img[r * W + c];
            int rr = c < W - 1 ? img[r * W + c + 1] : img[r * W + c];
            t[r * W + c] = (uint16_t)(l + 2 * m + rr);
        }
}

static void sf_cols(const uint16_t *t, uint8_t *out)
{
    for (int c = 0; c < W; c++)
        for (int r = 0; r < H; r++) {
            int u = r > 0 ? t[(r - 1) * W + c] : t[r * W + c];
            int m = t[r * W + c];
            int d = r < H - 1 ? t[(r + 1) * W + c] : t[r * W + c];
            out[r * W + c] = (uint8_t)((u + 2 * m + d) >> 4);
        }
}

void df_sepfilt(const uint8_t *img, uint8_t *out)
{
    uint16_t t[H * W];
    for (int f = 0; f < FRAMES; f++) {
        sf_rows(img + f * H * W, t);
        sf_cols(t, out + f * H * W);
    }
}

static uint8_t src[FRAMES * H * W], dst[FRAMES * H * W];

int main(void)
{
    uint32_t s = 99u;
    for (int i = 0; i < FRAMES * H * W; i++) {
        s = s * 1103515245u + 12345u;
        src[i] = (uint8_t)(s >> 23);
    }
    df_sepfilt(src, dst);
    return 0;
}

/* fft_strided: MachSuite's fft/strided, an in-place radix-2 decimation-in-frequency
   FFT with strided butterflies and a twiddle table, here 64 points in fixed point
   (Q14 twiddles, each stage halving: output = DFT / 64; MachSuite: double, 1024
   points).  The stage loop and the butterfly loop have constant trip counts; the
   indices of a butterfly are computed from the stage's span. */
#include <stdint.h>

#define FFT_SIZE 64
#define LOG_SIZE 6

void fft(int32_t real[FFT_SIZE], int32_t img[FFT_SIZE], const int32_t real_twid[FFT_SIZE / 2],
         const int32_t img_twid[FFT_SIZE / 2])
{
outer:
    for (int log = 0; log < LOG_SIZE; log++) {
        int span = (FFT_SIZE / 2) >> log;
    inner:
        for (int b = 0; b < FFT_SIZE / 2; b++) {
            int odd = ((b & ~(span - 1)) << 1) | span | (b & (span - 1));
            int even = odd ^ span;
            int32_t er = real[even], ei = img[even];
            int32_t or_ = real[odd], oi = img[odd];
            int32_t sr = er + or_, si = ei + oi;
            int32_t dr = er - or_, di = ei - oi;
            real[even] = sr >> 1;
            img[even] = si >> 1;
            int rootindex = (even << log) & (FFT_SIZE - 1);
            if (rootindex) {
                int32_t wr = real_twid[rootindex], wi = img_twid[rootindex];
                real[odd] = (wr * dr - wi * di + (1 << 14)) >> 15;
                img[odd] = (wr * di + wi * dr + (1 << 14)) >> 15;
            } else {
                real[odd] = dr >> 1;
                img[odd] = di >> 1;
            }
        }
    }
}

static int32_t re[FFT_SIZE], im[FFT_SIZE], twr[FFT_SIZE / 2], twi[FFT_SIZE / 2];

int main(void)
{
    /* Q14 twiddles exp(-2 pi i k / 64) for k < 32, from a quarter-wave table */
    static const int32_t q[17] = {16384, 16305, 16069, 15679, 15137, 14449, 13623, 12665,
                                  11585, 10394, 9102, 7723, 6270, 4756, 3196, 1606, 0};
    for (int k = 0; k < FFT_SIZE / 2; k++) {
        twr[k] = k <= 16 ? q[k] : -q[32 - k];
        twi[k] = k <= 16 ? -q[16 - k] : -q[k - 16];
    }
    uint32_t s = 17u;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < FFT_SIZE; i++) {
            s = s * 1103515245u + 12345u;
            re[i] = (int32_t)(s >> 18) - 8192;
            s = s * 1103515245u + 12345u;
            im[i] = (int32_t)(s >> 18) - 8192;
        }
        fft(re, im, twr, twi);
    }
    return 0;
}

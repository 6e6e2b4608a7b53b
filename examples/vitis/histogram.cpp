// A histogram as a Vitis HLS user writes it: each pixel increments its bin, a
// read-modify-write of the bin array that the next pixel may repeat on the same bin.
// The dependence pragma states that this dependence is real (pyhls finds it itself and
// ignores the pragma with a warning); the loop is pipelined at the II the memory
// recurrence allows.
//
//   pyhls cosim histogram.cpp --top histogram --tb histogram.cpp
#include <ap_int.h>
#include <stdio.h>

#define PIXELS 128
#define BINS 16

typedef ap_uint<8> pixel_t;

void histogram(const pixel_t img[PIXELS], unsigned hist[BINS]) {
clear:
    for (int b = 0; b < BINS; b++) hist[b] = 0;
count:
    for (int i = 0; i < PIXELS; i++) {
#pragma HLS PIPELINE II=2
#pragma HLS DEPENDENCE variable=hist inter RAW true
        ap_uint<4> bin = img[i].range(7, 4);
        hist[bin] = hist[bin] + 1;
    }
}

int main() {
    pixel_t img[PIXELS];
    unsigned hist[BINS];
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < PIXELS; i++)
            img[i] = pixel_t(t ? (i * i * 7) & 0xff : (i / 9) * 17);
        histogram(img, hist);
        printf("call %d:", t);
        for (int b = 0; b < BINS; b++) printf(" %u", hist[b]);
        printf("\n");
    }
    return 0;
}

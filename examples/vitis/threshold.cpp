// A streaming pixel threshold as a Vitis HLS user writes it: hls::stream arguments of
// 12-bit pixels on AXI4-Stream (axis), the threshold in s_axilite, one pixel per cycle.
// On --target alveo in and out are AXI4-Streams; elsewhere BRAM-style ports of their
// 64 elements in order.
//
//   pyhls cosim threshold.cpp --top threshold --tb threshold.cpp
#include <ap_int.h>
#include <hls_stream.h>
#include <stdio.h>

#define PIXELS 64

typedef ap_uint<12> pixel_t;

void threshold(hls::stream<pixel_t> &in, hls::stream<pixel_t> &out, pixel_t level) {
#pragma HLS INTERFACE axis port=in
#pragma HLS INTERFACE axis port=out
#pragma HLS INTERFACE s_axilite port=level
#pragma HLS INTERFACE s_axilite port=return
pixels:
    for (int i = 0; i < PIXELS; i++) {
#pragma HLS PIPELINE II=1
        pixel_t p = in.read();
        out.write(p > level ? pixel_t(p - level) : pixel_t(0));
    }
}

int main() {
    hls::stream<pixel_t> in("in"), out("out");
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < PIXELS; i++) in.write(pixel_t((i * 397 + t * 1000) & 0xfff));
        threshold(in, out, pixel_t(1500 + t * 700));
        unsigned sum = 0, bright = 0;
        for (int i = 0; i < PIXELS; i++) {
            pixel_t p = out.read();
            sum += p.to_uint();
            bright += p != 0;
        }
        printf("call %d: sum %u, %u pixels above\n", t, sum, bright);
    }
    return 0;
}

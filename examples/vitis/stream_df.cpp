// A dataflow region of three tasks joined by hls::streams, as a Vitis HLS user writes
// it: read the input array into a stream, smooth it (a 3-tap moving average on ap_int
// samples), write the stream to the output array.  The tasks overlap; each stream is a
// FIFO of the depth its stream pragma gives.
//
//   pyhls cosim stream_df.cpp --top stream_df --tb stream_df.cpp
#include <ap_int.h>
#include <hls_stream.h>
#include <stdio.h>

#define N 64

typedef ap_int<12> sample_t;

static void read_in(const sample_t in[N], hls::stream<sample_t> &s) {
rd:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        s.write(in[i]);
    }
}

static void smooth(hls::stream<sample_t> &in, hls::stream<sample_t> &out) {
    sample_t x1 = 0, x2 = 0;
avg:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        sample_t x0 = in.read();
        ap_int<14> sum = x0 + x1 + x1 + x2;
        out.write(sample_t(sum >> 2));
        x2 = x1;
        x1 = x0;
    }
}

static void write_out(hls::stream<sample_t> &s, sample_t out[N]) {
wr:
    for (int i = 0; i < N; i++) {
#pragma HLS PIPELINE II=1
        out[i] = s.read();
    }
}

void stream_df(const sample_t in[N], sample_t out[N]) {
#pragma HLS DATAFLOW
    hls::stream<sample_t> raw("raw"), smoothed("smoothed");
#pragma HLS STREAM variable=raw depth=4
#pragma HLS STREAM variable=smoothed depth=8
    read_in(in, raw);
    smooth(raw, smoothed);
    write_out(smoothed, out);
}

int main() {
    sample_t in[N], out[N];
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++) in[i] = sample_t((i * 733 + t * 1500) % 4096 - 2048);
        stream_df(in, out);
        long sum = 0;
        for (int i = 0; i < N; i++) sum += out[i].to_int() * (i + 1);
        printf("call %d: weighted sum %ld\n", t, sum);
    }
    return 0;
}

// hls::stream between three tasks of a dataflow region, with its testbench (main):
// pyhls cosim stream_dataflow.cpp --top stream_dataflow --tb stream_dataflow.cpp
#include <ap_int.h>
#include <hls_stream.h>

#define N 48

static void read_in(const short in[N], hls::stream<int> &raw) {
    for (int i = 0; i < N; i++)
        raw.write(in[i]);
}

static void scale(hls::stream<int> &raw, hls::stream<ap_uint<12> > &scaled, int k) {
    for (int i = 0; i < N; i++) {
        int v;
        raw >> v;
        scaled << ap_uint<12>(v * k + 5);
    }
}

static void write_out(hls::stream<ap_uint<12> > &scaled, unsigned out[N]) {
    for (int i = 0; i < N; i++) {
        ap_uint<12> v;
        scaled.read(v);
        out[i] = v.to_uint() ^ (unsigned)i;
    }
}

void stream_dataflow(const short in[N], unsigned out[N], int k) {
#pragma HLS dataflow
    hls::stream<int> raw("raw");
#pragma HLS stream variable=raw depth=4
    hls::stream<ap_uint<12> > scaled("scaled");
    read_in(in, raw);
    scale(raw, scaled, k);
    write_out(scaled, out);
}

int main() {
    short in[N];
    unsigned out[N];
    int bad = 0;
    for (int call = 0; call < 2; call++) {
        for (int i = 0; i < N; i++)
            in[i] = (short)(i * 37 - 500 + call);
        stream_dataflow(in, out, call ? -3 : 7);
        for (int i = 0; i < N; i++) {
            unsigned want = ((unsigned)((int)in[i] * (call ? -3 : 7) + 5) & 0xfff) ^ (unsigned)i;
            bad += out[i] != want;
        }
    }
    return bad;
}

// The Vitis HLS pattern: a dataflow region whose arguments are hls::streams (ports read
// by one task and written by another) with a stream channel between its tasks, and its
// testbench (main).  AXI4-Stream ports on --target alveo.
#include <hls_stream.h>

static void twice(hls::stream<int> &in, hls::stream<int> &mid) {
    for (int i = 0; i < 16; i++)
        mid.write(in.read() * 2);
}

static void plus_one(hls::stream<int> &mid, hls::stream<int> &out) {
    for (int i = 0; i < 16; i++)
        out.write(mid.read() + 1);
}

void stream_ports(hls::stream<int> &in, hls::stream<int> &out) {
#pragma HLS dataflow
    hls::stream<int> mid("mid");
    twice(in, mid);
    plus_one(mid, out);
}

int main() {
    hls::stream<int> in("in"), out("out");
    for (int i = 0; i < 32; i++)
        in << i * 7 - 100;
    stream_ports(in, out);
    stream_ports(in, out);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += out.read() != 2 * (i * 7 - 100) + 1;
    return bad;
}

// A top whose arguments are hls::streams, with its testbench (main): a BRAM-style port
// of the elements in order on generic targets, AXI4-Stream on --target alveo.
#include <hls_stream.h>

void stream_scale(hls::stream<int> &in, hls::stream<long long> &out, int k) {
    for (int i = 0; i < 16; i++) {
        int v = in.read();
        out << (long long)v * k + 1;
    }
}

int main() {
    hls::stream<int> a("a");
    hls::stream<long long> b("b");
    for (int i = 0; i < 40; i++)
        a << i * 1000003 - 7;
    stream_scale(a, b, 3);
    stream_scale(a, b, -2000);
    int bad = 0;
    for (int i = 0; i < 16; i++)
        bad += b.read() != (long long)(i * 1000003 - 7) * 3 + 1;
    for (int i = 16; i < 32; i++)
        bad += b.read() != (long long)(i * 1000003 - 7) * -2000 + 1;
    return bad + (a.size() != 8) + !b.empty();
}

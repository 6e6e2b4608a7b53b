// The Vitis "vadd" kernel as its tutorials write it: pointers on m_axi bundles with the
// depths co-simulation needs, the size and the control in s_axilite, a labelled loop
// pipelined at II=1 with a trip-count hint.  On --target alveo the pragmas build
// m_axi_gmem0 (in1, out) and m_axi_gmem1 (in2); elsewhere BRAM-style ports of depth 256.
//
//   pyhls cosim vadd.cpp --top vadd --tb vadd.cpp
#include <stdio.h>

#define MAX_SIZE 256

extern "C" void vadd(const unsigned int *in1, const unsigned int *in2, unsigned int *out,
                     int size) {
#pragma HLS INTERFACE m_axi port=in1 offset=slave bundle=gmem0 depth=256
#pragma HLS INTERFACE m_axi port=in2 offset=slave bundle=gmem1 depth=256
#pragma HLS INTERFACE m_axi port=out offset=slave bundle=gmem0 depth=256
#pragma HLS INTERFACE s_axilite port=size
#pragma HLS INTERFACE s_axilite port=return
vadd_loop:
    for (int i = 0; i < size; i++) {
#pragma HLS PIPELINE II=1
#pragma HLS LOOP_TRIPCOUNT min=1 max=256
        out[i] = in1[i] + in2[i];
    }
}

int main() {
    static unsigned int a[MAX_SIZE], b[MAX_SIZE], c[MAX_SIZE];
    int sizes[2] = {100, 256};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < MAX_SIZE; i++) {
            a[i] = i * 2654435761u + t;
            b[i] = i ^ 0x5a5a5a5au;
            c[i] = 0;
        }
        vadd(a, b, c, sizes[t]);
        unsigned int check = 0;
        for (int i = 0; i < MAX_SIZE; i++) check = check * 31 + c[i];
        printf("size %d: checksum %08x\n", sizes[t], check);
    }
    return 0;
}

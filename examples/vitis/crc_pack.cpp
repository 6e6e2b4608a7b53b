// Bit manipulation on ap_uint as a Vitis HLS user writes it: per 32-bit word a CRC-8
// (polynomial 0x07, bit by bit with bit selects), its population count and its top
// nibble, packed by concatenation into a 20-bit record; the running CRC of the block
// comes back in a reference argument.  The per-word CRC is a sub-function kept as a
// module of its own (inline off), called once per word.
//
//   pyhls cosim crc_pack.cpp --top crc_pack --tb crc_pack.cpp
#include <ap_int.h>
#include <stdio.h>

#define N 16

typedef ap_uint<32> word_t;
typedef ap_uint<20> rec_t;

static ap_uint<8> crc8_word(ap_uint<8> crc, word_t w) {
#pragma HLS INLINE off
bits:
    for (int b = 31; b >= 0; b--) {
        bool fb = crc[7] ^ w[b];
        crc = (crc.range(6, 0), ap_uint<1>(0));
        if (fb) crc ^= 0x07;
    }
    return crc;
}

void crc_pack(const word_t in[N], rec_t out[N], ap_uint<8> &crc) {
    ap_uint<8> c = crc;
words:
    for (int i = 0; i < N; i++) {
        word_t w = in[i];
        ap_uint<6> ones = 0;
    pop:
        for (int b = 0; b < 32; b++) {
#pragma HLS UNROLL
            ones += w[b];
        }
        c = crc8_word(c, w);
        out[i] = (w.range(31, 28), ones, ap_uint<2>(0), c);
        // the low bits of the record hold the CRC so far; bits 8..9 mark an odd count
        out[i][8] = ones[0];
    }
    crc = c;
}

int main() {
    word_t in[N];
    rec_t out[N];
    ap_uint<8> crc = 0;
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++) in[i] = word_t(0x9e3779b9u * (i + 1) ^ (t ? 0xffff0000u : 0));
        crc_pack(in, out, crc);
        unsigned sum = 0;
        for (int i = 0; i < N; i++) sum = sum * 33 + out[i].to_uint();
        printf("call %d: crc %02x, records %08x\n", t, crc.to_uint(), sum);
    }
    return 0;
}

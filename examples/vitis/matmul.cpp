// A 4x4 matrix multiply as a Vitis HLS user writes it: sized 2-D array arguments,
// labelled loops, the middle loop pipelined (the inner product loop is unrolled by the
// pipeline, as Vitis does) at II=1: A is partitioned along its rows' elements (dim=2)
// and B along its rows (dim=1), so that the four loads of A[i][k] and of B[k][j] in an
// iteration each have a bank of their own.
//
//   pyhls cosim matmul.cpp --top matmul --tb matmul.cpp
#include <ap_int.h>
#include <stdio.h>

#define N 4

typedef ap_int<16> din_t;
typedef ap_int<36> dout_t;

void matmul(const din_t A[N][N], const din_t B[N][N], dout_t C[N][N]) {
#pragma HLS INTERFACE ap_memory port=A
#pragma HLS INTERFACE ap_memory port=B
#pragma HLS INTERFACE ap_memory port=C
#pragma HLS ARRAY_PARTITION variable=A dim=2 complete
#pragma HLS ARRAY_PARTITION variable=B dim=1 complete
row:
    for (int i = 0; i < N; i++) {
    col:
        for (int j = 0; j < N; j++) {
#pragma HLS PIPELINE II=1
            dout_t sum = 0;
        prod:
            for (int k = 0; k < N; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = sum;
        }
    }
}

int main() {
    din_t A[N][N], B[N][N];
    dout_t C[N][N];
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                A[i][j] = (din_t)((i * 7 + j * 13 + t * 5) * 811 % 65536 - 32768);
                B[i][j] = (din_t)((i * 3 - j * 11 + t) * 1289 % 65536 - 32768);
            }
        matmul(A, B, C);
        long long trace = 0;
        for (int i = 0; i < N; i++) trace += C[i][i].to_int64();
        printf("call %d: trace %lld\n", t, trace);
    }
    return 0;
}

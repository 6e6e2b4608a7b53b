/* A saturating integer saxpy as a Vitis HLS user writes it in C (not C++): the length
 * is a run-time argument, so the loop carries a trip-count hint for the latency report;
 * it is unrolled by 4 (the copies past the end are guarded off) and pipelined at II=1,
 * which the 4 reads of x and the 4 reads and 4 writes of y per iteration reach on x and
 * y partitioned cyclically into 4 banks.
 *
 *   pyhls cosim saxpy.c --top saxpy --tb saxpy.c
 */
#include <stdint.h>
#include <stdio.h>

#define MAX_N 128

void saxpy(int16_t y[MAX_N], const int16_t x[MAX_N], int16_t a, int n) {
#pragma HLS INTERFACE ap_memory port=x
#pragma HLS INTERFACE ap_memory port=y
#pragma HLS ARRAY_PARTITION variable=x cyclic factor=4
#pragma HLS ARRAY_PARTITION variable=y cyclic factor=4
elems:
    for (int i = 0; i < n; i++) {
#pragma HLS PIPELINE II=1
#pragma HLS LOOP_TRIPCOUNT min=1 max=128 avg=64
#pragma HLS UNROLL factor=4
        int32_t v = (int32_t)a * x[i] / 256 + y[i];
        y[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v;
    }
}

int main(void) {
    int16_t x[MAX_N], y[MAX_N];
    int lens[2] = {77, 128};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < MAX_N; i++) {
            x[i] = (int16_t)(i * 1237 - 40000 * t);
            y[i] = (int16_t)(i * 517 - 30000);
        }
        saxpy(y, x, (int16_t)(300 - 700 * t), lens[t]);
        long sum = 0;
        for (int i = 0; i < MAX_N; i++) sum += y[i];
        printf("n %d: sum %ld\n", lens[t], sum);
    }
    return 0;
}

/* 32x32 int32 matrix multiply, the inner loop fully unrolled (32 multiplies an
 * iteration) and the j loop pipelined at II 16 or II 1 (benchmarks/matmul_share.py). */
#define N 32

void mm32_ii16(const int A[N][N], const int B[N][N], int C[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
#pragma HLS pipeline II=16
            int s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

void mm32_ii1(const int A[N][N], const int B[N][N], int C[N][N])
{
#pragma HLS array_partition variable=A complete dim=2
#pragma HLS array_partition variable=B complete dim=1
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
#pragma HLS pipeline II=1
            int s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

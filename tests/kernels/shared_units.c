/* 8x8 matrix multiplies whose inner loop is fully unrolled and whose j loop is
 * pipelined at II 4: eight multiplies (and, in float, eight adds) an iteration, which
 * ceil(8 / 4) = 2 units per class serve across the II's modulo slots
 * (hls.scheduling.share_units).  The testbench's values reach the 32-bit products'
 * wrap-around (int) and mix signs and magnitudes (float). */
#define N 8

void mm8(const int A[N][N], const int B[N][N], int C[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
#pragma HLS pipeline II=4
            int s = 0;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

void mm8f(const float A[N][N], const float B[N][N], float C[N][N])
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
#pragma HLS pipeline II=4
            float s = 0.0f;
            for (int k = 0; k < N; k++)
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

/* two multiplies whose results feed each other's next iteration through the phis:
 * tests/test_pipeline_units.py times them so that they would close a combinational
 * loop through a shared unit (hls.scheduling._pipeline.unit_loop) */
unsigned hash2(const unsigned x[64])
{
    unsigned h = 1, g = 2;
    for (int i = 0; i < 64; i++) {
#pragma HLS pipeline II=2
        unsigned a = (h ^ x[i]) * 16777619u;
        unsigned b = (g ^ x[i]) * 2654435761u;
        h = b ^ 7u;
        g = a + 3u;
    }
    return h ^ g;
}

int A[N][N], B[N][N], C[N][N];
float Af[N][N], Bf[N][N], Cf[N][N];

int main(void)
{
    unsigned x = 12345u;
    for (int r = 0; r < 2; r++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                x = x * 1103515245u + 12345u;
                A[i][j] = r ? (int)x : (int)(x >> 20) - 2048;
                x = x * 1103515245u + 12345u;
                B[i][j] = r ? (int)x : (int)(x >> 22) - 512;
                Af[i][j] = (float)((int)(x >> 8) - (1 << 23)) / (float)(1 << (i + j));
                Bf[i][j] = (float)((int)(x >> 16) - 32768) * 0.125f;
            }
        mm8(A, B, C);
        mm8f(Af, Bf, Cf);
    }
    return C[3][5] ^ (int)Cf[2][6];
}

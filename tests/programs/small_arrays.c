/* Small on-chip arrays held in LUT RAM (the small-memories pass): loads read in their own
 * cycle.  A register file written and read back in consecutive iterations (read-first
 * within a cycle, the new value the next), a ROM lookup chained into arithmetic, a
 * pipelined loop over a small array, and a small array handed to a callee (which keeps
 * it in block RAM: the callee reads through its port set). */
static const unsigned char sbox[16] = {12, 5, 6, 11, 9, 0, 10, 13, 3, 14, 15, 8, 4, 7, 1, 2};

__attribute__((noinline)) static int sum4(const int *v)
{
    return v[0] + v[1] * 3 + v[2] * 5 + v[3] * 7;
}

int main(void)
{
    int reg[8] = {0};
    int hist[16] = {0};
    int four[4] = {1, 2, 3, 4};
    unsigned x = 0x1234567u;
    for (int i = 0; i < 40; i++) {
        x = x * 1103515245u + 12345u;
        int rd = (x >> 8) & 7, rs = (x >> 12) & 7, rt = (x >> 16) & 7;
        reg[rd] = reg[rs] + reg[rt] + sbox[(x >> 20) & 15];
        if (reg[rd] & 1)
            reg[(rd + 1) & 7] ^= reg[rd] >> 1;
    }
    for (int i = 0; i < 16; i++)
        hist[sbox[i]] += i * (i + 1);
    int s = 0;
    for (int i = 0; i < 16; i++)
        s += hist[i] ^ (reg[i & 7] << 1);
    four[(s >> 3) & 3] += s & 255;
    return s + sum4(four);
}

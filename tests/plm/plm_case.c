void plm_case(const int in[64], int out[64], int acc[64], int part[64], int maybe[64], int n) {
    for (int i = 0; i < 64; i++)
        out[i] = in[i] * 3;
    for (int i = 0; i < 64; i++)
        acc[i] += out[63 - i];
    for (int i = 0; i < n && i < 64; i++)
        part[i] = in[i] ^ acc[i];
    if (n > 5)
        for (int i = 0; i < 64; i++)
            maybe[i] = acc[i] + n;
}

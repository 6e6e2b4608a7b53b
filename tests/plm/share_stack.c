void share_stack(const int in[128], int out[128]) {
    int a[128], b[128];
    for (int i = 0; i < 128; i++)
        a[i] = in[i] * 3;
    for (int i = 0; i < 128; i++)
        b[i] = in[i] + 7;
    for (int i = 0; i < 128; i++)
        out[i] = a[127 - i];
    for (int i = 0; i < 128; i++)
        out[i] += b[i] ^ 5;
}

/* issue 9, reproducer 2: stores into two arrays merged by LLVM into a select of their addresses */
int a[8], b[8];

int main(void)
{
    for (int i = 0; i < 8; i++) {
        if (i & 1)
            a[i >> 1] = i * 3;
        else
            b[i >> 1] = i + 5;
    }
    int s = 0;
    for (int i = 0; i < 8; i++)
        s = s * 3 + a[i] - b[i];
    return s & 0xff;
}

/* y[i] += a * x[i]: the kernel of examples/pytest/test_saxpy.py */
void saxpy(int a, const int x[16], int y[16]) {
mac:
    for (int i = 0; i < 16; i++)
        y[i] += a * x[i];
}

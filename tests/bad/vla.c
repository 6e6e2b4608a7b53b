/* a variable-length array: a stack allocation of run-time size */
__attribute__((noinline)) void fill(int *buf, int n)
{
    for (int i = 0; i < n; i++)
        buf[i] = i * i;
}

int top(int n)
{
    int buf[n];
    fill(buf, n);
    return buf[n - 1];
}

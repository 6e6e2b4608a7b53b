/* printf is declared but has no definition in the input */
int printf(const char *fmt, ...);

int top(int a)
{
    int b = a * 3;
    printf("%d\n", b);
    return b;
}

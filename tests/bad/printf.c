/* printf is dropped from the hardware, so its value cannot be used */
int printf(const char *fmt, ...);

int top(int a)
{
    int b = a * 3;
    return printf("%d\n", b) + b;
}

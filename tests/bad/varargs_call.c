/* a call of a variadic function defined in the same file */
#include <stdarg.h>

__attribute__((noinline)) int sum(int n, ...)
{
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

int top(int a)
{
    int b = a + 1;
    return sum(2, a, b);
}

/* A struct of more than 16 bytes passed by value to the top: the x86-64 ABI passes it
 * in memory (an LLVM byval pointer); the top writes its own copy, which the caller
 * must not see.  The native runs called the top with a plain pointer where it expected
 * the struct on the stack (a crash capturing the testbench's calls, garbage as random
 * stimulus' golden). */
#include <stdio.h>

struct coefs { int a, b, c, d, e; };

int byval_struct(const int x[8], int y[8], struct coefs k) {
    int s = 0;
    for (int i = 0; i < 8; i++) {
        y[i] = x[i] * k.a + k.b - k.c * k.d + k.e;
        k.a += 1;
        s += y[i];
    }
    return s + k.a;
}

int main(void) {
    int x[8], y[8];
    struct coefs k = {1, 2, 3, 4, 5};
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < 8; i++) x[i] = i - 3 * t;
        int s = byval_struct(x, y, k);
        printf("call %d: s %d y7 %d k.a %d\n", t, s, y[7], k.a);
        k.b += 10;
    }
    return 0;
}

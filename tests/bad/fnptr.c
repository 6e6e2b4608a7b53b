/* an indirect call through a function pointer argument */
typedef int (*op_t)(int);

int top(op_t f, int x)
{
    return f(x) + 1;
}

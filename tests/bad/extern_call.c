/* a call to an external function without a definition */
int foo(int);

int top(int a)
{
    int b = a + 1;
    return foo(b) * 2;
}

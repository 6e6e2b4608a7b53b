/* a C syntax error: a missing semicolon */
int top(int a)
{
    int b = a + 1
    return b;
}

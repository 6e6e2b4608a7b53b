/* a pointer argument indexed by a run-time value: its extent needs --depth */
int top(const int *data, int i)
{
    return data[i] + 1;
}

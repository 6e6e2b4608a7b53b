/* A global pointer left pointing into main's local array when main returns (Csmith
 * programs do this): in C that pointer is dangling once main has returned, so its value
 * is not compared; everything it was used for (the sum, the other globals) is. */
int table[4] = {3, 1, 4, 1};
int *cursor;
int *saved = &table[2];
int out[4];

int main(void)
{
    int local[4] = {5, 9, 2, 6};
    int s = 0;
    for (int i = 0; i < 4; i++) {
        cursor = (i & 1) ? &local[i] : &table[i];
        s = s * 7 + *cursor + *saved;
        out[i] = *cursor;
    }
    cursor = &local[1];
    return s + *cursor;
}

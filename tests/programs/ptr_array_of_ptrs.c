/* pointers stored in an array of pointers */
int r0[4] = {1, 2, 3, 4};
int r1[4] = {10, 20, 30, 40};
int r2[4] = {100, 200, 300, 400};
int *rows[3] = {r0, r1, r2};
int *slots[4];

int main(void)
{
    for (int k = 0; k < 4; k++)
        slots[k] = rows[(k * 2) % 3] + k;
    int s = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            rows[i][j] += i + j;
            s = s * 3 + rows[i][j];
        }
    for (int k = 0; k < 4; k++)
        s += *slots[k] * (k + 1);
    int *t = rows[0];
    rows[0] = rows[2];
    rows[2] = t;
    s = s * 11 + rows[0][1] - rows[2][3];
    return s;
}

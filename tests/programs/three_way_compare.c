/* Three-way comparisons, as in qsort comparators: clang-19 turns (a > b) - (a < b) into
 * llvm.scmp / llvm.ucmp, which pyhls used to reject ("the intrinsic llvm.scmp.i32.i32 is
 * not supported for hardware").  An insertion sort driven by such comparators. */
static int keys[12] = {7, -3, 12, 0, -3, 99, -128, 5, 7, 2147483647, -2147483647 - 1, 1};
static unsigned ukeys[8] = {3u, 0xffffffffu, 0u, 17u, 0x80000000u, 3u, 1u, 0x7fffffffu};
static signed char order[12];

static int cmp_int(int a, int b) { return (a > b) - (a < b); }
static int cmp_uint(unsigned a, unsigned b) { return (a > b) - (a < b); }

int main(void)
{
    for (int i = 1; i < 12; i++) {
        int k = keys[i], j = i - 1;
        while (j >= 0 && cmp_int(keys[j], k) > 0) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = k;
    }
    for (int i = 1; i < 8; i++) {
        unsigned k = ukeys[i];
        int j = i - 1;
        while (j >= 0 && cmp_uint(ukeys[j], k) > 0) {
            ukeys[j + 1] = ukeys[j];
            j--;
        }
        ukeys[j + 1] = k;
    }
    int sum = 0;
    for (int i = 0; i < 11; i++) {
        order[i] = (signed char)cmp_int(keys[i], keys[i + 1]);
        sum = sum * 3 + order[i] + cmp_uint(ukeys[i % 8], ukeys[(i + 3) % 8]);
    }
    return sum;
}

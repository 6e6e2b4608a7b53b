/* A packed bitfield struct of 11 bytes as a global (fuzzer, Csmith pointers seed 98).
 * Its memory is rounded up to whole words (four of 4 bytes); the 5 bytes past the C
 * object are not part of it.  The native golden used to read them from the host's data
 * section -- the next global's bytes -- and report a mismatch the design did not have. */
#pragma pack(push, 1)
struct S0 {
    signed f0 : 31;
    signed f1 : 24;
    unsigned f2 : 26;
};
#pragma pack(pop)

static struct S0 g_195 = {-10580, -3622, 6701};
static unsigned char g_after[8] = {1, 1, 1, 1, 1, 1, 1, 1};
static struct S0 *p_195 = &g_195;

int main(void)
{
    for (int i = 0; i < 3; i++) {
        p_195->f1 += 5 * i - 7;
        p_195->f2 ^= (unsigned)g_after[i] << i;
        g_after[i + 1] += (unsigned char)p_195->f0;
    }
    return g_195.f0 + g_195.f1 + (int)g_195.f2 + g_after[3];
}

/* memset/memcpy of run-time lengths (0, 1, odd sizes, word multiples): clang turns the
   loops into llvm.memset/llvm.memcpy with a variable length */
unsigned char src8[64], dst8[64];
unsigned int src32[32], dst32[32];
int lens[8] = {0, 1, 3, 7, 8, 13, 31, 64};

static void copy8(unsigned char *d, const unsigned char *s, int n) {
  for (int i = 0; i < n; i++) d[i] = s[i];
}
static void zero32(unsigned int *d, int n) {
  for (int i = 0; i < n; i++) d[i] = 0;
}
static void copy32(unsigned int *d, const unsigned int *s, int n) {
  for (int i = 0; i < n; i++) d[i] = s[i];
}
static void fill8(unsigned char *d, unsigned char v, int n) {
  for (int i = 0; i < n; i++) d[i] = v;
}

int main(void) {
  unsigned sum = 0;
  for (int i = 0; i < 64; i++) src8[i] = (unsigned char)(i * 37 + 5);
  for (int i = 0; i < 32; i++) src32[i] = i * 2654435761u;
  for (int k = 0; k < 8; k++) {
    int n = lens[k];
    fill8(dst8, (unsigned char)(0xA0 + k), 64);
    copy8(dst8, src8, n);
    for (int i = 0; i < 32; i++) dst32[i] = 0x55555555u;
    copy32(dst32, src32, n / 2);
    zero32(dst32 + 1, n / 4);
    fill8(dst8 + 1, (unsigned char)k, n / 3);
    __builtin_memset(dst32 + 2, 0x30 + k, (n / 4) * 4);  /* a run-time byte, word elements */
    for (int i = 0; i < 64; i++) sum = sum * 31 + dst8[i];
    for (int i = 0; i < 32; i++) sum = sum * 17 + dst32[i];
  }
  return (int)(sum & 0x7fffffff);
}

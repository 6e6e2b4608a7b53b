/* memset and memcpy of more than 4096 bytes */
unsigned int a[2000], b[2000];

int main(void) {
  for (int i = 0; i < 2000; i++) a[i] = i * 3 + 1;
  __builtin_memcpy(b, a, sizeof a);          /* 8000 bytes */
  __builtin_memset(a, 0x5a, 4100);           /* 4100 bytes: 1025 words */
  __builtin_memset(a + 1500, 0, 6 * 4);
  unsigned s = 0;
  for (int i = 0; i < 2000; i++) s = s * 33 + (a[i] ^ b[i]);
  return (int)(s & 0x7fffffff);
}

/* a memcpy and a memset of run-time length inside a single-block loop: the loop's own
   block is split around the copy loops (its phis then come from the last piece) */
unsigned char src[40], dst[80];
int lens[6] = {0, 5, 1, 8, 3, 11};

int main(void) {
  unsigned s = 7;
  for (int i = 0; i < 40; i++) src[i] = (unsigned char)(i * 7 + 1);
  for (int k = 0; k < 6; k++) {
    __builtin_memcpy(dst + k * 9, src + k, lens[k]);
    __builtin_memset(dst + k * 9 + lens[k], k, lens[5 - k]);
    s = s * 13 + dst[k * 9 + 2];
  }
  for (int i = 0; i < 80; i++) s = s * 31 + dst[i];
  return (int)(s & 0x7fffffff);
}

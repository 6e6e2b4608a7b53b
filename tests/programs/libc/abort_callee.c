/* abort() in a function that is not inlined: its caller ends the run too (in hardware,
   after each call of it, the abort flag is tested).  With the default LIMIT nothing
   aborts; -DLIMIT=20 aborts at vals[2]. */
void abort(void);

#ifndef LIMIT
#define LIMIT 1000
#endif

int vals[8] = {5, 8, 21, 3, 34, 2, 55, 1};
int out[8];

__attribute__((noinline)) int check(int v) {
  if (v > LIMIT) abort();
  return v * 2 + 1;
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 8; i++) {
    out[i] = check(vals[i]);
    s += out[i];
  }
  return s;
}

/* a failed assert ends the run: natively there is no golden result, in hardware the
   co-simulation reports a failed run */
#include <assert.h>
void abort(void);

int vals[6] = {5, 8, 13, 21, 34, 55};
int limit = 40;

int main(void) {
  int s = 0;
  for (int i = 0; i < 6; i++) {
    if (vals[i] > 100) abort();
    assert(vals[i] < limit);  /* fails at i = 5 */
    s += vals[i];
  }
  return s;
}

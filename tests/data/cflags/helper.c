/* the second input file of tests/data/cflags */
#include "scale.h"

int twice(int x) { return 2 * x; }

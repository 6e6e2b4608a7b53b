/* pyhls libm: ceil (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_ceil(double x) { return pyhls_round_to(x, 1); }

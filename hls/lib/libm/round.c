/* pyhls libm: round (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_round(double x) { return pyhls_trunc_round(x, 1); }

/* pyhls libm: cos (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_cos(double x) { return pyhls_sincos(x, 1); }

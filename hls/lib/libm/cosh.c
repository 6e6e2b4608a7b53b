/* pyhls libm: cosh (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_cosh(double x) { return pyhls_sinhcosh(x, 1); }

/* pyhls libm: tan (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_tan(double x) { return pyhls_tan(x); }

/* pyhls libm: atan (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_atan(double x) { return pyhls_atan(x); }

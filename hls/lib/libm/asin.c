/* pyhls libm: asin (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_asin(double x) { return pyhls_asin(x); }

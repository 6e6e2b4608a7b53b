/* pyhls libm: acos (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_acos(double x) { return pyhls_acos(x); }

/* pyhls libm: atan2 (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_atan2(double y, double x) { return pyhls_atan2(y, x); }

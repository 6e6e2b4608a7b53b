/* pyhls libm: log (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_log(double x) { return pyhls_log(x); }

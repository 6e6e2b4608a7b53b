/* pyhls libm: roundf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_roundf(float x) { return pyhls_trunc_roundf(x, 1); }

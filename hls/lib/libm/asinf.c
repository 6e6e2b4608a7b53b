/* pyhls libm: asinf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_asinf(float x) { return pyhls_asinf(x); }

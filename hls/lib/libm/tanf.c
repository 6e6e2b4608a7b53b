/* pyhls libm: tanf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_tanf(float x) { return pyhls_tanf(x); }

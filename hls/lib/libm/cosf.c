/* pyhls libm: cosf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_cosf(float x) { return pyhls_sincosf(x, 1); }

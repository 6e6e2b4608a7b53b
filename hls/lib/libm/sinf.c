/* pyhls libm: sinf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_sinf(float x) { return pyhls_sincosf(x, 0); }

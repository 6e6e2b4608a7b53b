/* pyhls libm: acosf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_acosf(float x) { return pyhls_acosf(x); }

/* pyhls libm: atan2f (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_atan2f(float y, float x) { return pyhls_atan2f(y, x); }

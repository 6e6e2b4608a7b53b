/* pyhls libm: powf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_powf(float x, float y) { return pyhls_powf(x, y); }

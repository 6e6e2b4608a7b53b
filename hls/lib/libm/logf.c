/* pyhls libm: logf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_logf(float x) { return pyhls_logf(x); }

/* pyhls libm: exp2f (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_exp2f(float x) { return pyhls_exp2f(x); }

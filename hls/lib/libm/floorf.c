/* pyhls libm: floorf (see pyhls_libm.h) */
#include "pyhls_libm.h"

float __pyhls_libm_floorf(float x) { return pyhls_round_tof(x, 0); }

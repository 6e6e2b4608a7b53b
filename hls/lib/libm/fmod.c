/* pyhls libm: fmod (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_fmod(double x, double y) { return pyhls_fmod(x, y); }

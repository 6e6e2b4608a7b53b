/* pyhls libm: tanh (see pyhls_libm.h) */
#include "pyhls_libm.h"

double __pyhls_libm_tanh(double x) { return pyhls_tanh(x); }

// A C++ kernel (tests/test_cxx.py): a namespace, a class template with methods, a
// reference parameter, constexpr, an overload set, and its testbench main in the same
// file: pyhls cosim ns_kernel.cpp --top dsp::smooth --tb ns_kernel.cpp
#include <cstdint>
#include <stdio.h>

namespace dsp {

constexpr int TAPS = 3;
constexpr int16_t COEF[TAPS] = {1, 2, 1};

template <typename T, int N>
struct Window {
  T v[N] = {};
  void push(const T &x) {
    for (int i = N - 1; i > 0; i--) v[i] = v[i - 1];
    v[0] = x;
  }
  int32_t dot(const int16_t (&c)[N]) const {
    int32_t s = 0;
    for (int i = 0; i < N; i++) s += v[i] * c[i];
    return s;
  }
};

static void saturate(int32_t &x, int32_t lo, int32_t hi) {
  if (x < lo) x = lo;
  if (x > hi) x = hi;
}

int scale(int x) { return 2 * x; }            // an overload set: --top dsp::scale is
float scale(float x) { return 2.0f * x; }     // ambiguous

int32_t smooth(const int16_t in[32], int16_t out[32]) {
  Window<int16_t, TAPS> w;
  int32_t peak = 0;
  for (int i = 0; i < 32; i++) {
    w.push(in[i]);
    int32_t y = w.dot(COEF) >> 2;
    saturate(y, -1000, 1000);
    out[i] = (int16_t)y;
    if (y > peak) peak = y;
  }
  return peak;
}

}  // namespace dsp

int main() {
  int16_t in[32], out[32];
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < 32; i++) in[i] = (int16_t)((i * 997 + r * 131) % 4001 - 2000);
    int32_t p = dsp::smooth(in, out);
    printf("%d %d\n", (int)p, (int)out[5]);
  }
  return 0;
}

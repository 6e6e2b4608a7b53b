// ap_int/ap_uint operations at widths 65 to 128 on the top's own ports (100-bit signed,
// 128-bit unsigned and 60-bit signed arguments, a 128-bit result; the 65-bit v comes after
// the argument registers are used up, so the ABI passes it in memory: a memory of one
// value; tests/test_wide_ports.py): one operation per call, chosen by op, co-simulated
// against the native build on the testbench's edge values and on random stimulus.
#include <ap_int.h>

ap_uint<128> apint_wide_ops(ap_int<100> a, ap_int<100> b, ap_uint<128> u, ap_uint<65> v,
                            ap_int<60> p, ap_int<60> q, int sh, int op) {
  int s = sh & 127;
  switch (op & 15) {
  case 0: return a + b;                         // ap_int<101>, sign-extended to 128 bits
  case 1: return a - b;
  case 2: return p * q;                         // ap_int<120>
  case 3: return u * v;                         // ap_uint<193>, its low 128 bits
  case 4: return (u ^ v) | (u & ~ap_uint<128>(v));
  case 5: return u >> s;
  case 6: return a >> (s % 100);                // arithmetic
  case 7: return u << s;
  case 8: return (a < b) + 2 * (u > v) + 4 * (a == b) + 8 * (u <= ap_uint<128>(v)) +
                 16 * (a >= 0);
  case 9: return a.range(99, 37) + u.range(127, 64);
  case 10: return (a.range(49, 0), v);          // a 115-bit concatenation
  case 11: return v ? ap_uint<128>(u / v) : ap_uint<128>(0);
  case 12: return v ? ap_uint<128>(u % v) : ap_uint<128>(0);
  case 13: return -a;
  case 14: return ~u + ap_uint<128>(a[99]) + ap_uint<128>(u[s]);
  default: return ap_int<100>(p) * 3 - q;
  }
}

int main() {
  // edge values of each argument: 0, 1, -1 / all ones, the top bit, the largest positive
  const ap_int<100> as[] = {0, 1, -1, ap_int<100>(1) << 99, (ap_int<100>(1) << 99) - 1};
  const ap_uint<128> us[] = {0, 1, ~ap_uint<128>(0), ap_uint<128>(1) << 127,
                             (ap_uint<128>(1) << 64) - 1};
  const ap_uint<65> vs[] = {0, 1, ~ap_uint<65>(0), ap_uint<65>(1) << 64, 3};
  const ap_int<60> ps[] = {0, -1, ap_int<60>(1) << 59, (ap_int<60>(1) << 59) - 1, 7};
  ap_uint<128> sum = 0;
  for (int op = 0; op < 16; op++)
    for (int k = 0; k < 5; k++)
      sum ^= apint_wide_ops(as[k], as[(k + 2) % 5], us[k], vs[(k + op) % 5], ps[k],
                            ps[(k + 3) % 5], 13 * k + op, op);
  return (int)(sum & 1);
}

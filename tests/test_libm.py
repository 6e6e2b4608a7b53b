"""pyhls's libm (``hls/lib/libm``, linked by ``hls.frontend._libm``): the library built
natively against glibc (edge values bit for bit but NaN payloads and within
``ULP_BOUND`` on random values), its 2/pi table against 2/pi computed here, its CDFG
interpreted against native execution, and small co-simulations in which the golden model
must run the library, not glibc (inputs where the two differ).  The co-simulations build
sequential loops (pipeline=False): a pipelined loop gives every operation of the
inlined library its own unit, which takes a minute of RTL generation for cos * exp
(benchmarks/libm_accuracy.py --cosim runs those)."""

from __future__ import annotations

import ctypes
import math
import random
import re
import struct

import pytest

from hls.flow import SynthOptions, ir_module
from hls.frontend import load
from hls.frontend._libm import FUNCTIONS, LIBM_DIR, PREFIX, ULP_BOUND, arity, native_library
from hls.verify import cosim, ir_differences, run_calls
from hls.verify._golden import Call

from helpers import line_of, write_source


def _bits(x: float, w: int) -> int:
    return struct.unpack("<Q" if w == 64 else "<I", struct.pack("<d" if w == 64 else "<f", x))[0]


def _from_bits(b: int, w: int) -> float:
    return struct.unpack("<d" if w == 64 else "<f", struct.pack("<Q" if w == 64 else "<I", b))[0]


def ulp_distance(a: float, b: float, w: int) -> float:
    """Units in the last place between two results of width ``w`` (the encodings on one
    ordered line, -0 one step below +0); two NaNs are 0 apart, a NaN and a number inf."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else math.inf

    def line(x):
        u = _bits(x, w)
        return -(u & ((1 << (w - 1)) - 1)) - 1 if u >> (w - 1) else u
    return abs(line(a) - line(b))


def edge_values(name: str) -> list[float]:
    w = FUNCTIONS[name]
    big = 1.7976931348623157e308 if w == 64 else 3.4028234663852886e38
    tiny = 5e-324 if w == 64 else 1.401298464324817e-45
    least_normal = 2.2250738585072014e-308 if w == 64 else 1.1754943508222875e-38
    vals = [0.0, -0.0, math.inf, -math.inf, math.nan, tiny, -tiny, least_normal, -least_normal,
            least_normal * 0.75, big, -big, 1.0, -1.0, 0.5, -0.5, 2.5, -2.5, 1e22, -1e22,
            math.pi / 2, math.pi, math.pi / 4, 2 ** 52 + 0.5, 1e-9, 100.0, -100.0,
            1.5, -1.5, 0.49999999999999994, -0.49999999999999994, 2 ** 52 - 0.5, 2 ** 51 + 0.5,
            0.125, 1 / 16, 3 / 32, 2.0 ** -27, 2.0 ** 62, 2.0 ** 63, 33.0, 10.5,
            0.9999999999999999, -0.9999999999999999, 0.7071067811865476, 2.0 ** -58]
    if w == 64:     # exp's and exp2's overflow and underflow thresholds, and around them
        vals += [709.782712893384, 709.78271289338397, 709.7827128933841, 710.0, -708.4,
                 -745.1332191019411, -745.1332191019412, -745.2, -746.0, 1e300, -1e300,
                 1023.0, 1023.9999999999999, 1024.0, -1022.5, -1074.0, -1074.5, -1075.0,
                 -1075.0000000000002, 1000.0, 1e-5, 1e23]
    else:
        vals += [88.72283, 88.72284, 89.0, -87.33654, -103.97208, -103.9721, -104.0, 3e38,
                 127.0, 127.99999, 128.0, -126.5, -149.0, -149.5, -150.0, -150.00002, 1000.0]
    return [v if w == 64 else _from_bits(_bits(v, 32), 32) if abs(v) < 3.5e38 or
            math.isinf(v) or math.isnan(v) else v for v in vals]


def _to_width(x: float, w: int) -> float:
    """``x`` as a value of width ``w`` (a double beyond float's range: +-inf, as a C
    conversion makes it)."""
    if w == 64 or math.isnan(x) or math.isinf(x):
        return x
    try:
        return _from_bits(_bits(x, w), w)
    except OverflowError:
        return math.copysign(math.inf, x)


def edge_pairs(name: str) -> list[tuple[float, float]]:
    """A two-argument function's edge cases: every pair of a grid of special values
    (C99 Annex F's cases for pow, atan2 and hypot: signed zeros, infinities, NaN, +-1,
    odd and even integers, non-integers, the extreme magnitudes), then pow's overflow and
    underflow thresholds and bases near 1 with large exponents, or atan2's and hypot's
    quotients at their thresholds, hypot's exact, overflowing and subnormal cases and
    fmod's largest exponent differences."""
    w = FUNCTIONS[name]
    big = 1.7976931348623157e308 if w == 64 else 3.4028234663852886e38
    tiny = 5e-324 if w == 64 else 1.401298464324817e-45
    least_normal = 2.2250738585072014e-308 if w == 64 else 1.1754943508222875e-38
    grid = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0,
            -3.0, 2.5, -2.5, 0.75, 1.25, tiny, -tiny, least_normal, big, -big, 2.0 ** 53,
            2.0 ** 53 + 2, -(2.0 ** 24 + 1), 2.0 ** 64, -(2.0 ** 70), 1e-300, -1e300, 7.0, -0.1]
    pairs = [(a, b) for a in grid for b in grid]
    if name.startswith("pow"):
        lim, sub = (1024, 1074) if w == 64 else (128, 149)
        pairs += [(2.0, lim), (2.0, lim - 0.0001), (2.0, -sub), (2.0, -sub - 1), (2.0, -sub + 0.5),
                  (-2.0, lim - 1), (-2.0, -sub + 1), (10.0, 308.25 if w == 64 else 38.5),
                  (0.5, sub), (0.5, -lim + 1), (1 + 2.0 ** -52 if w == 64 else 1 + 2.0 ** -23, 1e18),
                  (1 - 2.0 ** -53 if w == 64 else 1 - 2.0 ** -24, 1e18), (1.0000001, 1e7),
                  (-1.0000001, 1e7 + 1), (0.9999999, -1e7), (-8.0, 1 / 3), (-8.0, 3.0),
                  (3.0, 0.5), (1e-5, -60.0), (123.0, 140.5), (math.e, 709.0), (0.1, 322.0)]
    else:   # atan2's and hypot's quotients at the thresholds
        pairs += [(1.0, 1.0 + 2.0 ** -52), (-1e-10, -1.0), (1e-10, -1.0), (1.0, -1e-10),
                  (2.0 ** -1000, 2.0 ** 1000), (2.0 ** 900, -(2.0 ** -900)), (3.0, -4.0),
                  (-4.0, 3.0), (1e-310, 3e-310), (-7e-320, -2e-315)]
    if name.startswith("fmod"):
        pairs += [(1e308, 1e-308), (big, tiny), (-big, 3.0), (7.5, 2.0), (-7.5, 2.0),
                  (7.5, -2.0), (1e300, 3.0), (5e-324 * 7, 5e-324 * 2), (1e-310, 3e-320),
                  (2.0 ** 60, 0.1), (-(2.0 ** 1000), math.pi), (6.0, 3.0)]
    if name.startswith("hypot"):
        pairs += [(3.0, 4.0), (-5.0, 12.0), (1e308, 1e308), (big, 1.0), (1e-310, 3e-310),
                  (tiny, tiny), (2.0 ** 500, 2.0 ** 499), (2.0 ** -500, 2.0 ** -540),
                  (1.0, 2.0 ** -27), (1.0, 2.0 ** -60), (1e154, 1e154), (1e-160, 1e-160)]
    return [(_to_width(a, w), _to_width(b, w)) for a, b in pairs]


def random_pairs(name: str, k: int, seed: int) -> list[tuple[float, float]]:
    """Random argument pairs: random encodings of both, [-10, 10]^2, and for pow bases in
    (0, 10) with exponents of -5..5 and -300..300, bases within 10^-6 of 1 with
    exponents up to 10^8, negative bases with integer exponents; for atan2 quotients
    near 1 and of random magnitude."""
    w = FUNCTIONS[name]
    rng = random.Random(f"{name}{seed}")
    out = []
    for i in range(k):
        pick = i % 5
        if pick == 0:
            a, b = _from_bits(rng.getrandbits(w), w), _from_bits(rng.getrandbits(w), w)
        elif pick == 1:
            a, b = rng.uniform(-10, 10), rng.uniform(-10, 10)
        elif name.startswith("pow"):
            if pick == 2:
                a, b = rng.uniform(0, 10), rng.uniform(-5, 5)
            elif pick == 3:
                a, b = rng.uniform(0, 10), rng.uniform(-300, 300) * (w == 64 or 0.1)
            else:
                a, b = (1 + rng.uniform(-1e-6, 1e-6), rng.uniform(-1e8, 1e8)) if rng.random() < 0.5 \
                    else (-rng.uniform(0, 10), float(rng.randint(-300, 300)))
        else:
            if pick == 2:
                a = rng.uniform(-10, 10)
                b = a * rng.uniform(0.9, 1.1) * rng.choice((1, -1))
            else:
                a = math.ldexp(rng.random(), rng.randint(-70, 70)) * rng.choice((1, -1))
                b = math.ldexp(rng.random(), rng.randint(-70, 70)) * rng.choice((1, -1))
        out.append((_to_width(a, w), _to_width(b, w)))
    return out


def cases(name: str, k: int, seed: int) -> list[tuple[float, ...]]:
    """A function's argument tuples: its edge cases, then ``k`` random ones."""
    if arity(name) == 2:
        return edge_pairs(name) + random_pairs(name, k, seed)
    return [(x,) for x in edge_values(name) + random_values(name, k, seed)]


def random_values(name: str, k: int, seed: int) -> list[float]:
    """Random encodings (every exponent), the range around zero, and the function's
    interesting range (exp's whole finite range)."""
    w = FUNCTIONS[name]
    rng = random.Random(f"{name}{seed}")
    out = []
    for i in range(k):
        pick = i % 4
        if pick == 0:
            x = _from_bits(rng.getrandbits(w), w)
        elif pick == 1:
            x = rng.uniform(-10, 10)
        elif pick == 2:
            lo, hi = ((-1080, 1030) if w == 64 else (-155, 130)) if name.startswith("exp2") else \
                ((-746, 710) if w == 64 else (-104, 89)) if name.startswith("exp") else \
                (-1, 1) if name.startswith(("asin", "acos")) else (-1e3, 1e3)
            x = rng.uniform(lo, hi)
        else:
            x = math.ldexp(rng.random(), rng.randint(-70, 70)) * rng.choice((1, -1))
        if name.startswith("log") and not math.isnan(x):
            x = abs(x)
        out.append(_from_bits(_bits(x, w), w) if w == 32 and abs(x) < 3.4e38 else x)
    return out


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    ours = ctypes.CDLL(str(native_library(tmp_path_factory.mktemp("libm"))))
    glibc = ctypes.CDLL("libm.so.6")
    out = {}
    for name, w in FUNCTIONS.items():
        t = ctypes.c_double if w == 64 else ctypes.c_float
        f, g = getattr(ours, PREFIX + name), getattr(glibc, name)
        for fn in (f, g):
            fn.restype, fn.argtypes = t, [t] * arity(name)
        out[name] = (f, g)
    return out


def _special(name: str, args: tuple[float, ...]) -> bool:
    """A special case, whose result must be glibc's bit for bit: an argument zero,
    infinite or NaN (exp(0) = 1, atan(inf) = pi/2, acos(0) = pi/2, ...), asin's, acos's
    and atan's +-1 (pi/2, pi, pi/4), pow's base +-1."""
    if len(args) < 2 and name.startswith(("asin", "acos", "atan")) and abs(args[0]) == 1:
        return True
    return (any(v == 0 or math.isinf(v) or math.isnan(v) for v in args)
            or (name.startswith("pow") and abs(args[0]) == 1))


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_library_matches_glibc(libs, name):
    """Edge values: glibc's result bit for bit (the sign of a zero too) but for the
    functions' own last-place differences, which must stay within the bound; NaN for
    NaN.  Random values: within ``ULP_BOUND``."""
    f, g = libs[name]
    w, bound = FUNCTIONS[name], ULP_BOUND[name]
    edges = cases(name, 0, 0)
    for x in edges:
        a, b = f(*x), g(*x)
        assert math.isnan(a) == math.isnan(b), (name, x, a, b)
        if a == 0 or b == 0 or math.isinf(a) or math.isinf(b):
            assert _bits(a, w) == _bits(b, w), (name, x, a, b)   # zeros and infinities exact
        assert ulp_distance(a, b, w) <= bound, (name, x, a, b)
        if _special(name, x):       # Annex F's cases and the like: glibc's result, bit for bit
            assert math.isnan(a) or _bits(a, w) == _bits(b, w), (name, x, a, b)
    worst = max((ulp_distance(f(*x), g(*x), w), x) for x in cases(name, 20000, 0)[len(edges):])
    assert worst[0] <= bound, (name, worst)


def test_library_is_not_glibc(libs):
    """The bound is met, not trivially: the library is a different implementation (these
    differences make the co-simulations below fail if the golden model used glibc)."""
    assert libs["exp"][0](1.0) != libs["exp"][1](1.0)
    assert libs["sin"][0](-2.5) != libs["sin"][1](-2.5)
    assert libs["expf"][0](3.1415927) != libs["expf"][1](3.1415927)
    assert libs["sinf"][0](0.7853982) != libs["sinf"][1](0.7853982)


def _pi_bits(bits: int) -> int:
    """pi * 2^bits, truncated (Machin's formula in integers)."""
    def atan_inv(k: int) -> int:
        total, term, i, sign = 0, (1 << (bits + 16)) // k, 1, 1
        while term:
            total += sign * (term // i)
            term //= k * k
            i, sign = i + 2, -sign
        return total
    return (16 * atan_inv(5) - 4 * atan_inv(239)) >> 16


def _two_over_pi_words(n: int) -> list[int]:
    """The first ``n`` 64-bit words of 2/pi after the binary point."""
    bits = 64 * n + 64
    frac = ((2 << (2 * bits)) // _pi_bits(bits)) >> (bits - 64 * n)
    return [(frac >> (64 * (n - 1 - i))) & (2 ** 64 - 1) for i in range(n)]


def test_two_over_pi_table():
    text = (LIBM_DIR / "pyhls_libm.h").read_text()
    table = text[text.index("pyhls_2opi[21] = {"):]
    words = [int(h, 16) for h in re.findall(r"0x([0-9a-f]{16})ULL", table[:table.index("};")])]
    assert words == _two_over_pi_words(20)
    pio2 = int(re.search(r"PYHLS_PIO2_Q63 0x([0-9a-f]+)ULL", text).group(1), 16)
    assert abs(pio2 - math.pi / 2 * 2 ** 63) < 2 ** 12          # pi/2 in 64 bits, rounded
    assert pio2 == (_pi_bits(200) * 2 ** 62 + 2 ** 199) >> 200


def _table(text: str, name: str) -> list[list[float]]:
    body = text[text.index(name):]
    body = body[body.index("{") + 1:body.index("};")]
    return [[float.fromhex(v) for v in re.findall(r"-?0x[0-9a-f.]+p[-+]?\d+", row)]
            for row in re.findall(r"\{([^{}]*)\}", body)]


def _hilo_ok(hi: float, lo: float, exact) -> bool:
    """hi is ``exact`` rounded and lo the rest rounded (Decimal arithmetic)."""
    from decimal import Decimal
    return hi == float(exact) and lo == float(exact - Decimal(hi))


def test_atan_log_exp2_tables():
    """atan(k/16) (atan's reduction), -log(1/c) for pow's c = 1 + j/64 and 2^(j/32)
    (pow's exponential), each in two parts, against 60-digit Decimal arithmetic (atan by
    its series after halving the argument); 1/c as the double division rounds it; pi/2
    and pi's parts likewise."""
    from decimal import Decimal, getcontext
    getcontext().prec = 60

    def atan(x: Decimal) -> Decimal:
        n = 0
        while abs(x) > Decimal("0.05"):
            x, n = x / (1 + (1 + x * x).sqrt()), n + 1
        total, term, i = Decimal(0), x, 1
        while abs(term) > Decimal(10) ** -58:
            total, term, i = total + term / i, -term * x * x, i + 2
        return total * 2 ** n

    text = (LIBM_DIR / "pyhls_libm.h").read_text()
    at = _table(text, "pyhls_atan_k16[17][2] = ")
    assert len(at) == 17 and at[0] == [0.0, 0.0]
    for k in range(1, 17):
        assert _hilo_ok(*at[k], atan(Decimal(k) / 16)), k
    logs = _table(text, "pyhls_log_tab[47][3] = ")
    assert len(logs) == 47
    for j, (invc, hi, lo) in zip(range(-19, 28), logs):
        assert invc == 1.0 / (1.0 + j / 64), j
        assert _hilo_ok(hi, lo, -Decimal(invc).ln()), j
    exp2 = _table(text, "pyhls_exp2_32[32][2] = ")
    assert len(exp2) == 32
    for j, (hi, lo) in enumerate(exp2):
        assert _hilo_ok(hi, lo, (Decimal(2).ln() * j / 32).exp()), j
    pi = 4 * atan(Decimal(1))
    consts = dict(re.findall(r"#define (PYHLS_PI\w*) (0x[0-9a-f.]+p-?\d+)", text))
    assert _hilo_ok(float.fromhex(consts["PYHLS_PIO2_HI"]), float.fromhex(consts["PYHLS_PIO2_LO"]), pi / 2)
    assert _hilo_ok(float.fromhex(consts["PYHLS_PI_HI"]), float.fromhex(consts["PYHLS_PI_LO"]), pi)
    consts = {k: float.fromhex(v) for k, v in
              re.findall(r"#define (PYHLS_\w+) (-?0x[0-9a-f.]+p-?\d+)\n", text)}
    ln2, ln10 = Decimal(2).ln(), Decimal(10).ln()
    assert _hilo_ok(consts["PYHLS_INV_LN2_HI"], consts["PYHLS_INV_LN2_LO"], 1 / ln2)
    assert _hilo_ok(consts["PYHLS_INV_LN10_HI"], consts["PYHLS_INV_LN10_LO"], 1 / ln10)
    assert _hilo_ok(consts["PYHLS_LN2_D_HI"], consts["PYHLS_LN2_D_LO"], ln2)


ALL = """
#include <math.h>
void all(const double x[N], const float y[N], double d[9][N], float f[9][N]) {
    for (int i = 0; i < N; i++) {
        d[0][i] = exp(x[i]); d[1][i] = log(x[i]); d[2][i] = sin(x[i]); d[3][i] = cos(x[i]);
        d[4][i] = floor(x[i]); d[5][i] = ceil(x[i]);
        f[0][i] = expf(y[i]); f[1][i] = logf(y[i]); f[2][i] = sinf(y[i]); f[3][i] = cosf(y[i]);
        f[4][i] = floorf(y[i]); f[5][i] = ceilf(y[i]);
        d[6][i] = tanh(x[i]); f[6][i] = tanhf(y[i]);
        d[7][i] = trunc(x[i]); d[8][i] = round(x[i]); f[7][i] = truncf(y[i]); f[8][i] = roundf(y[i]);
    }
}
"""

UNARY = """
#include <math.h>
void all(const double x[N], const float y[N], double d[8][N], float f[8][N]) {
    for (int i = 0; i < N; i++) {
        d[0][i] = exp2(x[i]); d[1][i] = log2(x[i]); d[2][i] = log10(x[i]); d[3][i] = tan(x[i]);
        d[4][i] = sinh(x[i]); d[5][i] = cosh(x[i]); d[6][i] = asin(x[i]); d[7][i] = acos(x[i]);
        f[0][i] = exp2f(y[i]); f[1][i] = log2f(y[i]); f[2][i] = log10f(y[i]); f[3][i] = tanf(y[i]);
        f[4][i] = sinhf(y[i]); f[5][i] = coshf(y[i]); f[6][i] = asinf(y[i]); f[7][i] = acosf(y[i]);
    }
}
"""


@pytest.mark.parametrize("kernel", ["first", "more"])
def test_cdfg_matches_native(tmp_path, capsys, kernel):
    """Every one-argument function's CDFG, as the frontend makes it, interpreted on edge
    and random values against native execution of the same canonicalised module (two
    kernels: the first functions, and those added since); a warning per call."""
    n = 16
    text, rows, rand = (ALL, 9, "sin") if kernel == "first" else (UNARY, 8, "asin")
    src = write_source(tmp_path, "all.c", text)
    m = ir_module(src, SynthOptions(top="all", cflags=(f"-DN={n}",)), after="frontend")
    err = capsys.readouterr().err
    for name in re.findall(r"= (\w+)\(", text):
        assert re.search(rf"all\.c:\d+: warning: '{name}' is computed by pyhls's libm", err), err
    if kernel == "first":
        assert "within 1 ulp of glibc's" in err and "exact, as glibc's" in err
        assert "'tanh' is computed by pyhls's libm, synthesised with the design (within 3 ulp" in err
        assert "'round' is computed by pyhls's libm, synthesised with the design (exact" in err
    else:
        assert "'sinh' is computed by pyhls's libm, synthesised with the design (within 2 ulp" in err
    assert not any(op.kind == "call" for f in m.functions for op in f.ops())
    calls = []
    for k in range(4):
        xs = (edge_values("exp") + random_values(rand, n, k))[k * n:(k + 1) * n]
        ys = (edge_values("expf") + random_values(rand + "f", n, k))[k * n:(k + 1) * n]
        calls.append(Call(scalars={}, mem_in={
            0: b"".join(struct.pack("<d", v) for v in xs),
            1: b"".join(struct.pack("<f", v) for v in ys),
            2: bytes(rows * n * 8), 3: bytes(rows * n * 4)}))
    golden = run_calls(m.llvm_ir, "all", calls)
    bad = ir_differences(m, golden, max_steps=5_000_000)
    assert not bad, "\n".join(bad)


MORE = """
#include <math.h>
void more(const double x[N], const double y[N], const float a[N], const float b[N],
          double d[5][N], float f[5][N]) {
    for (int i = 0; i < N; i++) {
        d[0][i] = atan(x[i]); d[1][i] = atan2(x[i], y[i]); d[2][i] = pow(x[i], y[i]);
        f[0][i] = atanf(a[i]); f[1][i] = atan2f(a[i], b[i]); f[2][i] = powf(a[i], b[i]);
        d[3][i] = hypot(x[i], y[i]); f[3][i] = hypotf(a[i], b[i]);
        d[4][i] = fmod(x[i], y[i]); f[4][i] = fmodf(a[i], b[i]);
    }
}
"""


def test_cdfg_matches_native_two_arguments(tmp_path, capsys):
    """atan, atan2, pow, hypot and fmod (and their f variants), as the intrinsics and the
    frem instruction clang makes of them under -fno-math-errno: the CDFG interpreted on
    edge pairs (a sample of the Annex F grid, thresholds) and random pairs against native
    execution; a warning per call, the two-argument calls linked as such."""
    n, k = 16, 4
    src = write_source(tmp_path, "more.c", MORE)
    flags = (f"-DN={n}", "-fno-math-errno")     # llvm.pow.f64, ..., fmod as frem
    m = ir_module(src, SynthOptions(top="more", cflags=flags), after="frontend")
    err = capsys.readouterr().err
    for name in ("atan", "atan2", "pow", "atanf", "atan2f", "powf", "hypot", "hypotf", "fmod",
                 "fmodf"):
        assert re.search(rf"more\.c:\d+: warning: '{name}' is computed by pyhls's libm", err), err
    assert not any(op.kind == "call" for f in m.functions for op in f.ops())

    def sample(suffix: str) -> list[tuple[float, float]]:
        pairs = (edge_pairs("pow" + suffix)[::17] + edge_pairs("atan2" + suffix)[-10:]
                 + edge_pairs("hypot" + suffix)[-12:] + edge_pairs("fmod" + suffix)[-12:]
                 + random_pairs("pow" + suffix, 2 * n, 1)
                 + random_pairs("atan2" + suffix, 2 * n, 1))
        random.Random(suffix).shuffle(pairs)
        return pairs[:n * k]
    dpairs, fpairs = sample(""), sample("f")
    calls = []
    for c in range(k):
        dp, fp = dpairs[c * n:(c + 1) * n], fpairs[c * n:(c + 1) * n]
        calls.append(Call(scalars={}, mem_in={
            0: b"".join(struct.pack("<d", p[0]) for p in dp),
            1: b"".join(struct.pack("<d", p[1]) for p in dp),
            2: b"".join(struct.pack("<f", p[0]) for p in fp),
            3: b"".join(struct.pack("<f", p[1]) for p in fp),
            4: bytes(5 * n * 8), 5: bytes(5 * n * 4)}))
    golden = run_calls(m.llvm_ir, "more", calls)
    bad = ir_differences(m, golden, max_steps=5_000_000)
    assert not bad, "\n".join(bad)


def test_frem_becomes_fmod():
    """LLVM's frem (clang's fmod under -fno-math-errno; fast-math flags too) is a call of
    the library's fmod or fmodf, its metadata kept; a vector frem is left alone."""
    from hls.frontend._libm import _rewrite_frem
    text = ("  %r = frem fast double %a, %b, !dbg !7\n"
            "  %s = frem float %c, 2.500000e+00\n"
            "  %v = frem <2 x double> %p, %q\n")
    out, used = _rewrite_frem(text)
    assert used == {"fmod", "fmodf"}
    assert out.splitlines() == [
        f"  %r = call double @{PREFIX}fmod(double %a, double %b), !dbg !7",
        f"  %s = call float @{PREFIX}fmodf(float %c, float 2.500000e+00)",
        "  %v = frem <2 x double> %p, %q"]


def test_user_definition_wins(tmp_path, capsys):
    """A program's own ``cos`` is its own: not replaced, no warning."""
    src = write_source(tmp_path, "own.c", """
        double cos(double x) { return x * 0.5; }
        double k(double x) { return cos(x) + 1.0; }
        """)
    m = load(src, "k")
    assert "warning" not in capsys.readouterr().err
    assert PREFIX not in m.llvm_ir
    assert [op.kind for op in m.top.ops() if op.kind.startswith("f")] == ["fmul", "fadd"]


FLOAT_KERNEL = """
#include <math.h>
void act(const float x[4], float y[4]) {
    for (int i = 0; i < 4; i++)
        y[i] = expf(x[i]) + sinf(x[i]);
}
int main(void) {
    float x[4] = {3.1415927f, 0.7853982f, -1.5f, 100.0f}, y[4];
    act(x, y);
    x[0] = -0.0f; x[1] = 1e-30f; x[2] = -200.0f; x[3] = 88.5f;
    act(x, y);
    return 0;
}
"""


def test_cosim_expf_sinf(tmp_path, capsys):
    src = write_source(tmp_path, "act.c", FLOAT_KERNEL)
    res = cosim(src, "act", tb=src, workdir=tmp_path / "cosim", pipeline=False)
    assert res.passed, res.summary()
    line = line_of(src, "y[i] = expf")
    err = capsys.readouterr().err
    assert f"act.c:{line}: warning: 'expf' is computed by pyhls's libm" in err
    assert f"act.c:{line}: warning: 'sinf' is computed by pyhls's libm" in err


DOUBLE_KERNEL = """
#include <math.h>
void wave(const double x[4], double y[4]) {
    for (int i = 0; i < 4; i++)
        y[i] = cos(x[i]) * exp(x[i]);
}
"""

# the testbench holds its own copy of the top (it includes the kernel): its golden run
# links pyhls's libm too (hls.verify._flow._tb_module_text)
DOUBLE_TB = """
#include "wave.c"
int main(void) {
    double x[4] = {1.0, -2.5, 1e22, 709.5}, y[4];
    wave(x, y);
    x[0] = -0.0; x[1] = 5e-324; x[2] = -745.0; x[3] = 3.0;
    wave(x, y);
    return 0;
}
"""


def test_cosim_double_cos_exp_intrinsics(tmp_path):
    """-fno-math-errno: clang's llvm.cos.f64 and llvm.exp.f64, in a design whose
    testbench defines the top itself."""
    src = write_source(tmp_path, "wave.c", DOUBLE_KERNEL)
    tb = write_source(tmp_path, "tb.c", DOUBLE_TB)
    flags = ("-fno-math-errno",)
    from hls.toolchain import compile_c_to_ll
    ll = compile_c_to_ll(src, tmp_path / "wave.ll", extra_flags=flags).read_text()
    assert "@llvm.cos.f64(" in ll and "@llvm.exp.f64(" in ll
    res = cosim(src, "wave", tb=tb, cflags=flags + (f"-I{tmp_path}",), workdir=tmp_path / "cosim",
                pipeline=False)
    assert res.passed, res.summary()
    assert len(res.calls) == 2


POLAR_KERNEL = """
#include <math.h>
void polar(const double x[2], const double y[2], double a[2], double p[2]) {
    for (int i = 0; i < 2; i++) {
        a[i] = atan2(y[i], x[i]);
        p[i] = pow(x[i], y[i]);
    }
}
int main(void) {
    double x[2] = {0.79, 3.24}, y[2] = {-3.45, 0.54}, a[2], p[2];
    polar(x, y, a, p);
    x[0] = 1.73; x[1] = -2.0; y[0] = -1.45; y[1] = 3.0;
    polar(x, y, a, p);
    return 0;
}
"""


def test_cosim_atan2_pow(tmp_path, capsys, libs):
    """Two-argument functions in hardware: atan2 and pow on arguments where pyhls's
    results differ from glibc's (checked here), so a golden model on glibc fails; a
    negative base with an odd exponent, pow(-2, 3) = -8."""
    for x, y in ((0.79, -3.45), (3.24, 0.54), (1.73, -1.45)):
        assert libs["atan2"][0](y, x) != libs["atan2"][1](y, x), (x, y)
        assert libs["pow"][0](x, y) != libs["pow"][1](x, y), (x, y)
    src = write_source(tmp_path, "polar.c", POLAR_KERNEL)
    res = cosim(src, "polar", tb=src, workdir=tmp_path / "cosim", pipeline=False)
    assert res.passed, res.summary()
    assert len(res.calls) == 2
    err = capsys.readouterr().err
    assert f"polar.c:{line_of(src, '= atan2(')}: warning: 'atan2' is computed by pyhls's libm" in err
    assert f"polar.c:{line_of(src, '= pow(')}: warning: 'pow' is computed by pyhls's libm" in err

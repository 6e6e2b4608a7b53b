"""Bit-exact checks of the FP reference models (hls.fpu.ref) against independent references:
the host's IEEE arithmetic through NumPy (binary32, binary64, binary16), apytypes for custom
formats and round-toward-zero, and an exact rational model (fractions.Fraction, written here
independently of hls.fpu) for what neither provides: fma, custom sqrt, flush-to-zero and
integer conversions of any width. Results are compared as bit patterns, except that any NaN
matches any NaN (and the models' NaNs must be the canonical quiet NaN)."""

from __future__ import annotations

import math
import zlib
from fractions import Fraction

import apytypes as apy
import numpy as np
import pytest

from hls.fpu import BFLOAT16, BINARY32, BINARY64, HALF, FPFormat, random_operands, ref

U64 = np.uint64
E6M9 = FPFormat(6, 9)
E10M30 = FPFormat(10, 30)
E4M3 = FPFormat(4, 3)
E5M2 = FPFormat(5, 2)
CUSTOM = [HALF, BFLOAT16, E6M9, E10M30, E4M3, E5M2]
HOST = {BINARY32: (np.float32, np.uint32), BINARY64: (np.float64, np.uint64), HALF: (np.float16, np.uint16)}
N_HOST = 100_000
N_APY = 30_000
N_EXACT = 1_500


def _rng(*key) -> np.random.Generator:
    """A generator seeded by the test's key (stable across runs, unlike hash())."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _is_nan(fmt: FPFormat, bits) -> np.ndarray:
    bits = np.asarray(bits, dtype=U64)
    return (bits & U64(fmt.sign_bit - 1)) > U64(fmt.inf())


def assert_same(fmt: FPFormat, got, want, *operands, what: str = "", canonical_nan: bool = True):
    """Equal bit patterns, any NaN equal to any NaN; the model's NaNs must be canonical."""
    got = np.asarray(got, dtype=U64).reshape(-1)
    want = np.asarray(want, dtype=U64).reshape(-1)
    gn, wn = _is_nan(fmt, got), _is_nan(fmt, want)
    bad = (gn != wn) | (~wn & (got != want))
    if canonical_nan:
        bad |= gn & (got != U64(fmt.qnan))
    if bad.any():
        idx = np.flatnonzero(bad)[:8]
        rows = [
            " ".join(f"{int(np.broadcast_to(op, got.shape)[i]):#x}" for op in operands)
            + f" -> got {int(got[i]):#x} want {int(want[i]):#x}"
            for i in idx
        ]
        pytest.fail(f"{what} {fmt}: {bad.sum()} of {got.size} differ, e.g.\n" + "\n".join(rows))


# --------------------------------------------------------------------------------------------
# An exact rational model, independent of hls.fpu's implementation.

NAN = "nan"


def _pow2(k: int) -> Fraction:
    return Fraction(1 << k) if k >= 0 else Fraction(1, 1 << -k)


def x_decode(fmt: FPFormat, bits: int, ftz: bool = False):
    """(kind, sign, magnitude) with kind 'num', 'inf' or 'nan'."""
    m = fmt.man_bits
    sign = (bits >> (fmt.width - 1)) & 1
    ef = (bits >> m) & fmt.exp_mask
    frac = bits & fmt.man_mask
    if ef == fmt.exp_mask:
        return ("nan" if frac else "inf"), sign, None
    if ef == 0:
        return "num", sign, (Fraction(0) if ftz else frac * _pow2(fmt.emin - m))
    return "num", sign, (frac + (1 << m)) * _pow2(ef - fmt.bias - m)


def x_round(fmt: FPFormat, sign: int, q: Fraction, rm: str, ftz: bool = False) -> int:
    """Encode sign * q (q >= 0) rounded to fmt."""
    sbit = sign << (fmt.width - 1)
    if q == 0:
        return sbit
    m = fmt.man_bits
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if _pow2(e) > q:
        e -= 1
    assert _pow2(e) <= q < _pow2(e + 1)
    if not ftz:
        e = max(e, fmt.emin)
    scaled = q / _pow2(e - m)
    n = math.floor(scaled)
    rest = scaled - n
    if rm == "rne" and (rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1)):
        n += 1
    if n == 1 << (m + 1):
        n >>= 1
        e += 1
    if ftz and e < fmt.emin:
        return sbit
    if e > fmt.emax:
        return sbit | (fmt.inf() if rm == "rne" else fmt.max_finite)
    if n < (1 << m):
        return sbit | n  # subnormal or zero
    return sbit | ((e + fmt.bias) << m) | (n - (1 << m))


def x_add(fmt, a, b, rm="rne", ftz=False):
    ka, sa, va = x_decode(fmt, a, ftz)
    kb, sb, vb = x_decode(fmt, b, ftz)
    if NAN in (ka, kb) or (ka == kb == "inf" and sa != sb):
        return fmt.qnan
    if ka == "inf" or kb == "inf":
        return fmt.inf(sa if ka == "inf" else sb)
    v = (-va if sa else va) + (-vb if sb else vb)
    if v == 0:
        return (sa & sb if va == vb == 0 else 0) << (fmt.width - 1)
    return x_round(fmt, int(v < 0), abs(v), rm, ftz)


def x_mul(fmt, a, b, rm="rne", ftz=False):
    ka, sa, va = x_decode(fmt, a, ftz)
    kb, sb, vb = x_decode(fmt, b, ftz)
    s = sa ^ sb
    if NAN in (ka, kb) or (ka == "inf" and vb == 0) or (kb == "inf" and va == 0):
        return fmt.qnan
    if "inf" in (ka, kb):
        return fmt.inf(s)
    return x_round(fmt, s, va * vb, rm, ftz)


def x_div(fmt, a, b, rm="rne", ftz=False):
    ka, sa, va = x_decode(fmt, a, ftz)
    kb, sb, vb = x_decode(fmt, b, ftz)
    s = sa ^ sb
    if NAN in (ka, kb) or ka == kb == "inf" or (va == 0 and vb == 0):
        return fmt.qnan
    if ka == "inf" or vb == 0:
        return fmt.inf(s)
    if kb == "inf":
        return s << (fmt.width - 1)
    return x_round(fmt, s, va / vb, rm, ftz)


def x_sqrt(fmt, a, rm="rne", ftz=False):
    ka, sa, va = x_decode(fmt, a, ftz)
    if ka == NAN or (sa and (ka == "inf" or va != 0)):
        return fmt.qnan
    if ka == "inf":
        return fmt.inf()
    if va == 0:
        return sa << (fmt.width - 1)
    # sqrt(n/d) with d a power of 4: isqrt of n * 4**k; an inexact root lies strictly between
    # r and r + 1, where r has far more bits than the format, so r + 1/2 rounds the same.
    n, d = va.numerator, va.denominator
    if d.bit_length() % 2 == 0:
        n, d = n * 2, d * 2
    k = 2 * fmt.man_bits + 10
    big = n << (2 * k)
    r = math.isqrt(big)
    root_den = (1 << k) * (1 << ((d.bit_length() - 1) // 2))
    q = Fraction(r, root_den) if r * r == big else Fraction(2 * r + 1, 2 * root_den)
    return x_round(fmt, 0, q, rm, ftz)


def x_fma(fmt, a, b, c, rm="rne", ftz=False):
    ka, sa, va = x_decode(fmt, a, ftz)
    kb, sb, vb = x_decode(fmt, b, ftz)
    kc, sc, vc = x_decode(fmt, c, ftz)
    sp = sa ^ sb
    if NAN in (ka, kb, kc) or (ka == "inf" and vb == 0) or (kb == "inf" and va == 0):
        return fmt.qnan
    if "inf" in (ka, kb):
        return fmt.qnan if (kc == "inf" and sc != sp) else fmt.inf(sp)
    if kc == "inf":
        return fmt.inf(sc)
    p = va * vb
    v = (-p if sp else p) + (-vc if sc else vc)
    if v == 0:
        return (sp & sc if p == vc == 0 else 0) << (fmt.width - 1)
    return x_round(fmt, int(v < 0), abs(v), rm, ftz)


def x_convert(src, dst, a, rm="rne", ftz=False):
    k, s, v = x_decode(src, a, ftz)
    if k == NAN:
        return dst.qnan
    if k == "inf":
        return dst.inf(s)
    return x_round(dst, s, v, rm, ftz)


def x_to_int(fmt, a, width, signed):
    k, s, v = x_decode(fmt, a)
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    if k == NAN:
        return 0
    t = (hi if not s else lo) if k == "inf" else math.trunc(-v if s else v)
    return min(max(t, lo), hi) & ((1 << width) - 1)


def x_from_int(fmt, x, width, signed, rm="rne", ftz=False):
    x &= (1 << width) - 1
    if signed and x >> (width - 1):
        x -= 1 << width
    return x_round(fmt, int(x < 0), Fraction(abs(x)), rm, ftz)


def exact_map(fn, *arrays) -> np.ndarray:
    return np.array([fn(*(int(v) for v in vals)) for vals in zip(*arrays, strict=True)], dtype=U64)


# --------------------------------------------------------------------------------------------
# operands


def corner_values(fmt: FPFormat) -> np.ndarray:
    """±0, smallest/largest subnormal and normal, ±inf, qNaN, sNaN, 1, neighbours of 1 and
    of 2, values near the integer ranges, and the halfway points between neighbours."""
    m, s = fmt.man_bits, fmt.sign_bit
    one = fmt.bias << m
    pos = [
        0, 1, fmt.man_mask, 1 << m, (1 << m) | 1, fmt.max_finite, fmt.max_finite - 1,
        fmt.inf(), fmt.qnan, fmt.inf() | 1, fmt.qnan | 1,
        one, one + 1, one - 1, one + (1 << m), one + (1 << m) - 1, (1 << (m - 1)), 2,
    ]  # fmt: skip
    for e in (7, 8, 15, 16, 31, 32, 52, 53, 63, 64):  # 2**e and neighbours (integer limits)
        if fmt.bias + e < fmt.exp_mask:
            base = (fmt.bias + e) << m
            pos += [base, base - 1, base + 1]
    pos = np.array(sorted(set(pos)), dtype=U64)
    return np.concatenate([pos, pos | U64(s)])


def operands(fmt: FPFormat, n: int, arity: int, *key, max_corners: int | None = None) -> list[np.ndarray]:
    """Every pair (triple) of corner values, or a random ``max_corners`` of them, then ``n``
    random operands (hls.fpu.random_operands)."""
    rng = _rng(fmt, arity, *key)
    corners = corner_values(fmt)
    grids = [g.reshape(-1) for g in np.meshgrid(*([corners] * arity), indexing="ij")]
    if max_corners is None and arity == 3:
        max_corners = 8000
    if max_corners is not None and grids[0].size > max_corners:
        pick = rng.choice(grids[0].size, max_corners, replace=False)
        grids = [g[pick] for g in grids]
    rand = random_operands(fmt, n, arity, rng)
    return [np.concatenate([f, r]) for f, r in zip(grids, rand, strict=True)]


def host(fmt: FPFormat, bits: np.ndarray) -> np.ndarray:
    ftype, utype = HOST[fmt]
    return bits.astype(utype).view(ftype)


def host_bits(values: np.ndarray) -> np.ndarray:
    utype = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[values.dtype.type]
    return values.view(utype).astype(U64)


def apy_array(fmt: FPFormat, bits: np.ndarray) -> apy.APyFloatArray:
    return apy.APyFloatArray.from_bits(bits, fmt.exp_bits, fmt.man_bits)


def apy_bits(arr: apy.APyFloatArray) -> np.ndarray:
    return np.asarray(arr.to_bits(numpy=True), dtype=U64)


APY_MODE = {"rne": apy.QuantizationMode.TIES_EVEN, "rtz": apy.QuantizationMode.TO_ZERO}


# --------------------------------------------------------------------------------------------
# FPFormat


def test_format_properties():
    f = BINARY32
    assert (f.width, f.bias, f.emax, f.emin) == (32, 127, 127, -126)
    assert (f.exp_mask, f.man_mask, f.sign_bit) == (0xFF, 0x7FFFFF, 0x8000_0000)
    assert (f.qnan, f.inf(), f.inf(1), f.max_finite) == (0x7FC0_0000, 0x7F80_0000, 0xFF80_0000, 0x7F7F_FFFF)
    assert (f.name, str(f)) == ("e8m23", "e8m23")
    d = BINARY64
    assert (d.width, d.bias, d.emin, d.qnan) == (64, 1023, -1022, 0x7FF8_0000_0000_0000)
    assert (HALF.qnan, HALF.inf(1), BFLOAT16.qnan) == (0x7E00, 0xFC00, 0x7FC0)
    assert FPFormat(5, 10) == HALF and hash(FPFormat(5, 10)) == hash(HALF)


@pytest.mark.parametrize(
    "text,fmt",
    [("e8m23", BINARY32), ("binary32", BINARY32), ("float", BINARY32), ("binary64", BINARY64),
     ("double", BINARY64), ("half", HALF), ("bfloat16", BFLOAT16), ("E6M9", E6M9), (" e5m2 ", E5M2)],
)  # fmt: skip
def test_format_parse(text, fmt):
    assert FPFormat.parse(text) == fmt
    assert FPFormat.parse(fmt.name) == fmt


@pytest.mark.parametrize(
    "text", ["", "e8", "m23", "e8m", "fp8", "e1m5", "e16m10", "e11m53", "e15m49", "e8m0"]
)
def test_format_parse_errors(text):
    with pytest.raises(ValueError, match="must be"):
        FPFormat.parse(text)


def test_format_limits():
    FPFormat(15, 48)
    FPFormat(2, 1)
    for e, m in ((1, 5), (16, 5), (5, 0), (5, 53), (12, 52), (8, 23.0)):
        with pytest.raises(ValueError):
            FPFormat(e, m)


# --------------------------------------------------------------------------------------------
# arithmetic against the host (binary32, binary64, binary16)

HOST_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}


@pytest.mark.parametrize("fmt", list(HOST), ids=str)
@pytest.mark.parametrize("op", list(HOST_BINARY))
def test_binary_op_vs_host(fmt, op):
    a, b = operands(fmt, N_HOST, 2, op)
    with np.errstate(all="ignore"):
        want = host_bits(HOST_BINARY[op](host(fmt, a), host(fmt, b)))
    assert_same(fmt, getattr(ref, op)(fmt, a, b), want, a, b, what=op)


@pytest.mark.parametrize("fmt", list(HOST), ids=str)
def test_sqrt_vs_host(fmt):
    (a,) = operands(fmt, N_HOST, 1, "sqrt")
    # Positive operands are the interesting ones.
    a = np.concatenate([a, a & U64(fmt.sign_bit - 1)])
    with np.errstate(all="ignore"):
        want = host_bits(np.sqrt(host(fmt, a)))
    assert_same(fmt, ref.sqrt(fmt, a), want, a, what="sqrt")


def test_rounding_ties_binary32():
    f = BINARY32
    one = 0x3F80_0000
    # 1 + 2**-24 is a tie between 1 and 1 + 2**-23 (even: 1); 1 + 3 * 2**-24 rounds up to even.
    cases = [
        (one, 0x3380_0000, one),  # 1 + 2**-24
        (one + 1, 0x3380_0000, one + 2),  # (1 + 2**-23) + 2**-24 -> 1 + 2**-22
        (0x4B80_0000, 0x3F80_0000, 0x4B80_0000),  # 2**24 + 1 -> 2**24
        (0x4B80_0001, 0x3F80_0000, 0x4B80_0002),  # (2**24 + 2) + 1 -> 2**24 + 4
    ]
    for a, b, want in cases:
        assert int(ref.add(f, a, b)) == want
    # (1 + 2**-12)**2 = 1 + 2**-11 + 2**-24: tie, rounds to even 1 + 2**-11; rtz truncates.
    x = one | (1 << 11)
    assert int(ref.mul(f, x, x)) == one | (1 << 12)
    # (1 + 2**-12 + 2**-23)(1 + 2**-12) = 1 + 2**-11 + 2**-23 + 2**-24 + 2**-35: above the tie.
    assert int(ref.mul(f, x | 1, x)) == (one | (1 << 12)) + 2
    assert int(ref.mul(f, x | 1, x, rm="rtz")) == (one | (1 << 12)) + 1
    # Overflow: rne to inf, rtz to max finite; underflow to subnormal and to zero.
    assert int(ref.add(f, f.max_finite, f.max_finite)) == f.inf()
    assert int(ref.add(f, f.max_finite, f.max_finite, rm="rtz")) == f.max_finite
    assert int(ref.mul(f, 0x0080_0000, 0x3F00_0000)) == 0x0040_0000  # 2**-126 / 2
    assert int(ref.mul(f, 1, 0x3F00_0000)) == 0  # 2**-150: tie to even zero
    assert int(ref.mul(f, 1, 0x3F00_0001)) == 1  # just above the tie
    assert int(ref.mul(f, 0x8000_0001, 0x3F00_0000)) == 0x8000_0000
    # Rounding out of the subnormal range into the smallest normal number.
    assert int(ref.add(f, 0x007F_FFFF, 0x0000_0001)) == 0x0080_0000
    assert int(ref.mul(f, 0x00FF_FFFF, 0x3F00_0000)) == 0x0080_0000
    # Signs of exact zeros.
    assert int(ref.add(f, one, one | f.sign_bit)) == 0
    assert int(ref.add(f, one, one | f.sign_bit, rm="rtz")) == 0
    assert int(ref.sub(f, 0x8000_0000, 0)) == 0x8000_0000
    assert int(ref.add(f, 0x8000_0000, 0x8000_0000)) == 0x8000_0000
    assert int(ref.add(f, 0x8000_0000, 0)) == 0


# --------------------------------------------------------------------------------------------
# arithmetic against apytypes (custom formats, round toward zero)

APY_OPS = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
           "div": lambda x, y: x / y}  # fmt: skip


@pytest.mark.parametrize(
    "fmt,rm",
    [(f, rm) for f in [*CUSTOM, BINARY32, BINARY64] for rm in ("rne", "rtz") if rm == "rtz" or f not in HOST],
    ids=str,
)
@pytest.mark.parametrize("op", list(APY_OPS))
def test_binary_op_vs_apytypes(fmt, op, rm):
    a, b = operands(fmt, N_APY, 2, op, rm)
    with apy.APyFloatQuantizationContext(APY_MODE[rm]):
        res = APY_OPS[op](apy_array(fmt, a), apy_array(fmt, b))
    assert (res.exp_bits, res.man_bits, res.bias) == (fmt.exp_bits, fmt.man_bits, fmt.bias)
    assert_same(fmt, getattr(ref, op)(fmt, a, b, rm=rm), apy_bits(res), a, b, what=f"{op} {rm}")


# --------------------------------------------------------------------------------------------
# against the exact rational model: fma, sqrt of custom formats, flush-to-zero

EXACT_FORMATS = [BINARY32, BINARY64, HALF, BFLOAT16, E6M9, E10M30, E4M3, E5M2]


@pytest.mark.parametrize("rm", ["rne", "rtz"])
@pytest.mark.parametrize("fmt", EXACT_FORMATS, ids=str)
def test_fma_exact(fmt, rm):
    a, b, c = operands(fmt, N_EXACT, 3, "fma", rm, max_corners=N_EXACT)
    want = exact_map(lambda x, y, z: x_fma(fmt, x, y, z, rm), a, b, c)
    assert_same(fmt, ref.fma(fmt, a, b, c, rm=rm), want, a, b, c, what=f"fma {rm}")


def test_fma_single_rounding_binary32():
    # a*b+c rounded twice differs: (1 + 2**-23) * (1 - 2**-24) - 1 = 2**-23 - 2**-24 - 2**-47.
    f = BINARY32
    a, b, c = 0x3F80_0001, 0x3F7F_FFFF, 0xBF80_0000
    assert int(ref.fma(f, a, b, c)) == x_fma(f, a, b, c)
    two_roundings = host_bits(np.float32(host(f, np.array([a], U64)) * host(f, np.array([b], U64))
                                         + host(f, np.array([c], U64))))  # fmt: skip
    assert int(ref.fma(f, a, b, c)) != int(two_roundings[0])
    # inf * 0 + qNaN-free c is NaN; inf + -inf is NaN; 0 * x + -0 keeps -0 only if both are -0.
    assert _is_nan(f, ref.fma(f, f.inf(), 0, one := 0x3F80_0000))
    assert _is_nan(f, ref.fma(f, f.inf(), one, f.inf(1)))
    assert int(ref.fma(f, 0x8000_0000, one, 0x8000_0000)) == 0x8000_0000
    assert int(ref.fma(f, 0, one, 0x8000_0000)) == 0


@pytest.mark.parametrize("rm", ["rne", "rtz"])
@pytest.mark.parametrize("fmt", EXACT_FORMATS, ids=str)
def test_sqrt_exact(fmt, rm):
    (a,) = operands(fmt, N_EXACT, 1, "sqrt", rm, max_corners=N_EXACT)
    a = np.concatenate([a, a & U64(fmt.sign_bit - 1)])
    want = exact_map(lambda x: x_sqrt(fmt, x, rm), a)
    assert_same(fmt, ref.sqrt(fmt, a, rm=rm), want, a, what=f"sqrt {rm}")


@pytest.mark.parametrize("fmt", [FPFormat(2, 1), FPFormat(3, 2)], ids=str)
def test_exhaustive_tiny_formats(fmt):
    """Every pair (for fma: every triple of e2m1) of encodings, both modes, with and without
    ftz, against the exact model: the narrowest formats exercise every special path."""
    vals = np.arange(1 << fmt.width, dtype=U64)
    a, b = (g.reshape(-1) for g in np.meshgrid(vals, vals, indexing="ij"))
    for rm in ("rne", "rtz"):
        for ftz in (False, True):
            for op, model in ((ref.add, x_add), (ref.mul, x_mul), (ref.div, x_div)):
                want = exact_map(lambda x, y: model(fmt, x, y, rm, ftz), a, b)
                assert_same(fmt, op(fmt, a, b, rm=rm, ftz=ftz), want, a, b, what=f"{op.__name__} {rm} {ftz}")
            want = exact_map(lambda x: x_sqrt(fmt, x, rm, ftz), vals)
            assert_same(fmt, ref.sqrt(fmt, vals, rm=rm, ftz=ftz), want, vals, what=f"sqrt {rm} {ftz}")
            if fmt.width <= 4:
                t = [g.reshape(-1) for g in np.meshgrid(vals, vals, vals, indexing="ij")]
                want = exact_map(lambda x, y, z: x_fma(fmt, x, y, z, rm, ftz), *t)
                assert_same(fmt, ref.fma(fmt, *t, rm=rm, ftz=ftz), want, *t, what=f"fma {rm} {ftz}")


def test_exact_model_against_host():
    """The rational model itself agrees with the host on binary32 (it arbitrates elsewhere)."""
    f = BINARY32
    a, b = operands(f, 500, 2, "model", max_corners=500)
    with np.errstate(all="ignore"):
        fa, fb = host(f, a), host(f, b)
        for x_op, h_op in ((x_add, np.add), (x_mul, np.multiply), (x_div, np.divide)):
            want = host_bits(h_op(fa, fb))
            assert_same(f, exact_map(lambda x, y: x_op(f, x, y), a, b), want, a, b, what=x_op.__name__)
        assert_same(f, exact_map(lambda x: x_sqrt(f, x), a), host_bits(np.sqrt(fa)), a, what="x_sqrt")


FTZ_OPS = {
    "add": (2, x_add), "sub": (2, lambda f, x, y, rm, ftz: x_add(f, x, y ^ f.sign_bit, rm, ftz)),
    "mul": (2, x_mul), "div": (2, x_div), "sqrt": (1, x_sqrt), "fma": (3, x_fma),
}  # fmt: skip


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64, E5M2, E6M9], ids=str)
@pytest.mark.parametrize("op", list(FTZ_OPS))
def test_ftz_exact(fmt, op):
    arity, model = FTZ_OPS[op]
    ops = operands(fmt, 800, arity, op, "ftz", max_corners=800)
    for rm in ("rne", "rtz"):
        want = exact_map(lambda *xs: model(fmt, *xs, rm=rm, ftz=True), *ops)
        got = getattr(ref, op)(fmt, *ops, rm=rm, ftz=True)
        assert_same(fmt, got, want, *ops, what=f"{op} {rm} ftz")
        # No subnormal ever comes out.
        efield = (got >> U64(fmt.man_bits)) & U64(fmt.exp_mask)
        assert not ((efield == 0) & ((got & U64(fmt.man_mask)) != 0)).any()


def test_ftz_boundary_binary32():
    f = BINARY32
    # Subnormal inputs read as signed zero.
    assert int(ref.add(f, 1, 0, ftz=True)) == 0
    assert int(ref.mul(f, 0x8000_0001, 0x3F80_0000, ftz=True)) == 0x8000_0000
    # 2**-126 * (1 - 2**-24) = (2**-126 - 2**-150): with unbounded exponent it rounds (tie to
    # even) to 2**-126, so it is not tiny after rounding: kept as the smallest normal.
    x = (0x3F7F_FFFF, 0x0080_0001)  # (1 - 2**-24) * 2**-126 * (1 + 2**-23)
    assert int(ref.mul(f, *x, ftz=True)) == x_mul(f, *x, ftz=True) == 0x0080_0000
    # Half of the smallest normal is tiny: flushed (and is a subnormal without ftz).
    assert int(ref.mul(f, 0x0080_0000, 0x3F00_0000, ftz=True)) == 0
    assert int(ref.mul(f, 0x0080_0000, 0x3F00_0000)) == 0x0040_0000


# --------------------------------------------------------------------------------------------
# comparisons, min/max, sign operations, classify


def _host_fcmp(pred: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    uno = np.isnan(x) | np.isnan(y)
    rel = {"eq": x == y, "ne": (x < y) | (x > y), "gt": x > y, "ge": x >= y, "lt": x < y,
           "le": x <= y}  # fmt: skip
    if pred in ("false", "true"):
        return np.full(x.shape, pred == "true")
    if pred == "ord":
        return ~uno
    if pred == "uno":
        return uno
    return rel[pred[1:]] & ~uno if pred[0] == "o" else rel[pred[1:]] | uno


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64, HALF, BFLOAT16, E6M9, E10M30, E4M3, E5M2], ids=str)
def test_fcmp(fmt):
    a, b = operands(fmt, 20_000, 2, "fcmp")
    # Many equal pairs, including +0 / -0.
    a = np.concatenate([a, a, a & U64(fmt.sign_bit)])
    b = np.concatenate([b, a[: b.size], (a[: b.size] & U64(fmt.sign_bit)) ^ U64(fmt.sign_bit)])
    if fmt in HOST:
        x, y = host(fmt, a), host(fmt, b)
    else:  # values through apytypes (exact in binary64 for these formats)
        x, y = apy_array(fmt, a).to_numpy(), apy_array(fmt, b).to_numpy()
    with np.errstate(all="ignore"):
        for pred in ref.FCMP_PREDICATES:
            got = ref.fcmp(fmt, pred, a, b)
            want = _host_fcmp(pred, x, y)
            assert got.dtype == bool
            bad = np.flatnonzero(got != want)
            assert bad.size == 0, f"fcmp {pred} {fmt}: {hex(a[bad[0]])} {hex(b[bad[0]])} -> {got[bad[0]]}"


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64, HALF, BFLOAT16, E6M9, E4M3], ids=str)
def test_minnum_maxnum(fmt):
    a, b = operands(fmt, 20_000, 2, "minmax")
    a = np.concatenate([a, a, U64(0), U64(fmt.sign_bit)], axis=None)
    b = np.concatenate([b, a[: b.size], U64(fmt.sign_bit), U64(0)], axis=None)
    if fmt in HOST:
        with np.errstate(invalid="ignore"):  # sNaN
            x, y = host(fmt, a).astype(np.float64), host(fmt, b).astype(np.float64)
    else:
        x, y = apy_array(fmt, a).to_numpy(), apy_array(fmt, b).to_numpy()
    zeros = (x == 0) & (y == 0)
    # Both zero: -0 if either is -0 (minnum), +0 if either is +0 (maxnum).
    for fn, host_fn, zero in ((ref.minnum, np.fmin, a | b), (ref.maxnum, np.fmax, a & b)):
        got = fn(fmt, a, b)
        value = host_fn(x, y)
        # The result must be an operand's encoding with the host's value.
        want = np.where(np.isnan(value), U64(fmt.qnan), np.where(value == x, a, b))
        want = np.where(np.isnan(x) & ~np.isnan(y), b, want)
        want = np.where(zeros, zero, want)
        assert_same(fmt, got, want, a, b, what=fn.__name__)
        nonnan = ~np.isnan(value)
        assert np.all((got[nonnan] == a[nonnan]) | (got[nonnan] == b[nonnan]) | zeros[nonnan])


@pytest.mark.parametrize("fmt", list(HOST), ids=str)
def test_sign_ops_vs_host(fmt):
    a, b = operands(fmt, 20_000, 2, "sign")
    x, y = host(fmt, a), host(fmt, b)
    for got, want in (
        (ref.neg(fmt, a), host_bits(-x)),
        (ref.fabs(fmt, a), host_bits(np.abs(x))),
        (ref.copysign(fmt, a, b), host_bits(np.copysign(x, y))),
    ):
        np.testing.assert_array_equal(got, want)  # NaN payloads kept bit for bit


@pytest.mark.parametrize("fmt", CUSTOM, ids=str)
def test_sign_ops_custom(fmt):
    a, b = operands(fmt, 5_000, 2, "sign")
    s = fmt.sign_bit
    for got, fn in (
        (ref.neg(fmt, a), lambda x, y: x ^ s),
        (ref.fabs(fmt, a), lambda x, y: x & ~s),
        (ref.copysign(fmt, a, b), lambda x, y: (x & ~s) | (y & s)),
    ):
        np.testing.assert_array_equal(got, exact_map(fn, a, b))


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64], ids=str)
def test_classify_vs_host(fmt):
    (a,) = operands(fmt, 20_000, 1, "classify")
    x = host(fmt, a)
    neg = np.signbit(x)
    quiet = (a & U64(1 << (fmt.man_bits - 1))) != 0
    sub = (x != 0) & (np.abs(x) < np.finfo(x.dtype).tiny)
    classes = [
        (np.isnan(x) & ~quiet, "snan"), (np.isnan(x) & quiet, "qnan"),
        (np.isinf(x) & neg, "ninf"), (np.isinf(x) & ~neg, "pinf"),
        (sub & neg, "nsub"), (sub & ~neg, "psub"),
        ((x == 0) & neg, "nzero"), ((x == 0) & ~neg, "pzero"),
        (np.isfinite(x) & ~sub & (x != 0) & neg, "nnorm"), (np.isfinite(x) & ~sub & (x != 0) & ~neg, "pnorm"),
    ]  # fmt: skip
    want = np.zeros(a.shape, dtype=np.uint16)
    for mask, name in classes:
        want |= np.where(mask, np.uint16(ref.FPCLASS[name]), np.uint16(0))
    np.testing.assert_array_equal(ref.classify(fmt, a), want)


# --------------------------------------------------------------------------------------------
# conversions

INT_WIDTHS = [1, 2, 7, 8, 16, 31, 32, 33, 53, 63, 64]
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def _int_operands(fmt: FPFormat, n: int, *key) -> np.ndarray:
    """Encodings biased to magnitudes around the integer ranges (exponents 0..65)."""
    rng = _rng(fmt, "int", *key)
    (rand,) = random_operands(fmt, n, 1, rng)
    exp = np.minimum(fmt.bias + rng.integers(-2, 66, n), fmt.exp_mask).astype(U64)
    frac = rng.integers(0, fmt.man_mask, n, dtype=U64, endpoint=True)
    frac = np.where(rng.random(n) < 0.3, frac & ~U64(0xFF), frac)  # near integers
    near = (rng.integers(0, 2, n).astype(U64) << U64(fmt.width - 1)) | (exp << U64(fmt.man_bits)) | frac
    return np.concatenate([corner_values(fmt), rand, near])


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64], ids=str)
@pytest.mark.parametrize("itype", INT_TYPES)
def test_to_int_in_range_vs_host(fmt, itype):
    a = _int_operands(fmt, 50_000, itype)
    info = np.iinfo(itype)
    with np.errstate(all="ignore"):
        x = host(fmt, a).astype(np.float64)
        t = np.trunc(x)
        # in range of the integer type (float64 bounds are exact: powers of two)
        ok = np.isfinite(t) & (t >= float(info.min)) & (t < float(info.max) + 1.0)
    x_ok = host(fmt, a[ok])
    want = x_ok.astype(itype).astype(np.int64 if info.min < 0 else np.uint64).astype(U64)
    want &= U64((1 << info.bits) - 1)
    got = ref.to_int(fmt, a[ok], info.bits, info.min < 0)
    np.testing.assert_array_equal(got, want)
    assert ok.sum() > 1000 and (~ok).sum() > 100


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64, HALF, E6M9, E10M30, E4M3], ids=str)
@pytest.mark.parametrize("signed", [True, False])
def test_to_int_saturating_exact(fmt, signed):
    a = _int_operands(fmt, 500, signed)
    for width in INT_WIDTHS:
        want = exact_map(lambda x: x_to_int(fmt, x, width, signed), a)
        got = ref.to_int(fmt, a, width, signed)
        np.testing.assert_array_equal(got, want, err_msg=f"width {width} signed {signed}")


def test_to_int_limits():
    f = BINARY32
    ff = lambda v: int(ref.from_float(f, v))  # noqa: E731
    assert int(ref.to_int(f, ff(-2.0**31), 32, True)) == 0x8000_0000
    assert int(ref.to_int(f, ff(-2.0**31 - 256), 32, True)) == 0x8000_0000  # saturates
    assert int(ref.to_int(f, ff(2.0**31), 32, True)) == 0x7FFF_FFFF
    assert int(ref.to_int(f, ff(2.0**31 - 128), 32, True)) == 0x7FFF_FF80
    assert int(ref.to_int(f, ff(2.0**32), 32, False)) == 0xFFFF_FFFF
    assert int(ref.to_int(f, ff(-0.99), 32, False)) == 0
    assert int(ref.to_int(f, ff(-1.0), 32, False)) == 0  # saturates to 0
    assert int(ref.to_int(f, ff(-1.5), 8, True)) == 0xFF
    assert int(ref.to_int(f, ff(-129.0), 8, True)) == 0x80
    assert int(ref.to_int(f, f.qnan, 32, True)) == 0
    assert int(ref.to_int(f, f.inf(1), 64, True)) == 1 << 63
    assert int(ref.to_int(f, f.inf(), 64, False)) == (1 << 64) - 1
    assert int(ref.to_int(BINARY64, int(ref.from_float(BINARY64, 2.0**63)), 64, True)) == (1 << 63) - 1
    assert int(ref.to_int(BINARY64, int(ref.from_float(BINARY64, -(2.0**63))), 64, True)) == 1 << 63


def _int_inputs(width: int, n: int, *key) -> np.ndarray:
    rng = _rng("ints", width, *key)
    top = (1 << width) - 1
    fixed = [0, 1, 2, 3, top, top - 1, 1 << (width - 1), (1 << (width - 1)) - 1, (1 << (width - 1)) + 1]
    rand = rng.integers(0, top, n, dtype=U64, endpoint=True)
    # Short random integers and rounding ties: (2k+1) * 2**j.
    bits = rng.integers(1, width + 1, n).astype(U64)
    short = rand & ((U64(1) << bits) - U64(1)) if width < 64 else rand >> (U64(64) - bits)
    return np.concatenate([np.array(fixed, dtype=U64) & U64(top), rand, short])


# NumPy converts 64-bit integers to half through binary64 (double rounding): not a reference.
@pytest.mark.parametrize(
    "fmt,itype",
    [(f, t) for f in (BINARY32, BINARY64, HALF) for t in INT_TYPES if f != HALF or np.iinfo(t).bits <= 32],
    ids=str,
)
def test_from_int_vs_host(fmt, itype):
    info = np.iinfo(itype)
    x = _int_inputs(info.bits, 50_000, fmt, itype)
    with np.errstate(over="ignore"):
        want = host_bits(x.astype(np.uint64).astype(itype).astype(HOST[fmt][0]))
    assert_same(fmt, ref.from_int(fmt, x, info.bits, info.min < 0), want, x, what="from_int")


@pytest.mark.parametrize("fmt", [BINARY32, BINARY64, HALF, BFLOAT16, E6M9, E10M30, E4M3, E5M2], ids=str)
def test_from_int_exact(fmt):
    for width in INT_WIDTHS:
        x = _int_inputs(width, 120, fmt)
        for signed in (True, False):
            for rm in ("rne", "rtz"):
                want = exact_map(lambda v: x_from_int(fmt, v, width, signed, rm), x)
                got = ref.from_int(fmt, x, width, signed, rm=rm)
                assert_same(fmt, got, want, x, what=f"from_int w{width} signed={signed} {rm}")


HOST_CONVERSIONS = [(BINARY64, BINARY32), (BINARY32, BINARY64), (BINARY64, HALF), (HALF, BINARY64),
                    (BINARY32, HALF), (HALF, BINARY32)]  # fmt: skip


@pytest.mark.parametrize("src,dst", HOST_CONVERSIONS, ids=lambda f: str(f))
def test_convert_vs_host(src, dst):
    (a,) = operands(src, N_HOST, 1, "convert", dst)
    # Also values near dst's range ends and rounding points, from dst encodings.
    (b,) = operands(dst, N_HOST // 4, 1, "convert-back", src)
    a = np.concatenate([a, ref.convert(dst, src, b)])
    with np.errstate(all="ignore"):
        want = host_bits(host(src, a).astype(HOST[dst][0]))
    assert_same(dst, ref.convert(src, dst, a), want, a, what=f"convert {src}->{dst}")


CUSTOM_CONVERSION_FORMATS = [BINARY64, BINARY32, HALF, BFLOAT16, E6M9, E10M30, E4M3, E5M2]


@pytest.mark.parametrize("rm", ["rne", "rtz"])
@pytest.mark.parametrize("src", CUSTOM_CONVERSION_FORMATS, ids=str)
def test_convert_vs_apytypes(src, rm):
    """apytypes 0.5.1's casts misround some results at the subnormal boundary (e5m2 0x1f to
    e4m3 gives 0x8, the exact answer is the tie 3.5 ulps -> 0x4; e5m2 0x2 to half gives 0
    in arrays; bfloat16 subnormals widen to twice their value), so where it disagrees the exact
    rational model decides; such disagreements must stay at the subnormal boundary."""
    (a,) = operands(src, 10_000, 1, "convert", rm)
    for dst in CUSTOM_CONVERSION_FORMATS:
        want = apy_bits(apy_array(src, a).cast(dst.exp_bits, dst.man_bits, dst.bias, APY_MODE[rm]))
        got = ref.convert(src, dst, a, rm=rm)
        differ = np.flatnonzero((got != want) & ~(_is_nan(dst, got) & _is_nan(dst, want)))
        tiny = lambda bits: (bits & U64(dst.sign_bit - 1)) <= U64(2 << dst.man_bits)  # noqa: E731
        assert np.all(tiny(got[differ]) | tiny(want[differ])), f"{src}->{dst}: {a[differ][:4]}"
        want[differ] = exact_map(lambda x: x_convert(src, dst, x, rm), a[differ])
        assert_same(dst, got, want, a, what=f"convert {src}->{dst} {rm}")


@pytest.mark.parametrize("src,dst", [(BINARY64, E5M2), (BINARY32, E6M9), (E6M9, BINARY32), (E10M30, HALF),
                                     (HALF, BFLOAT16), (FPFormat(15, 48), BINARY64)], ids=str)  # fmt: skip
def test_convert_exact(src, dst):
    (a,) = operands(src, N_EXACT, 1, "convert-exact", dst, max_corners=N_EXACT)
    for rm in ("rne", "rtz"):
        for ftz in (False, True):
            want = exact_map(lambda x: x_convert(src, dst, x, rm, ftz), a)
            assert_same(dst, ref.convert(src, dst, a, rm=rm, ftz=ftz), want, a, what=f"{rm} ftz={ftz}")


@pytest.mark.parametrize("fmt", CUSTOM_CONVERSION_FORMATS, ids=str)
def test_float_roundtrip(fmt):
    (a,) = operands(fmt, 20_000, 1, "roundtrip")
    values = ref.to_float(fmt, a)
    assert values.dtype == np.float64
    np.testing.assert_array_equal(np.isnan(values), _is_nan(fmt, a))
    if fmt != BINARY64:  # exact values, so they come back unchanged (NaN canonical)
        num = ~np.isnan(values)
        np.testing.assert_array_equal(values[num], apy_array(fmt, a).to_numpy()[num])
    assert_same(fmt, ref.from_float(fmt, values), a, a, what="roundtrip")
    if fmt in HOST:
        x = np.random.default_rng(5).standard_normal(1000) * 10.0 ** np.arange(-20, 20, 0.04)
        with np.errstate(all="ignore"):
            assert_same(fmt, ref.from_float(fmt, x), host_bits(x.astype(HOST[fmt][0])), what="from_float")


# --------------------------------------------------------------------------------------------
# API behaviour


def test_api_shapes_and_errors():
    f = BINARY32
    one = 0x3F80_0000
    r = ref.add(f, one, one)
    assert isinstance(r, np.ndarray) and r.shape == () and r.dtype == U64 and int(r) == 0x4000_0000
    r = ref.add(f, np.full((2, 3), one, dtype=np.uint32), one)
    assert r.shape == (2, 3) and np.all(r == 0x4000_0000)
    assert ref.fcmp(f, "oeq", [one, 0], one).tolist() == [True, False]
    assert int(ref.add(f, one | (0xABC << 32), one)) == 0x4000_0000  # high bits ignored
    assert int(ref.fma(f, one, one, [one])[0]) == 0x4000_0000
    with pytest.raises(ValueError, match="rounding mode"):
        ref.add(f, one, one, rm="rup")
    with pytest.raises(ValueError, match="predicate"):
        ref.fcmp(f, "eq", one, one)
    with pytest.raises(ValueError, match="width"):
        ref.to_int(f, one, 65, True)
    with pytest.raises(TypeError, match="bit patterns"):
        ref.add(f, 1.0, one)
    ref.add(f, np.array([], dtype=U64), one)

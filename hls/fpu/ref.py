"""Bit-exact, vectorised reference models of the floating-point operations pyhls generates
hardware for, in any :class:`~hls.fpu.FPFormat`.

These models are the contract between the FP unit generators, their tests and the
co-simulation golden model. Conventions shared by every function:

* Operands and results are ``np.uint64`` arrays of encodings (the low ``fmt.width`` bits;
  higher bits of the inputs are ignored). Python ints, NumPy scalars and integer arrays are
  accepted and broadcast together; the result has the broadcast shape.
* ``rm`` is ``"rne"`` (round to nearest, ties to even) or ``"rtz"`` (round toward zero).
  Overflow gives infinity under ``rne`` and the largest finite number under ``rtz``.
* Subnormals are supported unless ``ftz=True``. Then subnormal *inputs* are read as zero of
  the same sign, and a *result* is flushed to zero of the same sign when it is tiny after
  rounding, i.e. when its value rounded to ``man_bits + 1`` significant bits with an
  unbounded exponent range is below the smallest normal number in magnitude (IEEE 754's
  "tininess after rounding", as x86 MXCSR.FTZ does; it is what a datapath without subnormal
  logic computes). A value that rounds up to the smallest normal number is not flushed.
* Every NaN result is the canonical quiet NaN ``fmt.qnan`` (sign 0, exponent all ones, fraction
  MSB set); only the bit operations :func:`neg`, :func:`fabs` and :func:`copysign` pass NaN
  payloads through. Signalling and quiet NaN inputs behave alike (no exception flags are
  modelled).
* An exact zero sum has sign + unless both addends are -0 (IEEE 754 6.3 for both modes).

Algorithm: operands are decoded to (sign, exponent of the significand's LSB, integer
significand); each operation computes its result exactly or to at least ``man_bits + 3``
significant bits plus a sticky bit (alignment shifts for add and fma "jam" the shifted-out
bits into the LSB; division is integer long division and square root an integer square root,
both with a remainder-is-non-zero sticky bit), and one shared :func:`_round_pack` rounds,
handles overflow and underflow and packs. Products of 53-bit significands use two 64-bit
limbs (:mod:`hls.fpu._wide`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _wide as w
from ._format import BINARY64, FPFormat

__all__ = [
    "ROUNDING_MODES",
    "FCMP_PREDICATES",
    "FPCLASS",
    "add",
    "sub",
    "mul",
    "div",
    "sqrt",
    "fma",
    "fcmp",
    "minnum",
    "maxnum",
    "neg",
    "fabs",
    "copysign",
    "to_int",
    "from_int",
    "convert",
    "from_float",
    "to_float",
    "classify",
]

U64 = np.uint64
ROUNDING_MODES = ("rne", "rtz")
FCMP_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip

#: Bits of the :func:`classify` result, as in LLVM's ``llvm.is.fpclass`` test mask.
FPCLASS = {
    "snan": 1 << 0,
    "qnan": 1 << 1,
    "ninf": 1 << 2,
    "nnorm": 1 << 3,
    "nsub": 1 << 4,
    "nzero": 1 << 5,
    "pzero": 1 << 6,
    "psub": 1 << 7,
    "pnorm": 1 << 8,
    "pinf": 1 << 9,
}

# Exponent given to a zero significand so that it aligns below everything else.
_EXP_OF_ZERO = -(1 << 40)


# --------------------------------------------------------------------------------------------
# operands


def _check_fmt(fmt: FPFormat) -> None:
    if not isinstance(fmt, FPFormat):
        raise TypeError(f"format must be an FPFormat, not {fmt!r}")


def _check_rm(rm: str) -> None:
    if rm not in ROUNDING_MODES:
        raise ValueError(f"rounding mode must be one of {', '.join(ROUNDING_MODES)}, not {rm!r}")


def _as_bits(x) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype == U64:
        return arr
    if arr.dtype.kind in "iub":
        return arr.astype(U64)
    if arr.dtype == object:
        return np.asarray([int(v) & 0xFFFF_FFFF_FFFF_FFFF for v in arr.ravel()], dtype=U64).reshape(
            arr.shape
        )
    raise TypeError(
        f"operands must be integer bit patterns, not {arr.dtype} (convert floats with from_float)"
    )


def _operands(masks: tuple[int, ...], *xs) -> tuple[tuple[int, ...], list[np.ndarray]]:
    """Broadcast the operands, flatten them to 1-d uint64 (so NumPy never computes on scalars,
    which warn on wrap-around) and mask each with its width mask."""
    arrs = [_as_bits(x) for x in xs]
    shape = np.broadcast_shapes(*(a.shape for a in arrs))
    flat = [
        np.ascontiguousarray(np.broadcast_to(a, shape)).reshape(-1) & U64(m)
        for a, m in zip(arrs, masks, strict=True)
    ]
    return shape, flat


def _fp_operands(fmt: FPFormat, ftz: bool, *xs) -> tuple[tuple[int, ...], list[np.ndarray]]:
    _check_fmt(fmt)
    shape, flat = _operands((fmt.width_mask,) * len(xs), *xs)
    if ftz:
        flat = [_flush_input(fmt, a) for a in flat]
    return shape, flat


def _flush_input(fmt: FPFormat, a: np.ndarray) -> np.ndarray:
    """Subnormal encodings become zero of the same sign."""
    subnormal = ((a >> U64(fmt.man_bits)) & U64(fmt.exp_mask)) == 0
    return np.where(subnormal, a & U64(fmt.sign_bit), a)


@dataclass(slots=True)
class _Decoded:
    """An operand split into fields. ``sig * 2**exp`` is its magnitude when finite (``exp`` is
    the exponent of the significand's LSB); ``sig`` has its hidden bit, and when decoded with
    ``normalize=True`` subnormal significands are shifted up so every non-zero ``sig`` lies in
    ``[2**M, 2**(M+1))``."""

    sign: np.ndarray  # bool
    exp: np.ndarray  # int64
    sig: np.ndarray  # uint64
    nan: np.ndarray
    inf: np.ndarray
    zero: np.ndarray


def _decode(fmt: FPFormat, a: np.ndarray, normalize: bool = False) -> _Decoded:
    m = fmt.man_bits
    sign = (a >> U64(m + fmt.exp_bits)) != 0
    efield = (a >> U64(m)) & U64(fmt.exp_mask)
    frac = a & U64(fmt.man_mask)
    special = efield == U64(fmt.exp_mask)
    frac_zero = frac == 0
    normal = efield != 0
    sig = np.where(normal, frac | U64(1 << m), frac)
    exp = np.maximum(efield.astype(np.int64), 1) - (fmt.bias + m)
    if normalize:
        shift = (m + 1) - w.bitlen(sig, m + 1)
        shift = np.where(normal, 0, shift)  # zero: any value, keep 0
        sig = sig << shift.astype(U64)
        exp = exp - shift
    return _Decoded(
        sign=sign,
        exp=exp,
        sig=sig,
        nan=special & ~frac_zero,
        inf=special & frac_zero,
        zero=~normal & frac_zero,
    )


def _sign_bits(fmt: FPFormat, sign: np.ndarray) -> np.ndarray:
    return sign.astype(U64) << U64(fmt.width - 1)


# --------------------------------------------------------------------------------------------
# rounding


def _round_pack(
    fmt: FPFormat,
    sign: np.ndarray,
    exp: np.ndarray,
    sig: np.ndarray,
    sticky,
    rm: str,
    ftz: bool,
    sig_bits: int = 64,
) -> np.ndarray:
    """Round ``(-1)**sign * (sig + f) * 2**exp`` to ``fmt`` and encode it, where ``f`` is in
    ``(0, 1)`` when ``sticky`` and 0 otherwise.

    Preconditions: where ``sticky`` is true, ``sig >= 2**(M+2)`` (at least a guard bit below
    the rounding position, so the sticky bit only breaks ties); ``sig < 2**sig_bits``. A zero
    ``sig`` without ``sticky`` encodes zero with the given sign. Handles rounding up into the
    next binade, out of the subnormal range into the smallest normal number, overflow (to
    infinity under ``rne``, to the largest finite number under ``rtz``) and, with ``ftz``,
    flushing tiny results to zero.
    """
    m = fmt.man_bits
    msb_exp = exp + (w.bitlen(sig, sig_bits) - 1)
    lsb = msb_exp - m
    if not ftz:
        lsb = np.maximum(lsb, fmt.emin - m)
    shift = lsb - exp
    rshift = np.clip(shift, 0, 64).astype(U64)
    q = (sig >> rshift) << np.clip(-shift, 0, 63).astype(U64)
    if rm == "rne":
        rem = sig & w.low_mask(rshift)
        half = U64(1) << (rshift - U64(1))  # 0 when rshift == 0
        up = (rem > half) | ((rem == half) & (sticky | ((q & U64(1)) != 0)))
        up &= (shift > 0) & (shift <= 64)  # beyond 64 the whole sig is below half an ulp
        q = q + up.astype(U64)
    # Exponent field: biased exponent of the LSB position plus the carry out of the
    # significand (hidden bit, or a round-up into the next binade / the smallest normal).
    efield = (lsb - (fmt.emin - m)) + (q >> U64(m)).astype(np.int64)
    bits = (efield.astype(U64) << U64(m)) | (q & U64(fmt.man_mask))
    overflow = efield >= fmt.exp_mask
    bits = np.where(overflow, U64(fmt.inf() if rm == "rne" else fmt.max_finite), bits)
    is_zero = (sig == 0) & ~np.asarray(sticky, dtype=bool)
    if ftz:
        is_zero |= efield <= 0
    else:
        is_zero |= q == 0
    bits = np.where(is_zero, U64(0), bits)
    return bits | _sign_bits(fmt, sign)


def _finish(shape, bits: np.ndarray) -> np.ndarray:
    return bits.reshape(shape)


# --------------------------------------------------------------------------------------------
# arithmetic


def add(fmt: FPFormat, a, b, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """IEEE addition ``a + b``."""
    _check_rm(rm)
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    return _finish(shape, _add(fmt, a, b, rm, ftz))


def sub(fmt: FPFormat, a, b, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """IEEE subtraction ``a - b`` (``a + (-b)``)."""
    _check_rm(rm)
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    return _finish(shape, _add(fmt, a, b ^ U64(fmt.sign_bit), rm, ftz))


def _add(fmt: FPFormat, a: np.ndarray, b: np.ndarray, rm: str, ftz: bool) -> np.ndarray:
    m = fmt.man_bits
    mag_mask = U64(fmt.sign_bit - 1)
    swap = (b & mag_mask) > (a & mag_mask)
    x = _decode(fmt, np.where(swap, b, a))  # the operand of larger magnitude
    y = _decode(fmt, np.where(swap, a, b))
    guard = 61 - m  # x's significand goes to bits [61-M, 61]; the sum stays below 2**63
    big = x.sig << U64(guard)
    d = np.minimum(x.exp - y.exp, 64).astype(U64)
    small, lost = w.shr_sticky(y.sig << U64(guard), d)
    small |= lost.astype(U64)  # jam: an odd LSB far below the rounding position
    subtract = x.sign != y.sign
    total = np.where(subtract, big - small, big + small)
    bits = _round_pack(fmt, x.sign, x.exp - guard, total, False, rm, ftz, 63)
    exact_zero = total == 0
    bits = np.where(exact_zero, _sign_bits(fmt, x.sign & y.sign), bits)
    bits = np.where(x.inf, np.where(x.sign, U64(fmt.inf(1)), U64(fmt.inf(0))), bits)
    nan = x.nan | y.nan | (x.inf & y.inf & subtract)
    return np.where(nan, U64(fmt.qnan), bits)


def mul(fmt: FPFormat, a, b, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """IEEE multiplication ``a * b``."""
    _check_rm(rm)
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    m = fmt.man_bits
    x = _decode(fmt, a, normalize=True)
    y = _decode(fmt, b, normalize=True)
    sign = x.sign ^ y.sign
    exp = x.exp + y.exp
    if 2 * (m + 1) <= 64:
        bits = _round_pack(fmt, sign, exp, x.sig * y.sig, False, rm, ftz, 2 * m + 2)
    else:
        # The product has 2M+1 or 2M+2 bits: keep its top 62 bits or so, the rest is sticky.
        hi, lo = w.mul_wide(x.sig, y.sig)
        s = 2 * m + 2 - 62
        sig = (hi << U64(64 - s)) | (lo >> U64(s))
        sticky = (lo & U64((1 << s) - 1)) != 0
        bits = _round_pack(fmt, sign, exp + s, sig, sticky, rm, ftz, 62)
    inf = x.inf | y.inf
    zero = x.zero | y.zero
    bits = np.where(zero, U64(0), bits)
    bits = np.where(inf, U64(fmt.inf()), bits) | _sign_bits(fmt, sign)
    nan = x.nan | y.nan | (inf & zero)
    return _finish(shape, np.where(nan, U64(fmt.qnan), bits))


def div(fmt: FPFormat, a, b, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """IEEE division ``a / b``."""
    _check_rm(rm)
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    m = fmt.man_bits
    x = _decode(fmt, a, normalize=True)
    y = _decode(fmt, b, normalize=True)
    sign = x.sign ^ y.sign
    dividend = np.where(x.zero | x.inf | x.nan, U64(1 << m), x.sig)
    divisor = np.where(y.zero | y.inf | y.nan, U64(1 << m), y.sig)
    # Quotient floor(dividend * 2**k / divisor) with k = M+3: at least M+3 bits because
    # dividend / divisor > 1/2. Long division, `chunk` quotient bits per step, the partial
    # remainder shifted by `chunk` still fitting 63 bits.
    k = m + 3
    chunk = 63 - (m + 1)
    q, r = np.divmod(dividend, divisor)
    done = 0
    while done < k:
        step = min(chunk, k - done)
        qq, r = np.divmod(r << U64(step), divisor)
        q = (q << U64(step)) | qq
        done += step
    bits = _round_pack(fmt, sign, x.exp - y.exp - k, q, r != 0, rm, ftz, m + 5)
    inf = (x.inf & ~y.inf) | (y.zero & ~x.zero)
    zero = (x.zero & ~y.zero) | (y.inf & ~x.inf)
    bits = np.where(zero, U64(0), bits)
    bits = np.where(inf, U64(fmt.inf()), bits) | _sign_bits(fmt, sign)
    nan = x.nan | y.nan | (x.zero & y.zero) | (x.inf & y.inf)
    return _finish(shape, np.where(nan, U64(fmt.qnan), bits))


def sqrt(fmt: FPFormat, a, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """IEEE square root; ``sqrt(-0) = -0``, negative non-zero operands give NaN."""
    _check_rm(rm)
    shape, (a,) = _fp_operands(fmt, ftz, a)
    m = fmt.man_bits
    x = _decode(fmt, a, normalize=True)
    sig = np.where(x.zero | x.inf | x.nan, U64(1 << m), x.sig)
    odd = (x.exp & 1) != 0
    sig = sig << odd.astype(U64)  # make the exponent even: sig in [2**M, 2**(M+2))
    exp = x.exp - odd
    # root = isqrt(sig * 4**t) has at least M+3 bits: sqrt(2**M) * 2**t >= 2**(M+2).
    t = m // 2 + 3
    root, rem_nonzero = _isqrt_shifted(sig, 2 * t, m + 2)
    bits = _round_pack(fmt, np.zeros_like(x.sign), (exp - 2 * t) // 2, root, rem_nonzero, rm, ftz)
    bits = np.where(x.inf, U64(fmt.inf()), bits)
    bits = np.where(x.zero, U64(0), bits) | _sign_bits(fmt, x.zero & x.sign)
    nan = x.nan | (x.sign & ~x.zero)
    return _finish(shape, np.where(nan, U64(fmt.qnan), bits))


def _isqrt_shifted(sig: np.ndarray, shift: int, sig_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """``isqrt(sig << shift)`` and whether the remainder is non-zero; ``shift`` is even and
    ``sig < 2**sig_bits``."""
    total_bits = sig_bits + shift
    if total_bits <= 53:  # exact in binary64: correctly rounded sqrt, then fix up by one
        s = sig << U64(shift)
        root = np.floor(np.sqrt(s.astype(np.float64))).astype(U64)
        root = np.where(root * root > s, root - U64(1), root)
        root = np.where((root + U64(1)) * (root + U64(1)) <= s, root + U64(1), root)
        return root, root * root != s
    # Digit-by-digit (restoring) square root over the pairs of bits of sig << shift.
    root = np.zeros_like(sig)
    rem = np.zeros_like(sig)
    for i in range((total_bits + 1) // 2 - 1, -1, -1):
        pos = 2 * i - shift
        pair = (sig >> U64(pos)) & U64(3) if pos >= 0 else U64(0)
        rem = (rem << U64(2)) | pair
        trial = (root << U64(2)) | U64(1)
        ge = rem >= trial
        rem = np.where(ge, rem - trial, rem)
        root = (root << U64(1)) | ge.astype(U64)
    return root, rem != 0


def fma(fmt: FPFormat, a, b, c, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """Fused multiply-add ``a * b + c`` with a single rounding (IEEE fusedMultiplyAdd).
    ``inf * 0 + c`` is NaN whatever ``c`` is."""
    _check_rm(rm)
    shape, (a, b, c) = _fp_operands(fmt, ftz, a, b, c)
    m = fmt.man_bits
    x = _decode(fmt, a, normalize=True)
    y = _decode(fmt, b, normalize=True)
    z = _decode(fmt, c, normalize=True)
    psign = x.sign ^ y.sign
    pzero = x.zero | y.zero
    phi, plo = w.mul_wide(x.sig, y.sig)
    pexp = x.exp + y.exp
    pbits = w.bitlen128(phi, plo)
    pmsb = np.where(pzero, _EXP_OF_ZERO, pexp + (pbits - 1))
    cmsb = np.where(z.zero, _EXP_OF_ZERO, z.exp + m)
    top = np.maximum(pmsb, cmsb)
    # Frame: bit 125 has exponent `top`. The operand with the larger MSB exponent lands
    # exactly (its LSB at bit 20 or above); the other may be shifted right, jamming the lost
    # bits into an odd LSB (only when at least 20 bits below the other's MSB).
    phi, plo = _place128(phi, plo, 125 - top + pexp)
    chi, clo = _place128(np.zeros_like(z.sig), z.sig, 125 - top + z.exp)
    subtract = psign != z.sign
    shi, slo = w.add128(phi, plo, chi, clo)
    dhi, dlo = w.sub128(phi, plo, chi, clo)
    negative = (dhi >> U64(63)) != 0
    nhi, nlo = w.neg128(dhi, dlo)
    dhi, dlo = np.where(negative, nhi, dhi), np.where(negative, nlo, dlo)
    rhi, rlo = np.where(subtract, dhi, shi), np.where(subtract, dlo, slo)
    sign = np.where(subtract & negative, z.sign, psign)
    # Reduce to 62 bits + sticky for rounding.
    rbits = w.bitlen128(rhi, rlo)
    down = np.maximum(rbits - 62, 0)
    _, sig, sticky = w.shr128_sticky(rhi, rlo, down.astype(U64))
    sig = sig << np.maximum(62 - rbits, 0).astype(U64)
    exp = top - 125 + down - np.maximum(62 - rbits, 0)
    bits = _round_pack(fmt, sign, exp, sig, sticky, rm, ftz, 62)
    exact_zero = (rhi == 0) & (rlo == 0)
    bits = np.where(exact_zero, _sign_bits(fmt, psign & z.sign), bits)
    pinf = x.inf | y.inf
    bits = np.where(z.inf, U64(fmt.inf()) | _sign_bits(fmt, z.sign), bits)
    bits = np.where(pinf, U64(fmt.inf()) | _sign_bits(fmt, psign), bits)
    nan = x.nan | y.nan | z.nan | (pinf & pzero) | (pinf & z.inf & subtract)
    return _finish(shape, np.where(nan, U64(fmt.qnan), bits))


def _place128(hi: np.ndarray, lo: np.ndarray, shift: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shift left by ``shift`` (int64, may be negative: then right, jamming lost bits into the
    LSB). Only shifts that keep the value below 2**126 are asked for."""
    left = np.clip(shift, 0, 127).astype(U64)
    right = np.clip(-shift, 0, 128).astype(U64)
    lhi, llo = w.shl128(hi, lo, left)
    rhi, rlo, lost = w.shr128_sticky(hi, lo, right)
    is_left = shift >= 0
    return np.where(is_left, lhi, rhi), np.where(is_left, llo, rlo | lost.astype(U64))


# --------------------------------------------------------------------------------------------
# comparisons, min/max, sign operations


def _order_key(fmt: FPFormat, a: np.ndarray, total: bool) -> np.ndarray:
    """Signed key whose order is the numeric order of non-NaN encodings. With ``total``,
    -0 sorts below +0 and equal keys mean equal encodings."""
    mag = (a & U64(fmt.sign_bit - 1)).astype(np.int64)
    negative = (a & U64(fmt.sign_bit)) != 0
    return np.where(negative, -mag - (1 if total else 0), mag)


def _is_nan(fmt: FPFormat, a: np.ndarray) -> np.ndarray:
    return (a & U64(fmt.sign_bit - 1)) > U64(fmt.inf())


def fcmp(fmt: FPFormat, pred: str, a, b, *, ftz: bool = False) -> np.ndarray:
    """LLVM ``fcmp pred a, b`` as a bool array: ``o*`` predicates are false and ``u*`` true
    when either operand is NaN; ``+0 == -0``. (``ftz`` is an extension: subnormal operands
    compare as zero.)"""
    if pred not in FCMP_PREDICATES:
        raise ValueError(f"fcmp predicate must be one of {', '.join(FCMP_PREDICATES)}, not {pred!r}")
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    unordered = _is_nan(fmt, a) | _is_nan(fmt, b)
    ka, kb = _order_key(fmt, a, False), _order_key(fmt, b, False)
    base = pred[1:] if pred[0] in "ou" else pred
    rel = {
        "false": np.zeros(a.shape, dtype=bool),
        "true": np.ones(a.shape, dtype=bool),
        "eq": ka == kb,
        "ne": ka != kb,
        "gt": ka > kb,
        "ge": ka >= kb,
        "lt": ka < kb,
        "le": ka <= kb,
        "rd": np.ones(a.shape, dtype=bool),  # ord / uno: only the NaN test matters
        "no": np.zeros(a.shape, dtype=bool),
    }[base]
    if pred[0] == "o":
        result = rel & ~unordered
    elif pred[0] == "u":
        result = rel | unordered
    else:
        result = rel
    return result.reshape(shape)


def _minmax(fmt: FPFormat, a, b, ftz: bool, want_min: bool) -> np.ndarray:
    shape, (a, b) = _fp_operands(fmt, ftz, a, b)
    ka, kb = _order_key(fmt, a, True), _order_key(fmt, b, True)
    result = np.where(ka <= kb if want_min else ka >= kb, a, b)
    a_nan, b_nan = _is_nan(fmt, a), _is_nan(fmt, b)
    result = np.where(a_nan, b, np.where(b_nan, a, result))
    return np.where(a_nan & b_nan, U64(fmt.qnan), result).reshape(shape)


def minnum(fmt: FPFormat, a, b, *, ftz: bool = False) -> np.ndarray:
    """LLVM ``llvm.minnum``: the smaller operand; if one is NaN the other; if both are NaN
    ``fmt.qnan``. ``minnum(+0, -0) = minnum(-0, +0) = -0`` (LLVM leaves it open; we order -0
    below +0, as IEEE 754-2019 minimumNumber does). Otherwise the result is one operand's
    encoding (a NaN-free operand is returned unchanged). ``ftz`` (an extension) reads
    subnormal operands as zero."""
    return _minmax(fmt, a, b, ftz, True)


def maxnum(fmt: FPFormat, a, b, *, ftz: bool = False) -> np.ndarray:
    """LLVM ``llvm.maxnum``, with ``maxnum(+0, -0) = maxnum(-0, +0) = +0``; see :func:`minnum`."""
    return _minmax(fmt, a, b, ftz, False)


def neg(fmt: FPFormat, a) -> np.ndarray:
    """Flip the sign bit (LLVM ``fneg``; NaNs keep their payload)."""
    shape, (a,) = _fp_operands(fmt, False, a)
    return (a ^ U64(fmt.sign_bit)).reshape(shape)


def fabs(fmt: FPFormat, a) -> np.ndarray:
    """Clear the sign bit (``llvm.fabs``)."""
    shape, (a,) = _fp_operands(fmt, False, a)
    return (a & U64(fmt.sign_bit - 1)).reshape(shape)


def copysign(fmt: FPFormat, a, b) -> np.ndarray:
    """``a``'s magnitude with ``b``'s sign bit (``llvm.copysign``)."""
    shape, (a, b) = _fp_operands(fmt, False, a, b)
    sign = U64(fmt.sign_bit)
    return ((a & ~sign) | (b & sign)).reshape(shape)


def classify(fmt: FPFormat, a) -> np.ndarray:
    """One :data:`FPCLASS` bit per element (``uint16``), the classes of LLVM's
    ``llvm.is.fpclass``: ``(classify(fmt, a) & mask) != 0`` is ``llvm.is.fpclass(a, mask)``."""
    shape, (a,) = _fp_operands(fmt, False, a)
    x = _decode(fmt, a)
    quiet = (a & U64(1 << (fmt.man_bits - 1))) != 0
    sub = ~x.zero & (x.sig < U64(1 << fmt.man_bits))
    cls = np.select(
        [x.nan & ~quiet, x.nan, x.inf, x.zero, sub],
        [FPCLASS["snan"], FPCLASS["qnan"], FPCLASS["pinf"], FPCLASS["pzero"], FPCLASS["psub"]],
        FPCLASS["pnorm"],
    )
    # The negative class of each positive one is found by a fixed shift in the LLVM mask.
    neg_of = {FPCLASS["pinf"]: 7, FPCLASS["pnorm"]: 5, FPCLASS["psub"]: 3, FPCLASS["pzero"]: 1}
    for pos, dist in neg_of.items():
        cls = np.where(x.sign & (cls == pos), pos >> dist, cls)
    return cls.astype(np.uint16).reshape(shape)


# --------------------------------------------------------------------------------------------
# conversions


def _check_width(width: int) -> None:
    if type(width) is not int or not 1 <= width <= 64:
        raise ValueError(f"integer width must be an integer in 1..64, not {width!r}")


def to_int(fmt: FPFormat, a, width: int, signed: bool, *, ftz: bool = False) -> np.ndarray:
    """LLVM ``fptosi``/``fptoui`` to a ``width``-bit integer: round toward zero, the result's
    two's complement bits in a uint64. Where LLVM gives poison we follow
    ``llvm.fptosi.sat``/``llvm.fptoui.sat``: values beyond the range (including infinities)
    saturate to the integer minimum or maximum (negative values to 0 for unsigned), NaN gives 0.
    """
    _check_width(width)
    shape, (a,) = _fp_operands(fmt, ftz, a)
    x = _decode(fmt, a)
    msb_exp = x.exp + (w.bitlen(x.sig, fmt.man_bits + 1) - 1)
    huge = x.inf | (~x.zero & (msb_exp >= 64))
    mag = (x.sig << np.clip(x.exp, 0, 63).astype(U64)) >> np.clip(-x.exp, 0, 64).astype(U64)
    wmask = U64((1 << width) - 1)
    if signed:
        pos_max, neg_max = U64((1 << (width - 1)) - 1), U64(1 << (width - 1))
        limit = np.where(x.sign, neg_max, pos_max)
        mag = np.where(huge | (mag > limit), limit, mag)
        bits = np.where(x.sign, U64(0) - mag, mag) & wmask
    else:
        bits = np.where(huge | (mag > wmask), wmask, mag)
        bits = np.where(x.sign, U64(0), bits)
    return np.where(x.nan, U64(0), bits).reshape(shape)


def from_int(
    fmt: FPFormat, x, width: int, signed: bool, rm: str = "rne", ftz: bool = False
) -> np.ndarray:
    """LLVM ``sitofp``/``uitofp`` of a ``width``-bit integer given by its bits (higher bits
    ignored), correctly rounded. Zero gives +0."""
    _check_fmt(fmt)
    _check_width(width)
    _check_rm(rm)
    shape, (x,) = _operands(((1 << width) - 1,), x)
    if signed:
        negative = (x >> U64(width - 1)) != 0
        mag = np.where(negative, (U64(0) - x) & U64((1 << width) - 1), x)
    else:
        negative = np.zeros(x.shape, dtype=bool)
        mag = x
    bits = _round_pack(fmt, negative, np.zeros(x.shape, dtype=np.int64), mag, False, rm, ftz)
    return bits.reshape(shape)


def convert(src: FPFormat, dst: FPFormat, a, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """Convert encodings of ``src`` to ``dst`` (LLVM ``fpext``/``fptrunc`` and any custom pair):
    exact when ``dst`` holds the value, else correctly rounded with overflow to infinity
    (``rne``) or the largest finite number (``rtz``) and gradual underflow. ``ftz`` flushes
    subnormal inputs of ``src`` and tiny results in ``dst``."""
    _check_fmt(dst)
    _check_rm(rm)
    shape, (a,) = _fp_operands(src, ftz, a)
    x = _decode(src, a)
    bits = _round_pack(dst, x.sign, x.exp, x.sig, False, rm, ftz, src.man_bits + 1)
    bits = np.where(x.inf, U64(dst.inf()) | _sign_bits(dst, x.sign), bits)
    return _finish(shape, np.where(x.nan, U64(dst.qnan), bits))


def from_float(fmt: FPFormat, x, rm: str = "rne", ftz: bool = False) -> np.ndarray:
    """Encodings of ``fmt`` nearest to the float64 values ``x`` (through :func:`convert` from
    binary64; NaN gives ``fmt.qnan``)."""
    bits = np.asarray(x, dtype=np.float64).view(U64)
    return convert(BINARY64, fmt, bits, rm=rm, ftz=ftz)


def to_float(fmt: FPFormat, a) -> np.ndarray:
    """The float64 values of encodings of ``fmt``. Exact for every format with
    ``exp_bits <= 11`` (subnormals included: their values are multiples of
    ``2**(emin - man_bits) >= 2**-1074``); formats with more exponent bits are rounded to
    nearest-even, overflowing to infinity and underflowing to binary64 subnormals or zero.
    NaNs become binary64's canonical quiet NaN."""
    return convert(fmt, BINARY64, a).view(np.float64)

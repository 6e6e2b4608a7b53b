"""Random operands for testing FP models and units: a mix of uniformly random encodings and
encodings biased toward the cases where FP datapaths go wrong (zeros, subnormals, the ends of
the normal range, infinities, NaNs, sparse and all-ones fractions that give rounding ties,
operand pairs whose sum cancels, whose product or quotient under- or overflows, and fma
addends that cancel the product)."""

from __future__ import annotations

import numpy as np

from ._format import FPFormat
from .ref import mul, neg

U64 = np.uint64


def _pick(rng: np.random.Generator, choices: list[np.ndarray]) -> np.ndarray:
    """Element-wise choice among equally likely candidate arrays."""
    which = rng.integers(0, len(choices), choices[0].shape[0])
    return np.choose(which, choices)


def _fractions(fmt: FPFormat, n: int, rng: np.random.Generator) -> np.ndarray:
    m = fmt.man_bits
    uniform = rng.integers(0, 1 << m, n, dtype=np.uint64)
    # Sparse: a few random bits (sums and products of these land on exact ties).
    sparse = np.zeros(n, dtype=np.uint64)
    for _ in range(3):
        bit = rng.integers(0, m, n).astype(U64)
        sparse |= np.where(rng.random(n) < 0.5, U64(1) << bit, U64(0))
    top = rng.integers(0, m, n).astype(U64)
    fixed = np.array([0, 1, fmt.man_mask, fmt.man_mask - 1, 1 << (m - 1), (1 << (m - 1)) | 1], dtype=U64)
    special = fixed[rng.integers(0, len(fixed), n)] & U64(fmt.man_mask)
    ones_from = U64(fmt.man_mask) >> top  # low runs of ones
    high_ones = U64(fmt.man_mask) & ~ones_from  # high runs of ones
    return _pick(rng, [uniform, uniform, sparse, special, ones_from, high_ones])


def _exponents(fmt: FPFormat, n: int, rng: np.random.Generator) -> np.ndarray:
    top = fmt.exp_mask
    fixed = np.array(
        [0, 0, 1, 2, fmt.bias - 1, fmt.bias, fmt.bias + 1, top - 2, top - 1, top - 1, top], dtype=np.int64
    )
    special = fixed[rng.integers(0, len(fixed), n)]
    uniform = rng.integers(0, top + 1, n)
    near_bias = fmt.bias + rng.integers(-fmt.man_bits - 3, fmt.man_bits + 4, n)
    return np.clip(_pick(rng, [special, uniform, near_bias]), 0, top)


def _encode(fmt: FPFormat, sign, exp, frac) -> np.ndarray:
    exp = np.clip(exp, 0, fmt.exp_mask).astype(U64)
    return (np.asarray(sign, dtype=U64) << U64(fmt.width - 1)) | (exp << U64(fmt.man_bits)) | frac


def random_operands(
    fmt: FPFormat, n: int, arity: int = 2, rng: np.random.Generator | None = None
) -> list[np.ndarray]:
    """``arity`` uint64 arrays of ``n`` encodings of ``fmt``: a quarter uniformly random bit
    patterns, the rest biased (see the module docstring). The second operand's exponent is
    often tied to the first's so that their sum, product and quotient reach cancellation,
    rounding ties, underflow and overflow; the third (for fma) to the product's."""
    if rng is None:
        rng = np.random.default_rng(0)
    mask = fmt.width_mask

    def uniform() -> np.ndarray:
        return rng.integers(0, mask, n, dtype=np.uint64, endpoint=True)

    def signs() -> np.ndarray:
        return rng.integers(0, 2, n)

    is_uniform = rng.random(n) < 0.25
    ea = _exponents(fmt, n, rng)
    ops = [np.where(is_uniform, uniform(), _encode(fmt, signs(), ea, _fractions(fmt, n, rng)))]
    if arity >= 2:
        bias, top, m = fmt.bias, fmt.exp_mask, fmt.man_bits
        d = rng.integers(-m - 3, m + 4, n)
        small = rng.integers(-3, 4, n)
        eb = _pick(
            rng,
            [
                _exponents(fmt, n, rng),  # independent
                ea + d,  # sums: alignment, cancellation
                ea + small,
                bias - ea + d,  # products near the subnormal range
                top - 1 + bias - ea + small,  # products near overflow
                ea - bias + d,  # quotients near the subnormal range
                ea + bias - top + 1 + small,  # quotients near overflow
            ],
        )
        same_frac = rng.random(n) < 0.1  # x - x, x + (-x), x / x
        fb = np.where(same_frac, ops[0] & U64(fmt.man_mask), _fractions(fmt, n, rng))
        ops.append(np.where(rng.random(n) < 0.25, uniform(), _encode(fmt, signs(), eb, fb)))
    if arity >= 3:
        # the product's neighbourhood, for cancelling addends
        prod = mul(fmt, ops[0], ops[1])
        ep = ((prod >> U64(fmt.man_bits)) & U64(fmt.exp_mask)).astype(np.int64)
        tweak = rng.integers(-2, 3, n).astype(np.int64).astype(U64)
        cancel = neg(fmt, prod + tweak) & U64(mask)
        ec = _pick(rng, [_exponents(fmt, n, rng), ep + rng.integers(-fmt.man_bits - 3, fmt.man_bits + 4, n)])
        near = _encode(fmt, signs(), ec, _fractions(fmt, n, rng))
        ops.append(_pick(rng, [uniform(), near, cancel, near]))
    for extra in range(3, arity):
        ops.append(random_operands(fmt, n, 1, rng)[0])
    return ops

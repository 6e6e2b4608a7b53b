"""Vectorised unsigned integer helpers for the reference models: bit lengths, 64x64->128-bit
products and 128-bit shifts/additions on pairs of ``uint64`` arrays ``(hi, lo)``.

All arrays are 1-d ``np.uint64`` (shift amounts too: NumPy promotes ``uint64`` with ``int64``
to ``float64``). NumPy defines shifts of unsigned integers by 64 or more as 0 (``npy_lshiftull``
/ ``npy_rshiftull``), and the helpers rely on it: a shift amount that wrapped around below zero
is a huge ``uint64`` and also shifts everything out.
"""

from __future__ import annotations

import numpy as np

U64 = np.uint64
ALL_ONES = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_LOW32 = np.uint64(0xFFFF_FFFF)


def bitlen(x: np.ndarray, max_bits: int = 64) -> np.ndarray:
    """Bit length (position of the highest set bit plus one, 0 for 0) of each element, as int64.
    ``max_bits`` is an upper bound on the inputs' width that enables a faster path."""
    if max_bits <= 53:
        return np.frexp(x.astype(np.float64))[1].astype(np.int64)
    hi = x >> U64(32)
    has_hi = hi != 0
    part = np.where(has_hi, hi, x & _LOW32).astype(np.float64)
    return np.frexp(part)[1].astype(np.int64) + np.where(has_hi, 32, 0)


def low_mask(s: np.ndarray) -> np.ndarray:
    """``2**s - 1`` for uint64 shift amounts ``s`` (all ones when ``s >= 64``)."""
    return ~(ALL_ONES << s)


def shr_sticky(x: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``x >> s`` and whether any 1 bit was shifted out (``s`` uint64, any size)."""
    return x >> s, (x & low_mask(s)) != 0


def mul_wide(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact product of ``a`` and ``b`` (both ``< 2**63``) as ``(hi, lo)``, from 32-bit
    partial products."""
    a0, a1 = a & _LOW32, a >> U64(32)
    b0, b1 = b & _LOW32, b >> U64(32)
    p00 = a0 * b0
    mid = a0 * b1 + a1 * b0  # < 2**64: a1, b1 < 2**31
    lo = p00 + (mid << U64(32))
    carry = (lo < p00).astype(U64)
    hi = a1 * b1 + (mid >> U64(32)) + carry
    return hi, lo


def shl128(hi: np.ndarray, lo: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hi, lo) << s`` for ``0 <= s < 128`` (bits above 127 are lost)."""
    new_hi = (hi << s) | (lo >> (U64(64) - s)) | (lo << (s - U64(64)))
    return new_hi, lo << s


def shr128_sticky(
    hi: np.ndarray, lo: np.ndarray, s: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(hi, lo) >> s`` for any ``s >= 0``, and whether any 1 bit was shifted out."""
    s = np.minimum(s, U64(128))
    new_lo = (lo >> s) | (hi << (U64(64) - s)) | (hi >> (s - U64(64)))
    lost_lo = (lo & low_mask(s)) != 0
    lost_hi = np.where(s > U64(64), (hi & low_mask(s - U64(64))) != 0, False)
    return hi >> s, new_lo, lost_lo | lost_hi


def add128(ah, al, bh, bl):
    lo = al + bl
    return ah + bh + (lo < al).astype(U64), lo


def sub128(ah, al, bh, bl):
    lo = al - bl
    return ah - bh - (al < bl).astype(U64), lo


def neg128(hi, lo):
    return ~hi + (lo == 0).astype(U64), U64(0) - lo


def bitlen128(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    return np.where(hi != 0, bitlen(hi) + 64, bitlen(lo))

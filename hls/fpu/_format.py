"""Floating-point formats: IEEE-754-style binary interchange formats with any exponent and
fraction width.

A format ``FPFormat(E, M)`` encodes a number in ``1 + E + M`` bits, from the most significant
bit down: the sign, an ``E``-bit biased exponent and an ``M``-bit stored fraction (the leading
significand bit is hidden). Encodings follow IEEE 754-2019 section 3.4 exactly: exponent field
0 is zero or subnormal, all ones is infinity (fraction 0) or NaN (fraction non-zero), a NaN is
quiet when the fraction's most significant bit is 1. ``FPFormat(8, 23)`` is binary32,
``FPFormat(11, 52)`` binary64.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FPFormat", "BINARY32", "BINARY64", "HALF", "BFLOAT16"]

_ALIASES = {
    "binary32": (8, 23),
    "float": (8, 23),
    "single": (8, 23),
    "fp32": (8, 23),
    "binary64": (11, 52),
    "double": (11, 52),
    "fp64": (11, 52),
    "half": (5, 10),
    "binary16": (5, 10),
    "fp16": (5, 10),
    "bfloat16": (8, 7),
    "bf16": (8, 7),
}

_NAME_RE = re.compile(r"e(\d+)m(\d+)")


@dataclass(frozen=True, slots=True)
class FPFormat:
    """A binary floating-point format with ``exp_bits`` exponent bits and ``man_bits`` stored
    fraction bits (the hidden leading bit is not counted).

    Limits: ``2 <= exp_bits <= 15``, ``1 <= man_bits <= 52`` and ``1 + exp_bits + man_bits
    <= 64``, so every encoding fits a ``uint64`` and every significand (``man_bits + 1`` bits)
    fits a binary64 significand.
    """

    exp_bits: int
    man_bits: int

    def __post_init__(self) -> None:
        for field, lo, hi in (("exp_bits", 2, 15), ("man_bits", 1, 52)):
            value = getattr(self, field)
            if type(value) is not int or not lo <= value <= hi:
                raise ValueError(f"FPFormat {field} must be an integer in {lo}..{hi}, not {value!r}")
        if self.width > 64:
            raise ValueError(
                f"FPFormat width 1 + exp_bits + man_bits must be at most 64, not {self.width} "
                f"(exp_bits={self.exp_bits}, man_bits={self.man_bits})"
            )

    @classmethod
    def parse(cls, text: str) -> FPFormat:
        """Parse ``"eEmM"`` (e.g. ``"e8m23"``) or a name: binary32/float/single,
        binary64/double, half/binary16, bfloat16 (case-insensitive)."""
        if not isinstance(text, str):
            raise ValueError(f"floating-point format must be a string such as 'e8m23', not {text!r}")
        key = text.strip().lower()
        if key in _ALIASES:
            return cls(*_ALIASES[key])
        match = _NAME_RE.fullmatch(key)
        if match is None:
            names = ", ".join(sorted(_ALIASES))
            raise ValueError(
                f"floating-point format must be 'eEmM' (e.g. 'e8m23') or one of {names}, not {text!r}"
            )
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def width(self) -> int:
        """Total encoding width in bits: ``1 + exp_bits + man_bits``."""
        return 1 + self.exp_bits + self.man_bits

    @property
    def bias(self) -> int:
        """Exponent bias ``2**(E-1) - 1``."""
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emax(self) -> int:
        """Largest unbiased exponent of a finite number (equal to the bias)."""
        return self.bias

    @property
    def emin(self) -> int:
        """Smallest unbiased exponent of a normal number, ``1 - bias``."""
        return 1 - self.bias

    @property
    def exp_mask(self) -> int:
        """All-ones exponent field, unshifted (``2**E - 1``)."""
        return (1 << self.exp_bits) - 1

    @property
    def man_mask(self) -> int:
        """Mask of the stored fraction bits (``2**M - 1``)."""
        return (1 << self.man_bits) - 1

    @property
    def sign_bit(self) -> int:
        """The sign bit's value in an encoding, ``2**(E+M)``."""
        return 1 << (self.exp_bits + self.man_bits)

    @property
    def width_mask(self) -> int:
        """Mask of all ``width`` bits."""
        return (1 << self.width) - 1

    @property
    def qnan(self) -> int:
        """The canonical quiet NaN: sign 0, exponent all ones, fraction MSB 1, rest 0."""
        return (self.exp_mask << self.man_bits) | (1 << (self.man_bits - 1))

    def inf(self, sign: int | bool = 0) -> int:
        """Encoding of infinity, negative when ``sign`` is true."""
        return (self.sign_bit if sign else 0) | (self.exp_mask << self.man_bits)

    @property
    def max_finite(self) -> int:
        """Encoding of the largest finite positive number."""
        return ((self.exp_mask - 1) << self.man_bits) | self.man_mask

    @property
    def name(self) -> str:
        """Canonical name ``"eEmM"``, accepted by :meth:`parse`."""
        return f"e{self.exp_bits}m{self.man_bits}"

    def __str__(self) -> str:
        return self.name


BINARY32 = FPFormat(8, 23)
BINARY64 = FPFormat(11, 52)
HALF = FPFormat(5, 10)
BFLOAT16 = FPFormat(8, 7)

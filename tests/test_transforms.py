"""Unit tests of CDFG transforms."""

from __future__ import annotations

import random

import pytest

from hls.transforms import magic_unsigned


@pytest.mark.parametrize("n", [1, 3, 8, 10])
def test_magic_unsigned_exhaustive(n):
    for d in range(1, 1 << n):
        m, sh = magic_unsigned(d, n)
        for x in range(1 << n):
            assert (x * m) >> sh == x // d, (n, d, x)


@pytest.mark.parametrize("n", [16, 32, 64])
def test_magic_unsigned_random(n):
    rng = random.Random(n)
    divisors = [3, 5, 7, 10, 255, 65521, (1 << n) - 1, (1 << (n - 1)) + 1]
    divisors += [rng.randrange(1, 1 << n) for _ in range(50)]
    for d in divisors:
        m, sh = magic_unsigned(d, n)
        xs = [0, 1, d - 1, d, d + 1, (1 << n) - 1, (1 << n) - 2]
        xs += [rng.randrange(1 << n) for _ in range(200)]
        for x in xs:
            if x < (1 << n):
                assert (x * m) >> sh == x // d, (n, d, x)

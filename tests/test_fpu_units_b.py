# amaranth: UnusedElaboratable=no
"""Bit-exact tests of the division, square-root, comparison, min/max and sign units
(:mod:`hls.fpu._units_div`, :mod:`hls.fpu._units_cmp`) against :mod:`hls.fpu.ref`.

Each test builds one *bundle*: a wrapper component holding every variant of a unit family
for one format and one ``stages`` setting (division and square root in rne / rtz / rne+ftz;
all sixteen fcmp predicates, minnum/maxnum, fneg/fabs/copysign), so a format costs one
Verilator build per stages setting (cached by content hash, see :mod:`hls.fpu._sim`).  The
bundle's Verilog is linted with ``verilator --lint-only -Wall`` (no defect-class warnings,
nothing outside the stylistic list of :mod:`hls.verify._lint`), then simulated at full
throughput -- with random ``ce`` stalls for pipelined settings -- on corner-case pairs,
:func:`hls.fpu._stimulus.random_operands` and stimulus aimed at division and square root
(exact quotients, power-of-two divisors that underflow onto rounding ties, perfect squares,
subnormal radicands).  Every comparison is of exact bit patterns.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from amaranth.hdl import Module
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

from hls.fpu import BFLOAT16, BINARY32, BINARY64, HALF, FPFormat, ref
from hls.fpu import run_unit, unit_verilog
from hls.fpu import random_operands
from hls.fpu import FPCmp, FPMinMax, FPSign
from hls.fpu.ref import FCMP_PREDICATES
from hls.fpu import FPDiv, FPSqrt
from hls.verify import lint_verilog

U64 = np.uint64

FORMATS = {
    "binary32": BINARY32,
    "binary64": BINARY64,
    "half": HALF,
    "bfloat16": BFLOAT16,
    "e6m9": FPFormat(6, 9),
    "e10m30": FPFormat(10, 30),
}

# pipelined settings of div / sqrt: a few steps per stage; bfloat16 asks for more registers
# than there are segment boundaries (the extra ones stack at the output)
DIV_STAGES = {"binary32": 5, "binary64": 12, "half": 3, "bfloat16": 15, "e6m9": 4, "e10m30": 8}


class _Bundle(wiring.Component):
    """Inputs ``a``, ``b``, ``ce``; one output per variant.  ``specs``: name -> (factory,
    output width, takes ``b``).  Units are created in ``elaborate``."""

    def __init__(self, fmt: FPFormat, specs: dict):
        self.specs = specs
        w = fmt.width
        super().__init__({"a": In(w), "b": In(w), "ce": In(1),
                          **{k: Out(ow) for k, (_, ow, _) in specs.items()}})

    def elaborate(self, platform):
        m = Module()
        for name, (factory, _, takes_b) in self.specs.items():
            u = factory()
            m.submodules[name] = u
            m.d.comb += [u.a.eq(self.a), u.ce.eq(self.ce), getattr(self, name).eq(u.o)]
            if takes_b:
                m.d.comb += u.b.eq(self.b)
        return m


def _arith_specs(fmt: FPFormat, stages: int) -> dict:
    w = fmt.width
    return {
        "div_rne": (lambda: FPDiv(fmt, stages), w, True),
        "div_rtz": (lambda: FPDiv(fmt, stages, rm="rtz"), w, True),
        "div_ftz": (lambda: FPDiv(fmt, stages, ftz=True), w, True),
        "sqrt_rne": (lambda: FPSqrt(fmt, stages), w, False),
        "sqrt_rtz": (lambda: FPSqrt(fmt, stages, rm="rtz"), w, False),
        "sqrt_ftz": (lambda: FPSqrt(fmt, stages, ftz=True), w, False),
    }


def _arith_expected(fmt: FPFormat, a: np.ndarray, b: np.ndarray) -> dict:
    return {
        "div_rne": ref.div(fmt, a, b),
        "div_rtz": ref.div(fmt, a, b, rm="rtz"),
        "div_ftz": ref.div(fmt, a, b, ftz=True),
        "sqrt_rne": ref.sqrt(fmt, a),
        "sqrt_rtz": ref.sqrt(fmt, a, rm="rtz"),
        "sqrt_ftz": ref.sqrt(fmt, a, ftz=True),
    }


def _misc_specs(fmt: FPFormat, stages: int) -> dict:
    w = fmt.width
    specs = {f"cmp_{p}": ((lambda p=p: FPCmp(fmt, p, stages)), 1, True) for p in FCMP_PREDICATES}
    specs.update({
        "cmp_olt_ftz": (lambda: FPCmp(fmt, "olt", stages, ftz=True), 1, True),
        "cmp_ueq_ftz": (lambda: FPCmp(fmt, "ueq", stages, ftz=True), 1, True),
        "min": (lambda: FPMinMax(fmt, False, stages), w, True),
        "max": (lambda: FPMinMax(fmt, True, stages), w, True),
        "min_ftz": (lambda: FPMinMax(fmt, False, stages, ftz=True), w, True),
        "max_ftz": (lambda: FPMinMax(fmt, True, stages, ftz=True), w, True),
        "neg": (lambda: FPSign(fmt, "neg", stages), w, False),
        "abs": (lambda: FPSign(fmt, "abs", stages), w, False),
        "copysign": (lambda: FPSign(fmt, "copysign", stages), w, True),
    })
    return specs


def _misc_expected(fmt: FPFormat, a: np.ndarray, b: np.ndarray) -> dict:
    exp = {f"cmp_{p}": ref.fcmp(fmt, p, a, b).astype(U64) for p in FCMP_PREDICATES}
    exp.update({
        "cmp_olt_ftz": ref.fcmp(fmt, "olt", a, b, ftz=True).astype(U64),
        "cmp_ueq_ftz": ref.fcmp(fmt, "ueq", a, b, ftz=True).astype(U64),
        "min": ref.minnum(fmt, a, b),
        "max": ref.maxnum(fmt, a, b),
        "min_ftz": ref.minnum(fmt, a, b, ftz=True),
        "max_ftz": ref.maxnum(fmt, a, b, ftz=True),
        "neg": ref.neg(fmt, a),
        "abs": ref.fabs(fmt, a),
        "copysign": ref.copysign(fmt, a, b),
    })
    return exp


# -- stimulus ----------------------------------------------------------------------------------


def _enc(fmt: FPFormat, sign, exp, frac) -> np.ndarray:
    sign = np.asarray(sign, dtype=U64)
    exp = np.asarray(exp, dtype=np.int64).astype(U64)
    frac = np.asarray(frac, dtype=U64)
    return (sign << U64(fmt.width - 1)) | (exp << U64(fmt.man_bits)) | (frac & U64(fmt.man_mask))


def corner_values(fmt: FPFormat) -> np.ndarray:
    """Both signs of: zero, subnormals (smallest, largest, middle), the smallest normals, one
    and its neighbours, small integers, powers of two across the range, the largest finite
    numbers, infinity, quiet and signalling NaNs."""
    M, top, bias = fmt.man_bits, fmt.exp_mask, fmt.bias
    mm = fmt.man_mask
    pos = [
        (0, 0), (0, 1), (0, mm), (0, 1 << (M - 1)), (0, mm >> 1),      # zero, subnormals
        (1, 0), (1, 1), (2, 0),                                         # smallest normals
        (bias, 0), (bias, 1), (bias - 1, mm), (bias, mm), (bias - 1, 0),  # 1, 1+u, 1-u/2, 2-u, .5
        (bias + 1, 1 << (M - 1)), (bias + 2, 1 << (M - 2) if M >= 2 else 0),  # 3, 5
        (bias + M + 1, 0), (bias - M - 1, 0), (max(1, bias - M // 2), 3),
        (top - 1, mm), (top - 1, mm - 1), (top - 1, 0), (top - 2, mm),  # largest finite numbers
        (top, 0),                                                       # infinity
        (top, 1 << (M - 1)), (top, 1), (top, mm),                       # NaNs
    ]
    e = np.array([p[0] for p in pos])
    f = np.array([p[1] for p in pos], dtype=U64)
    vals = np.concatenate([_enc(fmt, 0, e, f), _enc(fmt, 1, e, f)])
    return np.unique(vals)


def _sparse_sig(fmt: FPFormat, n: int, bits: int, rng) -> np.ndarray:
    """Fractions with at most ``bits`` significant bits below the hidden one (top-aligned)."""
    k = min(bits, fmt.man_bits)
    return rng.integers(0, 1 << k, n, dtype=np.uint64) << U64(fmt.man_bits - k)


def arith_stimulus(fmt: FPFormat, n_random: int = 3000, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    M, top, bias = fmt.man_bits, fmt.exp_mask, fmt.bias
    cv = corner_values(fmt)
    ca, cb = np.repeat(cv, len(cv)), np.tile(cv, len(cv))
    ra, rb = random_operands(fmt, n_random, 2, rng)
    parts_a, parts_b = [ca, ra], [cb, rb]
    n = 600
    # exact quotients: a = b * c with short significands, so that a / b = c exactly
    half = (M + 1) // 2
    eb = rng.integers(1, top, n)
    ec = np.clip(bias + rng.integers(-(M + 3), M + 4, n), 1, top - 1)
    b = _enc(fmt, rng.integers(0, 2, n), eb, _sparse_sig(fmt, n, half, rng))
    c = _enc(fmt, rng.integers(0, 2, n), ec, _sparse_sig(fmt, n, M - half, rng))
    parts_a.append(ref.mul(fmt, b, c))
    parts_b.append(b)
    # power-of-two divisors pushing the quotient to the subnormal range or just above it:
    # the shifted-out bits make exact rounding ties and every sticky pattern
    ea = rng.integers(1, top, n)
    t = rng.integers(-(M + 3), 3, n)                      # quotient's biased exponent
    eb = np.clip(ea + bias - t, 1, top - 1)
    parts_a.append(_enc(fmt, rng.integers(0, 2, n), ea, _sparse_sig(fmt, n, rng.integers(1, M + 1), rng)))
    parts_b.append(_enc(fmt, rng.integers(0, 2, n), eb, 0))
    # quotients around the largest finite number (overflow after rounding or not)
    ea = np.full(n, top - 1)
    eb = np.clip(bias + rng.integers(-1, 2, n), 1, top - 1)
    fa = np.where(rng.random(n) < 0.5, U64(fmt.man_mask), rng.integers(0, 1 << M, n, dtype=np.uint64))
    parts_a.append(_enc(fmt, rng.integers(0, 2, n), ea, fa))
    parts_b.append(_enc(fmt, 0, eb, rng.integers(0, 4, n, dtype=np.uint64)))
    # square roots: perfect squares, subnormal and near-normal radicands (b is random)
    c = _enc(fmt, 0, np.clip(bias + rng.integers(-bias // 2 + 1, bias // 2, n), 1, top - 1),
             _sparse_sig(fmt, n, half, rng))
    parts_a.append(ref.mul(fmt, c, c))
    parts_b.append(rng.integers(0, fmt.width_mask, n, dtype=np.uint64, endpoint=True))
    parts_a.append(_enc(fmt, rng.integers(0, 2, n) * (rng.random(n) < 0.1), rng.integers(0, 3, n),
                        rng.integers(0, 1 << M, n, dtype=np.uint64)))
    parts_b.append(rng.integers(0, fmt.width_mask, n, dtype=np.uint64, endpoint=True))
    return np.concatenate(parts_a), np.concatenate(parts_b)


def misc_stimulus(fmt: FPFormat, n_random: int = 3000, seed: int = 2) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    cv = corner_values(fmt)
    ca, cb = np.repeat(cv, len(cv)), np.tile(cv, len(cv))
    ra, rb = random_operands(fmt, n_random, 2, rng)
    sign = U64(fmt.sign_bit)
    # equal operands, opposite signs, neighbours (one ulp apart in the encoding)
    x = random_operands(fmt, 1500, 1, rng)[0]
    nb = (x + rng.integers(-1, 2, 1500).astype(np.int64).astype(U64)) & U64(fmt.width_mask)
    a = np.concatenate([ca, ra, x, x, x])
    b = np.concatenate([cb, rb, x, x ^ sign, nb])
    return a, b


# -- running ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _verilog(kind: str, fmt_name: str, stages: int) -> str:
    fmt = FORMATS[fmt_name]
    specs = _arith_specs(fmt, stages) if kind == "arith" else _misc_specs(fmt, stages)
    return unit_verilog(_Bundle(fmt, specs))


def _run_and_compare(kind: str, fmt_name: str, stages: int) -> None:
    fmt = FORMATS[fmt_name]
    text = _verilog(kind, fmt_name, stages)
    if kind == "arith":
        a, b = arith_stimulus(fmt)
        expected = _arith_expected(fmt, a, b)
    else:
        a, b = misc_stimulus(fmt)
        expected = _misc_expected(fmt, a, b)
    stall = 0.2 if stages else 0.0
    got = run_unit(text, {"a": a, "b": b}, list(expected), stages, stall=stall, seed=stages,
                   return_violations=bool(stages))
    if stages:
        assert int(got["__stall_violations__"]) == 0, "outputs changed while ce was low"
    failures = []
    for name, exp in expected.items():
        bad = np.nonzero(got[name] != exp)[0]
        if len(bad):
            i = bad[0]
            failures.append(f"{name}: {len(bad)}/{len(a)} wrong, e.g. a={int(a[i]):#x} "
                            f"b={int(b[i]):#x} got={int(got[name][i]):#x} want={int(exp[i]):#x}")
    assert not failures, f"{fmt_name} stages={stages}:\n" + "\n".join(failures)


def _lint(kind: str, fmt_name: str, stages: int) -> None:
    res = lint_verilog(_verilog(kind, fmt_name, stages), top="top")
    assert not res.defects, res.summary()
    assert res.clean, res.summary()


ARITH_CASES = [(f, s) for f in FORMATS for s in (0, DIV_STAGES[f])]
MISC_CASES = [(f, s) for f in FORMATS for s in (0, 2)]


@pytest.mark.parametrize("fmt_name,stages", ARITH_CASES)
def test_div_sqrt(fmt_name: str, stages: int) -> None:
    _lint("arith", fmt_name, stages)
    _run_and_compare("arith", fmt_name, stages)


@pytest.mark.parametrize("fmt_name,stages", MISC_CASES)
def test_cmp_minmax_sign(fmt_name: str, stages: int) -> None:
    _lint("misc", fmt_name, stages)
    _run_and_compare("misc", fmt_name, stages)


# -- static properties ---------------------------------------------------------------------------


def test_stimulus_reaches_the_hard_cases() -> None:
    """The division / square-root stimulus really produces subnormal results, rounding ties
    below the normal range, exact quotients, overflow and perfect squares."""
    fmt = BINARY32
    a, b = arith_stimulus(fmt)
    q = ref.div(fmt, a, b)
    exp_field = (q >> U64(fmt.man_bits)) & U64(fmt.exp_mask)
    frac = q & U64(fmt.man_mask)
    assert np.sum((exp_field == 0) & (frac != 0)) > 200                     # subnormal results
    assert np.sum((q & U64(fmt.width_mask >> 1)) == U64(fmt.inf())) > 200    # infinities
    q_rtz = ref.div(fmt, a, b, rm="rtz")
    assert np.sum(q != q_rtz) > 500                                         # inexact quotients
    s = ref.sqrt(fmt, a)
    assert np.sum(ref.mul(fmt, s, s) == a) > 400                            # exact roots


@pytest.mark.parametrize("cls", [FPDiv, FPSqrt])
def test_div_sqrt_cost(cls) -> None:
    for fmt in (BINARY32, BINARY64, HALF, FPFormat(10, 30)):
        c0 = cls.cost(fmt, 0)
        assert set(c0) == {"latency", "delay_ns", "lut", "ff", "dsp"}
        assert c0["latency"] == 0 and c0["ff"] == 0 and c0["dsp"] == 0
        prev = c0
        for k in (1, 2, 4, 8, 16):
            c = cls.cost(fmt, k)
            assert c["latency"] == k and c["lut"] == c0["lut"]
            assert c["delay_ns"] <= prev["delay_ns"] + 1e-9 and c["ff"] > prev["ff"]
            prev = c
    assert cls.cost(BINARY64, 0)["lut"] > cls.cost(BINARY32, 0)["lut"]


def test_cmp_cost() -> None:
    assert FPCmp.cost(BINARY32, 0)["latency"] == 0
    assert FPCmp.cost(BINARY32, 2)["ff"] == 2
    assert FPMinMax.cost(BINARY64, 1)["ff"] == 64
    assert FPSign.cost(HALF, 0, "abs")["lut"] == 0


def test_parameter_errors() -> None:
    with pytest.raises(ValueError, match="rm must be"):
        FPDiv(BINARY32, 0, rm="rup")
    with pytest.raises(ValueError, match="stages must be"):
        FPSqrt(BINARY32, -1)
    with pytest.raises(ValueError, match="pred must be"):
        FPCmp(BINARY32, "lt")
    with pytest.raises(ValueError, match="op must be"):
        FPSign(BINARY32, "negate")


def test_ports() -> None:
    assert set(FPDiv(HALF, 2).signature.members) == {"a", "b", "o", "ce"}
    assert set(FPSqrt(HALF, 2).signature.members) == {"a", "o", "ce"}
    assert len(FPCmp(HALF, "oeq").o) == 1
    assert set(FPSign(HALF, "neg").signature.members) == {"a", "o", "ce"}
    assert set(FPSign(HALF, "copysign").signature.members) == {"a", "b", "o", "ce"}

"""FP units (add/sub, mul, fma, conversions) simulated in Verilator against the bit-exact
reference models of :mod:`hls.fpu.ref`, in six formats, combinational and pipelined (at
full throughput and with random clock-enable stalls), on random and corner-case operands;
plus a ``verilator --lint-only -Wall`` of each unit and checks of the cost model.

The Verilog of each unit is cached (keyed by the unit's parameters and the sources of the
unit generators), and the simulators by :mod:`hls.fpu._sim`'s content-hash build cache."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pytest
from amaranth.hdl import Module, Signal
from amaranth.lib import wiring
from amaranth.lib.wiring import In, Out

import amaranth
from hls.fpu import ref
from hls.fpu._common import Seg, plan_cuts, stage_delays
from hls.fpu import FPFormat
from hls.fpu import run_unit, unit_verilog
from hls.fpu import FPAdd
from hls.fpu import FPConvert, FPToInt, IntToFP
from hls.fpu import FPFMA, FPMul

FORMATS = ["e8m23", "e11m52", "e5m10", "e8m7", "e6m9", "e10m30"]
# rounding / flushing of the pipelined variant of each format (stage 0 is always rne, no ftz)
VARIANT = {"e5m10": ("rtz", False), "e8m7": ("rne", True), "e6m9": ("rtz", True)}
N_RANDOM = 3000
U64 = np.uint64

_SRC = Path(__file__).resolve().parent.parent / "hls" / "fpu"


def _verilog(make, key: str) -> str:
    """Verilog of the unit ``make()`` builds, cached by ``key`` plus the generator sources
    (conversion through Yosys is most of a warm test run; the unit is only constructed on a
    cache miss, so Amaranth never sees an unused elaboratable)."""
    h = hashlib.sha256(key.encode() + amaranth.__version__.encode())
    for name in ("_common.py", "_units_add.py", "_units_mul.py", "_units_conv.py"):
        h.update((_SRC / name).read_bytes())
    root = Path(os.environ.get("PYHLS_CACHE", Path.home() / ".cache" / "pyhls")).expanduser()
    path = root / "fpu-verilog" / f"{h.hexdigest()}.v"
    if path.exists():
        return path.read_text()
    text = unit_verilog(make())
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    return text


# --------------------------------------------------------------------------- operands


def _mask(fmt) -> U64:
    return U64((1 << fmt.width) - 1)


def _compose(fmt, sign, exp, frac) -> np.ndarray:
    M, E = fmt.man_bits, fmt.exp_bits
    return ((sign.astype(U64) << U64(E + M)) | (np.clip(exp, 0, (1 << E) - 1).astype(U64) << U64(M))
            | (frac.astype(U64) & U64((1 << M) - 1)))


def _fields(fmt, x):
    M, E = fmt.man_bits, fmt.exp_bits
    exp = ((x >> U64(M)) & U64((1 << E) - 1)).astype(np.int64)
    return (x >> U64(E + M)) & U64(1), exp, x & U64((1 << M) - 1)


def _rand_u64(rng, n) -> np.ndarray:
    return rng.integers(0, 1 << 63, n, dtype=np.uint64) * U64(2) + rng.integers(0, 2, n, dtype=np.uint64)


def _fracs(rng, fmt, n) -> np.ndarray:
    """Uniform fractions, and sparse ones (a few bits at both ends: exact ties and
    cancellations are then frequent)."""
    M = fmt.man_bits
    uni = _rand_u64(rng, n) & U64((1 << M) - 1)
    top = rng.integers(0, 4, n, dtype=np.uint64) << U64(max(M - 2, 0))
    low = rng.integers(0, 4, n, dtype=np.uint64)
    sparse = (top | low) & U64((1 << M) - 1)
    ones = np.full(n, (1 << M) - 1, dtype=np.uint64) ^ rng.integers(0, 2, n, dtype=np.uint64)
    pick = rng.integers(0, 4, n)
    return np.where(pick < 2, uni, np.where(pick == 2, sparse, ones))


def _exps(rng, fmt, n) -> np.ndarray:
    E, M, bias = fmt.exp_bits, fmt.man_bits, fmt.bias
    top = (1 << E) - 1
    pick = rng.integers(0, 5, n)
    return np.select(
        [pick == 0, pick == 1, pick == 2, pick == 3],
        [rng.integers(0, top + 1, n), bias + rng.integers(-M - 2, M + 3, n),
         rng.integers(0, min(M + 4, top), n), top - rng.integers(0, 3, n)],
        rng.integers(1, top, n))


def specials(fmt) -> np.ndarray:
    M, E = fmt.man_bits, fmt.exp_bits
    top = (1 << E) - 1
    mags = [0, 1, 2, 3, (1 << M) - 1, 1 << (M - 1),                             # zero, subnormals
            (1 << M) | 0, (1 << M) | 1,                                           # min normal
            ((top - 1) << M) | ((1 << M) - 1), (top - 1) << M,                    # max finite
            top << M, (top << M) | (1 << (M - 1)), (top << M) | 1,                # inf, qnan, snan
            fmt.bias << M, (fmt.bias << M) | 1, (fmt.bias << M) | (1 << (M - 1)),  # 1.0, 1+ulp, 1.5
            ((fmt.bias + 1) << M) | ((1 << M) - 1), (fmt.bias - 1) << M]
    vals = [v for v in mags] + [v | fmt.sign_bit for v in mags]
    return np.array(sorted(set(vals)), dtype=U64)


def _operands(rng, fmt, n) -> np.ndarray:
    x = _compose(fmt, rng.integers(0, 2, n), _exps(rng, fmt, n), _fracs(rng, fmt, n))
    uni = _rand_u64(rng, n) & _mask(fmt)
    return np.where(rng.integers(0, 4, n) == 0, uni, x)


def _pairs(fmt) -> tuple[np.ndarray, np.ndarray]:
    s = specials(fmt)
    a, b = np.meshgrid(s, s)
    return a.ravel(), b.ravel()


def _with_exp(fmt, x, exp, where):
    s, _e, f = _fields(fmt, x)
    return np.where(where, _compose(fmt, s, exp, f), x)


# --------------------------------------------------------------------------- checking


def _check(make, key: str, inputs: dict, expected: np.ndarray, latency: int) -> None:
    text = _verilog(make, key)
    got = run_unit(text, inputs, ["o"], latency)["o"]
    _compare(key, inputs, got, expected)
    if latency:
        r = run_unit(text, inputs, ["o"], latency, stall=0.3, seed=7, return_violations=True)
        _compare(key + " (stalls)", inputs, r["o"], expected)
        assert int(r["__stall_violations__"]) == 0, f"{key}: output changed while ce was low"


def _compare(key, inputs, got, expected) -> None:
    bad = np.nonzero(got != expected)[0]
    if len(bad):
        lines = [f"{key}: {len(bad)} of {len(got)} mismatches"]
        for i in bad[:10]:
            ops = " ".join(f"{k}={int(v[i]):#x}" for k, v in inputs.items())
            lines.append(f"  {ops}: got {int(got[i]):#x}, expected {int(expected[i]):#x}")
        pytest.fail("\n".join(lines))


def _cases(pipelined_stages: int):
    out = []
    for f in FORMATS:
        out.append(pytest.param(f, 0, "rne", False, id=f"{f}-s0"))
        rm, ftz = VARIANT.get(f, ("rne", False))
        out.append(pytest.param(f, pipelined_stages, rm, ftz,
                                id=f"{f}-s{pipelined_stages}-{rm}{'-ftz' if ftz else ''}"))
    return out


# --------------------------------------------------------------------------- add / mul / fma


@pytest.mark.parametrize("name,stages,rm,ftz", _cases(3))
def test_add(name, stages, rm, ftz):
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(11)
    n, M = N_RANDOM, fmt.man_bits
    a, b = _operands(rng, fmt, n), _operands(rng, fmt, n)
    _s, ea, _f = _fields(fmt, a)
    b = _with_exp(fmt, b, ea + rng.integers(-M - 3, M + 4, n), rng.integers(0, 2, n) == 1)
    pa, pb = _pairs(fmt)
    a, b = np.concatenate([a, pa]), np.concatenate([b, pb])
    unit = lambda: FPAdd(fmt, stages, rm=rm, ftz=ftz)  # noqa: E731
    _check(unit, f"add {name} {stages} {rm} {ftz}", {"a": a, "b": b},
           ref.add(fmt, a, b, rm=rm, ftz=ftz), stages)


def test_sub():
    fmt = FPFormat.parse("e8m23")
    rng = np.random.default_rng(12)
    a, b = _operands(rng, fmt, N_RANDOM), _operands(rng, fmt, N_RANDOM)
    _s, ea, _f = _fields(fmt, a)
    b = _with_exp(fmt, b, ea + rng.integers(-3, 4, N_RANDOM), rng.integers(0, 2, N_RANDOM) == 1)
    pa, pb = _pairs(fmt)
    a, b = np.concatenate([a, pa]), np.concatenate([b, pb])
    _check(lambda: FPAdd(fmt, 2, sub=True), "sub e8m23 2", {"a": a, "b": b}, ref.sub(fmt, a, b), 2)


#: significands sliced on both sides (ECP5's 18 x 17 tiles, and a narrow 7-bit slicing
#: whose tiles are uneven and tiny): the product must not change
XTILES = [pytest.param("e8m23", 6, "rne", False, 18, id="e8m23-s6-x18"),
          pytest.param("e11m52", 4, "rne", False, 18, id="e11m52-s4-x18"),
          pytest.param("e6m9", 2, "rtz", True, 7, id="e6m9-s2-rtz-ftz-x7")]


@pytest.mark.parametrize("name,stages,rm,ftz,xtile",
                         [pytest.param(*c.values, None, id=c.id) for c in _cases(3)] + XTILES)
def test_mul(name, stages, rm, ftz, xtile):
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(21)
    n, M, E, bias = N_RANDOM, fmt.man_bits, fmt.exp_bits, fmt.bias
    a, b = _operands(rng, fmt, n), _operands(rng, fmt, n)
    _s, ea, _f = _fields(fmt, a)
    pick = rng.integers(0, 5, n)
    under = bias - ea + rng.integers(-M - 3, 4, n)          # results near / below the subnormals
    over = (1 << E) - 2 + bias - ea + rng.integers(-2, 3, n)  # results near overflow
    b = _with_exp(fmt, b, under, pick <= 1)
    b = _with_exp(fmt, b, over, pick == 2)
    pa, pb = _pairs(fmt)
    a, b = np.concatenate([a, pa]), np.concatenate([b, pb])
    unit = lambda: FPMul(fmt, stages, rm=rm, ftz=ftz, xtile=xtile)  # noqa: E731
    _check(unit, f"mul {name} {stages} {rm} {ftz} {xtile}", {"a": a, "b": b},
           ref.mul(fmt, a, b, rm=rm, ftz=ftz), stages)



@pytest.mark.parametrize("kind, name, rm, ftz", [("add", "e11m52", "rne", False),
                                                 ("mul", "e11m52", "rne", False),
                                                 ("mul", "e5m10", "rtz", True),
                                                 ("fromint", "e8m23", "rne", False),
                                                 ("convert", "e11m52", "rne", False)])
def test_rounding_split_by_a_register(kind, name, rm, ftz):
    """With a register at every segment boundary, the rounding's decision (the OR below
    the rounding position, the zero test) and its increment and pack sit in two stages,
    the decision and the values the unit keeps past the rounding (special results) carried
    through the register between them, and an adder's or multiplier's leading-zero count
    is registered before its limit and the shift distances: the results are still the
    reference model's."""
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(61)
    n = N_RANDOM
    if kind == "fromint":
        segs = IntToFP._segments(fmt, 32)
        make = lambda st: IntToFP(fmt, 32, True, st, rm=rm)  # noqa: E731
        x = _rand_u64(rng, n) >> rng.integers(0, 64, n).astype(U64) & U64(0xFFFFFFFF)
        inputs, expected = {"a": x}, ref.from_int(fmt, x, 32, True, rm=rm)
    elif kind == "convert":
        dst = FPFormat.parse("e8m23")
        segs = FPConvert._segments(fmt, dst, ftz)
        make = lambda st: FPConvert(fmt, dst, st, rm=rm, ftz=ftz)  # noqa: E731
        a = np.concatenate([_operands(rng, fmt, n), specials(fmt)])
        inputs, expected = {"a": a}, ref.convert(fmt, dst, a, rm=rm, ftz=ftz)
    else:
        cls = FPAdd if kind == "add" else FPMul
        segs = cls._segments(fmt, ftz)
        make = lambda st: cls(fmt, st, rm=rm, ftz=ftz)  # noqa: E731
        pa, pb = _pairs(fmt)
        a = np.concatenate([_operands(rng, fmt, n), pa])
        b = np.concatenate([_operands(rng, fmt, n), pb])
        inputs = {"a": a, "b": b}
        expected = (ref.add if kind == "add" else ref.mul)(fmt, a, b, rm=rm, ftz=ftz)
    names = [sg.name for sg in segs]
    stages = len(segs)
    cuts = plan_cuts([sg.delay for sg in segs], stages)
    assert cuts[names.index("rinc")] == 1, "no register between the rounding's two halves"
    if kind in ("add", "mul") and not ftz:   # and between the leading-zero count and its limit
        assert cuts[names.index("lzc")] == 1
    if kind == "add":     # and between the alignment's distance and trailing zeros and its shift
        assert cuts[names.index("tz")] == 1
    _check(lambda: make(stages), f"split {kind} {name} {rm} {ftz}", inputs, expected, stages)

@pytest.mark.parametrize("name,stages,rm,ftz,xtile",
                         [pytest.param(*c.values, None, id=c.id) for c in _cases(4)] + XTILES[:2])
def test_fma(name, stages, rm, ftz, xtile):
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(31)
    n, M, bias = N_RANDOM, fmt.man_bits, fmt.bias
    a, b, c = _operands(rng, fmt, n), _operands(rng, fmt, n), _operands(rng, fmt, n)
    _s, ea, _f = _fields(fmt, a)
    _s, eb, _f = _fields(fmt, b)
    pick = rng.integers(0, 5, n)
    # c near the product (cancellation, ties), and products near the subnormal range
    c = _with_exp(fmt, c, ea + eb - bias + rng.integers(-M - 6, M + 7, n), pick <= 2)
    b = _with_exp(fmt, b, bias - ea + rng.integers(-M - 3, 3, n), pick == 3)
    s = specials(fmt)
    k = 2000
    ia, ib, ic = (np.random.default_rng(32).integers(0, len(s), k) for _ in range(3))
    a, b, c = (np.concatenate([x, s[i]]) for x, i in ((a, ia), (b, ib), (c, ic)))
    unit = lambda: FPFMA(fmt, stages, rm=rm, ftz=ftz, xtile=xtile)  # noqa: E731
    _check(unit, f"fma {name} {stages} {rm} {ftz} {xtile}", {"a": a, "b": b, "c": c},
           ref.fma(fmt, a, b, c, rm=rm, ftz=ftz), stages)


# --------------------------------------------------------------------------- conversions


@pytest.mark.parametrize("name,stages,width,signed", [
    p for f in FORMATS for p in (pytest.param(f, 0, 32, True, id=f"{f}-s0-i32"),
                                 pytest.param(f, 2, 64, False, id=f"{f}-s2-u64"))
] + [pytest.param("e5m10", 1, 8, True, id="e5m10-s1-i8"),
      pytest.param("e8m23", 0, 1, False, id="e8m23-s0-u1")])
def test_to_int(name, stages, width, signed):
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(41)
    n = N_RANDOM
    a = _operands(rng, fmt, n)
    a = _with_exp(fmt, a, fmt.bias + rng.integers(-2, width + 3, n), rng.integers(0, 3, n) > 0)
    # exact range limits: +-2**(width-1), +-2**width and their neighbours
    lim = []
    for k in (width - 1, width):
        if k + fmt.bias < (1 << fmt.exp_bits) - 1:
            base = np.array([(k + fmt.bias) << fmt.man_bits], dtype=U64)
            lim += [base, base - U64(1), base + U64(1)]
    lim = np.concatenate(lim) if lim else np.zeros(0, U64)
    lim = np.concatenate([lim, lim | U64(fmt.sign_bit)])
    a = np.concatenate([a, specials(fmt), lim])
    _check(lambda: FPToInt(fmt, width, signed, stages), f"toint {name} {stages} {width} {signed}",
           {"a": a}, ref.to_int(fmt, a, width, signed), stages)


@pytest.mark.parametrize("name,stages,width,signed,rm", [
    p for f in FORMATS for p in (pytest.param(f, 0, 32, True, "rne", id=f"{f}-s0-i32"),
                                 pytest.param(f, 2, 64, False, VARIANT.get(f, ("rne",))[0],
                                              id=f"{f}-s2-u64"))
] + [pytest.param("e8m23", 1, 24, True, "rtz", id="e8m23-s1-i24-rtz"),
     pytest.param("e6m9", 0, 5, True, "rne", id="e6m9-s0-i5")])
def test_from_int(name, stages, width, signed, rm):
    fmt = FPFormat.parse(name)
    rng = np.random.default_rng(51)
    n = N_RANDOM
    wm = U64((1 << width) - 1)
    x = _rand_u64(rng, n) >> rng.integers(0, 64, n).astype(U64)
    edges = [0, 1, 2, 3, (1 << width) - 1, 1 << (width - 1), (1 << (width - 1)) - 1, (1 << (width - 1)) + 1]
    for k in range(0, width, max(1, width // 16)):  # 2**k and ties around it
        edges += [1 << k, (1 << k) + 1, (1 << k) - 1, (1 << k) | (1 << max(k - fmt.man_bits - 1, 0))]
    x = np.concatenate([x, np.array(edges, dtype=U64)]) & wm
    _check(lambda: IntToFP(fmt, width, signed, stages, rm=rm),
           f"fromint {name} {stages} {width} {signed} {rm}", {"a": x},
           ref.from_int(fmt, x, width, signed, rm=rm), stages)


def _ring(step: int):
    return [(FORMATS[i], FORMATS[(i + step) % len(FORMATS)]) for i in range(len(FORMATS))]


@pytest.mark.parametrize("src,dst,stages,rm,ftz", [
    pytest.param(s, d, 0, "rne", False, id=f"{s}-{d}-s0") for s, d in _ring(1)
] + [
    pytest.param(s, d, 2, *VARIANT.get(s, ("rne", False)), id=f"{s}-{d}-s2") for s, d in _ring(-1)
])
def test_convert(src, dst, stages, rm, ftz):
    sf, df = FPFormat.parse(src), FPFormat.parse(dst)
    rng = np.random.default_rng(61)
    n = N_RANDOM
    a = _operands(rng, sf, n)
    pick = rng.integers(0, 4, n)
    # exponents around the destination's subnormal range and its overflow threshold
    near_min = sf.bias - df.bias + rng.integers(-df.man_bits - 3, 3, n)
    near_max = sf.bias + df.bias + rng.integers(-2, 3, n)
    a = _with_exp(sf, a, near_min, pick == 0)
    a = _with_exp(sf, a, near_max, pick == 1)
    a = np.concatenate([a, specials(sf)])
    _check(lambda: FPConvert(sf, df, stages, rm=rm, ftz=ftz),
           f"convert {src} {dst} {stages} {rm} {ftz}", {"a": a},
           ref.convert(sf, df, a, rm=rm, ftz=ftz), stages)


# --------------------------------------------------------------------------- lint, cost, runner


def _lint_units():
    b64, half = FPFormat.parse("e11m52"), FPFormat.parse("e5m10")
    return [
        ("add-b64-s3", lambda: FPAdd(b64, 3)), ("add-half-s0-ftz", lambda: FPAdd(half, 0, ftz=True)),
        ("mul-b64-s3", lambda: FPMul(b64, 3)), ("mul-half-s0", lambda: FPMul(half, 0)),
        ("fma-b64-s4", lambda: FPFMA(b64, 4)), ("fma-half-s0-ftz", lambda: FPFMA(half, 0, ftz=True)),
        ("toint-b64-s2", lambda: FPToInt(b64, 64, True, 2)),
        ("fromint-half-s0", lambda: IntToFP(half, 32, True, 0)),
        ("convert-b64-half-s2", lambda: FPConvert(b64, half, 2)),
        ("convert-half-b64-s0", lambda: FPConvert(half, b64, 0)),
    ]


@pytest.mark.parametrize("key,make", [pytest.param(k, f, id=k) for k, f in _lint_units()])
def test_lint(key, make):
    from hls.verify import lint_verilog

    res = lint_verilog(_verilog(make, "lint " + key), "top")
    assert not res.defects, res.summary()
    assert res.clean, res.summary()


def test_cost_model():
    for fmt in map(FPFormat.parse, FORMATS):
        for cls in (FPAdd, FPMul, FPFMA):
            c0, c3 = cls.cost(fmt, 0), cls.cost(fmt, 3)
            assert set(c0) == {"latency", "delay_ns", "lut", "ff", "dsp"}
            assert c0["latency"] == 0 and c3["latency"] == 3 and c0["ff"] == 0 < c3["ff"]
            assert c3["delay_ns"] < c0["delay_ns"]
        assert FPToInt.cost(fmt, 1, width=32)["latency"] == 1
        assert IntToFP.cost(fmt, 1, width=64)["latency"] == 1
        assert FPConvert.cost(fmt, 2, dst=FPFormat.parse("e8m23"))["latency"] == 2
    b32, b64 = FPFormat.parse("e8m23"), FPFormat.parse("e11m52")
    assert FPMul.cost(b32, 2)["dsp"] == 2
    assert 8 <= FPMul.cost(b64, 3)["dsp"] <= 12


def test_plan_cuts():
    assert plan_cuts([1.0, 1.0, 1.0, 1.0], 0) == [0, 0, 0, 0]
    assert plan_cuts([1.0, 1.0, 1.0, 1.0], 1) == [0, 1, 0, 0]
    assert plan_cuts([1.0, 1.0, 1.0, 1.0], 3) == [1, 1, 1, 0]
    segs = [Seg(str(i), d, 0, 0) for i, d in enumerate([5.0, 1.0, 1.0, 3.0])]
    assert max(stage_delays(segs, plan_cuts([s.delay for s in segs], 2))) == 5.0
    assert plan_cuts([1.0, 4.0, 1.0], 2) == [1, 1, 0]
    assert plan_cuts([1.0, 1.0], 4) == [1, 3]          # extra registers stack at the output
    assert sum(plan_cuts([0.5] * 7, 5)) == 5


class _Probe(wiring.Component):
    """64-bit and 1-bit ports through two clock-enabled registers."""

    def __init__(self):
        super().__init__({"a": In(64), "f": In(1), "ce": In(1), "o": Out(64), "g": Out(1)})

    def elaborate(self, platform):
        m = Module()
        r1, r2, f1, f2 = Signal(64), Signal(64), Signal(), Signal()
        with m.If(self.ce):
            m.d.sync += [r1.eq(self.a ^ 0x8000_0000_0000_0001), r2.eq(r1), f1.eq(~self.f), f2.eq(f1)]
        m.d.comb += [self.o.eq(r2), self.g.eq(f2)]
        return m


def test_runner_ports_and_stalls():
    rng = np.random.default_rng(3)
    a = _rand_u64(rng, 100_000)
    f = rng.integers(0, 2, 100_000, dtype=np.uint64)
    for stall in (0.0, 0.5):
        r = run_unit(_Probe(), {"a": a, "f": f}, ["o", "g"], 2, stall=stall, return_violations=True)
        assert (r["o"] == a ^ U64(0x8000_0000_0000_0001)).all()
        assert (r["g"] == f ^ U64(1)).all()
        assert int(r["__stall_violations__"]) == 0

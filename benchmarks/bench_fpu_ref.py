"""Check and time the FP reference models (hls.fpu.ref) on a million random cases per
operation and format.

Operands come from ``hls.fpu.random_operands`` (a quarter uniform bit patterns, the rest biased
toward zeros, subnormals, range ends, specials, ties, cancellation, under- and overflow). The
references: the host's IEEE arithmetic through NumPy for binary32, binary64 and half;
apytypes for the other formats' add/sub/mul/div and conversions; float64 values (exact for
these formats) for comparisons, min/max and integer conversions; and the exact rational model
of ``tests/test_fpu_ref.py`` (fractions.Fraction) on a smaller sample (``--exact-n``) where
neither exists: fma everywhere, sqrt of the custom formats. ops/s times the model alone on
all ``--n`` cases (fcmp: all 16 predicates, counted as 16 operations per case).

    python benchmarks/bench_fpu_ref.py [--n 1000000] [--exact-n 20000] [--formats e8m23,...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import apytypes as apy  # noqa: E402

from hls.fpu import BINARY32, BINARY64, HALF, FPFormat, random_operands, ref  # noqa: E402
from test_fpu_ref import x_add, x_convert, x_div, x_fma, x_from_int, x_mul, x_sqrt  # noqa: E402

U64 = np.uint64
HOST = {BINARY32: (np.float32, np.uint32), BINARY64: (np.float64, np.uint64), HALF: (np.float16, np.uint16)}
DEFAULT_FORMATS = "binary32,binary64,half,bfloat16,e6m9,e10m30"


def is_nan(fmt, bits):
    return (bits & U64(fmt.sign_bit - 1)) > U64(fmt.inf())


def mismatches(fmt, got, want) -> int:
    gn, wn = is_nan(fmt, got), is_nan(fmt, want)
    bad = (gn != wn) | (~wn & (got != want)) | (gn & (got != U64(fmt.qnan)))
    return int(bad.sum())


def host(fmt, bits):
    ftype, utype = HOST[fmt]
    return bits.astype(utype).view(ftype)


def host_bits(values):
    return values.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[values.itemsize]).astype(U64)


def apy_array(fmt, bits):
    return apy.APyFloatArray.from_bits(bits, fmt.exp_bits, fmt.man_bits)


def apy_bits(arr):
    return np.asarray(arr.to_bits(numpy=True), dtype=U64)


def values(fmt, bits):
    """Exact float64 values, independently of hls.fpu (through the host or apytypes)."""
    if fmt in HOST:
        with np.errstate(invalid="ignore"):
            return host(fmt, bits).astype(np.float64)
    return apy_array(fmt, bits).to_numpy()


def arbitrate(fmt, got, want, model, *arrays) -> tuple[int, str]:
    """Mismatches against apytypes, where apytypes and the model disagree decided by the exact
    rational model (apytypes 0.5.1 misrounds some casts at the subnormal boundary)."""
    gn, wn = is_nan(fmt, got), is_nan(fmt, want)
    differ = np.flatnonzero((gn != wn) | (~wn & (got != want)))
    if differ.size == 0:
        return mismatches(fmt, got, want), "apytypes"
    decided = exact(model, *(x[differ] for x in arrays))
    want = want.copy()
    want[differ] = decided
    bad = mismatches(fmt, got, want)
    return bad, f"apytypes ({differ.size - bad} apytypes errors, per Fraction)"


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t0


def exact(fn, *arrays):
    return np.array([fn(*(int(v) for v in vals)) for vals in zip(*arrays, strict=True)], dtype=U64)


def bench_format(fmt: FPFormat, n: int, exact_n: int, rng, rows: list) -> None:
    a, b, c = random_operands(fmt, n, 3, rng)
    is_host = fmt in HOST

    def row(op, cases, bad, seconds, reference, ops_per_case=1):
        rows.append((op, fmt.name, cases, bad, cases * ops_per_case / seconds, reference))

    # add, sub, mul, div
    npops = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}
    apyops = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
              "div": lambda x, y: x / y}  # fmt: skip
    for op in npops:
        for rm in ("rne", "rtz"):
            got, dt = timed(getattr(ref, op), fmt, a, b, rm=rm)
            if is_host and rm == "rne":
                with np.errstate(all="ignore"):
                    want, name = host_bits(npops[op](host(fmt, a), host(fmt, b))), "numpy"
            else:
                with apy.APyFloatQuantizationContext(
                    apy.QuantizationMode.TIES_EVEN if rm == "rne" else apy.QuantizationMode.TO_ZERO
                ):
                    want = apy_bits(apyops[op](apy_array(fmt, a), apy_array(fmt, b)))
                model = {"add": x_add, "sub": lambda f, x, y, rm: x_add(f, x, y ^ f.sign_bit, rm),
                         "mul": x_mul, "div": x_div}[op]  # fmt: skip
                bad, name = arbitrate(fmt, got, want, lambda x, y, m=model, rm=rm: m(fmt, x, y, rm), a, b)
                row(f"{op} {rm}", n, bad, dt, name)
                continue
            row(f"{op} {rm}", n, mismatches(fmt, got, want), dt, name)

    # sqrt (positive operands half the time)
    sa = np.where(rng.random(n) < 0.5, a & U64(fmt.sign_bit - 1), a)
    got, dt = timed(ref.sqrt, fmt, sa)
    if is_host:
        with np.errstate(all="ignore"):
            row("sqrt rne", n, mismatches(fmt, got, host_bits(np.sqrt(host(fmt, sa)))), dt, "numpy")
    else:
        k = slice(0, exact_n)
        want = exact(lambda x: x_sqrt(fmt, x), sa[k])
        row("sqrt rne", exact_n, mismatches(fmt, got[k], want), dt * exact_n / n, "Fraction")

    # fma (exact model on a sample; ops/s over all n)
    for rm in ("rne", "rtz"):
        got, dt = timed(ref.fma, fmt, a, b, c, rm=rm)
        k = slice(0, exact_n)
        want = exact(lambda x, y, z, rm=rm: x_fma(fmt, x, y, z, rm), a[k], b[k], c[k])
        row(f"fma {rm}", exact_n, mismatches(fmt, got[k], want), dt * exact_n / n, "Fraction")

    # fcmp, all predicates
    x, y = values(fmt, a), values(fmt, b)
    t0 = time.perf_counter()
    results = {p: ref.fcmp(fmt, p, a, b) for p in ref.FCMP_PREDICATES}
    dt = time.perf_counter() - t0
    uno = np.isnan(x) | np.isnan(y)
    rel = {"eq": x == y, "ne": (x < y) | (x > y), "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y}
    bad = 0
    for p, got in results.items():
        if p in ("false", "true"):
            want = np.full(n, p == "true")
        elif p in ("ord", "uno"):
            want = uno if p == "uno" else ~uno
        else:
            want = rel[p[1:]] & ~uno if p[0] == "o" else rel[p[1:]] | uno
        bad += int((got != want).sum())
    row("fcmp (16 preds)", n, bad, dt, "float64 values", ops_per_case=16)

    # minnum / maxnum
    zeros = (x == 0) & (y == 0)
    for op, fn, hfn, zero in (("minnum", ref.minnum, np.fmin, a | b), ("maxnum", ref.maxnum, np.fmax, a & b)):
        got, dt = timed(fn, fmt, a, b)
        v = hfn(x, y)
        want = np.where(np.isnan(v), U64(fmt.qnan), np.where((v == x) & ~np.isnan(x), a, b))
        want = np.where(zeros, zero, want)
        row(op, n, mismatches(fmt, got, want), dt, "float64 values")

    # to_int: i32 (in range against the float64 values; saturation otherwise)
    for width, signed in ((32, True), (32, False), (64, True)):
        got, dt = timed(ref.to_int, fmt, a, width, signed)
        lo, hi = (-(2.0 ** (width - 1)), 2.0 ** (width - 1)) if signed else (0.0, 2.0**width)
        with np.errstate(all="ignore"):
            t = np.trunc(x)
            inside = (t >= lo) & (t < hi)
            itype = {(32, True): np.int32, (32, False): np.uint32, (64, True): np.int64}[width, signed]
            want = np.where(inside, x, 0).astype(itype).astype(np.int64 if signed else np.uint64).astype(U64)
        mask = U64((1 << width) - 1)
        sat_hi = U64((int(hi) - 1) & int(mask))
        sat_lo = U64(int(lo) & int(mask))
        want = np.where(inside, want & mask, np.where(t >= hi, sat_hi, sat_lo))
        want = np.where(np.isnan(x), U64(0), want)
        name = f"to_int {'i' if signed else 'u'}{width}"
        row(name, n, int((got != want).sum()), dt, "float64 values")

    # from_int: i32 / u32 (exact in float64, then rounded by the host or apytypes)
    ints = rng.integers(0, 1 << 32, n, dtype=np.uint64)
    ints = np.where(rng.random(n) < 0.5, ints >> rng.integers(0, 32, n).astype(U64), ints)
    for signed in (True, False):
        got, dt = timed(ref.from_int, fmt, ints, 32, signed)
        v = (ints.astype(np.uint32).view(np.int32) if signed else ints.astype(np.uint32)).astype(np.float64)
        if is_host:
            with np.errstate(over="ignore"):
                want, name = host_bits(v.astype(HOST[fmt][0])), "numpy"
        else:
            want = apy_bits(apy_array(BINARY64, v.view(U64)).cast(fmt.exp_bits, fmt.man_bits, fmt.bias))
            bad, name = arbitrate(fmt, got, want, lambda i, sg=signed: x_from_int(fmt, i, 32, sg), ints)
            row(f"from_int {'i' if signed else 'u'}32", n, bad, dt, name)
            continue
        row(f"from_int {'i' if signed else 'u'}32", n, mismatches(fmt, got, want), dt, name)

    # convert to and from binary64
    if fmt != BINARY64:
        got, dt = timed(ref.convert, fmt, BINARY64, a)
        row("convert ->e11m52", n, mismatches(BINARY64, got, x.view(U64)), dt, "float64 values")
        (d,) = random_operands(BINARY64, n, 1, rng)
        # Values of fmt, their binary64 neighbours, and midpoints between neighbours of fmt.
        grid = ref.convert(fmt, BINARY64, b)
        tweaked = grid + rng.integers(-2, 3, n).astype(np.int64).view(U64)
        with np.errstate(all="ignore"):
            mid = (ref.to_float(fmt, b) / 2 + ref.to_float(fmt, b + U64(1)) / 2).view(U64)
        d = np.choose(rng.integers(0, 4, n), [d, grid, tweaked, mid])
        got, dt = timed(ref.convert, BINARY64, fmt, d)
        if is_host:
            with np.errstate(all="ignore"):
                want, name = host_bits(d.view(np.float64).astype(HOST[fmt][0])), "numpy"
            row("convert e11m52->", n, mismatches(fmt, got, want), dt, name)
        else:
            want = apy_bits(apy_array(BINARY64, d).cast(fmt.exp_bits, fmt.man_bits, fmt.bias))
            bad, name = arbitrate(fmt, got, want, lambda v: x_convert(BINARY64, fmt, v), d)
            row("convert e11m52->", n, bad, dt, name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000, help="random cases per operation and format")
    ap.add_argument("--exact-n", type=int, default=20_000, help="cases checked with the Fraction model")
    ap.add_argument("--formats", default=DEFAULT_FORMATS)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    rows: list = []
    header = f"{'op':<18} {'format':<8} {'cases':>9} {'mismatches':>10} {'ops/s':>12}  reference"
    print(header)
    print("-" * len(header))
    for text in args.formats.split(","):
        fmt = FPFormat.parse(text)
        start = len(rows)
        bench_format(fmt, args.n, args.exact_n, rng, rows)
        for op, name, cases, bad, rate, reference in rows[start:]:
            print(f"{op:<18} {name:<8} {cases:>9} {bad:>10} {rate:>12,.0f}  {reference}", flush=True)
    total_bad = sum(r[3] for r in rows)
    print(f"\n{len(rows)} checks, {sum(r[2] for r in rows):,} cases, {total_bad} mismatches")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())

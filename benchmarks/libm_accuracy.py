"""The accuracy of pyhls's libm (hls/lib/libm) against glibc: the library built natively
(hls.frontend._libm.native_library, the same C and flags the frontend compiles), each
function run on its edge values and on N random arguments (random encodings of every
exponent, [-10, 10], the function's working range, random magnitudes 2^-70..2^70; for
pow and atan2 a grid of special-value pairs and random pairs: tests/test_libm.py's
edge_pairs and random_pairs), and the largest distance to glibc's result in units in the last place, with the argument
that shows it.  Writes benchmarks/results/libm_accuracy.md (and .json with --json).

    python benchmarks/libm_accuracy.py [--n 1000000] [--seed 0] [--cosim]

--cosim also co-simulates the tests' two kernels (expf + sinf, cos * exp with
-fno-math-errno) with their loops pipelined, which tests/test_libm.py leaves out for
time, and adds their cycles, resources and seconds to the table.

The bound the frontend's warnings state (hls.frontend._libm.ULP_BOUND) must be at least
the measured maximum: the script exits with status 1 otherwise."""

from __future__ import annotations

import argparse
import ctypes
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from hls.frontend._libm import FUNCTIONS, PREFIX, ULP_BOUND, arity, native_library  # noqa: E402
from test_libm import DOUBLE_KERNEL, DOUBLE_TB, FLOAT_KERNEL, cases, ulp_distance  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def measure(n: int, seed: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="pyhls-libm-") as d:
        ours = ctypes.CDLL(str(native_library(d)))
        glibc = ctypes.CDLL("libm.so.6")
        for name, w in FUNCTIONS.items():
            t = ctypes.c_double if w == 64 else ctypes.c_float
            f, g = getattr(ours, PREFIX + name), getattr(glibc, name)
            for fn in (f, g):
                fn.restype, fn.argtypes = t, [t] * arity(name)
            t0 = time.perf_counter()
            xs = cases(name, n, seed)
            hist: dict[int, int] = {}
            worst, at = 0.0, None
            for x in xs:
                u = ulp_distance(f(*x), g(*x), w)
                hist[int(min(u, 99))] = hist.get(int(min(u, 99)), 0) + 1
                if u > worst:
                    worst, at = u, x if len(x) > 1 else x[0]
            rows.append({"function": name, "bits": w, "arguments": len(xs),
                         "max_ulp": worst, "at": at, "bound": ULP_BOUND[name],
                         "exact_share": hist.get(0, 0) / len(xs),
                         "seconds": round(time.perf_counter() - t0, 1)})
    return rows


def table(rows: list[dict], n: int, seed: int) -> str:
    out = ["# pyhls libm against glibc", "",
           f"`python benchmarks/libm_accuracy.py --n {n} --seed {seed}`: each function on its "
           f"edge values and {n} random arguments; the library built natively with the "
           "frontend's flags (`-O1 -ffp-contract=off`), glibc's `libm.so.6` of this machine.",
           "", "| function | arguments | max ulp | at | results equal to glibc's | bound stated |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        at = "-" if r["at"] is None else repr(r["at"])
        out.append(f"| `{r['function']}` | {r['arguments']} | {r['max_ulp']:g} | {at} | "
                   f"{100 * r['exact_share']:.2f} % | {r['bound']} |")
    return "\n".join(out) + "\n"


def cosim_kernels() -> list[dict]:
    """The tests' kernels co-simulated with pipelined loops (the flow's default)."""
    from hls.verify import cosim
    rows = []
    with tempfile.TemporaryDirectory(prefix="pyhls-libm-cosim-") as d:
        d = Path(d)
        (d / "act.c").write_text(FLOAT_KERNEL)
        (d / "wave.c").write_text(DOUBLE_KERNEL)
        (d / "tb.c").write_text(DOUBLE_TB)
        for top, src, tb, flags in (("act", d / "act.c", d / "act.c", ()),
                                    ("wave", d / "wave.c", d / "tb.c",
                                     ("-fno-math-errno", f"-I{d}"))):
            t0 = time.perf_counter()
            res = cosim(src, top, tb=tb, cflags=flags, workdir=d / top)
            rep = res.synth.report
            loops = rep.get("loops") or [{}]
            rows.append({"top": top, "passed": res.passed,
                         "cycles": [c.cycles for c in res.calls],
                         "ii": loops[0].get("ii"), "resources": rep.get("resources"),
                         "seconds": round(time.perf_counter() - t0, 1)})
    return rows


def cosim_table(rows: list[dict]) -> str:
    out = ["", "## Co-simulated with pipelined loops (`--cosim`)", "",
           "| kernel | passed | cycles per call | II | LUT | DSP | seconds |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        res = r["resources"] or {}
        out.append(f"| `{r['top']}` | {r['passed']} | {r['cycles']} | {r['ii']} | "
                   f"{res.get('lut')} | {res.get('dsp')} | {r['seconds']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cosim", action="store_true")
    ap.add_argument("--out", default=str(RESULTS / "libm_accuracy.md"))
    a = ap.parse_args()
    rows = measure(a.n, a.seed)
    text = table(rows, a.n, a.seed)
    kernels = cosim_kernels() if a.cosim else []
    if kernels:
        text += cosim_table(kernels)
    Path(a.out).write_text(text)
    if a.json:
        Path(a.out).with_suffix(".json").write_text(
            json.dumps({"functions": rows, "cosim": kernels}, indent=1) + "\n")
    print(text)
    over = [r["function"] for r in rows if not r["max_ulp"] <= r["bound"]]
    over += [r["top"] for r in kernels if not r["passed"]]
    if over:
        print(f"failed or above the stated bound: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

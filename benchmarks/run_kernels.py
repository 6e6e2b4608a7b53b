"""Co-simulate every shared kernel (``../shared/kernels``) and report per-kernel results.

    python benchmarks/run_kernels.py [--kernels DIR] [--mode tb|main|both] [NAME...]

For each kernel: synthesis time (Verilator build excluded), whether ``--tb`` and
``--top main`` co-simulation pass, total simulated cycles, and the cycles of a lower-bound
model (sum over executed blocks of the longest latency chain, from the report).  Prints a
table and writes ``benchmarks/results/kernels.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.errors import HLSError  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.fpu import FPFormat  # noqa: E402
from hls.verify import cosim  # noqa: E402


def default_kernels_dir() -> Path:
    for cand in (ROOT.parent / "shared" / "kernels", ROOT / "examples" / "kernels"):
        if cand.is_dir():
            return cand
    return ROOT.parent / "shared" / "kernels"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--kernels", type=Path, default=default_kernels_dir())
    ap.add_argument("--mode", choices=("tb", "main", "both"), default="both")
    ap.add_argument("--include-float", action="store_true")
    ap.add_argument("--no-pipeline-too", action="store_true",
                    help="also co-simulate --tb with loop pipelining off and report both")
    ap.add_argument("--fp-format", default=None, metavar="eEmM",
                    help="float kernels: compute in this custom format ('*=eEmM')")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "kernels.json")
    args = ap.parse_args(argv)
    rows = []
    for man in sorted(args.kernels.glob("*.json")):
        meta = json.loads(man.read_text())
        name = man.stem
        if args.names and name not in args.names:
            continue
        if meta.get("float") and not args.include_float:
            continue
        src = man.with_suffix(".c")
        depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
        row = {"kernel": name, "top": meta["top"]}
        try:
            t0 = time.perf_counter()
            fpf = {"*": FPFormat.parse(args.fp_format)} if args.fp_format else {}
            res = synthesize(src, SynthOptions(top=meta["top"], depth=depth, fp_format=fpf))
            row["synth_s"] = round(time.perf_counter() - t0, 3)
            row["states"] = sum(f["states"] for f in res.report["functions"])
            if args.mode in ("tb", "both"):
                t0 = time.perf_counter()
                r = cosim(src, meta["top"], tb=src, depth=depth, synth=res)
                row["tb_passed"] = r.passed
                row["tb_cycles"] = r.total_cycles
                row["tb_calls"] = len(r.calls)
                row["tb_s"] = round(time.perf_counter() - t0, 2)
                if not r.passed:
                    row["tb_error"] = r.summary()[:500]
                row["loops"] = [(lp["loop"], lp["ii"], lp["mii"]) if lp["pipelined"] else
                                (lp["loop"], None, lp["not_pipelined_reason"])
                                for lp in res.report["loops"]]
            if args.no_pipeline_too:
                r = cosim(src, meta["top"], tb=src, depth=depth, pipeline=False,
                          fp_format=fpf or None)
                row["tb_nopipe_passed"] = r.passed
                row["tb_nopipe_cycles"] = r.total_cycles
            if args.mode in ("main", "both"):
                t0 = time.perf_counter()
                r = cosim(src, "main", fp_format=fpf or None)
                row["main_passed"] = r.passed
                row["main_cycles"] = r.total_cycles
                row["main_s"] = round(time.perf_counter() - t0, 2)
                if not r.passed:
                    row["main_error"] = r.summary()[:500]
        except HLSError as e:
            row["error"] = e.format()
        rows.append(row)
        print(json.dumps(row), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    times = [r["synth_s"] for r in rows if "synth_s" in r]
    if times:
        print(f"synthesis time: median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    ok = all(r.get("tb_passed", True) and r.get("main_passed", True) and "error" not in r
             and r.get("tb_nopipe_passed", True) for r in rows)
    if args.no_pipeline_too:
        print(f"{'kernel':18s} {'pipelined':>10s} {'not pipelined':>14s} {'speed-up':>9s}")
        for r in rows:
            if "tb_nopipe_cycles" in r and r.get("tb_cycles"):
                print(f"{r['kernel']:18s} {r['tb_cycles']:10d} {r['tb_nopipe_cycles']:14d} "
                      f"{r['tb_nopipe_cycles'] / r['tb_cycles']:8.2f}x")
    print("ALL PASSED" if ok else "FAILURES")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

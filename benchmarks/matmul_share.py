#!/usr/bin/env python3
"""Functional units shared across a pipelined loop's modulo slots, before and after.

The 32x32 int32 matrix multiply of ``benchmarks/matmul_share/mm32.c`` (inner loop fully
unrolled: 32 multiplies an iteration), its j loop pipelined at II 16 and at II 1, built
for ``--target ecp5 --clock-period 10`` with ``--no-share-pipeline-units`` (before) and
without (after, :func:`hls.scheduling.share_units`): the loop's II, depth and units, the
cycles of a call co-simulated against native execution (random matrices), the area
model's LUT/FF/MULT18X18D and, with ``--yosys``, Yosys ``synth_ecp5``'s (the Verilog
alone, as ``benchmarks/area_ecp5.py`` counts it).

    python benchmarks/matmul_share.py            # model and co-simulation
    python benchmarks/matmul_share.py --yosys    # and Yosys synth_ecp5 (minutes)

Writes ``benchmarks/results/matmul_share.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SRC = ROOT / "benchmarks" / "matmul_share" / "mm32.c"
OUT = ROOT / "benchmarks" / "results" / "matmul_share.md"
TOPS = ("mm32_ii16", "mm32_ii1")


def run(top: str, share: bool, yosys: bool) -> dict:
    from hls.estimate import yosys_ecp5_area
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    opts = SynthOptions(top=top, target="ecp5", clock_period_ns=10.0)
    res = synthesize(SRC, dataclasses.replace(opts, share_pipeline_units=share))
    (lp,) = [lp for lp in res.report["loops"] if lp["pipelined"]]
    r = cosim(SRC, top, synth=res, target="ecp5", clock_period_ns=10.0, runs=1)
    row = {"top": top, "share": share, "ii": lp["ii"], "depth": lp["depth"],
           "units": lp.get("units", {}), "passed": r.passed, "cycles": r.calls[0].cycles,
           "model": {k: res.report["resources"][k] for k in ("lut", "ff", "dsp")},
           "clock_est": res.report["clock_estimated_ns"]}
    if yosys:
        y = yosys_ecp5_area(res.verilog, res.interface.module_name)
        row["yosys"] = {k: y[k] for k in ("lut", "ff", "dsp")}
    return row


def render(rows: list[dict]) -> list[str]:
    out = ["# Shared pipeline units: 32x32 int32 matmul on ECP5 (10 ns)", "",
           "`python benchmarks/matmul_share.py --yosys`: before = "
           "`--no-share-pipeline-units`, after = the default.", "",
           "| top | units | II | depth | cycles | co-sim | est. clock ns "
           "| model LUT/FF/MULT18 | Yosys LUT/FF/MULT18 |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        units = ", ".join(f"{c}: {u['ops']} ops on {u['instances']}"
                          for c, u in r["units"].items()) or "every op its own"
        m, y = r["model"], r.get("yosys")
        out.append(f"| {r['top']} ({'after' if r['share'] else 'before'}) | {units} | "
                   f"{r['ii']} | {r['depth']} | {r['cycles']} | "
                   f"{'pass' if r['passed'] else 'FAIL'} | {r['clock_est']} | "
                   f"{m['lut']}/{m['ff']}/{m['dsp']} | "
                   + (f"{y['lut']}/{y['ff']}/{y['dsp']} |" if y else "- |"))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--yosys", action="store_true", help="also Yosys synth_ecp5")
    ap.add_argument("tops", nargs="*", default=list(TOPS))
    args = ap.parse_args(argv)
    rows = []
    for top in args.tops:
        for share in (False, True):
            rows.append(run(top, share, args.yosys))
            print(rows[-1], flush=True)
    text = "\n".join(render(rows)) + "\n"
    OUT.write_text(text)
    print(text)
    return 0 if all(r["passed"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())

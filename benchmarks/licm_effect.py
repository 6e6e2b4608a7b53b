"""What loop-invariant code motion (the ``licm`` pass) does to cycles and area.

    python benchmarks/licm_effect.py [NAME...] [--kernels DIR] [--out FILE]

For every shared kernel (``../shared/kernels``, floats included), every example of
``examples/vitis`` and every kernel of ``benchmarks/licm`` (top: the file's stem, its own
testbench): synthesise with the pass
(the default) and with ``--no-licm``; co-simulate the design with the pass against
native execution on the testbench's calls (Verilator); and count each design's cycles on
those calls with the cost model replayed on the block visits of its final CDFG
(:func:`hls.estimate.replay_calls`, which ``benchmarks/latency_check.py`` checks equal to
co-simulation: here it is checked again for the design with the pass).  A dataflow
design has no replay: both are co-simulated.

Prints a table (cycles of all calls, LUTs and FFs of the area model, whether the
Verilog changed) and writes ``benchmarks/results/licm.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.errors import HLSError  # noqa: E402
from hls.estimate import replay_calls  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import cosim  # noqa: E402

SHARED = ROOT.parent / "shared" / "kernels"
VITIS = ROOT / "examples" / "vitis"
#: kernels written for this measurement: a helper that clang does not inline (pyhls does)
#: recomputes invariants in the loop (top: the file's stem, depths from the extents)
OWN = ROOT / "benchmarks" / "licm"


def cases(kernels: Path, names: list[str]) -> list[tuple[str, Path, str, dict]]:
    out = []
    for man in sorted(kernels.glob("*.json")):
        meta = json.loads(man.read_text())
        depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
        out.append((man.stem, man.with_suffix(".c"), meta["top"], depth))
    for src in sorted([*VITIS.glob("*.c"), *VITIS.glob("*.cpp")]):
        out.append((f"vitis/{src.stem}", src, src.stem, {}))
    for src in sorted(OWN.glob("*.c")):
        out.append((f"licm/{src.stem}", src, src.stem, {}))
    return [c for c in out if not names or c[0] in names or Path(c[0]).name in names]


def _area(res) -> tuple[int, int]:
    r = res.report["resources"]
    return r["lut"], r["ff"]


def measure(name: str, src: Path, top: str, depth: dict) -> dict:
    row: dict = {"kernel": name}
    t0 = time.perf_counter()
    try:
        on = synthesize(src, SynthOptions(top=top, depth=depth))
        off = synthesize(src, SynthOptions(top=top, depth=depth, licm=False))
        r = cosim(src, top, tb=src, depth=depth, synth=on)
    except HLSError as exc:
        row["error"] = str(exc).splitlines()[0][:200]
        return row
    row["passed"] = r.passed
    row["changed"] = on.verilog != off.verilog
    measured = [c.cycles for c in r.calls]
    if on.module.dataflow:
        row["on"] = sum(measured)
        r_off = cosim(src, top, tb=src, depth=depth, synth=off)
        row["off"] = sum(c.cycles for c in r_off.calls)
        row["replay_ok"] = None
    else:
        rep_on = replay_calls(on.module, on.schedules, r.stimulus)
        row["replay_ok"] = rep_on == measured
        row["on"] = sum(measured)
        row["off"] = sum(replay_calls(off.module, off.schedules, r.stimulus))
    row["calls"] = len(measured)
    row["lut_on"], row["ff_on"] = _area(on)
    row["lut_off"], row["ff_off"] = _area(off)
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _pct(a: int, b: int) -> str:
    return "0" if a == b else f"{100 * (a - b) / b:+.1f}%" if b else "n/a"


def table(rows: list[dict]) -> str:
    lines = ["| kernel | calls | cycles without | cycles with | change | LUT without -> with | "
             "FF without -> with | Verilog changed | cosim | replay = measured |",
             "|---|---:|---:|---:|---:|---|---|:-:|:-:|:-:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['kernel']} | error: {r['error']} | | | | | | | | |")
            continue
        rep = "n/a" if r["replay_ok"] is None else ("yes" if r["replay_ok"] else "NO")
        lines.append(f"| {r['kernel']} | {r['calls']} | {r['off']} | {r['on']} | "
                     f"{_pct(r['on'], r['off'])} | {r['lut_off']} -> {r['lut_on']} | "
                     f"{r['ff_off']} -> {r['ff_on']} | {'yes' if r['changed'] else 'no'} | "
                     f"{'pass' if r['passed'] else 'FAIL'} | {rep} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--kernels", type=Path, default=SHARED)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "licm.md")
    args = ap.parse_args(argv)
    rows = []
    for name, src, top, depth in cases(args.kernels, args.names):
        row = measure(name, src, top, depth)
        rows.append(row)
        print(json.dumps(row), flush=True)
    text = table(rows)
    print()
    print(text)
    bad = [r for r in rows if "error" in r or not r["passed"] or r["replay_ok"] is False]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        "# Loop-invariant code motion: cycles and area\n\n"
        "`python benchmarks/licm_effect.py` (default options, each kernel's testbench). "
        "*cycles*: all calls of the testbench; *with* measured in Verilator (the design "
        "with the `licm` pass, co-simulated against native execution), *without* the cost "
        "model replayed on the `--no-licm` design's block visits (co-simulated as well for "
        "a dataflow design); *LUT*, *FF*: the area model (report.json `resources`).\n\n"
        + text + "\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

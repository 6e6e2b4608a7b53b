"""Check report.json's latency against co-simulation, call by call.

    python benchmarks/latency_check.py [NAME...] [--kernels DIR] [--no-ekl] [--out FILE]

For every shared kernel (``../shared/kernels``, or ``examples/kernels``; floats
included), ``examples/*.c`` (with its own testbench) and ``examples/ekl/*.ekl`` (random
stimulus), synthesise, co-simulate, and compare each call's measured cycles with

* the report's ``latency``: ``min == max == measured`` where the report says exact,
  else ``min <= measured <= max`` (``max`` null: unbounded);
* the replay: the cycles :func:`hls.estimate.replay_calls` gives for the same call from
  the block visits of the final CDFG interpreted on it (the cost model without the path
  bounds), which must equal the measurement exactly.

``dataflow_img`` is also built as a dataflow region (``--dataflow``), whose latency is a
lower bound only (no replay: the tasks overlap).

Prints a table and writes ``benchmarks/results/latency.md``; exit status 1 when any
call disagrees.  ``examples/kernels`` is checked once when it holds the same files as
the shared kernels.
"""

from __future__ import annotations

import argparse
import filecmp
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

# examples/*.c: top and depths (no manifests)
EXAMPLES = {"gemm_i32.c": ("gemm_i32", {"A": 256, "B": 256, "C": 256})}

# shared kernels also built as a dataflow region (latency: a lower bound only)
DATAFLOW = ("dataflow_img",)


def cases(kernels: Path, names: list[str], ekl: bool) -> list[tuple]:
    """(name, source, top, depths, has a testbench, extra SynthOptions)."""
    out = []
    dirs = [kernels]
    local = ROOT / "examples" / "kernels"
    if local.is_dir() and local.resolve() != kernels.resolve():
        same = filecmp.dircmp(kernels, local)
        if same.left_only or same.right_only or same.diff_files:
            dirs.append(local)
    for d in dirs:
        for man in sorted(d.glob("*.json")):
            meta = json.loads(man.read_text())
            depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
            name = man.stem if d == kernels else f"examples/kernels/{man.stem}"
            out.append((name, man.with_suffix(".c"), meta["top"], depth, True, {}))
            if man.stem in DATAFLOW and d == kernels:
                out.append((f"{name}/dataflow", man.with_suffix(".c"), meta["top"], depth, True,
                            {"dataflow": (meta["top"],)}))
    for fname, (top, depth) in EXAMPLES.items():
        out.append((f"examples/{Path(fname).stem}", ROOT / "examples" / fname, top, depth, True,
                    {}))
    if ekl:
        from hls.ekl import parse
        for src in sorted((ROOT / "examples" / "ekl").glob("*.ekl")):
            for k in parse(src.read_text(), str(src)):
                out.append((f"ekl/{src.stem}/{k.name}", src, k.name, {}, False, {}))
    return [c for c in out if not names or c[0] in names or Path(c[0]).name in names]


def check(name: str, src: Path, top: str, depth: dict, tb: bool, extra: dict) -> dict:
    row = {"kernel": name, "top": top}
    t0 = time.perf_counter()
    try:
        res = synthesize(src, SynthOptions(top=top, depth=depth, **extra))
        r = cosim(src, top, tb=src if tb else None, depth=depth, synth=res, runs=4)
    except HLSError as exc:
        row["error"] = str(exc).splitlines()[0][:200]
        return row
    lat = res.report["latency"]
    row.update(min=lat["min"], max=lat["max"], exact=lat["exact"],
               assumptions=lat.get("assumptions", []), passed=r.passed)
    row["measured"] = [c.cycles for c in r.calls]
    row["replay"] = (replay_calls(res.module, res.schedules, r.stimulus)
                     if not res.module.dataflow else None)
    problems = []
    for i, m in enumerate(row["measured"]):
        if lat["exact"] and m != lat["min"]:
            problems.append(f"call {i}: exact {lat['min']}, measured {m}")
        if m < lat["min"] or (lat["max"] is not None and m > lat["max"]):
            problems.append(f"call {i}: measured {m} outside [{lat['min']}, {lat['max']}]")
        if row["replay"] is not None and row["replay"][i] != m:
            problems.append(f"call {i}: replay {row['replay'][i]}, measured {m}")
    if not r.passed:
        problems.append("co-simulation failed: " + r.summary()[:200])
    row["problems"] = problems
    row["seconds"] = round(time.perf_counter() - t0, 1)
    return row


def _calls(xs: list[int]) -> str:
    if not xs:
        return "-"
    if len(set(xs)) == 1:
        return f"{xs[0]}" + (f" (x{len(xs)})" if len(xs) > 1 else "")
    return ", ".join(map(str, xs[:6])) + (" ..." if len(xs) > 6 else "")


def table(rows: list[dict]) -> str:
    lines = ["| kernel | report min | report max | exact | measured cycles per call | replay | ok |",
             "|---|---:|---:|:-:|---|:-:|:-:|"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['kernel']} | error: {r['error']} | | | | | no |")
            continue
        mx = "unbounded" if r["max"] is None else r["max"]
        rep = "n/a" if r["replay"] is None else ("=" if r["replay"] == r["measured"] else "differs")
        lines.append(f"| {r['kernel']} | {r['min']} | {mx} | {'yes' if r['exact'] else 'no'} | "
                     f"{_calls(r['measured'])} | {rep} | {'yes' if not r['problems'] else 'NO'} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--kernels", type=Path,
                    default=SHARED if SHARED.is_dir() else ROOT / "examples" / "kernels")
    ap.add_argument("--no-ekl", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "latency.md")
    args = ap.parse_args(argv)
    rows = []
    for name, src, top, depth, tb, extra in cases(args.kernels, args.names, not args.no_ekl):
        row = check(name, src, top, depth, tb, extra)
        rows.append(row)
        flag = "ok" if not row.get("problems") and "error" not in row else "PROBLEM"
        print(f"{name:28s} min={row.get('min')} max={row.get('max')} "
              f"measured={_calls(row.get('measured', []))} {flag}", flush=True)
        for p in row.get("problems", []):
            print("    " + p, flush=True)
    text = table(rows)
    print()
    print(text)
    notes = []
    for r in rows:
        for a in r.get("assumptions", []):
            notes.append(f"- {r['kernel']}: {a}")
        for p in r.get("problems", []):
            notes.append(f"- **{r['kernel']}**: {p}")
    bad = [r for r in rows if r.get("problems") or "error" in r]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        "# Latency in report.json against co-simulation\n\n"
        "`python benchmarks/latency_check.py` (default options, each kernel's testbench; EKL "
        "kernels on 4 random calls).  *report min/max*: `report.json[\"latency\"]`, cycles "
        "of one call as co-simulation counts them (the cycle ap_start is seen through the "
        "cycle ap_done is high); *exact*: min == max; *measured*: each call's cycles in "
        "Verilator; *replay*: the cost model applied to the block visits of the final CDFG "
        "interpreted on the same call (must equal the measurement).\n\n"
        + text + "\n\n"
        + (f"{len(bad)} kernel(s) with problems.\n\n" if bad else "Every call agrees.\n\n")
        + ("Assumptions and problems:\n\n" + "\n".join(notes) + "\n" if notes else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The real suites, unchanged: CHStone (``ferrandi/CHStone``) and integer PolyBench
(``ymherklotz/vericert``, ``benchmarks/polybench-syn``), whole programs (``--top main``).

Each program is synthesised and co-simulated on the generic target and on ``ecp5``, and
the ``ecp5`` design is placed and routed (``--place-route``): cycles on both, the clock
nextpnr reaches, whether it meets the suite's clock (CHStone 15 ns, PolyBench 10 ns, the
clocks of Bambu's published figures), and the ratio of cycles to Bambu's (ANCHORS.md).
A design whose estimate needs more DSP blocks than the LFE5U-85F has gives up pipelines
until it fits, as every ``ecp5`` build does by default (``hls.flow.fit_device``; the row
lists them).

The sources are not in this repository.  Give their checkouts, or let the script take
them from the tool library's mirrors (``/work/.mirror``, brought by ``fetch``)::

    python benchmarks/suites.py                            # both suites, every program
    python benchmarks/suites.py --chstone DIR --polybench DIR
    python benchmarks/suites.py dfadd jacobi-1d --no-pnr    # some programs, no P&R
    python benchmarks/suites.py --generic-only             # the generic target only

Writes ``benchmarks/results/suites_ecp5.json`` and ``.md`` (``--generic-only``:
``suites_generic.json`` and ``.md``).  One program at a time by
default (``--jobs``): a place and route of a whole program takes minutes on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MIRRORS = Path("/work/.mirror")

#: CHStone: program -> its main file (the others are #included by it); Bambu's published
#: cycles at 15 ns (ANCHORS.md)
CHSTONE = {
    "adpcm": ("adpcm/adpcm.c", 7554), "aes": ("aes/aes.c", 1986),
    "blowfish": ("blowfish/bf.c", 76401), "dfadd": ("dfadd/dfadd.c", 210),
    "dfdiv": ("dfdiv/dfdiv.c", 1774), "dfmul": ("dfmul/dfmul.c", 88),
    "dfsin": ("dfsin/dfsin.c", 44817), "gsm": ("gsm/gsm.c", 1924),
    "jpeg": ("jpeg/main.c", 399571), "mips": ("mips/mips.c", 2450),
    "motion": ("motion/mpeg2.c", 1355), "sha": ("sha/sha_driver.c", 86320),
}
#: integer PolyBench (vericert's polybench-syn): Bambu 2023.1 cycles at 10 ns (ANCHORS.md)
POLYBENCH_BAMBU = {
    "gemm": 79422, "2mm": 67992, "3mm": 102818, "atax": 16947, "bicg": 18404, "mvt": 18478,
    "gesummv": 15556, "syrk": 54428, "syr2k": 67962, "trmm": 28362, "symm": 32032,
    "doitgen": 58910, "jacobi-1d": 2442, "jacobi-2d": 52526, "seidel-2d": 146453,
    "fdtd-2d": 100760, "heat-3d": 30377, "covariance": 75091, "durbin": 7492,
    "trisolv": 7802, "lu": 360842, "ludcmp": 362026, "cholesky": 317584,
    "floyd-warshall": 763578, "nussinov": 130185, "adi": 183919,
}


def _from_mirror(name: str, sub: str | None = None) -> Path | None:
    """A checkout of a mirrored repository (``git archive`` of its snapshot) in a
    temporary directory, or None when the mirror is absent."""
    git = MIRRORS / name / "repo"
    if not git.exists():
        return None
    out = Path(tempfile.mkdtemp(prefix="pyhls-suite-"))
    arch = subprocess.run(["git", "--git-dir", str(git), "archive", "HEAD"] + ([sub] if sub else []),
                          check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=arch, check=True)
    return out / sub if sub else out


def discover(chstone: Path | None, polybench: Path | None) -> list[dict]:
    progs = []
    if chstone is not None:
        for name, (rel, bambu) in CHSTONE.items():
            progs.append({"name": name, "suite": "chstone", "source": str(chstone / rel),
                          "clock_ns": 15.0, "bambu_cycles": bambu, "cflags": []})
    if polybench is not None:
        listed = (polybench / "benchmark-list-master").read_text().split()
        for rel in listed:
            name = Path(rel).name
            name = {"atas": "atax"}.get(name, name)     # vericert's tree names atax atas.c
            progs.append({"name": name, "suite": "polybench", "source": str(polybench / f"{rel}.c"),
                          "clock_ns": 10.0, "bambu_cycles": POLYBENCH_BAMBU.get(name),
                          "cflags": ["-DSYNTHESIS"]})
    return progs


def run_one(prog: dict, pnr: bool, max_cycles: int, close: int = 0, seeds: int = 1,
            targets: tuple = ("generic", "ecp5")) -> dict:
    from hls.errors import HLSError
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    row: dict = {"name": prog["name"], "suite": prog["suite"], "bambu": prog["bambu_cycles"]}
    # the source by its name, from its own directory: the Verilog's hls_src attributes
    # name it as given, and a path into this run's temporary copy of the suite would
    # make every run's netlist, and so its placement, another one
    os.chdir(Path(prog["source"]).parent)
    src = Path(Path(prog["source"]).name)
    for target in targets:
        t0 = time.perf_counter()
        try:
            opts = SynthOptions(top="main", target=target, clock_period_ns=prog["clock_ns"],
                                cflags=tuple(prog["cflags"]),
                                place_route=pnr and target == "ecp5", pnr_seeds=seeds,
                                close_timing=close if pnr and target == "ecp5" else 0)
            res = synthesize(src, opts)
            t_synth = time.perf_counter()
            r = cosim(src, "main", synth=res, max_cycles=max_cycles, cflags=tuple(prog["cflags"]))
            row[target] = {"passed": r.passed, "cycles": r.total_cycles,
                           "latency": [res.report["latency"]["min"], res.report["latency"]["max"]],
                           "fmax_est": (round(1000 / res.report["clock_estimated_ns"], 1)
                                        if res.report.get("clock_estimated_ns") else None)}
            # seconds: synthesis (place and route included) and each of its stages, and
            # the co-simulation
            row[target]["synth_s"] = round(t_synth - t0, 1)
            row[target]["stages_s"] = {k: round(v, 1) for k, v in res.report["time_s"].items()}
            row[target]["cosim_s"] = round(time.perf_counter() - t_synth, 1)
            if not r.passed:
                row[target]["error"] = r.summary()[:600]
            t = res.report.get("timing")
            if t is not None:
                row[target].update(fmax=t["fmax_mhz"], met=t["met"],
                                   path=t["critical_path"]["source_lines"][:3],
                                   lut4=t["utilisation"].get("TRELLIS_COMB", 0),
                                   ff=t["utilisation"].get("TRELLIS_FF", 0),
                                   mult18=t["utilisation"].get("MULT18X18D", 0),
                                   dp16kd=t["utilisation"].get("DP16KD", 0),
                                   seed=t["seed"], seeds=[x["fmax_mhz"] for x in t["seeds"]])
                if t.get("closure"):
                    row[target]["attempts"] = len(t["closure"]["attempts"])
            if res.report.get("fit_device", {}).get("given_up"):
                row[target]["fit_device"] = res.report["fit_device"]["given_up"]
        except HLSError as e:
            row[target] = {"error": e.format()[:600]}
        except Exception as e:  # noqa: BLE001 - an internal error is a result too
            row[target] = {"error": f"{type(e).__name__}: {e}\n{traceback.format_exc()[-800:]}"}
        row[target]["s"] = round(time.perf_counter() - t0, 1)
    return row


def _seeds(e: dict) -> str:
    """The placements tried, when more than one was (``--pnr-seeds``)."""
    tries = e.get("seeds") or []
    return "" if len(tries) < 2 else (f" (seed {e['seed']}; tried "
                                      + ", ".join(f"{f:.1f}" for f in tries if f) + ")")


def _stages(e: dict) -> str:
    """Synthesis seconds and those of its stages (``report.json``'s ``time_s``)."""
    st = e.get("stages_s")
    if not st:
        return "-"
    return (f"{e['synth_s']} ({st['frontend']} / {st['planning']} / {st['passes']} / "
            f"{st['schedule_bind']} / {st['rtl']})")


def _generic_table(rows: list[dict], cyc) -> list[str]:
    lines = ["| program | suite | Bambu | cycles | cycles/Bambu | latency min..max | s | "
             "synthesis s (frontend / planning / passes / schedule / RTL) | co-sim s |",
             "|---|---|---|---|---|---|---|---|---|"]
    ratios: dict[str, list] = {}
    for r in rows:
        g = r.get("generic", {})
        c = cyc(g)
        rb = c / r["bambu"] if c and r["bambu"] else None
        if rb:
            ratios.setdefault(r["suite"], []).append(rb)
        lat = g.get("latency") or [None, None]
        what = (f"{rb:.2f}" if rb else "-") if c else \
            f"error: {(g.get('error') or 'mismatch').splitlines()[0][:120]}"
        lines.append(f"| {r['name']} | {r['suite']} | {r['bambu'] or '-'} | {c or '-'} | "
                     f"{what} | {lat[0]}..{lat[1] if lat[1] is not None else '?'} | "
                     f"{g.get('s', '-')} | {_stages(g)} | {g.get('cosim_s', '-')} |")
    lines.append("")
    lines.append(f"{sum(1 for r in rows if r.get('generic', {}).get('passed'))} of "
                 f"{len(rows)} co-simulate.")
    return lines + _geomeans("cycles", ratios)


def _geomeans(what: str, ratios: dict[str, list]) -> list[str]:
    """One line per suite: the geometric mean and the worst of its ratios to Bambu."""
    return [f"{suite}: geometric mean of {what} / Bambu's = "
            f"{math.exp(sum(map(math.log, xs)) / len(xs)):.2f} over {len(xs)} programs "
            f"(worst {max(xs):.2f})." for suite, xs in ratios.items()]


def render(rows: list[dict]) -> list[str]:
    generic_only = not any("ecp5" in r for r in rows)
    lines = ["# The real suites: " + ("the generic target" if generic_only else
                                      "generic and ecp5 (placed and routed)"), "",
             f"`python benchmarks/suites.py{' --generic-only' if generic_only else ''}` "
             "(CHStone at 15 ns, integer PolyBench at 10 ns, whole programs, co-simulated)", "",
             "| program | suite | Bambu | generic cycles | ecp5 cycles | ecp5/generic | ecp5/Bambu "
             "| fmax est. | fmax (nextpnr) | met | LUT4 | FF | MULT18 | DP16KD | critical path |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def cyc(d):
        return d.get("cycles") if d.get("passed") else None

    if generic_only:
        return lines[:4] + _generic_table(rows, cyc)

    ratios: dict[str, list] = {}
    generic: dict[str, list] = {}
    for r in rows:
        g, e = r.get("generic", {}), r.get("ecp5", {})
        cg, ce = cyc(g), cyc(e)
        if e.get("error") or g.get("error"):
            err = (e.get("error") or g.get("error")).splitlines()[0][:120]
            lines.append(f"| {r['name']} | {r['suite']} | {r['bambu'] or '-'} | {cg or '-'} | "
                         f"{ce or '-'} | | | | | | | | | | error: {err} |")
            continue
        rb = ce / r["bambu"] if ce and r["bambu"] else None
        if cg and r["bambu"]:
            generic.setdefault(r["suite"], []).append(cg / r["bambu"])
        tries = f" ({e['attempts']} attempts)" if e.get("attempts", 1) > 1 else ""
        if rb:
            ratios.setdefault(r["suite"], []).append(rb)
        lines.append(
            f"| {r['name']} | {r['suite']} | {r['bambu'] or '-'} | {cg or '-'} | {ce or '-'} | "
            f"{f'{ce / cg:.2f}' if ce and cg else '-'} | {'-' if rb is None else f'{rb:.2f}'} | {e.get('fmax_est') or '-'} | "
            f"{e.get('fmax', '-')}{_seeds(e)} | {'-' if 'met' not in e else ('yes' if e['met'] else '**no**')}"
            f"{tries} | "
            f"{e.get('lut4', '-')} | {e.get('ff', '-')} | {e.get('mult18', '-')} | {e.get('dp16kd', '-')} | "
            f"{', '.join(p.split('/')[-1] for p in e.get('path', []))} |")
    lines.append("")
    placed = [r for r in rows if "met" in r.get("ecp5", {})]
    met = [r for r in placed if r["ecp5"]["met"]]
    lines.append(f"{len(met)} of {len(placed)} placed designs meet their clock; "
                 f"{sum(1 for r in rows if r.get('ecp5', {}).get('passed'))} of {len(rows)} "
                 "co-simulate on ecp5.")
    return lines + _geomeans("generic cycles", generic) + _geomeans("ecp5 cycles", ratios)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--chstone", type=Path, default=None, help="a CHStone checkout")
    ap.add_argument("--polybench", type=Path, default=None,
                    help="vericert's benchmarks/polybench-syn")
    ap.add_argument("--no-pnr", action="store_true")
    ap.add_argument("--generic-only", action="store_true",
                    help="the generic target only (no ecp5 design, no place and route)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--max-cycles", type=int, default=20_000_000)
    ap.add_argument("--close-timing", type=int, default=0, metavar="N",
                    help="synthesise the ecp5 designs with --close-timing N")
    ap.add_argument("--pnr-seeds", type=int, default=1, metavar="N",
                    help="place with nextpnr seeds 1 to N until one meets the clock")
    ap.add_argument("--out", type=Path, default=None,
                    help="results file (default benchmarks/results/suites_ecp5.json, with "
                         "--generic-only suites_generic.json)")
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = ROOT / "benchmarks" / "results" / (
            "suites_generic.json" if args.generic_only else "suites_ecp5.json")
    ch = args.chstone or _from_mirror("ferrandi+CHStone")
    pb = args.polybench or _from_mirror("ymherklotz+vericert", "benchmarks/polybench-syn")
    if ch is None and pb is None:
        print("no suite: give --chstone/--polybench, or fetch ferrandi/CHStone and "
              "ymherklotz/vericert", file=sys.stderr)
        return 1
    todo = [p for p in discover(ch, pb) if not args.names or p["name"] in args.names
            or p["suite"] in args.names]
    rows = []
    order = [p["name"] for p in todo]

    def write() -> list[str]:     # after every program: a long campaign keeps what it ran
        rows.sort(key=lambda r: order.index(r["name"]))
        done = {r["name"] for r in rows}
        left = [n for n in order if n not in done]
        args.out.write_text(json.dumps({"rows": rows, "not_run": left}, indent=1) + "\n")
        lines = render(rows) + ([f"Not run (yet): {', '.join(left)}."] if left else [])
        args.out.with_suffix(".md").write_text("\n".join(lines) + "\n")
        return lines

    with ProcessPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(run_one, p, not args.no_pnr, args.max_cycles, args.close_timing,
                          args.pnr_seeds, ("generic",) if args.generic_only else ("generic", "ecp5"))
                for p in todo]
        for f in as_completed(futs):
            rows.append(f.result())
            print(json.dumps(rows[-1]), flush=True)
            write()
    print("\n".join(write()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

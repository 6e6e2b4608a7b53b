"""Quality of results: co-simulate whole programs (``--top main``) and compare their cycles
with published Bambu cycles, between flag configurations, and with an earlier run.

    python benchmarks/qor.py [NAME...] [--configs default,nopipe] [--kernels] [--jobs N]
                             [--out FILE.json] [--compare OLD.json] [--profile-loops]
    python benchmarks/qor.py --load FILE.json [--compare OLD.json] [--md FILE.md]  # no run

Programs: every ``benchmarks/qor/*.json`` manifest maps program names to
``{"suite", "anchor", "bambu_cycles", "clock_ns"}`` (optional ``"source"``, default
``<name>.c`` beside the manifest, and ``"cflags"``); with ``--kernels`` also the
kernels of ``examples/kernels`` (suite ``kernels``, no anchor, the target's clock), run
as whole programs.  ``NAME...`` keeps the programs whose name (or suite) is given.

Configurations (``--configs``, comma-separated): ``default`` (today's flags), ``nopipe``
(``--no-pipeline``), ``always`` (``--pipeline-always``: every loop that can be pipelined
is, as before the profitability estimate), ``static`` (``--no-profile``), ``asap`` (``--scheduler asap``), ``noautopart``
(``--no-auto-partition``), ``nounroll`` (``--no-auto-unroll``).  Each program x configuration is synthesised and
co-simulated (hls.flow.synthesize + hls.verify.cosim), ``--jobs`` at a time in separate
processes.  Recorded: pass/fail, total cycles, FSM states, synthesis and co-simulation
times, and every loop of report.json (II, MII, depth, trip count, or why it was not
pipelined); with ``--profile-loops`` the ``default`` run also measures the cycles spent
in each pipelined loop.

Printed (and written as markdown beside the JSON, ``qor.md``): cycles per
configuration, the ratio to Bambu where the program has an anchor, geometric means per
suite (ratio to Bambu, and each configuration against the first), the loops whose
pipelining looks unprofitable (II x trips + depth above 85 % of trips x depth, or a
program that runs faster with ``nopipe``), and with ``--compare`` the per-program new/old cycle ratios and
their geometric mean.  Results go to ``benchmarks/results/qor.json`` (``--out``).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QOR_DIR = ROOT / "benchmarks" / "qor"
KERNELS_DIR = ROOT / "examples" / "kernels"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "qor.json"

#: configuration name -> SynthOptions fields it changes
CONFIGS: dict[str, dict] = {
    "default": {},
    "nopipe": {"pipeline": False},
    "always": {"profitability": False},
    "static": {"profile": False},
    "asap": {"scheduler": "asap"},
    "noautopart": {"auto_partition": False},
    "nounroll": {"auto_unroll": False},
}

LOOP_FIELDS = ("function", "loop", "source_line", "trip_count", "pipelined", "ii", "mii",
               "depth", "not_pipelined_reason", "unrolled")


def discover(with_kernels: bool) -> list[dict]:
    """Every program: name, suite, anchor, bambu_cycles, clock_ns, source, cflags."""
    progs = []
    for man in sorted(QOR_DIR.glob("*.json")):
        for name, meta in json.loads(man.read_text()).items():
            src = man.parent / meta.get("source", f"{name}.c")
            progs.append({"name": name, "suite": meta.get("suite", man.stem),
                          "anchor": meta.get("anchor"), "bambu_cycles": meta.get("bambu_cycles"),
                          "clock_ns": meta.get("clock_ns"), "source": str(src),
                          "cflags": list(meta.get("cflags", []))})
    if with_kernels:
        for man in sorted(KERNELS_DIR.glob("*.json")):
            meta = json.loads(man.read_text())
            if meta.get("float"):
                continue  # float kernels need a float unit model per run; left out
            progs.append({"name": man.stem, "suite": "kernels", "anchor": None,
                          "bambu_cycles": None, "clock_ns": None,
                          "source": str(man.with_suffix(".c")), "cflags": []})
    return progs


def run_one(prog: dict, config: str, max_cycles: int, profile: bool) -> dict:
    """Synthesise and co-simulate one program in one configuration (in a worker process)."""
    from hls.errors import HLSError
    from hls.flow import SynthOptions, synthesize
    from hls.verify import cosim

    out: dict = {"passed": False, "cycles": None}
    src = Path(prog["source"])
    try:
        opts = SynthOptions(top="main", clock_period_ns=prog["clock_ns"],
                            cflags=tuple(prog["cflags"]), loop_probes=profile,
                            **CONFIGS[config])
        t0 = time.perf_counter()
        res = synthesize(src, opts)
        out["synth_s"] = round(time.perf_counter() - t0, 2)
        out["states"] = sum(f["states"] for f in res.report["functions"])
        out["loops"] = [{k: lp.get(k) for k in LOOP_FIELDS} for lp in res.report["loops"]]
        t0 = time.perf_counter()
        r = cosim(src, "main", synth=res, max_cycles=max_cycles, profile_loops=profile,
                  cflags=tuple(prog["cflags"]))
        out["cosim_s"] = round(time.perf_counter() - t0, 2)
        out["passed"] = r.passed
        out["cycles"] = r.total_cycles
        if not r.passed:
            out["error"] = r.summary()[:1000]
        if profile:
            prof = {(p.function, p.loop): p for p in r.loops}
            for lp in out["loops"]:
                p = prof.get((lp["function"], lp["loop"]))
                if p is not None:
                    lp.update(measured_cycles=p.cycles, entries=p.entries,
                              iterations=p.iterations, model_cycles=p.model_cycles)
    except HLSError as e:
        out["error"] = e.format()[:2000]
    except Exception as e:  # noqa: BLE001 - an internal pyhls error is a result too
        out["error"] = f"{type(e).__name__}: {e}\n" + traceback.format_exc()[-1500:]
    return out


def geomean(xs: list[float]) -> float | None:
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def _fmt_ratio(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


def _cyc(res: dict | None) -> int | None:
    return res["cycles"] if res and res.get("passed") else None


def _trips(lp: dict) -> int | None:
    """iterations per loop: measured (--profile-loops) if known, else the static count"""
    return lp["iterations"] if lp.get("iterations") is not None else lp["trip_count"]


def tables(data: dict) -> tuple[str, list[str]]:
    """The markdown report and the warning lines, from a results dict."""
    configs = data["configs"]
    progs = data["programs"]
    lines = ["| program | suite | Bambu | " + " | ".join(configs) + " | "
             + " | ".join(f"{c}/Bambu" for c in configs) + " | status |",
             "|" + "---|" * (3 + 2 * len(configs) + 1)]
    for p in progs:
        res = p["results"]
        cyc = [_cyc(res.get(c)) for c in configs]
        bam = p.get("bambu_cycles")
        status = ", ".join(f"{c}: FAIL" for c in configs
                           if c in res and not res[c].get("passed")) or "ok"
        lines.append(f"| {p['name']} | {p['suite']} | {bam or '-'} | "
                     + " | ".join("-" if x is None else str(x) for x in cyc) + " | "
                     + " | ".join(_fmt_ratio(x / bam if x and bam else None) for x in cyc)
                     + f" | {status} |")
    lines += ["", "Geometric means per suite (passing programs only):", "",
              "| suite | programs | " + " | ".join(f"{c}/Bambu" for c in configs) + " | "
              + " | ".join(f"{c}/{configs[0]}" for c in configs[1:]) + " |",
              "|" + "---|" * (2 + len(configs) + len(configs) - 1)]
    for suite in sorted({p["suite"] for p in progs}):
        sp = [p for p in progs if p["suite"] == suite]
        to_bambu = [geomean([_cyc(p["results"].get(c)) / p["bambu_cycles"] for p in sp
                             if p.get("bambu_cycles") and _cyc(p["results"].get(c))])
                    for c in configs]
        vs_first = [geomean([_cyc(p["results"].get(c)) / _cyc(p["results"].get(configs[0]))
                             for p in sp if _cyc(p["results"].get(c))
                             and _cyc(p["results"].get(configs[0]))])
                    for c in configs[1:]]
        lines.append(f"| {suite} | {len(sp)} | " + " | ".join(map(_fmt_ratio, to_bambu))
                     + (" | " if vs_first else "") + " | ".join(map(_fmt_ratio, vs_first))
                     + " |")
    warn = []
    for p in progs:
        res = p["results"]
        base = res.get(configs[0])
        seq = res.get("nopipe")
        if _cyc(base) and _cyc(seq) and _cyc(seq) < _cyc(base):
            warn.append(f"{p['name']}: --no-pipeline is faster ({_cyc(seq)} vs {_cyc(base)} "
                        f"cycles, x{_cyc(base) / _cyc(seq):.2f})")
        for lp in (base or {}).get("loops", []):
            trips = _trips(lp)
            if not (lp["pipelined"] and lp["ii"] and lp["depth"] and trips):
                continue
            piped, seq = lp["ii"] * trips + lp["depth"], trips * lp["depth"]
            if lp["depth"] > 1 and piped > 0.85 * seq:
                meas = f", measured {lp['measured_cycles']}" if lp.get("measured_cycles") else ""
                warn.append(f"{p['name']}: {lp['function']}/{lp['loop']} (line "
                            f"{lp['source_line']}): II {lp['ii']} (MII {lp['mii']}), depth "
                            f"{lp['depth']}, {trips} trips: ~{piped} cycles pipelined{meas} vs "
                            f"~{seq} for its iterations one at a time (the pipelined schedule's "
                            f"depth; a sequential FSM that does not if-convert may be shorter)")
    loops = ["", "Loops (configuration " + configs[0] + "):", "",
             "| program | function/loop | line | trips | decision |", "|---|---|---|---|---|"]
    for p in progs:
        for lp in (p["results"].get(configs[0]) or {}).get("loops", []):
            if lp["pipelined"]:
                dec = f"II {lp['ii']} (MII {lp['mii']}), depth {lp['depth']}"
                if lp.get("unrolled"):
                    dec = f"unrolled x{lp['unrolled']}, " + dec
                if lp.get("measured_cycles") is not None:
                    dec += f", {lp['measured_cycles']} cycles (model {lp['model_cycles']})"
            else:
                dec = f"not pipelined: {lp['not_pipelined_reason']}"
            trips = _trips(lp)
            loops.append(f"| {p['name']} | {lp['function']}/{lp['loop']} | "
                         f"{lp['source_line']} | {trips if trips is not None else '-'} | "
                         f"{dec} |")
    md = "\n".join(lines + (["", "Warnings:", ""] + [f"- {w}" for w in warn] if warn else [])
                   + loops)
    return md, warn


def compare(new: dict, old: dict) -> str:
    oldp = {p["name"]: p for p in old["programs"]}
    configs = [c for c in new["configs"] if c in old["configs"]]
    lines = ["| program | " + " | ".join(f"{c} new/old" for c in configs) + " |",
             "|" + "---|" * (1 + len(configs))]
    ratios: dict[str, list[float]] = {c: [] for c in configs}
    for p in new["programs"]:
        o = oldp.get(p["name"])
        if o is None:
            continue
        row = []
        for c in configs:
            n, m = _cyc(p["results"].get(c)), _cyc(o["results"].get(c))
            r = n / m if n and m else None
            if r:
                ratios[c].append(r)
            row.append(_fmt_ratio(r) if r else "-" if not (n and m) else "")
        lines.append(f"| {p['name']} | " + " | ".join(row) + " |")
    lines.append("| geomean | " + " | ".join(_fmt_ratio(geomean(ratios[c])) for c in configs)
                 + " |")
    return "\n".join(lines)


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME", help="programs (or suites) to run")
    ap.add_argument("--configs", default="default,nopipe",
                    help=f"comma-separated, of {', '.join(CONFIGS)} (default: default,nopipe)")
    ap.add_argument("--kernels", action="store_true",
                    help="also the integer kernels of examples/kernels, as --top main")
    ap.add_argument("--jobs", type=int, default=1, help="programs co-simulated in parallel")
    ap.add_argument("--max-cycles", type=int, default=10_000_000)
    ap.add_argument("--profile-loops", action="store_true",
                    help="measure the cycles of each pipelined loop (first configuration)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--md", type=Path, default=None,
                    help="markdown report (default: --out with .md; with --load only if given)")
    ap.add_argument("--compare", type=Path, metavar="OLD.json",
                    help="print per-program cycle ratios new/old and their geometric mean")
    ap.add_argument("--load", type=Path, metavar="FILE.json",
                    help="print the tables of an earlier results file instead of running")
    args = ap.parse_args(argv)

    if args.load:
        data = json.loads(args.load.read_text())
    else:
        configs = [c.strip() for c in args.configs.split(",") if c.strip()]
        bad = [c for c in configs if c not in CONFIGS]
        if bad:
            ap.error(f"unknown configuration(s) {', '.join(bad)}; known: {', '.join(CONFIGS)}")
        progs = [p for p in discover(args.kernels)
                 if not args.names or p["name"] in args.names or p["suite"] in args.names]
        if not progs:
            ap.error("no program selected")
        jobs = [(p, c) for p in progs for c in configs]
        results: dict[tuple[str, str], dict] = {}
        t_start = time.perf_counter()

        def done(p, c, r):
            results[(p["name"], c)] = r
            print(f"{p['name']:24s} {c:10s} "
                  + (f"{r['cycles']:>10d} cycles" if r.get("cycles") is not None else f"{'-':>17s}")
                  + ("  PASSED" if r["passed"] else "  FAILED")
                  + f"  (synth {r.get('synth_s', '-')} s, cosim {r.get('cosim_s', '-')} s)"
                  + ("" if r["passed"] else "\n    " + str(r.get("error", "")).replace(
                      "\n", "\n    ")[:600]), flush=True)

        if args.jobs <= 1:
            for p, c in jobs:
                done(p, c, run_one(p, c, args.max_cycles, args.profile_loops and c == configs[0]))
        else:
            with ProcessPoolExecutor(max_workers=args.jobs) as ex:
                futs = {ex.submit(run_one, p, c, args.max_cycles,
                                  args.profile_loops and c == configs[0]): (p, c) for p, c in jobs}
                for f in as_completed(futs):
                    p, c = futs[f]
                    done(p, c, f.result())
        data = {"generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "commit": _git_commit(), "configs": configs,
                "wall_s": round(time.perf_counter() - t_start, 1),
                "programs": [dict(p, source=str(Path(p["source"]).relative_to(ROOT))
                                  if Path(p["source"]).is_relative_to(ROOT) else p["source"],
                                  results={c: results[(p["name"], c)] for c in configs})
                             for p in progs]}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(data, indent=1) + "\n")

    md, _ = tables(data)
    if args.compare:
        md += f"\n\nCompared with {args.compare}:\n\n" + compare(data, json.loads(
            args.compare.read_text()))
    print()
    print(md)
    md_path = args.md or (None if args.load else args.out.with_suffix(".md"))
    if md_path:
        md_path.write_text(
            f"QoR run {data['generated']} (commit {data['commit']}), "
            f"`python benchmarks/qor.py`\n\n{md}\n")
    ok = all(r.get("passed") for p in data["programs"] for r in p["results"].values())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

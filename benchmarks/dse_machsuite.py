"""``pyhls dse`` on the MachSuite-style kernels of ``benchmarks/machsuite``.

    python benchmarks/dse_machsuite.py                  # the seven kernels, 64 points, 1 worker
    python benchmarks/dse_machsuite.py --kernels gemm_ncubed spmv_crs --workers 2
    python benchmarks/dse_machsuite.py --target ecp5    # within the LFE5U-85F's resources
    python benchmarks/dse_machsuite.py --cluster gemm_blocked   # two-worker dask scheduler

For each kernel it runs ``pyhls dse KERNEL.c --top TOP --tb KERNEL.c`` (every front point
co-simulated with the kernel's own ``main``) with ``--max-points`` 64 (``--max-points``
here), the default resource budget (the target's part: none on the generic target, the
LFE5U-85F with ``--target ecp5``) and no result cache, and writes ``benchmarks/results/dse_machsuite.md`` (and
``.json``): the space, the points evaluated, the front's size and how many of its points
co-simulated and passed, the worst-case latency of the **default point** (every loop
rolled, innermost loops pipelined, arrays whole: the first point the search evaluates)
and of **plain ``pyhls synth``** (no directives: the flow's own unrolling and
partitioning plans), the best front point's, and the ratios best / default point and
best / ``pyhls synth``.  The outputs of each run go to ``build/dse_machsuite/KERNEL``.

``--prerank [N]`` measures the pre-ranking's estimate instead
(:func:`hls.dse.estimate`: the schedules and the cost models, no RTL): on each kernel,
the first N points (default 16) a breadth-first walk from the default point meets (its
coupled moves and neighbours, the candidates the local search would rank), each
estimated and evaluated in full in this process; Spearman's rank correlation of the
estimated and evaluated latency and LUTs, how many points the two agree on exactly,
whether their Pareto fronts are the same points, and the seconds of each, into
``benchmarks/results/dse_prerank.md`` (and ``.json``).

``--cluster KERNEL`` checks the distributed run instead: it starts ``dask scheduler``
and two ``dask worker`` processes (one thread each) on localhost, explores the kernel
through ``--scheduler`` while killing one worker a few seconds into the run (the
scheduler hands its tasks to the other), explores it again on a local cluster, and
compares the two dse.json (every point's results and the front, less the seconds);
the outcome is appended to ``benchmarks/results/dse_machsuite_cluster.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.cli import main as pyhls  # noqa: E402
from hls.dse._cluster import stop_processes  # noqa: E402

KERNELS = {"gemm_ncubed": "gemm", "gemm_blocked": "bbgemm", "stencil2d": "stencil",
           "stencil3d": "stencil3d", "spmv_crs": "spmv", "spmv_ellpack": "ellpack",
           "fft_strided": "fft"}
SRC = ROOT / "benchmarks" / "machsuite"
RESULTS = ROOT / "benchmarks" / "results"
BUILD = ROOT / "build" / "dse_machsuite"


def _env() -> None:
    # the Dask workers import hls from this tree, as this script does
    os.environ["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")


def run_kernel(name: str, workers: int, budget: int, target: str = "generic") -> dict:
    """One kernel's exploration and what the table shows of it."""
    top = KERNELS[name]
    src = SRC / f"{name}.c"
    out = BUILD / (name if target == "generic" else f"{name}_{target}")
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.monotonic()
    rc = pyhls(["dse", str(src), "--top", top, "--tb", str(src), "--workers", str(workers),
                "--max-points", str(budget), "--target", target, "--no-cache", "-o", str(out)])
    seconds = time.monotonic() - t0
    doc = json.loads((out / "dse.json").read_text())
    assert pyhls(["synth", str(src), "--top", top, "--target", target,
                  "-o", str(out / "synth")]) == 0
    plain = json.loads((out / "synth" / "report.json").read_text())["latency"]["max"]
    points = doc["points"]
    default = next(p for p in points if not any(p["key"]))["latency"]["max"]
    best = points[doc["best"]]["latency"]["max"] if doc["best"] is not None else None
    passed = sum(e["cosim"]["passed"] and e["cosim"]["within_latency"] for e in doc["pareto"])
    # the co-simulated cycles of the testbench's calls (the front's points; the default
    # point's where it is on the front)
    measured = {e["point"]: sum(e["cosim"]["cycles"]) for e in doc["pareto"] if "cosim" in e}
    d_index = next(i for i, p in enumerate(points) if not any(p["key"]))
    return {"kernel": name, "top": top, "exit": rc, "space": doc["space"]["points"],
            "evaluated": len(points), "failed": sum(p["status"] != "ok" for p in points),
            "search": doc["search"], "front": len(doc["pareto"]), "cosim_passed": passed,
            "default_latency": default, "synth_latency": plain, "best_latency": best,
            "best_vs_default": round(best / default, 3) if best else None,
            "best_vs_synth": round(best / plain, 3) if best else None,
            "front_points": [(e["latency_max"], e["lut"]) for e in doc["pareto"]],
            "best_measured": measured.get(doc["best"]), "default_measured": measured.get(d_index),
            "over_budget": sum("over_budget" in p for p in points),
            "resource_budget": doc.get("budget"), "target": target,
            "seconds": round(seconds, 1)}


def table(rows: list[dict]) -> str:
    head = ("kernel", "target", "space", "max points", "evaluated", "over budget", "front",
            "co-sim passed", "default point", "pyhls synth", "best", "best/default",
            "best/synth", "co-sim cycles best/default", "workers", "seconds", "commit")
    lines = ["# pyhls dse on the MachSuite-style kernels\n",
             "`python benchmarks/dse_machsuite.py [--workers N] [--max-points N] [--target T]` "
             "(local search guided by each point's bottleneck loop, no result cache, every "
             "front point co-simulated with the kernel's `main`; the resource budget is the "
             "target's part: none on `generic`, the LFE5U-85F's LUT4, FF, MULT18X18D and "
             "DP16KD on `ecp5`).  Latencies are the worst case of one call in cycles "
             "(report.json `latency.max`); *default point*: every loop rolled, innermost "
             "loops pipelined, arrays whole; *pyhls synth*: no directives (the flow's own "
             "unroll and partition plans); *co-sim cycles*: the testbench's calls, "
             "co-simulated, of the best point and of the default point where it is on the "
             "front.\n",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        bm, dm = r.get("best_measured"), r.get("default_measured")
        lines.append("| " + " | ".join(str(v) for v in (
            r["kernel"], r.get("target", "generic"), r["space"], r["budget"],
            f"{r['evaluated']} ({r['failed']} failed)", r.get("over_budget", "-"), r["front"],
            f"{r['cosim_passed']}/{r['front']}", r["default_latency"], r["synth_latency"],
            r["best_latency"], r["best_vs_default"], r["best_vs_synth"],
            f"{bm}/{dm} = {bm / dm:.3f}" if bm and dm else "-", r["workers"],
            r["seconds"], r["commit"])) + " |")
    lines.append("\nFronts (latency, LUTs):\n")
    for r in rows:
        lines.append(f"* {r['kernel']}: " + ", ".join(f"{a}/{b}" for a, b in r["front_points"]))
    return "\n".join(lines) + "\n"


def sample_points(space, n: int) -> list[tuple]:
    """The first ``n`` points of a breadth-first walk from the default point over each
    point's coupled moves and neighbours (in key order)."""
    seen, queue, out = {space.default}, [space.default], []
    while queue and len(out) < n:
        k = queue.pop(0)
        out.append(k)
        for m in space.coupled(k) + space.neighbours(k):
            if m not in seen:
                seen.add(m)
                queue.append(m)
    return out


def ranks(xs: list) -> list[float]:
    """Ranks from 1, ties given their mean rank."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for t in range(i, j + 1):
            out[order[t]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: list, b: list) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks); None where either side is
    constant (no ranking to compare)."""
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if n < 2 or not va or not vb:
        return None
    return round(sum((x - ma) * (y - mb) for x, y in zip(ra, rb)) / (va * vb) ** 0.5, 4)


def run_prerank(name: str, n: int) -> dict:
    """The estimate against the evaluation on the first ``n`` points of a walk from
    the default point of ``name``'s space (see the module's docstring)."""
    from hls.dse import compile_design, design_space, estimate, evaluate, pareto_front
    from hls.dse._explore import default_bounds
    from hls.dse._search import costs
    from hls.flow import SynthOptions

    design = compile_design(SRC / f"{name}.c", SynthOptions(top=KERNELS[name]))
    space = design_space(design, default_bounds(design))
    pairs, t_est, t_eval = [], 0.0, 0.0
    for key in sample_points(space, n):
        point = space.point(key)
        t0 = time.perf_counter()
        e = estimate(design, point)
        t1 = time.perf_counter()
        r = evaluate(design, point)
        t_est, t_eval = t_est + t1 - t0, t_eval + time.perf_counter() - t1
        pairs.append((key, costs(e), costs(r)))
    both = [(a, b) for _, a, b in pairs if a is not None and b is not None]
    fe = {pairs[i][0] for i in pareto_front([a for _, a, _ in pairs])}
    fr = {pairs[i][0] for i in pareto_front([b for _, _, b in pairs])}
    return {"kernel": name, "space": space.size(), "points": len(pairs),
            "with_costs": len(both),
            "rho_latency": spearman([a[0] for a, _ in both], [b[0] for _, b in both]),
            "rho_lut": spearman([a[1] for a, _ in both], [b[1] for _, b in both]),
            "exact": sum(a == b for a, b in both), "same_front": fe == fr,
            "estimate_s": round(t_est, 1), "evaluate_s": round(t_eval, 1),
            "mismatches": [[list(k), a, b] for k, a, b in pairs if a != b]}


def prerank_table(rows: list[dict], commit: str) -> str:
    head = ("kernel", "space", "points", "with costs", "rho latency", "rho LUT",
            "exact", "same front", "estimate s", "evaluate s")
    lines = ["# The pre-ranking's estimate against the evaluation (MachSuite-style kernels)\n",
             f"`python benchmarks/dse_machsuite.py --prerank {rows[0]['points']}` at {commit}: "
             "per kernel, the first points of a breadth-first walk from the default point "
             "(coupled moves and neighbours, II knobs included), each estimated "
             "(`hls.dse.estimate`: lowering, schedules, bindings, the latency and area "
             "models; no RTL) and evaluated in full (`hls.dse.evaluate`, the RTL and "
             "Verilog too), in one process.  *rho*: Spearman's rank correlation of the "
             "estimated and the evaluated worst-case latency and LUTs (n/a: one side "
             "constant); *exact*: points whose (latency, LUTs) agree; *same front*: the "
             "Pareto fronts of the sample by estimate and by evaluation are the same "
             "points; seconds of all estimates and of all evaluations (one process, "
             "the machine shared).\n",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append("| " + " | ".join(str(v if v is not None else "n/a") for v in (
            r["kernel"], r["space"], r["points"], r["with_costs"], r["rho_latency"],
            r["rho_lut"], r["exact"], r["same_front"], r["estimate_s"],
            r["evaluate_s"])) + " |")
    lines.append("\nThe estimate is the evaluation's own latency and area models on the same "
                 "schedules and bindings, so where the RTL stage builds nothing again it "
                 "agrees exactly, and the rank correlation is 1; what the pre-ranking saves "
                 "is the time of the RTL and the Verilog (the last two columns).  Points "
                 "without costs have no bounded worst-case latency (a loop without a "
                 "constant trip count); estimate and evaluation agree on those too.")
    bad = [r for r in rows if r["mismatches"]]
    if bad:
        lines.append("\nWhere estimate and evaluation differ (key, estimate, evaluation):\n")
        for r in bad:
            lines.append(f"* {r['kernel']}: " + "; ".join(
                f"{k} {a} vs {b}" for k, a, b in r["mismatches"]))
    return "\n".join(lines) + "\n"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cluster(name: str, budget: int, kill_after: float) -> str:
    """The exploration of ``name`` on a two-worker dask scheduler with one worker
    killed after ``kill_after`` seconds, against a local cluster's."""
    top = KERNELS[name]
    src = SRC / f"{name}.c"
    port = _port()
    addr = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    procs = [subprocess.Popen(dask + ["--host", "127.0.0.1", "--port", str(port),
                                      "--dashboard-address", ":0"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    time.sleep(3)
    for _ in range(2):
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
             "--nworkers", "1", "--no-nanny", "--dashboard-address", ":0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    time.sleep(5)
    killed = threading.Event()

    def kill() -> None:
        procs[1].send_signal(signal.SIGKILL)
        killed.set()

    timer = threading.Timer(kill_after, kill)
    try:
        out_c = BUILD / f"{name}_cluster"
        out_l = BUILD / f"{name}_local"
        for d in (out_c, out_l):
            shutil.rmtree(d, ignore_errors=True)
        timer.start()
        t0 = time.monotonic()
        rc_c = pyhls(["dse", str(src), "--top", top, "--scheduler", addr, "--max-points",
                      str(budget), "--no-cache", "-o", str(out_c)])
        t_c = time.monotonic() - t0
        timer.cancel()
        rc_l = pyhls(["dse", str(src), "--top", top, "--workers", "2", "--max-points",
                      str(budget), "--no-cache", "-o", str(out_l)])
    finally:
        timer.cancel()
        stop_processes(procs)
    a, b = (_without_seconds(json.loads((d / "dse.json").read_text())) for d in (out_c, out_l))
    same = a == b
    return (f"* {time.strftime('%Y-%m-%d')} `python benchmarks/dse_machsuite.py --cluster "
            f"{name} --max-points {budget} --kill-after {kill_after:g}`: {len(a['points'])} points, front of "
            f"{len(a['pareto'])}; worker killed {'at ' + str(kill_after) + ' s' if killed.is_set() else 'never (the run ended first)'} "
            f"of a {t_c:.0f} s run; exit codes {rc_c} (scheduler) and {rc_l} (local); "
            f"points and front {'IDENTICAL' if same else 'DIFFERENT'} to the local cluster's\n")


def _without_seconds(doc: dict) -> dict:
    doc = dict(doc, points=[{k: v for k, v in p.items() if k != "seconds"}
                            for p in doc["points"]])
    doc.pop("run")
    return doc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", nargs="+", choices=sorted(KERNELS), default=list(KERNELS))
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--max-points", "--budget", dest="budget", type=int, default=64)
    ap.add_argument("--target", default="generic")
    ap.add_argument("--cluster", choices=sorted(KERNELS), default=None)
    ap.add_argument("--kill-after", type=float, default=8.0)
    ap.add_argument("--prerank", type=int, nargs="?", const=16, default=None, metavar="N")
    args = ap.parse_args()
    _env()
    RESULTS.mkdir(exist_ok=True)
    if args.prerank:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True).stdout.strip()
        rows = []
        for name in args.kernels:
            rows.append(run_prerank(name, args.prerank))
            print(json.dumps(rows[-1]), flush=True)
            (RESULTS / "dse_prerank.json").write_text(json.dumps(
                {"commit": commit, "rows": rows}, indent=1) + "\n")
            (RESULTS / "dse_prerank.md").write_text(prerank_table(rows, commit))
        print(prerank_table(rows, commit), end="")
        return 0
    if args.cluster:
        line = run_cluster(args.cluster, args.budget, args.kill_after)
        print(line, end="")
        with open(RESULTS / "dse_machsuite_cluster.md", "a") as f:
            f.write(line)
        return 0 if "IDENTICAL" in line else 1
    # the kernels not run now keep their rows of an earlier run (each row says its
    # budget, workers and commit); the file is written after each kernel
    saved = RESULTS / "dse_machsuite.json"
    old = json.loads(saved.read_text()) if saved.exists() else {"rows": []}
    rows = {(r["kernel"], r.get("target", "generic")): r for r in old["rows"]}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    for name in args.kernels:
        rows[(name, args.target)] = run_kernel(name, args.workers, args.budget, args.target) | {
            "workers": args.workers, "budget": args.budget, "commit": commit}
        print(json.dumps(rows[(name, args.target)]), flush=True)
        done = [rows[k] for k in sorted(rows, key=lambda k: (k[1] != "generic", k[1],
                                                              list(KERNELS).index(k[0])))]
        saved.write_text(json.dumps({"rows": done}, indent=1) + "\n")
        text = table(done)
        (RESULTS / "dse_machsuite.md").write_text(text)
    print(text, end="")
    return 0 if all(r["exit"] == 0 for r in done) else 1


if __name__ == "__main__":
    sys.exit(main())

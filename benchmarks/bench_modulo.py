"""Modulo-scheduler benchmark over the loop corpus of ``modulo_graphs.py``.

Schedules every loop with :func:`hls.scheduling.modulo_schedule`, re-verifies each result
with :func:`hls.scheduling.check_modulo_schedule`, and prints: the number of loops, the
fraction reaching II = MII, the fraction with a proven-optimal II, solve-time median and
maximum, and a per-family table.  ``--verbose`` prints one line per loop.

    python benchmarks/bench_modulo.py [--time-limit S] [--verbose] [--only SUBSTR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from modulo_graphs import all_loops, family  # noqa: E402

from hls.scheduling import (  # noqa: E402
    check_modulo_schedule,
    iterative_modulo_schedule,
    modulo_schedule,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time-limit", type=float, default=10.0,
                    help="budget per II in seconds (default 10; CP-SAT deterministic time is a tenth)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--only", default="", help="only loops whose name contains this")
    args = ap.parse_args(argv)

    # pay OR-Tools' one-time start-up outside the measurements
    from ortools.sat.python import cp_model
    cp_model.CpSolver().Solve(cp_model.CpModel())

    loops = [p for p in all_loops() if args.only in p.name]
    rows = []
    ims_at_mii: dict[str, bool] = {}
    for p in loops:
        t0 = time.perf_counter()
        s = modulo_schedule(p, time_limit_s=args.time_limit)
        dt = time.perf_counter() - t0
        check_modulo_schedule(p, s)
        rows.append((p, s, dt))
        # for comparison: does Rau's IMS alone (the fallback) reach the MII?
        ims_at_mii[p.name] = iterative_modulo_schedule(p, s.mii.mii) is not None
        if args.verbose:
            tries = " ".join(f"{a.ii}:{a.status}" for a in s.attempts)
            print(f"{p.name:42s} ops={len(p.ops):3d} mii={s.mii.mii:3d} ii={s.ii:3d} "
                  f"depth={s.depth:3d} stages={s.stages:2d} opt={'y' if s.optimal_ii else 'n'} "
                  f"depth_opt={'y' if s.depth_optimal else 'n'} {dt:7.3f}s  [{tries}]")
    n = len(rows)
    if not n:
        print("no loops")
        return 1
    at_mii = sum(s.ii == s.mii.mii for _, s, _ in rows)
    proven = sum(s.optimal_ii for _, s, _ in rows)
    depth_opt = sum(s.depth_optimal for _, s, _ in rows)
    times = [dt for *_, dt in rows]
    print(f"loops: {n} (all checked by check_modulo_schedule)")
    print(f"II == MII: {at_mii}/{n} = {at_mii / n:.1%}")
    print(f"proven-optimal II: {proven}/{n} = {proven / n:.1%}")
    print(f"proven-minimum depth at that II: {depth_opt}/{n} = {depth_opt / n:.1%}")
    ims = sum(ims_at_mii.values())
    print(f"(IMS alone reaches the MII: {ims}/{n} = {ims / n:.1%})")
    print(f"solve time: median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
          f"total {sum(times):.1f} s")
    print()
    fams: dict[str, list] = {}
    for r in rows:
        fams.setdefault(family(r[0]), []).append(r)
    print(f"{'family':16s} {'loops':>5s} {'ops':>7s} {'II=MII':>7s} {'proven':>7s} "
          f"{'II>MII':>7s} {'med s':>7s} {'max s':>7s}")
    for fam, rs in fams.items():
        ops = [len(p.ops) for p, _, _ in rs]
        ts = [dt for *_, dt in rs]
        print(f"{fam:16s} {len(rs):5d} {min(ops):3d}-{max(ops):<3d} "
              f"{sum(s.ii == s.mii.mii for _, s, _ in rs):7d} "
              f"{sum(s.optimal_ii for _, s, _ in rs):7d} "
              f"{sum(s.ii > s.mii.mii for _, s, _ in rs):7d} "
              f"{statistics.median(ts):7.3f} {max(ts):7.3f}")
    above = [(p, s) for p, s, _ in rows if s.ii > s.mii.mii]
    if above:
        print()
        print("loops above the MII:")
        for p, s in above:
            tries = " ".join(f"{a.ii}:{a.status}" for a in s.attempts)
            print(f"  {p.name}: mii={s.mii.mii} ({s.mii.limiting}) ii={s.ii} [{tries}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())

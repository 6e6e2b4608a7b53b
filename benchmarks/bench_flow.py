"""Flow benchmarks: synthesis time, Verilator simulation speed, cycles vs. critical path.

    python benchmarks/bench_flow.py [--reps 3] [--sim-runs 40]

1. Synthesis time of every integer kernel in examples/kernels (frontend to Verilog,
   Verilator excluded): median of ``--reps`` runs per kernel, then median over kernels.
2. Simulation speed: examples/gemm_i32.c (16x16x16) co-simulated on random stimulus,
   simulated cycles divided by the wall time of the harness run (build cached first).
3. Cycles against the critical path: each kernel's testbench is run natively with a
   counter per basic block of the hardware functions; the bound is
   sum(visits(b) * critical_path(b)) where critical_path(b) is the block's resource-free
   chained latency (the shortest legal schedule of its dependence graph,
   ``hls.scheduling.min_schedule_length``), against the co-simulated total cycles.
Writes benchmarks/results/flow.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.scheduling import min_schedule_length  # noqa: E402
from hls.verify import (build_harness, cosim, native_block_visits, random_calls,  # noqa: E402
                        run_calls, run_harness)

KERNELS = ROOT / "examples" / "kernels"


def kernels():
    for man in sorted(KERNELS.glob("*.json")):
        meta = json.loads(man.read_text())
        if not meta["float"]:
            yield man.with_suffix(".c"), meta["top"], {k: v["depth"] for k, v in meta["args"].items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--sim-runs", type=int, default=40)
    args = ap.parse_args(argv)
    result = {"kernels": []}
    times = []
    for src, top, depth in kernels():
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            res = synthesize(src, SynthOptions(top=top, depth=depth))
            ts.append(time.perf_counter() - t0)
        med = statistics.median(ts)
        times.append(med)
        cs = cosim(src, top, tb=src, depth=depth, synth=res)
        visits = native_block_visits(res.module.llvm_ir, [f.name for f in res.module.functions])
        bound = 0
        for f in res.module.functions:
            for b, bs in res.schedules[f].blocks.items():
                bound += visits.get((f.name, b.name), 0) * min_schedule_length(bs.problem)
        row = {"kernel": src.stem, "synth_s": round(med, 3), "passed": cs.passed,
               "calls": len(cs.calls), "cycles": cs.total_cycles, "critical_path_cycles": bound,
               "ratio": round(cs.total_cycles / bound, 2) if bound else None}
        result["kernels"].append(row)
        print(json.dumps(row), flush=True)
    result["synth_median_s"] = round(statistics.median(times), 3)
    result["synth_max_s"] = round(max(times), 3)

    gemm = ROOT / "examples" / "gemm_i32.c"
    res = synthesize(gemm, SynthOptions(top="gemm_i32", depth={"A": 256, "B": 256, "C": 256}))
    with tempfile.TemporaryDirectory() as d:
        v = Path(d) / "gemm_i32.v"
        v.write_text(res.verilog)
        binary = build_harness([v], res.interface)
        stim = random_calls(res.interface, k=args.sim_runs, seed=1)
        ptr_sizes = {m.arg_index: m.size_bytes for m in res.interface.memories}
        calls = run_calls(res.module.llvm_ir, "gemm_i32", stim, ptr_sizes)
        t0 = time.perf_counter()
        raw, total = run_harness(binary, res.interface, calls, Path(d), max_cycles=10**8)
        dt = time.perf_counter() - t0
    result["sim"] = {"kernel": "gemm_i32 16x16x16", "calls": len(calls), "cycles": total,
                     "wall_s": round(dt, 3), "cycles_per_s": round(total / dt)}
    print(json.dumps(result["sim"]))
    print(f"synthesis time: median {result['synth_median_s']} s, max {result['synth_max_s']} s")
    out = ROOT / "benchmarks" / "results" / "flow.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Alveo (``--target alveo``) co-simulation sweep and m_axi streaming throughput.

    python benchmarks/run_alveo.py [--seed S] [--stall P] [KERNEL ...]
        every integer kernel of examples/kernels (or the named ones) synthesised for
        alveo-u280 and co-simulated with its own testbench in cocotb/Verilator, random
        stalls on every AXI channel; prints pass/fail, calls and cycles per kernel.
    python benchmarks/run_alveo.py --stream
        examples/alveo/vadd_stream.c (c[i] = a[i] + b[i], 4096 int32) on one 64-bit
        gmem bundle with bursts (line_beats 16) with and without read prefetch, and
        without bursts (line_beats 1), ideal memory and random stalls, then with c (or b
        and c) on bundles of their own: cycles per element against the data-width bound.
    python benchmarks/run_alveo.py --axis-stream
        the same kernel with a, b and c as AXI4-Stream arguments (--interface a=axis ...),
        then a, b as streams and c on m_axi: cycles per element with no stream pauses and
        with random pauses/back-pressure on every stream (bound: 1 cycle per element).

Verilator builds are cached (~/.cache/pyhls/cocotb); the first run of each design
takes about a minute to compile.
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
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import cosim  # noqa: E402

KERNELS = ROOT / "examples" / "kernels"
STREAM = ROOT / "examples" / "alveo" / "vadd_stream.c"
STREAM_N = 4096


def integer_kernels() -> list[str]:
    out = []
    for js in sorted(KERNELS.glob("*.json")):
        d = json.loads(js.read_text())
        if not d.get("float"):
            out.append(js.stem)
    return out


def run_kernel(name: str, seed: int, stall: float) -> dict:
    d = json.loads((KERNELS / f"{name}.json").read_text())
    src = KERNELS / f"{name}.c"
    depth = {k: v["depth"] for k, v in d["args"].items()}
    t0 = time.perf_counter()
    try:
        res = synthesize(src, SynthOptions(top=d["top"], target="alveo", depth=depth))
        out = cosim(src, d["top"], tb=src, synth=res, seed=seed, axi_stall=stall)
    except HLSError as exc:
        return {"kernel": name, "passed": False, "error": exc.format().splitlines()[0],
                "time_s": round(time.perf_counter() - t0, 1)}
    return {"kernel": name, "passed": out.passed, "calls": len(out.calls),
            "cycles": [c.cycles for c in out.calls], "total_cycles": out.total_cycles,
            "summary": out.summary().splitlines()[:3],
            "time_s": round(time.perf_counter() - t0, 1)}


def sweep(names: list[str], seed: int, stall: float) -> int:
    failed = 0
    print(f"alveo co-simulation, seed {seed}, stall scale {stall}")
    for name in names:
        r = run_kernel(name, seed, stall)
        status = "PASS" if r["passed"] else "FAIL"
        failed += not r["passed"]
        if "error" in r:
            print(f"  {name:18s} {status}  {r['error']}  ({r['time_s']} s)")
            continue
        print(f"  {name:18s} {status}  {r['calls']} call(s), {r['total_cycles']} cycles "
              f"{r['cycles'][:6]}{'...' if len(r['cycles']) > 6 else ''}  ({r['time_s']} s)")
        for line in ([] if r["passed"] else r["summary"]):
            print(f"      {line}")
    print(f"{len(names) - failed} of {len(names)} passed")
    return 1 if failed else 0


def stream(seed: int) -> int:
    depth = {"a": STREAM_N, "b": STREAM_N, "c": STREAM_N}
    rows = []
    configs = [(16, {}, (0.0, 0.3), True), (16, {}, (0.0, 0.3), False),
               (1, {}, (0.0, 0.3), False),
               (16, {"c": "gmem1"}, (0.0,), True), (16, {"b": "gmem1", "c": "gmem2"}, (0.0,), True)]
    for beats, m_axi, stalls, pf in configs:
        res = synthesize(STREAM, SynthOptions(top="vadd_stream", target="alveo", depth=depth,
                                              axi_line_beats=beats, m_axi=m_axi,
                                              axi_prefetch=pf))
        loop = res.report["loops"][0]
        dw = res.axi.bundles[0].data_width
        where = " ".join(f"{b.name}:{','.join(b.args)}" for b in res.axi.bundles)
        for stall in stalls:
            out = cosim(STREAM, "vadd_stream", tb=STREAM, synth=res, seed=seed, axi_stall=stall)
            if not out.passed:
                print(out.summary())
                return 1
            cyc = out.calls[0].cycles
            rows.append((beats, pf, stall, dw, loop["ii"], cyc, cyc / STREAM_N, where))
    # one 64-bit bundle: R carries a[i] and b[i] (8 bytes/element), W carries c[i] (4)
    bound_r = 8 / (dw // 8)
    bound = max(bound_r, rows[0][4])
    print(f"vadd_stream, {STREAM_N} int32 elements, a, b, c on one {dw}-bit m_axi bundle")
    print(f"  bound: max(loop II {rows[0][4]}, R channel {bound_r:.2f} cycles/element "
          f"for 8 bytes/element at {dw // 8} bytes/beat) = {bound:.2f} cycles/element")
    print("  (with a, b, c on three bundles the bound is the loop II alone)")
    print("  line_beats  prefetch  stall  cycles  cycles/element  x bound  bundles")
    for beats, pf, stall, _dw, _ii, cyc, cpe, where in rows:
        print(f"  {beats:10d}  {'yes' if pf else 'no':>8}  {stall:5.1f}  {cyc:6d}  {cpe:14.3f}  "
              f"{cpe / bound:7.2f}  {where}")
    return 0


def axis_stream(seed: int) -> int:
    depth = {"a": STREAM_N, "b": STREAM_N, "c": STREAM_N}
    rows = []
    for axis, m_axi in ((["a", "b", "c"], {}), (["a", "b"], {"c": "gmem"})):
        res = synthesize(STREAM, SynthOptions(top="vadd_stream", target="alveo", depth=depth,
                                              axis=axis, m_axi=m_axi))
        loop = res.report["loops"][0]
        for stall in (0.0, 0.3):
            out = cosim(STREAM, "vadd_stream", tb=STREAM, synth=res, seed=seed, axi_stall=stall)
            if not out.passed:
                print(out.summary())
                return 1
            cyc = out.calls[0].cycles
            where = "axis: " + ",".join(axis) + ("; m_axi: " + ",".join(m_axi) if m_axi else "")
            rows.append((stall, loop["ii"], cyc, cyc / STREAM_N, where))
    print(f"vadd_stream, {STREAM_N} int32 elements over AXI4-Stream "
          f"(bound: loop II = 1 cycle/element)")
    print("  stall  II  cycles  cycles/element  interfaces")
    for stall, ii, cyc, cpe, where in rows:
        print(f"  {stall:5.1f}  {ii:2d}  {cyc:6d}  {cpe:14.3f}  {where}")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names (default: every integer kernel)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stall", type=float, default=0.3, help="pause probability scale")
    ap.add_argument("--stream", action="store_true", help="the streaming throughput table")
    ap.add_argument("--axis-stream", action="store_true",
                    help="the throughput table with AXI4-Stream arguments")
    args = ap.parse_args(argv)
    if args.stream:
        return stream(args.seed)
    if args.axis_stream:
        return axis_stream(args.seed)
    return sweep(args.kernels or integer_kernels(), args.seed, args.stall)


if __name__ == "__main__":
    sys.exit(main())

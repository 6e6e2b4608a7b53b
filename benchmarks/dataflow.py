"""Dataflow regions: speedup over the sequential design and channel memory.

    python benchmarks/dataflow.py [NAME...] [--frames 1,100] [--out FILE.json]

For each dataflow kernel (``tests/dataflow/*.c`` with a frames loop, compiled with
``-DFRAMES=N``; ``df_rates`` and ``examples/kernels/dataflow_img.c``, one frame per call; the explicit
task graph ``tests/dataflow/tg_pipe.json`` with its ``frames`` set to N) and each N:

* the design with ``--dataflow`` and the same source without it are synthesised and
  co-simulated against native execution (the kernel's testbench); the cycles of both,
  the speedup, and the region's throughput bound from report.json (the sum of the task
  latencies on the critical path plus (N - 1) x the largest interval) with the measured
  cycles per call against it;
* the channel memory: bits of every channel as built (a PIPO: two banks per consumer;
  a FIFO: its depth, plus the two 2-entry skid buffers of its ends) against Vitis-style
  defaults (every channel an array-sized buffer: a PIPO of two banks, a FIFO as deep as
  the array).

Results go to ``benchmarks/results/dataflow.json`` and a markdown table beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import cosim  # noqa: E402

DF = ROOT / "tests" / "dataflow"

#: name -> (source, frame elements per pointer port, ports, frames loop?)
KERNELS = {
    "df_chain4": (DF / "df_chain4.c", {"in": 64, "out": 64}),
    "df_forkjoin": (DF / "df_forkjoin.c", {"in": 64, "out": 64}),
    "df_sepfilt": (DF / "df_sepfilt.c", {"img": 192, "out": 192}),
    "df_twice": (DF / "df_twice.c", {"in": 48, "out": 48}),
    "df_reconv": (DF / "df_reconv.c", {"in": 32, "out": 32}),
    "df_rates": (DF / "df_rates.c", ("single", {"in": 64, "o1": 64, "o2": 64})),
    "dataflow_img": (ROOT / "examples" / "kernels" / "dataflow_img.c",
                     ("single", {"img": 256, "mask": 8, "count": 1})),
    "tg_pipe": (DF / "tg_stages.c", "graph"),
    # three outlined stages per frame, lowered from MLIR (needs mlir-opt/mlir-translate);
    # random stimulus, N frames written into a copy of the source
    "df_frames": (ROOT / "tests" / "mlir" / "df_frames.mlir", "mlir"),
}


def _channel_bits(rep: dict) -> tuple[int, int]:
    built = vitis = 0
    for c in rep["channels"]:
        if c.get("why") == "scalar":
            built += c["bits"]
            vitis += c["bits"]
            continue
        ncons = 1 if isinstance(c["consumer"], str) else len(c["consumer"])
        if c["kind"] == "pipo":
            built += c["bits"]
        else:
            built += (c["depth"] + 4) * c["width"]
        vitis += (2 * ncons if c["kind"] == "pipo" else 1) * c["elements"] * c["width"]
    return built, vitis


def run_one(name: str, frames: int, work: Path) -> dict:
    src, ports = KERNELS[name]
    cflags: tuple = ()
    opts_extra: dict = {}
    if isinstance(ports, tuple):            # one frame per call
        if frames != 1:
            return {"name": name, "frames": frames, "skipped": "one frame per call"}
        depth = ports[1]
    elif ports == "graph":
        g = json.loads((DF / "tg_pipe.json").read_text())
        g["frames"] = frames
        for p in g["ports"]:
            if "depth" in p:
                p["depth"] = 32 * frames
        gp = work / f"tg_pipe_{frames}.json"
        gp.write_text(json.dumps(g))
        depth = {}
        opts_extra = {"task_graph": str(gp)}
    elif ports == "mlir":
        text = src.read_text().replace("memref<4x32xi32>", f"memref<{frames}x32xi32>")
        text = text.replace("affine.for %f = 0 to 4 ", f"affine.for %f = 0 to {frames} ")
        src = work / f"{name}_{frames}.mlir"
        src.write_text(text)
        depth = {}
    else:
        depth = {k: v * frames for k, v in ports.items()}
        cflags = (f"-DFRAMES={frames}",)
    out = {"name": name, "frames": frames}
    for mode in ("sequential", "dataflow"):
        if mode == "sequential" and ports == "graph":
            out["sequential_cycles"] = None      # no sequential source: the graph is the code
            continue
        t0 = time.perf_counter()
        df = mode == "dataflow"
        opts = SynthOptions(top=name, depth=depth, cflags=cflags,
                            dataflow=(name,) if df and ports != "graph" else (),
                            dataflow_monitor=df, **(opts_extra if df else {}))
        res = synthesize(src, opts)
        tb = src if ports not in ("graph", "mlir") else None
        got = cosim(src, name, tb=tb, depth=depth, cflags=cflags, synth=res)
        out[f"{mode}_cycles"] = got.total_cycles
        out[f"{mode}_calls"] = len(got.calls)
        out[f"{mode}_passed"] = got.passed
        out[f"{mode}_s"] = round(time.perf_counter() - t0, 1)
        if df:
            rep = res.report["dataflow"]
            out["bound"] = rep["throughput_bound_cycles"]
            out["per_call"] = got.total_cycles / len(got.calls)
            out["vs_bound"] = round(out["per_call"] / rep["throughput_bound_cycles"], 3)
            out["channels"] = [(c["name"], c["kind"], c["depth"]) for c in rep["channels"]]
            out["channel_bits"], out["vitis_bits"] = _channel_bits(rep)
    if out.get("sequential_cycles"):
        out["speedup"] = round(out["sequential_cycles"] / out["dataflow_cycles"], 2)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--frames", default="1,100")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "dataflow.json"))
    args = ap.parse_args(argv)
    names = args.names or list(KERNELS)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in names:
            for f in (int(x) for x in args.frames.split(",")):
                r = run_one(n, f, Path(tmp))
                rows.append(r)
                print(json.dumps(r), flush=True)
    Path(args.out).write_text(json.dumps(rows, indent=1) + "\n")
    md = ["| kernel | N | sequential | dataflow | speedup | bound | per call / bound | "
          "channel bits | Vitis-style bits |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "skipped" in r:
            continue
        md.append(f"| {r['name']} | {r['frames']} | {r.get('sequential_cycles') or '-'} | "
                  f"{r['dataflow_cycles']} | {r.get('speedup', '-')} | {r['bound']} | "
                  f"{r['vs_bound']} | {r['channel_bits']} | {r['vitis_bits']} |")
    Path(args.out).with_suffix(".md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    bad = [r for r in rows if not r.get("dataflow_passed", True)
           or r.get("sequential_passed") is False]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

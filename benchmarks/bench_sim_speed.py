"""Measure the co-simulation speed of the Verilator harness (cycles per second).

Runs ``tests/data/vadd.v`` with 4096-word memories: ``--calls`` calls of n = 4096
(8194 cycles each), checking every result, and prints cycles/s for the simulator process
alone and for the whole ``run_cosim`` (stimulus + results files + byte compare).

    python benchmarks/bench_sim_speed.py [--calls 200] [--waves]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hls.interface import MemoryPort, ScalarPort, TopInterface  # noqa: E402
from hls.verify import Call, build_harness, run_cosim, run_harness  # noqa: E402

AW = 12
DEPTH = 1 << AW
MASK = 0xFFFFFFFF


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--n", type=int, default=DEPTH)
    ap.add_argument("--waves", action="store_true", help="trace build (VCD written)")
    args = ap.parse_args()

    iface = TopInterface(
        "vadd", "vadd", (ScalarPort("n", 3, 32),),
        (MemoryPort("a", 4, DEPTH, 1, 0, elem_bytes=4),
         MemoryPort("b", 4, DEPTH, 1, 1, elem_bytes=4),
         MemoryPort("c", 4, DEPTH, 1, 2, elem_bytes=4)),
        32,
    )
    rng = random.Random(0)
    calls = []
    for _ in range(args.calls):
        a = [rng.getrandbits(32) for _ in range(DEPTH)]
        b = [rng.getrandbits(32) for _ in range(DEPTH)]
        c = [(x + y) & MASK for x, y in zip(a, b)]
        out = c[:args.n] + [0] * (DEPTH - args.n)
        enc = lambda ws: b"".join(w.to_bytes(4, "little") for w in ws)  # noqa: E731
        calls.append(Call({3: args.n}, {0: enc(a), 1: enc(b)},
                          {0: enc(a), 1: enc(b), 2: enc(out)}, sum(c[:args.n]) & MASK))

    with tempfile.TemporaryDirectory() as tmp:
        v = Path(tmp) / "vadd_big.v"
        v.write_text((ROOT / "tests/data/vadd.v").read_text()
                     .replace("`define AW 4", f"`define AW {AW}"))
        t0 = time.perf_counter()
        binary = build_harness([v], iface, trace=args.waves)
        print(f"build (or cache hit): {time.perf_counter() - t0:.2f} s  -> {binary}")

        t0 = time.perf_counter()
        raw, total = run_harness(binary, iface, calls, Path(tmp) / "raw", max_cycles=10**7,
                                 waves=(Path(tmp) / "w.vcd") if args.waves else None)
        dt = time.perf_counter() - t0
        print(f"simulator process: {total} cycles in {dt:.3f} s = {total / dt / 1e6:.2f} M cycles/s")

        t0 = time.perf_counter()
        res = run_cosim([v], iface, calls, max_cycles=10**7, waves=args.waves,
                        workdir=Path(tmp) / "cosim")
        dt = time.perf_counter() - t0
        print(f"run_cosim end to end: {res.total_cycles} cycles in {dt:.3f} s = "
              f"{res.total_cycles / dt / 1e6:.2f} M cycles/s, passed={res.passed}")
        return 0 if res.passed else 1


if __name__ == "__main__":
    sys.exit(main())

"""Resource-constrained scheduling end to end: unit limits serialise operations in the
schedule (re-verified by the checker), binding shares the units, co-simulation passes."""

from __future__ import annotations

import json
from pathlib import Path

from hls.flow import SynthOptions, synthesize
from hls.verify import cosim

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "kernels"


def _kernel(name):
    meta = json.loads((KERNELS / f"{name}.json").read_text())
    return KERNELS / f"{name}.c", meta["top"], {k: v["depth"] for k, v in meta["args"].items()}


def test_one_multiplier():
    src, top, depth = _kernel("fft8_dif_q12")
    free = synthesize(src, SynthOptions(top=top, depth=depth))
    lim = synthesize(src, SynthOptions(top=top, depth=depth, max_units={"mul": 1}))
    for f in lim.module.functions:
        bd = lim.bindings[f]
        for cls, insts in bd.units.items():
            if cls.startswith("mul"):
                assert len(insts) == 1, (cls, len(insts))
        for bs in lim.schedules[f].blocks.values():
            for step in range(bs.length):
                muls = [i for i, o in enumerate(bs.ops)
                        if o.kind == "mul" and bs.schedule.steps[i] == step]
                by_cls = {}
                for i in muls:
                    by_cls.setdefault(bs.problem.ops[i].resource, []).append(i)
                assert all(len(v) <= 1 for v in by_cls.values())
    n_free = sum(len(i) for f in free.module.functions
                 for c, i in free.bindings[f].units.items() if c.startswith("mul"))
    n_lim = sum(len(i) for f in lim.module.functions
                for c, i in lim.bindings[f].units.items() if c.startswith("mul"))
    assert n_lim < n_free or n_free == 0
    res = cosim(src, top, tb=src, depth=depth, synth=lim)
    assert res.passed, res.summary()

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


def _register_mux_violations(res, writes_of) -> list:
    """Registers whose input multiplexer (one input per write of their values) does not
    fit the cycle after their latest write, by ``writes_of`` (the binding's definition of
    a value's writes and their arrival)."""
    out = []
    for f in res.module.functions:
        bd, target = res.bindings[f], res.schedules[f].target
        members: dict[int, list] = {}
        for v, r in bd.reg_of.items():
            members.setdefault(r, []).append(v)
        for r, vs in members.items():
            w = writes_of(bd, vs)
            k, late = sum(n for n, _ in w.values()), max(t for _, t in w.values())
            if target.chain_budget_ns - late < target.port_mux_ns(k) - 1e-9:
                out.append((f.name, r, k, late))
    return out


def test_shared_registers_keep_their_multiplexer_in_the_cycle(monkeypatch):
    """On ECP5 a register shared by values with ``k`` writes in all has a ``k``-input
    multiplexer in front of it, which must fit what the latest write leaves of the cycle.
    Binding shares registers only so; without the rule (every write counted as one at
    time 0) the same kernel gets registers that break it, so the check can fail."""
    import hls.binding._bind as bind_mod

    src, top, depth = _kernel("mat_horner_f32")    # of the kernels, the one blind sharing breaks
    writes_of = bind_mod._register_writes
    res = synthesize(src, SynthOptions(top=top, depth=depth, target="ecp5"))
    assert _register_mux_violations(res, writes_of) == []
    monkeypatch.setattr(bind_mod, "_register_writes",
                        lambda bd, values: {v: (1, 0.0) for v in values})
    blind = synthesize(src, SynthOptions(top=top, depth=depth, target="ecp5"))
    assert _register_mux_violations(blind, writes_of), "the kernel does not test the rule"


SINGLE_PORT_BANKS = """
#define N 32
int main(void) {
  int A[N][N], r[N], p[N], s[N], q[N];
  for (int i = 0; i < N; i++) { r[i] = i * 3 + 1; p[i] = i ^ 5; for (int j = 0; j < N; j++) A[i][j] = (i * j) % N; }
  for (int i = 0; i < N; i++) s[i] = 0;
  for (int i = 0; i < N; i++) {
    q[i] = 0;
    for (int j = 0; j < N; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
  int h = 0;
  for (int i = 0; i < N; i++) h += s[i] ^ q[i];
  return h & 255;
}
"""


def test_single_port_retry_reaches_the_banks_of_an_automatic_partition(tmp_path):
    """ECP5 takes one write per cycle into an on-chip memory, so a memory the schedule
    writes twice in a cycle is scheduled again with one port.  When it is a bank of an
    automatic partition (made after the first schedule), the one-port setting must reach
    the bank too: it did not, and the retry repeated itself without end (bicg at a 0.7 ns
    clock uncertainty)."""
    from hls.flow import two_writers

    src = tmp_path / "banks.c"
    src.write_text(SINGLE_PORT_BANKS)
    res = synthesize(src, SynthOptions(top="main", target="ecp5"))
    single = res.report.get("single_port", {}).get("memories", [])
    assert any(m.rsplit("_", 1)[-1].isdigit() for m in single), f"no bank given one port: {single}"
    assert two_writers(res.module, res.schedules) == []
    r = cosim(src, "main", synth=res)
    assert r.passed, r.summary()

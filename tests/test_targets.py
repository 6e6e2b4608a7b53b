from __future__ import annotations

import dataclasses
import math

import pytest

from hls.errors import HLSError, InternalError
from hls.targets import (
    ALVEO,
    OP_KINDS,
    PLAIN,
    OpTiming,
    Platform,
    Target,
    divider_latency,
    get_target,
    known_targets,
)

ALL_KINDS = (
    "add sub and or xor shl lshr ashr icmp select zext sext trunc mul udiv sdiv urem srem "
    "udivc sdivc uremc sremc "
    "smax smin umax umin abs fshl fshr bitreverse ctpop ctlz cttz bswap sadd_sat ssub_sat "
    "uadd_sat usub_sat load load_async store call mux const copy"
).split()


def test_known_targets_and_aliases():
    assert set(known_targets()) == {"generic", "alveo", "alveo-u280", "alveo-u250", "alveo-u55c",
                                    "ecp5", "ecp5:PART"}
    g = get_target("generic")
    assert isinstance(g, Target) and g.clock_period_ns == 10.0 and g.family == "generic"
    assert get_target() is g
    assert get_target("alveo") is get_target("alveo-u280")
    assert get_target("ALVEO-U55C").name == "alveo-u55c"
    for name in ("alveo-u280", "alveo-u250", "alveo-u55c"):
        t = get_target(name)
        assert t.clock_period_ns == pytest.approx(3.33)
        assert t.family == "ultrascale+"


def test_platform_of_targets():
    """What the top's ports are comes with the target: AXI on the Alveo cards (whatever
    the clock), BRAM-style ports behind ap_ctrl_hs everywhere else."""
    assert ALVEO != PLAIN and ALVEO.axi and not PLAIN.axi
    for name in ("generic", "ecp5", "ecp5:25k"):
        assert get_target(name).platform == PLAIN
    for name in ("alveo", "alveo-u280", "alveo-u250", "alveo-u55c"):
        assert get_target(name).platform == ALVEO
    assert get_target("alveo").with_clock(5.0).with_uncertainty(0.5).platform == ALVEO
    with pytest.raises(InternalError, match="ports must be one of bram, axi"):
        Platform("pcie", ports="pcie")


def test_unknown_target_message():
    with pytest.raises(HLSError) as ei:
        get_target("virtex2")
    msg = ei.value.message
    assert msg.startswith("unknown target 'virtex2'; known targets: ")
    for name in known_targets():
        assert name in msg


def test_target_is_frozen_and_with_clock():
    g = get_target("generic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.clock_period_ns = 5.0  # type: ignore[misc]
    g5 = g.with_clock(5.0)
    assert g5.clock_period_ns == 5.0 and g.clock_period_ns == 10.0
    assert g5.timing("add", 32) == g.timing("add", 32)
    with pytest.raises(HLSError):
        g.with_clock(0)


def test_exhaustive_dispatch():
    assert set(OP_KINDS) == set(ALL_KINDS)
    for name in ("generic", "alveo"):
        t = get_target(name)
        for kind in ALL_KINDS:
            for w in (1, 2, 8, 17, 32, 64):
                ot = t.timing(kind, w)
                assert isinstance(ot, OpTiming)
                assert ot.latency >= 0 and ot.delay_ns >= 0 and ot.occupancy >= 1
                assert min(ot.area_lut, ot.area_ff, ot.area_dsp) >= 0
                assert math.isfinite(ot.delay_ns)


def test_unknown_kind_and_bad_width():
    t = get_target("generic")
    with pytest.raises(HLSError, match="unknown operation kind 'fadd'"):
        t.timing("fadd", 32)
    for w in (0, 129, -1, True):   # 1..128 (MAX_WIDTH)
        with pytest.raises(HLSError, match="width"):
            t.timing("add", w)


def test_generic_formulas():
    t = get_target("generic")
    assert t.timing("add", 32).delay_ns == pytest.approx(0.8 + 0.03 * 32)
    assert t.timing("icmp", 16).delay_ns == pytest.approx(t.timing("add", 16).delay_ns)
    assert t.timing("and", 64).delay_ns == pytest.approx(0.3)
    assert t.timing("shl", 32).delay_ns == pytest.approx(0.4 + 0.15 * 5)
    assert t.timing("select", 32).delay_ns == pytest.approx(0.3)
    for k in ("zext", "sext", "trunc", "bitreverse", "bswap", "const", "copy"):
        assert t.timing(k, 32).delay_ns == 0.0 and t.timing(k, 32).latency == 0
    assert t.timing("add", 64).delay_ns > t.timing("add", 8).delay_ns
    assert t.timing("sadd_sat", 32).delay_ns > t.timing("add", 32).delay_ns


def test_mul_div_memory_call():
    for name in ("generic", "alveo-u250"):
        t = get_target(name)
        m = t.timing("mul", 32)
        assert m.latency == 0 and m.resource == "mul32" and m.occupancy == 1 and m.pipelined
        for k in ("udiv", "sdiv", "urem", "srem"):
            d = t.timing(k, 32)
            assert d.latency == divider_latency(32, t.divider_bits(32))
            assert d.occupancy == d.latency and not d.pipelined and d.resource == "div32"
        assert t.timing("udiv", 7).latency == divider_latency(7, t.divider_bits(7))
        assert t.timing("udiv", 7).resource == "div7"
        ld = t.timing("load", 32)
        assert ld.latency == 1 and 1.0 <= ld.delay_ns <= 2.0
        st = t.timing("store", 32)
        assert st.latency == 0 and st.delay_ns == pytest.approx(0.5 if name == "generic" else 0.4)
        assert t.timing("call", 32).latency == 1
        assert t.timing("add", 32).resource is None
    g, a = get_target("generic"), get_target("alveo")
    assert g.timing("mul", 32).delay_ns == pytest.approx(2.0 + 0.08 * 32)
    assert g.timing("mul", 32).area_dsp == 0 and g.timing("mul", 32).area_lut > 0
    assert a.timing("mul", 32).area_dsp == math.ceil(32 / 18) ** 2
    assert a.timing("mul", 32).delay_ns < a.clock_period_ns


def test_latencies_are_target_independent():
    """Except the sequential divider's (its k bits per cycle follow the clock)."""
    g, a = get_target("generic"), get_target("alveo")
    for kind in ALL_KINDS:
        if kind in ("udiv", "sdiv", "urem", "srem"):
            continue
        for w in (1, 16, 32, 64):
            tg, ta = g.timing(kind, w), a.timing(kind, w)
            assert (tg.latency, tg.occupancy, tg.resource, tg.pipelined) == \
                (ta.latency, ta.occupancy, ta.resource, ta.pipelined)


def test_divider_latency_checks_width():
    assert divider_latency(1) == 3 and divider_latency(64) == 66
    assert divider_latency(64, 3) == 24 and divider_latency(32, 4) == 10
    assert divider_latency(5, 2) == 5 and divider_latency(8, 8) == 3
    with pytest.raises(HLSError):
        divider_latency(0)
    for bad in (0, 9, True, 2.0):
        with pytest.raises(HLSError):
            divider_latency(32, bad)


def _fits(t: Target, w: int, k: int) -> bool:
    p = t.tech
    step = p.add_base_ns + p.add_per_bit_ns * (w + 1) + p.mux_ns
    return p.reg_out_ns + k * step + p.store_ns <= t.clock_period_ns + 1e-9


def test_divider_bits_follow_the_clock():
    """k quotient bits per cycle: the largest k <= 8 whose k chained restoring steps fit the
    clock, reduced to the fewest steps giving the same iteration count; 1 when nothing fits."""
    g = get_target("generic")
    assert [g.divider_bits(w) for w in (8, 16, 32, 64)] == [4, 4, 4, 3]
    assert [g.timing("udiv", w).latency for w in (8, 16, 32, 64)] == [4, 6, 10, 24]
    for t in (g, get_target("alveo"), g.with_clock(5.0), g.with_clock(30.0)):
        for w in range(1, 65):
            k = t.divider_bits(w)
            kmax = max([j for j in range(1, 9) if _fits(t, w, j)], default=1)
            assert 1 <= k <= min(w, kmax)
            assert -(-w // k) == -(-w // kmax)           # same iterations as the largest k
            assert k == 1 or -(-w // (k - 1)) > -(-w // k)  # and no fewer steps would do
            for kind in ("udiv", "sdiv", "urem", "srem"):
                d = t.timing(kind, w)
                assert d.latency == d.occupancy == divider_latency(w, k) == -(-w // k) + 2
                assert d.resource == f"div{w}" and not d.pipelined
    fast = g.with_clock(1.0)                             # not even one step fits
    for w in range(1, 65):
        assert fast.divider_bits(w) == 1 and fast.timing("sdiv", w).latency == w + 2
    assert g.with_clock(30.0).divider_bits(64) == 8    # capped at 8
    assert g.with_clock(30.0).timing("udiv", 64).latency == 10
    with pytest.raises(HLSError):
        g.divider_bits(0)
    with pytest.raises(HLSError):
        g.divider_bits(129)


# -- the multiplexer in front of a memory port ----------------------------------------


PORT_FANIN = """
int fan(int a[200], int n) {
  int t[200];
  for (int i = 0; i < 200; i++) t[i] = a[i] + n;
  int s = 0;
  if (n > 0) s += t[n] + t[n + 1] + t[n + 2];
  if (n > 1) s ^= t[n - 1] * t[n + 3] - t[2 * n];
  if (n > 2) s += t[n / 2] + t[n / 3] + t[n / 4];
  a[0] = s;
  return s;
}
"""


def test_port_mux_delay_grows_with_the_sources(tmp_path):
    """On ECP5 the multiplexer in front of a memory port is timed by its fan-in (the
    library's ``pmux`` class): nothing beyond a 2:1 mux, more LUT levels for more
    sources; the generic target keeps it in the step overhead."""
    from hls.flow import SynthOptions, synthesize
    from hls.scheduling import op_timing, port_fanin

    ecp5, gen = get_target("ecp5"), get_target("generic")
    assert ecp5.port_mux_ns(1) == ecp5.port_mux_ns(2) == 0.0
    fans = [ecp5.port_mux_ns(n) for n in (4, 8, 16, 32, 64)]
    assert fans == sorted(fans) and fans[0] > 0 and fans[-1] > fans[0] + 2.0
    assert gen.port_mux_ns(64) == 0.0
    src = tmp_path / "fan.c"
    src.write_text(PORT_FANIN)
    res = synthesize(src, SynthOptions(top="fan", target="ecp5", depth={"a": 200}))
    t_ops = [op for f in res.module.functions for op in f.ops()
             if op.kind == "load" and op.mem is not None and op.mem.name == "fan_t"]
    assert t_ops
    n = port_fanin(t_ops[0])
    assert n == -(-len([op for op in res.module.top.ops() if op.mem is t_ops[0].mem]) // t_ops[0].mem.ports) > 2
    ecp5_t = op_timing(res.target, t_ops[0])
    extra = res.target.port_mux_ns(n)
    if t_ops[0].mem.async_read:
        assert ecp5_t.delay_ns == pytest.approx(res.target.timing("load_async", 32).delay_ns + extra)
    else:   # block RAM: the multiplexer is before the RAM's register
        assert ecp5_t.in_delay_ns == pytest.approx(extra) and ecp5_t.latency == 1


_BRANCHY = """
int branchy(int x, int y, int lim) {
    int n = 0;
    while (x + y < lim) {
        x += 3;
        y -= 1;
        n++;
    }
    return n;
}
"""


def _branch_slack(res) -> list[float]:
    """Per FSM block whose condition is chained into its branch's step: the cycle the
    condition's arrival leaves (chain budget less its arrival)."""
    out = []
    for f in res.module.functions:
        fs = res.schedules[f]
        for b, bs in fs.blocks.items():
            if b in fs.pipelines or b.terminator.kind != "condbr":
                continue
            cond = b.terminator.operands[0]
            if cond not in bs.ops:
                continue
            i, j = bs.ops.index(cond), bs.ops.index(b.terminator)
            if bs.schedule.steps[i] == bs.schedule.steps[j]:
                out.append(fs.target.chain_budget_ns - bs.schedule.arrival_ns[i])
    return out


def test_a_branch_leaves_the_controller_its_time(tmp_path, monkeypatch):
    """On ECP5 a branch's condition drives the FSM's next-state logic and the enables of
    the next cycle's registers (2mm: 4.6 ns after a loop's exit compare): ``condbr``
    costs ``branch_ns``, so a condition chained into its branch's step arrives at least
    that long before the budget ends.  Without it the same function chains its condition
    later, so the check can fail."""
    from hls.flow import SynthOptions, synthesize
    import hls.targets._registry as reg
    src = tmp_path / "br.c"
    src.write_text(_BRANCHY)
    t = get_target("ecp5")
    assert t.tech.branch_ns > 0
    res = synthesize(src, SynthOptions(top="branchy", target="ecp5"))
    from hls.scheduling import op_timing
    br = [b.terminator for f in res.module.functions for b in f.blocks
          if b.terminator.kind == "condbr"]
    assert br and all(op_timing(t, op).delay_ns == pytest.approx(t.tech.branch_ns) for op in br)
    slack = _branch_slack(res)
    assert all(s >= t.tech.branch_ns - 1e-9 for s in slack)
    monkeypatch.setattr(reg, "ECP5_TECH", dataclasses.replace(reg.ECP5_TECH, branch_ns=0.0))
    blind = synthesize(src, SynthOptions(top="branchy", target="ecp5"))
    assert min(_branch_slack(blind)) < t.tech.branch_ns


_DIVIDE = """
unsigned divide(unsigned x, unsigned y) {
    unsigned q = 0, acc = y;
    while (acc <= x) { q++; acc += y; }
    return q;
}
int main(void) {
    unsigned s = 0;
    for (unsigned i = 1; i < 6; i++) s += divide(37 * i, i + 2);
    return s != 78;
}
"""


def test_a_late_exit_condition_leaves_through_a_stage(tmp_path):
    """A single-stage pipelined loop leaves in the cycle its exit condition is known, so
    the condition drives the next state as a ``condbr`` would (adi, 2mm: a loop's exit
    compare chained after its add, then 8 ns of next-state and register-enable logic).
    On ECP5, a condition that arrives later than ``branch_ns`` before the budget ends
    makes the loop leave through an empty last stage (``exit_wait``): every
    single-stage loop left leaves its condition that time, the design co-simulates, and
    the latency the report gives is what co-simulation measures (one cycle more per
    entry).  The generic target, without ``branch_ns``, keeps the single stage."""
    from hls.flow import SynthOptions, synthesize
    from hls.estimate import replay_calls
    from hls.verify import cosim
    src = tmp_path / "divide.c"
    src.write_text(_DIVIDE)
    t = get_target("ecp5")
    res = synthesize(src, SynthOptions(top="divide", target="ecp5"))
    lps = [lp for fs in res.schedules.values() for lp in fs.pipelines.values()]
    assert lps and any(lp.exit_wait for lp in lps)
    for lp in lps:
        assert lp.stages == lp.schedule.stages + lp.exit_wait
        if lp.stages == 1:
            m = lp.model
            assert lp.schedule.arrival_ns[m.id[m.cond]] + t.tech.branch_ns <= t.chain_budget_ns + 1e-9
    r = cosim(src, "divide", tb=src, synth=res)
    assert r.passed, r.summary()
    assert replay_calls(res.module, res.schedules, r.stimulus) == [c.cycles for c in r.calls]
    generic = synthesize(src, SynthOptions(top="divide"))
    assert not any(lp.exit_wait for fs in generic.schedules.values()
                   for lp in fs.pipelines.values())


_SCRATCH = """
int scratch(const int *a, int n) {
    int t[24];
    int s = 0;
    for (int i = 0; i < 24; i++)
        t[i] = a[i] * 3;
    for (int i = 0; i < n; i++)
        s += t[(i * 5) % 24] ^ a[i];
    return s;
}
"""


def test_lut_ram_accesses_pay_their_fanout(tmp_path):
    """A LUT-RAM array's address and write data fan out to every TRELLIS_DPR16X4 of it
    (durbin's 40-word arrays: 1-1.9 ns more than the characterised LUT levels): on ECP5
    every load and store of an ``async_read`` memory costs ``lutram_route_ns`` more than
    the same access would without it; block-RAM accesses do not."""
    from hls.flow import SynthOptions, synthesize
    from hls.scheduling import op_timing
    src = tmp_path / "scratch.c"
    src.write_text(_SCRATCH)
    t = get_target("ecp5")
    res = synthesize(src, SynthOptions(top="scratch", target="ecp5", depth={"a": 64}))
    kinds = set()
    for f in res.module.functions:
        for op in f.ops():
            if op.kind not in ("load", "store") or op.mem is None:
                continue
            plain = op_timing(dataclasses.replace(
                t, tech=dataclasses.replace(t.tech, lutram_route_ns=0.0)), op)
            got = op_timing(t, op)
            extra = t.tech.lutram_route_ns if op.mem.async_read else 0.0
            assert got.delay_ns == pytest.approx(plain.delay_ns + extra), (op.kind, op.mem.name)
            kinds.add((op.kind, op.mem.async_read))
    assert {("load", True), ("store", True), ("load", False)} <= kinds

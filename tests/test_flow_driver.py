"""The driver (hls.flow): the frontend runs once per synthesis.  The planning trials
(if-conversion, automatic unrolling, the dataflow regions' two unrolling plans), the
design and a design built again (LUT RAM back to block RAM) each lower a clone of the
frontend's module (``Module.clone``).  The directives file is parsed once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hls.flow as flow
from hls.flow import SynthOptions, synthesize
from hls.ir import Module

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "kernels"
PARTITION = ROOT / "tests" / "kernels" / "partition.c"


@pytest.fixture
def counts(monkeypatch):
    """Calls of the frontend entry (``hls.frontend.load`` as the flow calls it) and of
    ``Module.clone``."""
    got = {"frontend": 0, "clone": 0, "directives": 0}
    load, clone, load_directives = flow.load, Module.clone, flow.load_directives

    def counting_load(*args, **kw):
        got["frontend"] += 1
        return load(*args, **kw)

    def counting_clone(self):
        got["clone"] += 1
        return clone(self)

    def counting_directives(*args, **kw):
        got["directives"] += 1
        return load_directives(*args, **kw)

    monkeypatch.setattr(flow, "load", counting_load)
    monkeypatch.setattr(flow, "load_directives", counting_directives)
    monkeypatch.setattr(Module, "clone", counting_clone)
    return got


def _manifest(name: str) -> SynthOptions:
    meta = json.loads((SHARED / f"{name}.json").read_text())
    return SynthOptions(top=meta["top"],
                        depth={k: v["depth"] for k, v in meta.get("args", {}).items()})


@pytest.mark.skipif(not SHARED.is_dir(), reason="no ../shared/kernels")
@pytest.mark.parametrize("name,unrolled", [
    ("fir_decim2", {"for_body4": 2}),                   # unrolled by 2, by 4 tried
    ("dataflow_img", {"for_body": 2, "for_body4": 2}),  # regions: two plans compared
])
def test_frontend_runs_once(counts, name, unrolled):
    res = synthesize(SHARED / f"{name}.c", _manifest(name))
    assert counts["frontend"] == 1
    # the planning trials ran, each on its own clone, and the design is one more
    assert counts["clone"] >= 4, counts
    got = {lp["loop"]: lp["unrolled"] for lp in res.report["loops"] if "unrolled" in lp}
    assert got == unrolled


def test_frontend_runs_once_when_the_design_is_built_again(counts):
    """A combinational loop through a LUT RAM sends the memory back to block RAM and the
    design is built again, from the frontend's module."""
    opts = SynthOptions(top="quad_sum", depth={"a": 32, "out": 32}, pipeline=False)
    res = synthesize(PARTITION, opts)
    assert not any(op.mem.async_read for op in res.module.top.ops()
                   if op.mem is not None and op.mem.name == "quad_sum_loc")
    assert counts["frontend"] == 1
    assert counts["clone"] == 2


DIRECTIVES = """
[[array]]
function = "quad_sum"
name = "out"
partition = "cyclic"
factor = 2
"""


@pytest.mark.parametrize("dataflow", [False, True])
def test_directives_file_parsed_once(counts, tmp_path, dataflow):
    """Once, where the frontend and every stage used to parse it again; with a
    ``[[dataflow]]`` entry it is read before the sources (its regions add a C flag)."""
    d = tmp_path / "d.toml"
    if dataflow:
        d.write_text('[[dataflow]]\nfunction = "df_twice"\n')
        src, opts = ROOT / "tests" / "dataflow" / "df_twice.c", SynthOptions(
            top="df_twice", depth={"in": 384, "out": 384}, directives=str(d))
    else:
        d.write_text(DIRECTIVES)
        src, opts = PARTITION, SynthOptions(top="quad_sum", depth={"a": 32, "out": 32},
                                            directives=str(d), auto_unroll=False)
    res = synthesize(src, opts)
    assert counts == {"frontend": 1, "clone": counts["clone"], "directives": 1}
    if dataflow:
        assert res.report["dataflow"]["tasks"]
    else:
        assert {a["name"]: a["banks"] for a in res.report["arrays"]}["out"] == 2


def test_timing_closure_runs_the_frontend_once(counts, monkeypatch):
    """``--close-timing``: each attempt is the design built again with a higher clock
    uncertainty, from the frontend's module (place and route stood in for: the first
    attempt misses the clock, the second meets it), and is the design a synthesis at
    that uncertainty gives."""
    made = []

    def fake_place_and_route(verilog, iface, target, schedules, seeds):
        assert seeds == 1                      # --pnr-seeds reaches it: 1 by default
        made.append(target.uncertainty_ns)
        met = len(made) > 1
        return {"clock_ns": target.clock_period_ns, "met": met,
                "fmax_mhz": 1000.0 / (target.clock_period_ns + (0 if met else 1.0))}

    monkeypatch.setattr(flow, "place_and_route", fake_place_and_route)
    opts = SynthOptions(top="quad_sum", depth={"a": 32, "out": 32}, target="ecp5",
                        clock_period_ns=10.0, close_timing=2)
    res = synthesize(PARTITION, opts)
    assert counts["frontend"] == 1
    closure = res.report["timing"]["closure"]
    assert [a["met"] for a in closure["attempts"]] == [False, True]
    assert closure["chosen"] == 1 and made[0] == 0 and made[1] > 0
    assert res.target.uncertainty_ns == made[1]
    direct = synthesize(PARTITION, SynthOptions(
        top="quad_sum", depth={"a": 32, "out": 32}, target="ecp5", clock_period_ns=10.0,
        clock_uncertainty_ns=made[1], place_route=True))
    assert direct.verilog == res.verilog
    assert counts["frontend"] == 2


VADD = """
void vadd(const int a[16], const int b[16], int c[16]) {
    for (int i = 0; i < 16; i++)
        c[i] = a[i] + b[i];
}
"""


def test_platform_decides_the_ports(tmp_path):
    """The target's platform decides the top: BRAM-style ports behind ap_ctrl_hs on the
    generic target, AXI4 masters on Alveo (whose latency is then only a lower bound)."""
    src = tmp_path / "vadd.c"
    src.write_text(VADD)
    plain = synthesize(src, SynthOptions(top="vadd"))
    assert plain.target.platform.ports == "bram" and plain.axi is None
    header = plain.verilog[plain.verilog.index("module vadd("):]
    header = header[:header.index(");")]
    assert "a_address0" in header and "c_we0" in header and "m_axi" not in plain.verilog
    assert plain.report["latency"]["max"] is not None
    alveo = synthesize(src, SynthOptions(top="vadd", target="alveo"))
    assert alveo.target.platform.ports == "axi" and alveo.axi is not None
    header = alveo.verilog[alveo.verilog.index("module vadd("):]
    header = header[:header.index(");")]
    assert "m_axi_gmem_ARADDR" in header and "a_address0" not in header
    assert alveo.report["latency"]["max"] is None

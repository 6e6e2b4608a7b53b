"""Small on-chip arrays in LUT RAM (the small-memories pass): what is chosen, and the
fallback to block RAM when combinational reads would close a loop in the netlist."""

from __future__ import annotations

from pathlib import Path

from hls.flow import SynthOptions, synthesize
from hls.verify import cosim

ROOT = Path(__file__).resolve().parent
PARTITION = ROOT / "kernels" / "partition.c"
SMALL = ROOT / "programs" / "small_arrays.c"


def _async(res) -> dict[str, bool]:
    return {op.mem.name: op.mem.async_read for f in res.module.functions for op in f.ops()
            if op.mem is not None}


def test_small_local_arrays_and_roms_read_in_the_load_cycle():
    res = synthesize(SMALL, SynthOptions(top="main"))
    got = _async(res)
    assert got["main_reg"] and got["main_hist"] and got["sbox"]
    assert not got["main_four"]            # handed to a callee: block RAM
    assert not got["v"]                    # the callee's port set
    off = synthesize(SMALL, SynthOptions(top="main", small_memories=False))
    assert not any(_async(off).values())
    r, r_off = cosim(SMALL, "main", synth=res), cosim(SMALL, "main", synth=off)
    assert r.passed and r_off.passed
    assert r.total_cycles < r_off.total_cycles


def test_a_combinational_loop_sends_the_memory_back_to_block_ram():
    # without pipelining, quad_sum's multiplier is shared: its output feeds the address
    # of the local array loc and loc's data feeds its input in another state, a loop
    # through two multiplexers that the netlist would have with a LUT RAM loc
    opts = SynthOptions(top="quad_sum", depth={"a": 32, "out": 32}, pipeline=False)
    res = synthesize(PARTITION, opts)
    assert not _async(res)["quad_sum_loc"]
    assert res.report["top"] == "quad_sum"

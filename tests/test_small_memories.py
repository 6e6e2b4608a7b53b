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


WIDE_ROM = r"""
static const unsigned long long prog[48] = {
#define W(k) 0x0123456789abcdefull * (k) + (k)
    W(1), W(2), W(3), W(4), W(5), W(6), W(7), W(8), W(9), W(10), W(11), W(12),
    W(13), W(14), W(15), W(16), W(17), W(18), W(19), W(20), W(21), W(22), W(23), W(24),
    W(25), W(26), W(27), W(28), W(29), W(30), W(31), W(32), W(33), W(34), W(35), W(36),
    W(37), W(38), W(39), W(40), W(41), W(42), W(43), W(44), W(45), W(46), W(47), W(48)};
static const unsigned long long deep[80] = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
int main(void) {
    unsigned long long scratch[48] = {0};
    unsigned long long h = 0;
    unsigned pc = 0;
    for (int i = 0; i < 60; i++) {      /* an interpreter's fetch: decoded in its cycle */
        unsigned long long ins = prog[pc];
        scratch[pc] = ins ^ h;
        h = (h ^ ins) * 31 + deep[(ins >> 7) % 80];
        pc = (unsigned)((ins >> 11) ^ h) % 48;
    }
    for (int i = 0; i < 48; i++)
        h += scratch[i] & (h | 1);
    return (int)(h ^ (h >> 32));
}
"""


def test_a_rom_of_wide_words_is_logic_but_not_a_ram_of_the_same_bits(tmp_path):
    """A ROM of up to MAX_WORDS words of up to 64 bits (3,072 bits here: beyond one LUT
    RAM column, one LUT per bit as logic) reads in its load's cycle; a writable local
    array of the same size, and a deeper ROM, stay in block RAM."""
    src = tmp_path / "rom.c"
    src.write_text(WIDE_ROM)
    res = synthesize(src, SynthOptions(top="main"))
    got = _async(res)
    assert got["prog"] and not got["deep"], got
    assert not any(async_ for name, async_ in got.items() if name.startswith("main_scratch"))
    r = cosim(src, "main", synth=res)
    assert r.passed, r.summary()

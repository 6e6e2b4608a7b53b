"""The top's scalar arguments that the x86-64 calling convention does not pass as one
integer of at most 64 bits: a struct by value (``p.coerce``, ``t.coerce0``/``t.coerce1``),
an integer of 65 to 128 bits (``unsigned __int128``, ``_BitInt(100)`` in two pieces,
``ap_uint<100>`` in one ``i128``), and a return value of up to 128 bits.  Each is one
port named after the argument, as wide as its C value (a struct: its bytes, padding
included, the first field at the least significant bits: Vitis HLS's default
aggregation), co-simulated against native execution on the testbench's edge values and
on random stimulus; the golden model's joining and splitting of the ABI's pieces are
checked against Python's arithmetic."""

from __future__ import annotations

import os
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize
from hls.package import write_vitis_package
from hls.verify import cosim
from hls.verify._golden_worker import ParamType, Ports
from helpers import assert_host_compiles

WIDE_C = """\
struct pt { int x; short y; };
struct trio { int a, b, c; };

unsigned _BitInt(128) mac(unsigned _BitInt(128) a, unsigned _BitInt(100) b, _BitInt(70) c) {
    return a * b + c;
}

long long mix(struct trio t, struct pt p, long long k) {
    return (long long)t.a * p.x + t.b - (long long)t.c * p.y + k;
}

int main(void) {
    const _BitInt(70) cs[] = {0, -1, 5, (_BitInt(70))-500000000 * 1000000000000,
                              (_BitInt(70))(((unsigned _BitInt(70))1 << 69) - 1)};
    unsigned _BitInt(128) a = ((unsigned _BitInt(128))1 << 100) + 12345;
    unsigned _BitInt(128) s = 0;
    long long m = 0;
    for (int i = 0; i < 5; i++) {
        unsigned _BitInt(100) b = ((unsigned _BitInt(100))(77 + i) << (20 * i)) - i;
        s ^= mac(a - i, b, cs[i]);
        struct trio t = {i - 2, 0x7fffffff - i, -0x7ffffff0 * (i & 1) - i};
        struct pt p = {100000 * i - 3, (short)(-32768 + 300 * i)};
        m += mix(t, p, -i);
    }
    return (int)(s & 1) + (int)(m & 1);
}
"""

M70, M100, M128 = (1 << 70) - 1, (1 << 100) - 1, (1 << 128) - 1
CS = [0, -1, 5, -500000000 * 1000000000000, (1 << 69) - 1]


@pytest.fixture(scope="module")
def wide_src(tmp_path_factory):
    d = tmp_path_factory.mktemp("wide")
    src = d / "wide.c"
    src.write_text(WIDE_C)
    return src


def _ports(verilog: str, module: str) -> dict[str, int]:
    body = verilog[verilog.index(f"module {module}("):]
    return {m.group(2): int(m.group(1) or 0) + 1
            for m in re.finditer(r"input (?:\[(\d+):0\] )?(\w+);", body[:body.index("endmodule")])}


def test_wide_integers_are_one_port_each_and_cosimulate(wide_src):
    r = cosim(wide_src, "mac", tb=wide_src)
    assert r.passed, r.summary()
    ports = _ports(r.synth.verilog, "mac")
    assert {k: ports[k] for k in ("a", "b", "c")} == {"a": 128, "b": 100, "c": 70}
    assert r.synth.interface.return_width == 128
    # the testbench's calls as the ports see them: one value per argument, C's
    idx = {s.name: s.arg_index for s in r.synth.interface.scalars}
    a0 = (1 << 100) + 12345
    for i, call in enumerate(r.stimulus):
        a, b, c = (call.scalars[idx[n]] for n in ("a", "b", "c"))
        assert a == a0 - i
        assert b == (((77 + i) << (20 * i)) - i) & M100
        assert c == CS[i] & M70
        assert call.ret == (a * b + CS[i]) & M128
    r = cosim(wide_src, "mac", runs=12, seed=3)      # random stimulus, signed c extended
    assert r.passed, r.summary()
    assert any(c.scalars[idx["c"]] >> 69 for c in r.stimulus)


def test_structs_by_value_are_ports_named_after_the_argument(wide_src):
    r = cosim(wide_src, "mix", tb=wide_src)
    assert r.passed, r.summary()
    ports = _ports(r.synth.verilog, "mix")
    assert {k: ports[k] for k in ("t", "p", "k")} == {"t": 96, "p": 64, "k": 64}
    assert not any("coerce" in n for n in ports)
    idx = {s.name: s.arg_index for s in r.synth.interface.scalars}
    for i, call in enumerate(r.stimulus):
        t = [i - 2, 0x7fffffff - i, -0x7ffffff0 * (i & 1) - i]
        p = [100000 * i - 3, -32768 + 300 * i]
        # the struct's bytes: fields from the least significant bits, x86-64 layout
        assert call.scalars[idx["t"]] == sum((v & 0xffffffff) << (32 * j) for j, v in enumerate(t))
        assert call.scalars[idx["p"]] & 0xffffffffffff == (p[0] & 0xffffffff) | \
            ((p[1] & 0xffff) << 32)
        exp = t[0] * p[0] + t[1] - t[2] * p[1] - i
        assert call.ret == exp & ((1 << 64) - 1)
    r = cosim(wide_src, "mix", runs=8, seed=5)
    assert r.passed, r.summary()


@pytest.mark.parametrize("bits,signed,pieces", [
    (70, True, [64, 64]), (100, False, [64, 64]), (96, False, [64, 32]),
    (100, True, [128]), (1, True, [8]), (128, False, [64, 64]),
])
def test_the_golden_models_pieces_join_and_split(bits, signed, pieces):
    """Per-port values cut into the ABI's pieces (extended as the caller extends them)
    and joined back, on edge and random values."""
    import random
    params = [ParamType("int", w, False) for w in pieces]
    names = [f"v.coerce{j}" for j in range(len(pieces))] if len(pieces) > 1 else ["v.coerce"]
    ports = Ports(params, names, {0: (bits, signed)})
    rng = random.Random(bits)
    mask = (1 << bits) - 1
    for v in [0, 1, mask, mask >> 1, 1 << (bits - 1)] + [rng.getrandbits(bits) for _ in range(20)]:
        split = ports.split({0: v})
        whole = sum(split[k] << (64 * k) for k in range(len(pieces)))
        total = 64 * (len(pieces) - 1) + pieces[-1]
        sv = v - (1 << bits) if signed and v >> (bits - 1) else v
        assert whole == sv & ((1 << total) - 1)
        assert ports.join(split) == {0: v}


def test_the_vitis_package_carries_the_c_types(wide_src, tmp_path, monkeypatch):
    res = synthesize(wide_src, SynthOptions(top="mix", target="alveo"))
    files = write_vitis_package(tmp_path / "pkg", res.interface, m_axi=res.axi.m_axi(),
                                bundles=res.axi.bundle_of)
    root = ET.parse(files["kernel_xml"]).getroot()
    args = {a.get("name"): (a.get("type"), a.get("hostSize"))
            for a in root.find("kernel").find("args")}
    assert args == {"t": ("struct trio", "0xC"), "p": ("struct pt", "0x8"),
                    "k": ("long long", "0x8")}
    host = files["host"].read_text()
    assert "std::array<uint8_t, 12> t;" in host and "std::array<uint8_t, 8> p;" in host
    if shutil.which("g++") is not None:
        assert_host_compiles(files, tmp_path)
    # co-simulated through the AXI4-Lite registers, with a relative work directory (the
    # simulator runs elsewhere)
    pytest.importorskip("cocotb")
    monkeypatch.chdir(tmp_path)
    r = cosim(wide_src, "mix", tb=wide_src, target="alveo", workdir=os.path.relpath(
        tmp_path / "work", tmp_path))
    assert r.passed, r.summary()


WIDE_TOPS = [
    ("wide_arg.cpp", "#include <ap_int.h>\nap_uint<65> f(ap_uint<65> a) { return a + 1; }\n",
     {"a": 65}, 65),
    ("wide_ports.cpp", "#include <ap_int.h>\nap_uint<128> f(ap_uint<128> a,\n"
     "               ap_uint<128> b) { return (a + b) ^ (a * 3); }\n", {"a": 128, "b": 128}, 128),
    ("fixed.cpp", "#include <ap_fixed.h>\nap_fixed<80, 40> f(ap_fixed<80, 40> a, ap_int<66> k) "
     "{ return a * 3 - k; }\n", {"a": 80, "k": 66}, 80),
    ("bitint96.c", "unsigned _BitInt(96) f(unsigned _BitInt(96) a, unsigned k) "
     "{ return (a << 3) + k; }\n", {"a": 96, "k": 32}, 96),
    ("int128.c", "#include <stdint.h>\n"
     "uint64_t f(unsigned __int128 a, uint64_t k) { return (uint64_t)(a >> 64) ^ k; }\n",
     {"a": 128, "k": 64}, 64),
    ("struct_ret.c", "struct q { int a, b, c; };\n"
     "struct q f(int x, short y) { struct q r = {x, x + y, x * 3}; return r; }\n",
     {"x": 32, "y": 16}, 96),
]


@pytest.mark.parametrize("name,src,widths,ret", WIDE_TOPS, ids=[w[0] for w in WIDE_TOPS])
def test_wide_scalars_of_c_and_cxx_cosimulate(name, src, widths, ret, tmp_path):
    """The cases that were one error each before (ap_uint<65>, ap_uint<128> in and out,
    ap_fixed, _BitInt(96), unsigned __int128): random stimulus against native runs."""
    (tmp_path / name).write_text(src)
    r = cosim(tmp_path / name, "f", runs=10, seed=1)
    assert r.passed, r.summary()
    ports = {s.name: s.width for s in r.synth.interface.scalars}
    assert ports == widths
    assert r.synth.interface.return_width == ret


AGG_C = """\
struct pt { int x; short y; };
int f(struct pt p, struct pt r, struct pt s, struct pt *q) {
#pragma HLS aggregate variable=p
#pragma HLS aggregate variable=r compact=bit
#pragma HLS disaggregate variable=s
#pragma HLS aggregate variable=q
  return p.x + q[0].y + r.y + s.x;
}
"""


def test_aggregate_pragmas_say_what_was_built(tmp_path, capsys):
    """``aggregate`` (compact none/auto) is what a struct by value builds; a packed
    compaction, ``disaggregate`` and a struct array are warned about at their line with
    what was built; an unknown variable is an error at its line."""
    src = tmp_path / "agg.c"
    src.write_text(AGG_C)
    res = synthesize(src, SynthOptions(top="f", depth={"q": 1}))
    err = capsys.readouterr().err
    by_line = {e["line"]: e for e in res.report["pragmas"]}
    assert by_line[3]["applied"] is True
    assert by_line[3]["built"] == "one port 'p' of 64 bits (the struct's bytes, padding included)"
    for line in (4, 5, 6):
        assert by_line[line]["applied"] is False
        assert f"{src}:{line}: warning: #pragma HLS " in err
    assert "compact=bit is not built" in by_line[4]["why"]
    assert "fields are not split" in by_line[5]["why"]
    assert "passed by address" in by_line[6]["why"]
    src.write_text(AGG_C.replace("variable=q", "variable=zz"))
    with pytest.raises(Exception) as e:
        synthesize(src, SynthOptions(top="f", depth={"q": 1}))
    assert str(e.value).startswith(f"{src}:6: error: #pragma HLS aggregate variable=zz: f has "
                                   "no variable 'zz'")


def test_ap_int_operations_at_65_to_128_bits_on_ports():
    """tests/cxx/apint_wide_ops.cpp: 16 operations (add, sub, multiply, bitwise, shifts,
    comparisons, range, concatenation, division, remainder, negation, bit select) on
    ap_int<100>, ap_uint<128>, ap_uint<65> and ap_int<60> arguments and a 128-bit result,
    on the testbench's edge values (0, 1, -1, the top bit, the largest positive, each
    combined with every operation) and on random values, which are extended as a caller
    extends them (an ap_uint<65> in memory too)."""
    k = Path(__file__).parent / "cxx" / "apint_wide_ops.cpp"
    r = cosim(k, "apint_wide_ops", tb=k)
    assert r.passed, r.summary()
    assert len(r.calls) == 80
    widths = {s.name: s.width for s in r.synth.interface.scalars}
    assert widths == {"a": 100, "b": 100, "u": 128, "p": 60, "q": 60, "sh": 32, "op": 32}
    assert r.synth.interface.return_width == 128
    r = cosim(k, "apint_wide_ops", runs=24, seed=2)
    assert r.passed, r.summary()

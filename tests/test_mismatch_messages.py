"""Co-simulation mismatches name C elements: ``vec[3]: expected -12, got 7``, a field of a
struct element, a position in a 2-D array; at most a handful are listed and the rest
counted; no buffer is ever printed as one integer (a large global used to crash with
"Exceeds the limit (4300 digits) for integer string conversion")."""

from __future__ import annotations

import struct

from hls.frontend import FrontendOptions, load
from hls.interface import MemoryPort, TopInterface
from hls.verify import Call, RawCallResult, compare_calls
from hls.verify import CosimResult

SRC = r"""
int vec[100];
struct rec { char a; int b; short c[2]; } recs[4];
int m[3][4];
double dv[8];
int main(void) {
    for (int i = 0; i < 100; i++) vec[i] = i - 50;
    for (int i = 0; i < 4; i++) { recs[i].a = i; recs[i].b = -i; recs[i].c[1] = i * 3; }
    for (int i = 0; i < 12; i++) m[i / 4][i % 4] = i;
    for (int i = 0; i < 8; i++) dv[i] = i * 0.5;
    return 0;
}
"""


def _port(module, sym: str) -> MemoryPort:
    g = next(g for g in module.globals if g.symbol == sym)
    return MemoryPort(name=g.name, word_bytes=g.word_bytes, depth_words=g.depth_words, nports=2,
                      arg_index=None, global_name=sym, elem_bytes=g.elem_bytes, init=g.init,
                      float_bits=g.float_bits, elem_dims=g.elem_dims, elem_fields=g.elem_fields)


def _result(ports, expected: dict, got: dict) -> CosimResult:
    iface = TopInterface("main", "main", (), tuple(ports), 0)
    call = Call(scalars={}, mem_in={}, ret=None, glob_out=expected)
    raw = RawCallResult(status="ok", cycles=10, message="", nerrors=0, ret=None, mems={p.name: got[p.global_name] for p in ports})
    calls = compare_calls(iface, [call], [raw])
    mism = [m for c in calls for m in c.mismatches][:8]
    return CosimResult(passed=all(c.passed for c in calls), calls=calls, total_cycles=10,
                       mismatches=mism)


def test_globals_have_c_element_layouts(tmp_path):
    p = tmp_path / "g.c"
    p.write_text(SRC)
    mod = load(p, "main", FrontendOptions())
    g = {m.symbol: m for m in mod.globals}
    assert (g["vec"].elem_bytes, g["vec"].elem_dims) == (4, (100,))
    assert g["vec"].elem_fields == ((0, 4, "", 0),)
    assert (g["m"].elem_bytes, g["m"].elem_dims) == (4, (3, 4))
    assert g["recs"].elem_dims == (4,)
    assert [f[2] for f in g["recs"].elem_fields] == [".0", ".1", ".2[0]", ".2[1]"]
    assert g["dv"].elem_fields == ((0, 8, "", 64),)


def test_messages_name_elements_and_count_the_rest(tmp_path):
    p = tmp_path / "g.c"
    p.write_text(SRC)
    mod = load(p, "main", FrontendOptions())
    ports = [_port(mod, s) for s in ("vec", "recs", "m", "dv")]
    exp = {pt.global_name: bytes(pt.word_bytes * pt.depth_words) for pt in ports}
    got = {k: bytearray(v) for k, v in exp.items()}
    exp["vec"] = b"".join(struct.pack("<i", i - 50) for i in range(100))
    got["vec"] = bytearray(exp["vec"])
    got["vec"][12:16] = struct.pack("<i", 7)          # vec[3]: expected -47, got 7
    got["m"][(1 * 4 + 2) * 4] = 9                     # m[1][2]
    got["recs"][2 * 12 + 4] = 1                       # recs[2].1 (int b at offset 4)
    got["dv"][8 * 5:8 * 6] = struct.pack("<d", 2.25)  # dv[5]
    res = _result(ports, exp, {k: bytes(v) for k, v in got.items()})
    text = res.summary()
    assert "vec[3]: expected -47 (0xffffffd1), got 7" in text
    assert "m[1][2]: expected 0, got 9" in text
    assert "recs[2].1: expected 0, got 1" in text
    assert "dv[5]: expected 0.0 (0x0000000000000000), got 2.25" in text
    assert [m.get("where") for m in res.to_json()["mismatches"]] == [None, "[2].1", "[1][2]", None]


def test_a_large_global_is_not_one_integer():
    n = 40000  # 160 KB: int.from_bytes of it has far more than 4300 digits
    port = MemoryPort(name="big", word_bytes=4, depth_words=n, nports=2, arg_index=None,
                      global_name="big", elem_bytes=4 * n)   # no layout known: one huge element
    exp = bytes(4 * n)
    got = bytearray(exp)
    for i in range(0, 4 * n, 1000):
        got[i] = 1
    res = _result([port], {"big": exp}, {"big": bytes(got)})
    text = res.summary()
    lines = text.splitlines()
    assert len(lines) <= 10, text
    assert "and 152 more mismatching value(s)" in text
    assert max(len(line) for line in lines) < 120, text

"""The declared C types of the top's arguments in the Vitis package (kernel.xml, the
register header, host.cpp): from the source view of a C input, from the debug info of
a ``.ll``, the width-based types without either, and a warning where the C signature is
not the LLVM one.  host.cpp compiles against the stub XRT headers of tests/helpers.py."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hls.flow import SynthOptions, synthesize
from hls.frontend._debuginfo import DebugInfo
from hls.frontend._source import source_view
from hls.interface import CType
from hls.package import write_vitis_package
from hls.toolchain import compile_c_to_ll
from helpers import assert_host_compiles

TYPES_C = """\
#include <stdint.h>

struct pt { int x; short y; unsigned char tag; };

void types_k(float *acc, const int16_t *w, unsigned *hits, int n, float scale,
             struct pt *pts) {
    for (int i = 0; i < 8; i++) {
        acc[i] = acc[i] * scale + (float)w[i];
        if (i < n)
            hits[i] += (unsigned)pts[i].x + (unsigned)pts[i].y;
        pts[i].tag = (unsigned char)(pts[i].tag + 1);
    }
}
"""
DEPTHS = {"acc": 8, "w": 8, "hits": 8, "pts": 8}

#: what kernel.xml says of each argument: (type, hostSize)
DECLARED = {"acc": ("float*", "0x8"), "w": ("short*", "0x8"), "hits": ("unsigned int*", "0x8"),
            "n": ("int", "0x4"), "scale": ("float", "0x4"), "pts": ("struct pt*", "0x8")}
#: the same kernel from a .ll without debug info: the types of the widths (what pyhls
#: wrote before; without debug info even the struct's size is unknown: its 4-byte words)
BY_WIDTH = {"acc": ("int*", "0x8"), "w": ("short*", "0x8"), "hits": ("int*", "0x8"),
            "n": ("unsigned int", "0x4"), "scale": ("unsigned int", "0x4"),
            "pts": ("int*", "0x8")}


def _package(src: Path, top: str, out: Path, depth=None) -> dict:
    res = synthesize(src, SynthOptions(top=top, target="alveo", depth=depth or {}))
    return write_vitis_package(out, res.interface, m_axi=res.axi.m_axi(),
                               bundles=res.axi.bundle_of)


def _xml_args(files) -> dict:
    root = ET.parse(files["kernel_xml"]).getroot()
    return {a.get("name"): (a.get("type"), a.get("hostSize"))
            for a in root.find("kernel").find("args")}


@pytest.fixture(scope="module")
def types_src(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("types")
    src = d / "types_k.c"
    src.write_text(TYPES_C)
    return src


@pytest.fixture(scope="module")
def from_source(types_src, tmp_path_factory):
    return _package(types_src, "types_k", tmp_path_factory.mktemp("pkg_c"), DEPTHS)


def test_kernel_xml_types_from_the_source(from_source):
    assert _xml_args(from_source) == DECLARED


def test_header_states_the_c_types(from_source):
    text = from_source["header"].read_text()
    for name, (ctype, _) in DECLARED.items():
        lines = [ln for ln in text.splitlines() if ln.endswith(f"Data signal of {name} ({ctype})")]
        # a pointer's register is two words, a 32-bit scalar's one
        assert len(lines) == (2 if ctype.endswith("*") else 1), (name, text)


def test_host_cpp_moves_the_c_types(from_source, tmp_path):
    src = from_source["host"].read_text()
    for line in (
            "static const size_t ACC_COUNT = 8;  // elements of acc (32 bytes)",
            "static const size_t W_COUNT = 8;  // elements of w (16 bytes)",
            "static const size_t PTS_COUNT = 8;  // elements of pts (64 bytes)",
            "static const size_t PTS_ELEM_BYTES = 8;  // sizeof(struct pt): pts moves as bytes",
            "    int32_t n;",
            "    float scale;",
            "    std::vector<float> acc_host(ACC_COUNT);",
            "    std::vector<int16_t> w_host(W_COUNT);",
            "    std::vector<uint32_t> hits_host(HITS_COUNT);",
            "    std::vector<uint8_t> pts_host(PTS_COUNT * PTS_ELEM_BYTES);",
            "    xrt::bo acc_bo(device, acc_host.size() * sizeof(float), krnl.group_id(0));",
            # the float scalar goes to set_arg as a float: its bits land in the register
            "    auto run = krnl(acc_bo, w_bo, hits_bo, n, scale, pts_bo);",
            "static bool reference_types_k(float *acc, int16_t *w, uint32_t *hits, int32_t n, "
            "float scale, uint8_t *pts) {",
    ):
        assert line in src.splitlines(), line
    # floats are compared NaN-aware and printed as values, not cast to integers
    assert "std::isnan(acc_out[i])" in src and "(double)acc_out[i]" in src
    assert "(long long)w_out[i]" in src
    if shutil.which("g++") is None:
        pytest.skip("no g++ to compile host.cpp")
    assert_host_compiles(from_source, tmp_path)


def test_debug_info_gives_the_types_of_a_ll(types_src, tmp_path):
    ll = tmp_path / "types_k.ll"
    compile_c_to_ll(types_src, ll)
    assert _xml_args(_package(ll, "types_k", tmp_path / "pkg", DEPTHS)) == DECLARED


def test_without_types_the_widths_stay(types_src, tmp_path):
    ll = tmp_path / "types_k.ll"
    compile_c_to_ll(types_src, ll, extra_flags=("-g0",))
    assert "!DISubprogram" not in ll.read_text()
    files = _package(ll, "types_k", tmp_path / "pkg", DEPTHS)
    assert _xml_args(files) == BY_WIDTH
    assert "Data signal of n (" not in files["header"].read_text()


def test_float_return_and_array_parameter(tmp_path):
    src = tmp_path / "dot.c"
    src.write_text("float dot(const float a[2][4], const float *b, unsigned char k, "
                   "_Bool *pos) {\n"
                   "    float s = 0;\n"
                   "    for (int i = 0; i < 4; i++) s += a[k & 1][i] * b[i];\n"
                   "    pos[0] = s > 0;\n"
                   "    return s;\n}\n")
    files = _package(src, "dot", tmp_path / "pkg", {"b": 4, "pos": 1})
    assert _xml_args(files) == {"a": ("float*", "0x8"), "b": ("float*", "0x8"),
                                "k": ("unsigned char", "0x1"), "pos": ("bool*", "0x8")}
    assert "// 0x10 : Data signal of ap_return (float)" in files["header"].read_text()
    host = files["host"].read_text().splitlines()
    assert "static const size_t A_COUNT = 8;  // elements of a (32 bytes)" in host
    assert "    unsigned char k;" not in host and "    uint8_t k;" in host
    # bytes, not a std::vector<bool> (packed bits without data())
    assert "    std::vector<uint8_t> pos_host(POS_COUNT);" in host
    # ap_return holds the float's bits: reinterpreted, not converted
    assert ("    uint32_t ret_bits = (uint32_t)krnl.read_register(XDOT_CONTROL_ADDR_AP_RETURN);"
            in host)
    assert "    std::memcpy(&ret, &ret_bits, sizeof ret);" in host
    if shutil.which("g++") is None:
        pytest.skip("no g++ to compile host.cpp")
    assert_host_compiles(files, tmp_path)


def test_struct_by_value_is_one_port_of_its_type(tmp_path, capsys):
    """clang passes a small struct by value as one integer (``p.coerce``): it is the port
    ``p``, of the struct's bytes, and kernel.xml and host.cpp give it the struct's type
    (the host holds its bytes); nothing is warned about."""
    src = tmp_path / "byval.c"
    src.write_text("struct pair { int a, b; };\n"
                   "void byval(struct pair p, float *out) { out[0] = (float)(p.a + p.b); }\n")
    files = _package(src, "byval", tmp_path / "pkg", {"out": 1})
    assert "warning" not in capsys.readouterr().err
    assert _xml_args(files) == {"p": ("struct pair", "0x8"), "out": ("float*", "0x8")}
    assert "std::array<uint8_t, 8> p;" in files["host"].read_text()
    if shutil.which("g++") is not None:
        assert_host_compiles(files, tmp_path)


# ----------------------------------------------------------------------------- both views

PROBE_C = """\
#include <stdbool.h>
#include <stdint.h>
struct pt { int x; short y; unsigned char tag; };
typedef struct { float a, b; } anon_t;
typedef union { int i; float f; } uf;
enum color { RED, GREEN };
enum level { LOW = -1, HIGH = 1 };
typedef const int16_t cw;
double probe(float *f, const int16_t *w, unsigned *u, int n, float s, struct pt *pts,
             anon_t *an, uf x[4], enum color c, enum level lv, cw m[2][3], bool b, char ch,
             long l, void *v, uint64_t q, signed char sc, int **pp, const volatile double *d) {
    return 0;
}
"""

PROBE_TYPES = [
    CType("float", "float", 4, True), CType("short", "int", 2, True),
    CType("unsigned int", "int", 4, False), CType("int", "int", 4, True),
    CType("float", "float", 4, True), CType("struct pt", "record", 8),
    CType("anon_t", "record", 8), CType("uf", "record", 4),
    CType("enum color", "int", 4, False), CType("enum level", "int", 4, True),
    CType("short", "int", 2, True), CType("bool", "bool", 1), CType("char", "int", 1, True),
    CType("long", "int", 8, True), None, CType("unsigned long", "int", 8, False),
    CType("signed char", "int", 1, True), None, CType("double", "float", 8, True),
]
PROBE_INDIRECT = [True, True, True, False, False, True, True, True, False, False, True,
                  False, False, False, True, False, False, True, True]


def test_source_view_and_debug_info_agree(tmp_path):
    src = tmp_path / "probe.c"
    src.write_text(PROBE_C)
    fn = source_view(src).functions["probe"]
    assert [p.ctype for p in fn.params] == PROBE_TYPES
    assert [p.indirect for p in fn.params] == PROBE_INDIRECT
    assert fn.returns == CType("double", "float", 8, True)
    ll = tmp_path / "probe.ll"
    compile_c_to_ll(src, ll)
    text = ll.read_text()
    define = next(line for line in text.splitlines() if line.startswith("define "))
    ret, params = DebugInfo(text).c_types(define)
    assert [t for t, _ in params] == PROBE_TYPES
    assert [ind for _, ind in params] == PROBE_INDIRECT
    assert ret == CType("double", "float", 8, True)


def test_host_types():
    assert CType("short", "int", 2, True).host == "int16_t"
    assert CType("unsigned long", "int", 8, False).host == "uint64_t"
    assert CType("double", "float", 8, True).host == "double"
    assert CType("bool", "bool", 1).host == "bool"
    assert CType("struct pt", "record", 8).host is None
    assert CType("long double", "float", 16, True).host is None
    with pytest.raises(ValueError, match="kind"):
        CType("x", "pointer", 8)

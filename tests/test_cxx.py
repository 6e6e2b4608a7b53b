"""C++ inputs: compiled by the C++ driver, functions by their C++ names (``--top``,
report.json, RTL names, messages), constructs without hardware meaning as ``file:line``
errors, and pyhls's ``ap_int.h`` bit-exact against a model of its (Vitis HLS's)
semantics, in native execution and in pyhls's IR interpreter, and in co-simulation;
``ap_fixed.h`` in the interpreter against native execution, and in co-simulation."""

from __future__ import annotations

import json
import random
import re
import shutil
import struct
from pathlib import Path

import pytest

from hls.cli import main
from hls.flow import SynthOptions, ir_module
from hls.ir import run_function
from hls.names import demangle, display_names, resolve_function, verilog_names
from hls.toolchain import find_cxx_compiler, include_dir
from hls.verify import Call, run_calls

CXX = Path(__file__).parent / "cxx"
M64 = (1 << 64) - 1


def _run(argv, capsys) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


# --------------------------------------------------------------------------- the C++ kernel

def test_cxx_kernel_cosimulates_by_its_cxx_name(tmp_path, capsys):
    """Namespace, class template with methods, reference parameter, constexpr table: the
    testbench main of the same file drives co-simulation with only --top and --tb."""
    k = CXX / "ns_kernel.cpp"
    out = tmp_path / "out"
    rc, so, err = _run(["cosim", k, "--top", "dsp::smooth", "--tb", k, "-o", out], capsys)
    assert rc == 0, err
    assert "co-simulation of dsp::smooth: 3 call(s)" in so and "PASSED" in so
    r = json.loads((out / "report.json").read_text())
    assert r["cosim"]["passed"]
    assert (r["top"], r["top_symbol"], r["module"]) == ("dsp::smooth", "_ZN3dsp6smoothEPKsPs",
                                                        "dsp_smooth")
    assert [(f["name"], f["symbol"]) for f in r["functions"]] == [
        ("dsp::smooth", "_ZN3dsp6smoothEPKsPs")]
    assert {lp["function"] for lp in r["loops"]} == {"dsp::smooth"}
    # no mangled name anywhere but the symbols, in the report or the Verilog
    text = json.dumps({k: v for k, v in r.items() if k != "top_symbol"
                       } | {"functions": [{k: v for k, v in f.items() if k != "symbol"}
                                          for f in r["functions"]]})
    assert "_Z" not in text
    v = (out / "rtl" / "dsp_smooth.v").read_text()
    assert "_Z" not in v
    assert "module dsp_smooth(" in v
    assert "dsp_COEF" in v                    # the constexpr table, a ROM, by its C++ name


def test_cxx_callee_modules_by_cxx_name(tmp_path):
    """A noinline callee's instance and module are named by its C++ name."""
    src = tmp_path / "calls.cc"             # .cc is C++ too
    src.write_text("namespace q { __attribute__((noinline)) int sq(int x) { return x * x; }\n"
                   "int top(int a, int b) { return sq(a) + sq(b); } }\n")
    rc = main(["synth", str(src), "--top", "q::top", "-o", str(tmp_path / "o")])
    assert rc == 0
    v = (tmp_path / "o" / "rtl" / "q_top.v").read_text()
    assert "call_q_sq" in v and "_Z" not in v
    r = json.loads((tmp_path / "o" / "report.json").read_text())
    assert [f["name"] for f in r["functions"]] == ["q::top", "q::sq"]


# --------------------------------------------------------------------------- --top

@pytest.mark.parametrize("top,expect", [
    ("nosuch", ["top function 'nosuch' is not defined in the input; defined functions: ",
                "dsp::smooth", "dsp::scale(int)", "dsp::scale(float)", "main"]),
    ("dsp::scale", ["--top dsp::scale: the name is ambiguous, it names 2 functions: ",
                    "dsp::scale(int); dsp::scale(float);",
                    "give the whole signature (e.g. --top 'dsp::scale(int)') or the mangled name"]),
    ("smooth", ["top function 'smooth' is not defined"]),   # C++ names are qualified
])
def test_top_errors(top, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(CXX)
    out = tmp_path / "out"
    rc, so, err = _run(["synth", "ns_kernel.cpp", "--top", top, "-o", out], capsys)
    assert rc == 1 and so == "" and "Traceback" not in err
    (line,) = err.splitlines()
    assert re.match(r"ns_kernel\.cpp:1: error: ", line), line
    for s in expect:
        assert s in line, line
    if top == "nosuch":
        assert "_Z" not in line               # the list is demangled
    assert not out.exists()


@pytest.mark.parametrize("top,symbol", [
    ("dsp::smooth", "_ZN3dsp6smoothEPKsPs"),
    ("_ZN3dsp6smoothEPKsPs", "_ZN3dsp6smoothEPKsPs"),       # the mangled name
    ("dsp::scale(float)", "_ZN3dsp5scaleEf"),               # an overload by signature
    ("dsp::scale( int )", "_ZN3dsp5scaleEi"),
])
def test_top_resolves(top, symbol):
    m = ir_module(str(CXX / "ns_kernel.cpp"), SynthOptions(top=top))
    assert m.top.name == symbol


def test_names_unit():
    syms = ["_Z1gi", "_Z1gf", "_ZN2ns1fEPKiPii", "_ZN2ns1gIiEET_S1_", "main", "_ZNK1S3getEv"]
    assert demangle("_ZN2ns1fEPKiPii") == "ns::f(int const*, int*, int)"
    assert demangle("main") == "main" and demangle("_Znotmangled") == "_Znotmangled"
    # clang's _BitInt(N) (DB<N>_, unsigned DU<N>_), which the C++ runtime's demangler may
    # not know, with the substitutions (S_, S0_) that refer back to it
    assert demangle("_Z3addDU7_S_") == "add(unsigned _BitInt(7), unsigned _BitInt(7))"
    assert demangle("_ZN2ns1fEDB65_DB12_S0_") == "ns::f(_BitInt(65), _BitInt(12), _BitInt(65))"
    assert demangle("_Z1g1SS_DB9_S0_") == "g(S, S, _BitInt(9), _BitInt(9))"
    assert demangle("_Z1hPDB33_") == "h(_BitInt(33)*)"
    assert demangle("_Z1kDB") == "_Z1kDB"                    # not a name: left alone
    assert display_names(syms) == {"_Z1gi": "g(int)", "_Z1gf": "g(float)", "_ZN2ns1fEPKiPii": "ns::f",
                                   "_ZN2ns1gIiEET_S1_": "ns::g<int>", "main": "main",
                                   "_ZNK1S3getEv": "S::get"}
    v = verilog_names(syms)
    assert v == verilog_names(list(reversed(syms)))          # deterministic
    assert len(set(v.values())) == len(syms)                # distinct: g and g_2
    assert all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", x) for x in v.values())
    assert resolve_function("ns::g<int>", syms) == "_ZN2ns1gIiEET_S1_"
    assert resolve_function("::ns::f", syms) == "_ZN2ns1fEPKiPii"


# --------------------------------------------------------------------------- the compiler

def test_cxx_driver_from_cc():
    assert find_cxx_compiler("python -m ziglang cc")[-1] == "c++"
    if shutil.which("clang-19") and shutil.which("clang++-19"):
        assert Path(find_cxx_compiler("clang-19")[0]).name == "clang++-19"
        assert Path(find_cxx_compiler("clang++-19")[0]).name == "clang++-19"
    assert (include_dir() / "ap_int.h").is_file()


BAD = [
    ("ctor.cpp", """
        #include <stdio.h>
        struct T { int v[4]; T() { for (int i = 0; i < 4; i++) v[i] = i * 3; puts("init"); } };
        T tab;
        int f(int i) { return tab.v[i & 3]; }
        """, 3, "the global 'tab' is initialised by a C++ constructor at run time"),
    ("wide.cpp", """
        #include <ap_int.h>
        long long f(long long x, long long y) {
          ap_int<100> a = x, b = y;
          ap_int<200> c = a * b + 1;
          return (c >> 140).to_int64();
        }
        """, 4, "a multiplication on an integer of 256 bits is not supported for hardware yet"),
    # more than 16 bytes: the C ABI passes it in memory, which no port is built from
    ("wide_arg.cpp", """
        #include <ap_int.h>
        ap_uint<200> f(ap_uint<200> a) { return a + 1; }
        """, 2, "top function f(ap_uint<200>): argument 'a' (ap_uint<200>, 32 bytes), the "
        "return value (ap_uint<200>, 32 bytes) wider than 128 bits: a scalar argument or "
        "return value of more than 16 bytes is not supported (the C calling convention "
        "passes it in memory); pass it through a pointer instead (an array of ap_uint<200>"),
    ("static_local.cpp", """
        int g(int x) { return x * 2; }
        int f(int x) {
          static int t = g(x);
          return t + x;
        }
        """, 3, "a static local variable initialised at run time"),
    ("new.cpp", """
        int f(int n) {
          int *p = new int[n];
          for (int i = 0; i < n; i++) p[i] = i;
          int s = 0;
          for (int i = 0; i < n; i++) s += p[i] * p[n - 1 - i];
          delete[] p;
          return s;
        }
        """, 2, "dynamic memory (C++ operator new or delete) is not supported for hardware"),
    ("throw.cpp", """
        int f(int x) {
          if (x < 0) throw 1;
          return x;
        }
        """, 2, "cannot use 'throw' with exceptions disabled"),
]


@pytest.mark.parametrize("name,src,line,expect", BAD, ids=[b[0] for b in BAD])
def test_bad_cxx(name, src, line, expect, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(src[1:].replace("\n        ", "\n").lstrip())
    rc, so, err = _run(["synth", name, "--top", "f", "-o", tmp_path / "out"], capsys)
    assert rc == 1 and "Traceback" not in err, err
    (msg,) = err.splitlines()
    assert msg.startswith(f"{name}:{line}: error: "), msg
    assert expect in msg, msg


# --------------------------------------------------------------------------- ap_int

WIDTHS = (1, 7, 17, 33, 64)
NOPS = 40


def _wrap(x: int, w: int, signed: bool) -> int:
    x &= (1 << w) - 1
    return x - (1 << w) if signed and x >> (w - 1) else x


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _model(w: int, x: int, y: int, z: int) -> list[int]:
    """What tests/cxx/apint_ops.cpp's ops<W> writes, by Vitis HLS's rules (as ap_int.h
    documents them), as int64 values."""
    a, b, u, v = _wrap(x, w, True), _wrap(y, w, True), _wrap(x, w, False), _wrap(y, w, False)
    zu = z & M64
    sh = (z & 127) - 32
    i, j = zu % w, (zu >> 8) % w
    hi, lo = max(i, j), min(i, j)

    def shl(val, n, s):
        return 0 if n >= w else _wrap(val << n, w, s)

    def shr(val, n, s):
        return (-1 if val < 0 else 0) if n >= w else val >> n

    def shift(val, n, s, left):
        if n < 0:
            n, left = -n, not left
        return shl(val, n, s) if left else shr(val, n, s)

    mask = (1 << w) - 1
    ww = u ^ (1 << j)
    m = ((1 << (hi - lo + 1)) - 1) << lo
    ww = (ww & ~m) | (((b & mask) << lo) & m)
    t = _wrap(a + 1, w, True)
    t = _wrap(t * b, w, True)
    t = _wrap(t - 7, w, True)
    t = shr(t, 1, True)
    out = [a + b, a - b, a * b, u + v, u - v, u * b, a & v, a | v, a ^ b, u ^ mask, -a,
           shift(a, sh, True, True), shift(a, sh, True, False), shift(u, sh, False, False),
           shl(u, z & 127, False),
           int(a < b), int(u < v), int(a == b), int(u >= v), int(a < 3),
           (a >> i) & 1, (u >> lo) & ((1 << (hi - lo + 1)) - 1), ww, t,
           ((a & mask) << w | u) & M64, a & mask, _wrap(u, w, True),
           _wrap(a, 32, True), u & 0xFFFFFFFF, w]
    if w < 64:
        out += [int(u < a), u + a,
                _tdiv(a, b) if b else 0, a - b * _tdiv(a, b) if b else 0,
                u // v if v else 0, u % v if v else 0]
    return [_wrap(r, 64, True) for r in out]


def _cross_model(x: int, y: int, z: int) -> list[int]:
    """tests/cxx/apint_ops.cpp's cross(): ap_int<7> a, ap_uint<17> u, ap_int<33> b,
    ap_uint<1> one, ap_int<1> s1."""
    a, u, b = _wrap(x, 7, True), _wrap(y, 17, False), _wrap(z, 33, True)
    one, s1 = (_wrap(x, 64, True) >> 3) & 1, _wrap(y, 1, True)
    out = [a + u, a - u, a * u, u * b, a & u, u | b, a ^ b, int(a < u), int(b >= u),
           int(a == s1), _tdiv(b, a) if a else 0, u - a * _tdiv(u, a) if a else 0,
           b + 1000000000000, u + 5, 7 - a,
           (((one << 1) | (s1 & 1)) << 7) | (a & 0x7F), ((a & 0x7F) << 17) | u,
           u, b & M64, b, _wrap(u, 17, True), b & 0x7F,
           a, u, b, (1 if a > 0 else 0) + (2 if u else 0), -b,
           0, _wrap(b << (x & 31), 33, True), s1, one]
    return [_wrap(r, 64, True) for r in out]


def _inputs() -> list[tuple[int, int, int]]:
    edges = sorted({e & M64 for w in WIDTHS for e in
                    (0, 1, -1, 2, 3, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << w) - 1, 1 << w)})
    rng = random.Random(1)
    out = []
    for k, x in enumerate(edges):
        for y in (edges[(k * 7 + 3) % len(edges)], edges[(k * 5 + 1) % len(edges)], x):
            out.append((x, y, rng.randrange(1 << 64)))
    for _ in range(40):
        w = rng.choice(WIDTHS)
        out.append((rng.randrange(1 << 64), rng.randrange(1 << w) if rng.random() < 0.5
                    else rng.randrange(1 << 64), rng.randrange(1 << 64)))
    return out


@pytest.mark.parametrize("cc", [None, "clang-19"], ids=["default", "clang-19"])
def test_ap_int_bit_exact(cc):
    """ap_int/ap_uint operations at widths 1, 7, 17, 33, 64 and across widths and
    signedness (with built-in operands and implicit conversions) on edge and random values,
    compiled by the default compiler and by clang-19 (whose IR narrows differently):
    native execution of the canonicalised IR equals the model of Vitis's semantics, and
    pyhls's IR interpreter on the CDFG after the pass pipeline equals native execution."""
    if cc and not shutil.which(cc):
        pytest.skip(f"{cc} is not installed")
    module = ir_module(str(CXX / "apint_ops.cpp"), SynthOptions(top="apint_ops", cc=cc),
                       after="passes")
    top = module.top
    calls = [Call(scalars={}, mem_in={0: struct.pack("<3Q", x, y, z), 1: bytes(8 * 6 * NOPS)})
             for x, y, z in _inputs()]
    native = run_calls(module.llvm_ir, top.name, calls, {0: 24, 1: 8 * 6 * NOPS})
    checked = 0
    for c, got in zip(calls, native):
        x, y, z = struct.unpack("<3Q", c.mem_in[0])
        words = struct.unpack(f"<{6 * NOPS}q", got.mem_out[1])
        for n, w in enumerate((*WIDTHS, "cross")):
            want = _model(w, x, y, z) if w != "cross" else _cross_model(x, y, z)
            have = list(words[n * NOPS:n * NOPS + len(want)])
            bad = [(k, h, e) for k, (h, e) in enumerate(zip(have, want)) if h != e]
            assert not bad, f"W={w} x={x:#x} y={y:#x} z={z:#x}: (op, native, model) {bad[:4]}"
            checked += len(want)
        r = run_function(top, {}, {0: c.mem_in[0], 1: c.mem_in[1]})
        assert r.memories["arg1"] == got.mem_out[1], f"interpreter != native for {x:#x} {y:#x} {z:#x}"
    assert checked > 5000


def test_ap_int_cosim(tmp_path, capsys):
    """An ap_int FIR (ap_int<17> samples, ap_uint<7> coefficients, ap_int<33> sums, bit
    and range writes, concatenation) co-simulated against its testbench main."""
    k = CXX / "ap_fir.cpp"
    rc, so, err = _run(["cosim", k, "--top", "ap_fir", "--tb", k, "-o", tmp_path / "o"], capsys)
    assert rc == 0, err
    assert "co-simulation of ap_fir: 2 call(s)" in so and "PASSED" in so


# --------------------------------------------------------------------------- ap_fixed

APF_NOUT = 700


def _apfixed_inputs() -> list[bytes]:
    """apfixed_ops's inputs: raw words x0 x1 y0 y1 (edge patterns crossed, then random),
    s, a double's bits (halves, ties, huge, tiny, negative zero, infinity, NaN, random), n."""
    rng = random.Random(5)
    edges = [0, 1, M64, 2, 1 << 63, (1 << 63) - 1, 0x8000, 0x7FFF, 0x40, 0x3F]
    doubles = [0.0, 0.5, -0.5, 1.25, -1.25, 0.75, -2.5, 1e30, -1e30, 1e-30, 123.456,
               -0.0078125, -0.0, float("inf"), float("-inf"), float("nan"), 1.0 / 3]
    out = []
    for k in range(24):
        ws = ([edges[(k * (i + 3) + i) % len(edges)] for i in range(4)] if k < 12
              else [rng.getrandbits(64) for _ in range(4)])
        d = doubles[k % len(doubles)] if k % 3 else rng.uniform(-300, 300) * 2.0 ** rng.randrange(-40, 8)
        n = rng.randrange(-20, 21) if k % 4 else rng.getrandbits(32) - (1 << 31)
        out.append(struct.pack("<5Qdq", *ws, rng.getrandbits(64), d, n))
    return out


def test_ap_fixed_bit_exact():
    """ap_fixed/ap_ufixed operations over eight format pairs from 1 to 128 bits (I below
    0 and above W among them: + - * / & | ^, comparisons, shifts, conversions under every
    quantisation mode and each overflow mode, from a run-time double, to double, float,
    int and ap_int; tests/cxx/apfixed_ops.cpp) on edge and random values: pyhls's IR
    interpreter on the CDFG after the pass pipeline equals native execution of the same
    code.  (ap_fixed.h itself was checked against Xilinx's open-source reference headers
    when written: equal on every result but two of theirs that are undefined or wrong,
    to_int() of an ap_fixed with I < 0 and an ap_ufixed<128> against a negative int.)"""
    from hls.frontend import FrontendOptions, load
    from hls.transforms import run_passes
    m = load(CXX / "apfixed_ops.cpp", "_Z11apfixed_opsPKyPy",       # (its LLVM name)
             FrontendOptions(depth={"in": 7, "out": APF_NOUT}))
    top = m.top
    calls = [Call(scalars={}, mem_in={0: b, 1: bytes(8 * APF_NOUT)}) for b in _apfixed_inputs()]
    native = run_calls(m.llvm_ir, top.name, calls, {0: 56, 1: 8 * APF_NOUT})
    run_passes(top)
    used = 0
    for c, got in zip(calls, native):
        words = struct.unpack(f"<{APF_NOUT}Q", got.mem_out[1])
        used = max(used, max((k for k, w in enumerate(words) if w), default=0))
        r = run_function(top, {}, {0: c.mem_in[0], 1: c.mem_in[1]})
        have = struct.unpack(f"<{APF_NOUT}Q", r.memories["arg1"])
        bad = [(k, hex(h), hex(w)) for k, (h, w) in enumerate(zip(have, words)) if h != w]
        assert not bad, f"interpreter != native on {c.mem_in[0].hex()}: (word, ir, native) {bad[:6]}"
    assert used > 550       # the kernel wrote its results (about 630 words)


@pytest.mark.parametrize("top, calls", [
    # a Q1.14 FIR in ap_fixed: constant coefficients folded from doubles, a run-time
    # double gain, rounding and saturation, a 128-bit product
    ("apfixed_fir", 3),
    # 128-bit multiply, unsigned and signed divide and remainder (ap_uint<128>,
    # ap_int<127>) on the testbench main's edge values
    ("wide_muldiv", 66),
])
def test_ap_fixed_and_wide_cosim(top, calls, tmp_path, capsys):
    """Co-simulated against the testbench main of the same file with no other flag."""
    k = CXX / f"{top}.cpp"
    rc, so, err = _run(["cosim", k, "--top", top, "--tb", k, "-o", tmp_path / "o"], capsys)
    assert rc == 0, err
    assert f"co-simulation of {top}: {calls} call(s)" in so and "PASSED" in so


# --------------------------------------------------------------------------- directives, pragmas

def test_directives_and_pragmas_by_cxx_name(tmp_path, capsys):
    """A directives file names a C++ function as in C++; a loop pragma in a function
    template applies to its instance, a function-level one there is a warning."""
    d = tmp_path / "d.toml"
    d.write_text('[[loop]]\nfunction = "dsp::smooth"\nline = 37\npipeline = false\n')
    out = tmp_path / "o"
    rc, _, err = _run(["synth", CXX / "ns_kernel.cpp", "--top", "dsp::smooth",
                       "--directives", d, "-o", out], capsys)
    assert rc == 0, err
    r = json.loads((out / "report.json").read_text())
    assert [lp["pipelined"] for lp in r["loops"] if lp["source_line"] == 37] == [False]
    src = tmp_path / "t.cpp"
    src.write_text("namespace k {\ntemplate <int N> int acc(const int in[N]) {\n"
                   "#pragma HLS inline off\n  int s = 0;\n  for (int i = 0; i < N; i++) {\n"
                   "#pragma HLS pipeline II=2\n    s += in[i];\n  }\n  return s;\n}\n"
                   "int top(const int in[64]) { return acc<64>(in); }\n}\n")
    rc, _, err = _run(["synth", src, "--top", "k::top", "-o", tmp_path / "o2"], capsys)
    assert rc == 0, err
    assert f"{src}:3: warning: #pragma HLS inline off: ignored: a function-level pragma in a " \
           "C++ function template is not supported yet" in err
    r = json.loads((tmp_path / "o2" / "report.json").read_text())
    assert [(lp["function"], lp["ii"]) for lp in r["loops"]] == [("k::top", 2)]
    assert [(p["function"], p["applied"]) for p in r["pragmas"]] == [("k::acc", False),
                                                                     ("k::acc", True)]


def test_testbench_outside_the_headers_is_an_error(tmp_path, capsys):
    """A testbench that needs the compiled part of zig c++'s libc++ (not loaded by the
    native run) is an error naming the function, not a crash of the JIT."""
    src = tmp_path / "tbv.cpp"
    src.write_text("#include <vector>\n#include <stdio.h>\n"
                   "int f(const int a[8]) { int s = 0; for (int i = 0; i < 8; i++) s += a[i];"
                   " return s; }\n"
                   "int main() { std::vector<int> v(8); for (int i = 0; i < 8; i++) v[i] = i;"
                   " printf(\"%d\\n\", f(v.data())); return 0; }\n")
    rc, _, err = _run(["cosim", src, "--top", "f", "--tb", src, "--cc", "python -m ziglang cc",
                       "-o", tmp_path / "o"], capsys)
    assert rc == 1 and "Traceback" not in err
    (msg,) = err.splitlines()
    assert "capturing calls of f(int const*): the program calls 'std::" in msg, msg
    assert "which native execution cannot find" in msg


@pytest.mark.slow
def test_ap_int_ops_cosim(tmp_path, capsys):
    """Every ap_int operation of apint_ops.cpp (widths 1..64) in RTL against native
    execution on random operands (about a minute: slow, not in the regular run)."""
    k = CXX / "apint_ops.cpp"
    rc, so, err = _run(["cosim", k, "--top", "apint_ops", "--runs", "8", "-o", tmp_path / "o"],
                       capsys)
    assert rc == 0, err
    assert "co-simulation of apint_ops: 8 call(s)" in so and "PASSED" in so


def test_error_in_a_users_header_is_at_its_line(tmp_path, capsys, monkeypatch):
    """An error in the user's own header is at the header's line; one inside ap_int.h
    is at the user's line that used it (BAD: wide.cpp, mixed64.cpp)."""
    monkeypatch.chdir(tmp_path)
    Path("util.h").write_text("static inline int bad(int *p) {\n  return (int)(long)p;\n}\n")
    Path("k.c").write_text('#include "util.h"\nint f(int *a) {\n  return bad(a) + 1;\n}\n')
    rc, _, err = _run(["synth", "k.c", "--top", "f", "--depth", "a=4", "-o", "o"], capsys)
    assert rc == 1
    assert err.startswith("util.h:2: error: a pointer-to-integer conversion"), err


def test_method_top_calls_are_captured(tmp_path):
    """A member function as the top (an inline function: linkonce_odr, in a comdat named
    after it): the testbench's calls are captured from native execution."""
    from hls.verify import capture_tb_calls
    src = tmp_path / "mt.cpp"
    src.write_text("struct Acc {\n  int buf[8];\n  int total;\n  int run(int k) {\n"
                   "    for (int i = 0; i < 8; i++) { buf[i] += k * i; total += buf[i]; }\n"
                   "    return total;\n  }\n};\n"
                   "int main() {\n  Acc a = {{1, 2, 3, 4, 5, 6, 7, 8}, 0};\n  int s = 0;\n"
                   "  for (int r = 0; r < 3; r++) s += a.run(r + 1);\n  return s & 127;\n}\n")
    m = ir_module(str(src), SynthOptions(top="Acc::run"))     # this: one object
    assert m.top.name == "_ZN3Acc3runEi" and "comdat" in m.llvm_ir
    calls = capture_tb_calls(m.llvm_ir, m.top.name, {0: 36})
    assert [c.scalars[1] for c in calls] == [1, 2, 3]
    assert [c.ret for c in calls] == [64, 184, 388]


def test_wide_values_through_pointers_cosim(tmp_path, capsys):
    """What the error on a top's scalar argument or return value of more than 64 bits
    (``test_bad_cxx``: wide_ports.cpp, bitint96.c) tells the user to do instead: 128-bit
    add, xor and multiply by a constant on ``ap_uint<128>`` arrays, and a 96-bit
    ``_BitInt`` result, through the top's pointers, co-simulated against the testbench
    main on edge values (zero, all ones, the top bit, each half)."""
    k = CXX / "wide_ptr.cpp"
    depths = [x for a in ("a", "b", "out", "r96") for x in ("--depth", f"{a}=8")]
    rc, so, err = _run(["cosim", k, "--top", "wide_ptr", "--tb", k, *depths,
                        "-o", tmp_path / "o"], capsys)
    assert rc == 0, err
    assert "co-simulation of wide_ptr: 2 call(s)" in so and "PASSED" in so


def test_wide_ap_int_bit_operations_cosim(tmp_path, capsys):
    """Integers wider than 64 bits in the operations the datapath has for them (bitwise,
    shifts, add, sub, comparisons: ap_uint<100>, ap_int<90>, ap_int<64> against
    ap_uint<64>) co-simulate on random operands."""
    k = CXX / "ap_wide.cpp"
    rc, so, err = _run(["cosim", k, "--top", "ap_wide", "--runs", "8", "-o", tmp_path / "o"],
                       capsys)
    assert rc == 0, err
    assert "co-simulation of ap_wide: 8 call(s)" in so and "PASSED" in so

"""Tests of golden-result capture by native execution (hls.verify._golden) and of the C
compiler finder (hls.toolchain)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hls.errors import CosimError, ToolError  # noqa: E402
from hls.verify import (  # noqa: E402
    capture_tb_calls,
    compile_c_to_ll,
    find_c_compiler,
    random_calls,
    run_calls,
    run_main,
)
from hls.interface import MemoryPort, ScalarPort, TopInterface  # noqa: E402

TB_C = r"""
#include <stdint.h>
volatile uint32_t result_checksum;
int16_t table[4] = {1, 2, 3, 4};

int32_t scale(const int16_t *x, int16_t *y, int16_t k, uint8_t n)
{
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        y[i] = (int16_t)(x[i] * k + table[i & 3]);
        s += y[i];
    }
    return s;
}

static int16_t xs[8] = {10, -20, 30, -40, 50, -60, 70, -80};
static int16_t ys[8];

int main(void)
{
    uint32_t h = (uint32_t)scale(xs, ys, -3, 8);
    table[0] = 100;
    h = h * 31u + (uint32_t)scale(xs + 2, ys, 2, 3);
    result_checksum = h;
    return 7;
}
"""


def model(x: list[int], k: int, n: int, table: list[int]) -> tuple[list[int], int]:
    y, s = [], 0
    for i in range(n):
        v = (x[i] * k + table[i & 3]) & 0xFFFF
        v = v - 0x10000 if v & 0x8000 else v
        y.append(v)
        s += v
    return y, s & 0xFFFFFFFF


def i16(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 2], "little", signed=True) for i in range(0, len(data), 2)]


@pytest.fixture(scope="module")
def tb_ll(tmp_path_factory: pytest.TempPathFactory) -> str:
    d = tmp_path_factory.mktemp("golden")
    c = d / "tb.c"
    c.write_text(TB_C)
    return compile_c_to_ll(c, d / "tb.ll").read_text()


def test_find_c_compiler():
    argv = find_c_compiler()
    assert argv and isinstance(argv, list)
    with pytest.raises(ToolError):
        find_c_compiler("definitely-not-a-compiler-xyz")


def test_compile_error_is_tool_error(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("int f(void) { return nope; }\n")
    with pytest.raises(ToolError) as exc:
        compile_c_to_ll(bad, tmp_path / "bad.ll")
    assert "nope" in str(exc.value)
    assert "argument unused during compilation" not in str(exc.value)


def test_capture_tb_calls(tb_ll):
    calls = capture_tb_calls(tb_ll, "scale", {0: 16, 1: 16}, globals_={"table": 8})
    assert len(calls) == 2
    xs = [10, -20, 30, -40, 50, -60, 70, -80]
    c0, c1 = calls
    # raw bits, masked to the width
    assert c0.scalars == {2: (-3) & 0xFFFF, 3: 8}
    assert c1.scalars == {2: 2, 3: 3}
    assert i16(c0.mem_in[0]) == xs
    y0, s0 = model(xs, -3, 8, [1, 2, 3, 4])
    assert i16(c0.mem_out[1]) == y0
    assert c0.ret == s0
    assert c0.glob_in["table"] == c0.glob_out["table"]
    # second call: offset pointer; 16 bytes from xs + 2 would run into ys, the other
    # argument, so the range is cut where ys begins (12 bytes)
    assert len(c1.mem_in[0]) == 12
    assert i16(c1.mem_in[0])[:6] == xs[2:]
    assert i16(c1.mem_in[1]) == y0  # ys as left by call 0
    y1, s1 = model(xs[2:], 2, 3, [100, 2, 3, 4])
    assert i16(c1.mem_out[1])[:3] == y1 and i16(c1.mem_out[1])[3:] == y0[3:]
    assert c1.ret == s1
    assert i16(c1.glob_in["table"]) == [100, 2, 3, 4]


def test_run_main(tb_ll):
    ret, g = run_main(tb_ll, ["result_checksum", "ys"], [4, 16])
    assert ret == 7
    xs = [10, -20, 30, -40, 50, -60, 70, -80]
    y0, s0 = model(xs, -3, 8, [1, 2, 3, 4])
    y1, s1 = model(xs[2:], 2, 3, [100, 2, 3, 4])
    assert int.from_bytes(g["result_checksum"], "little") == (s0 * 31 + s1) & 0xFFFFFFFF
    assert i16(g["ys"]) == y1 + y0[3:]


def test_run_main_reads_no_byte_past_a_global():
    """A memory is rounded up to whole words (an 11-byte packed struct: four 4-byte
    words), but the golden must stop at the C object's end: the bytes after it belong to
    the next global (fuzzer, Csmith pointers seed 98: a false 'g_195[1].1' mismatch)."""
    ll = """
@packed = internal global <{ i8, i8, i8, i8, i8, i8, i8, i8, i8, i8, i8 }> <{ i8 1, i8 2, i8 3, i8 4, i8 5, i8 6, i8 7, i8 8, i8 9, i8 10, i8 11 }>, align 1
@next = internal global [8 x i8] c"\\ff\\ff\\ff\\ff\\ff\\ff\\ff\\ff", align 1
define i32 @main() {
  store i8 42, ptr @packed
  %p = getelementptr i8, ptr @next, i64 1
  store i8 7, ptr %p
  ret i32 0
}
"""
    ret, g = run_main(ll, ["packed", "next"], {"packed": 16, "next": 8})
    assert ret == 0
    assert g["packed"] == bytes([42, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    assert g["next"] == b"\xff\x07" + b"\xff" * 6


def test_random_calls_and_run_calls(tb_ll):
    iface = TopInterface(
        "scale", "scale",
        scalars=(ScalarPort("k", 2, 16, True), ScalarPort("n", 3, 8)),
        memories=(MemoryPort("x", 2, 8, 1, 0, elem_bytes=2),
                  MemoryPort("y", 2, 8, 1, 1, elem_bytes=2)),
        return_width=32,
    )
    ins = random_calls(iface, k=5, seed=42, fixed={3: 8})
    assert len(ins) == 5 and all(c.scalars[3] == 8 for c in ins)
    assert ins == random_calls(iface, k=5, seed=42, fixed={3: 8})  # deterministic
    assert all(len(c.mem_in[0]) == 16 for c in ins)
    outs = run_calls(tb_ll, "scale", ins)
    for cin, cout in zip(ins, outs):
        k = cin.scalars[2] - 0x10000 if cin.scalars[2] & 0x8000 else cin.scalars[2]
        y, s = model(i16(cin.mem_in[0]), k, 8, [1, 2, 3, 4])
        assert i16(cout.mem_out[1]) == y
        assert cout.ret == s
        assert cout.mem_in == cin.mem_in


def test_native_crash_is_cosim_error(tmp_path):
    c = tmp_path / "crash.c"
    c.write_text("void top(int *p, int n) { p[n] = 1; }\n"
                 "int main(void) { top((int *)0, 0); return 0; }\n")
    ll = compile_c_to_ll(c, tmp_path / "crash.ll").read_text()
    with pytest.raises(CosimError, match="crashed"):
        capture_tb_calls(ll, "top", {})


def test_native_hang_is_cosim_error(tmp_path):
    c = tmp_path / "hang.c"
    c.write_text("volatile int stop;\nint main(void) { while (!stop) {} return 0; }\n")
    ll = compile_c_to_ll(c, tmp_path / "hang.ll").read_text()
    with pytest.raises(CosimError, match="did not finish"):
        run_main(ll, [], [], timeout=3)


def test_missing_top_is_cosim_error(tb_ll):
    with pytest.raises(CosimError, match="nosuch"):
        capture_tb_calls(tb_ll, "nosuch", {})

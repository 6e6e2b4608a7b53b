"""Helpers shared by test modules (tests/ is on sys.path under pytest's rootdir import)."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import textwrap
from pathlib import Path

import pytest

from hls.errors import ToolError
from hls.ir import Block, Const, Function, MemoryObject, Module, Op, Param, PtrParam


def write_source(tmp_path: Path, name: str, text: str) -> Path:
    """``text`` dedented into ``tmp_path/name`` (a test's C source)."""
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"))
    return p


def line_of(path: Path, needle: str) -> int:
    """The line of ``path`` holding ``needle`` (tests never hard-code line numbers)."""
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


def assert_one_error(err: str, src: Path, needle: str, expect) -> None:
    """``err`` (a failed run's standard error) holds exactly one ``file:line: error:``, at
    the line of ``src`` holding ``needle``, with no traceback, and each of ``expect`` in
    it (``@@text@@`` in one: the line of ``src`` holding text)."""
    assert "Traceback" not in err
    line = [x for x in err.splitlines() if ": error: " in x]
    assert len(line) == 1, err
    assert line[0].startswith(f"{src.name}:{line_of(src, needle)}: error: "), err
    for s in expect:
        s = re.sub(r"@@(.+?)@@", lambda m: str(line_of(src, m.group(1))), s)
        assert s in line[0], line[0]


def need_cocotb() -> None:
    """Skip the calling test unless cocotb, cocotbext-axi and Verilator are usable."""
    try:
        import cocotb  # noqa: F401
        import cocotb_tools.runner  # noqa: F401
        import cocotbext.axi  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"cocotb/cocotbext-axi cannot be imported ({exc})")
    from hls.verify import find_verilator
    try:
        find_verilator()
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")


def assert_alveo_lint_clean(verilog: str, top: str) -> None:
    """Verilator lint of an Alveo top: no defects and no warnings beyond the documented
    stylistic classes (``interrupt`` is a reserved word in SystemVerilog only)."""
    from hls.verify import lint_verilog
    try:
        res = lint_verilog(verilog, top)
    except ToolError as exc:  # pragma: no cover
        pytest.skip(f"Verilator is not available: {exc}")
    problems = [m for m in res.problems if not (m.code == "SYMRSVDWORD" and "interrupt" in m.text)]
    assert not res.defects and not problems, res.summary()


# one stub for the three XRT headers, under an include guard: "#pragma once" would
# merge the three identical files only when GCC sees the same modification time on them
_XRT_STUB = """
#ifndef PYHLS_XRT_STUB_H
#define PYHLS_XRT_STUB_H
#include <cstddef>
#include <cstdint>
#include <string>
enum ert_cmd_state { ERT_CMD_STATE_COMPLETED = 4 };
enum xclBOSyncDirection { XCL_BO_SYNC_BO_TO_DEVICE, XCL_BO_SYNC_BO_FROM_DEVICE };
namespace xrt {
struct uuid {};
struct device { explicit device(unsigned) {} uuid load_xclbin(const std::string &) { return {}; } };
struct bo {
  bo(const device &, size_t n, int) : n_(n) {}
  template <typename T> T map() { return nullptr; }
  size_t size() const { return n_; }
  void sync(xclBOSyncDirection) {}
  size_t n_;
};
struct run { ert_cmd_state wait() { return ERT_CMD_STATE_COMPLETED; } };
struct kernel {
  enum class cu_access_mode { exclusive, shared };
  kernel(const device &, const uuid &, const std::string &,
         cu_access_mode = cu_access_mode::shared) {}
  int group_id(int) const { return 0; }
  uint32_t read_register(uint32_t) const { return 0; }
  template <typename... A> run operator()(A &&...) { return {}; }
};
}
#endif
"""


def assert_host_compiles(files: dict, tmp_path: Path) -> None:
    """``host.cpp`` of a written Vitis package (:func:`hls.package.write_vitis_package`'s
    files) compiles with g++ -Wall -Werror against a stub of the XRT headers."""
    inc = tmp_path / "xrt_stub_inc" / "xrt"
    inc.mkdir(parents=True, exist_ok=True)
    for h in ("xrt_bo.h", "xrt_device.h", "xrt_kernel.h"):
        (inc / h).write_text(_XRT_STUB)
    proc = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Werror",
                           f"-I{inc.parent}", f"-I{files['header'].parent}",
                           str(files["host"])], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


_NODES = (Module, Function, Block, Op, Param, PtrParam, MemoryObject)


def same(a, b) -> None:
    """Structural equality of two IR graphs: the same field values everywhere, and the same
    sharing (a node reached twice on one side is one node on the other; constants and
    frozen values such as Loc compare by value).  Iterative: operand chains are deep."""
    pair: dict[int, object] = {}
    work: list = []

    def eq(x, y, path: str) -> None:
        assert type(x) is type(y), f"{path}: {type(x).__name__} vs {type(y).__name__}"
        if isinstance(x, Const):
            assert (x.width, x.value, x.name) == (y.width, y.value, y.name), path
        elif isinstance(x, _NODES):
            if id(x) in pair:
                assert pair[id(x)] is y, f"{path}: sharing differs"
            else:
                pair[id(x)] = y
                work.append((x, y, path))
        elif isinstance(x, (list, tuple)):
            assert len(x) == len(y), f"{path}: {len(x)} vs {len(y)} items"
            for i, (u, v) in enumerate(zip(x, y)):
                eq(u, v, f"{path}[{i}]")
        elif isinstance(x, dict):
            assert list(x) == list(y), f"{path}: keys {list(x)} vs {list(y)}"
            for k in x:
                eq(x[k], y[k], f"{path}[{k!r}]")
        else:
            assert x == y, f"{path}: {x!r} vs {y!r}"

    eq(a, b, "module")
    while work:
        x, y, path = work.pop()
        for f in dataclasses.fields(x):
            eq(getattr(x, f.name), getattr(y, f.name), f"{path}.{f.name}")


# ---- a page in a real browser (report.html) -------------------------------------------

def chromium() -> str | None:
    """The headless browser the HTML report is checked in (``$PYHLS_CHROMIUM``, else
    ``chromium`` or ``chromium-browser`` on the PATH), or None."""
    import os
    import shutil
    env = os.environ.get("PYHLS_CHROMIUM")
    if env:
        return env
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclasses.dataclass(frozen=True)
class PageCheck:
    """What a browser made of a page: its DOM after the scripts ran, the console lines
    it logged, and the screenshot's pixels (height x width x channels)."""
    dom: str
    console: list[str]
    pixels: object


def load_page(page: Path, png: Path, width: int = 1000, height: int = 1000) -> PageCheck:
    """``page`` opened from disk in headless Chromium, with a screenshot into ``png``."""
    exe = chromium()
    if exe is None:
        raise ToolError("chromium is not installed")
    proc = subprocess.run(
        [exe, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=1", f"--screenshot={png}", f"--window-size={width},{height}", "--dump-dom",
         page.resolve().as_uri()], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 or not png.is_file():
        raise ToolError(f"chromium failed on {page} (exit {proc.returncode}):\n{proc.stderr[-2000:]}")
    console = [x for x in proc.stderr.splitlines() if ":CONSOLE" in x]
    return PageCheck(proc.stdout, console, png_pixels(png.read_bytes()))


def png_pixels(data: bytes):
    """The pixels of an 8-bit, non-interlaced greyscale/RGB/RGBA PNG as a numpy array
    (the five row filters of the PNG specification undone)."""
    import struct
    import zlib

    import numpy as np
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = head
    assert depth == 8 and interlace == 0 and ctype in (0, 2, 6), head
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), dtype=np.uint8).reshape(h, 1 + w * bpp)
    out = np.zeros((h, w * bpp), dtype=np.uint8)
    prev = np.zeros(w * bpp, dtype=np.int64)
    for y in range(h):
        f, row = raw[y, 0], raw[y, 1:].astype(np.int64)
        if f == 0:
            cur = row
        elif f == 2:
            cur = (row + prev) & 255
        elif f == 1:      # Sub: a running sum per channel
            cur = (np.cumsum(row.reshape(w, bpp), axis=0) & 255).reshape(-1)
        else:             # Average, Paeth: each byte needs the one to its left
            cur = row.copy()
            for i in range(w * bpp):
                a = cur[i - bpp] if i >= bpp else 0
                b = prev[i]
                if f == 3:
                    cur[i] = (row[i] + (a + b) // 2) & 255
                else:
                    c = prev[i - bpp] if i >= bpp else 0
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                    cur[i] = (row[i] + pred) & 255
        out[y] = cur
        prev = cur
    return out.reshape(h, w, bpp)

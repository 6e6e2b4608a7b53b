"""Helpers shared by test modules (tests/ is on sys.path under pytest's rootdir import)."""

from __future__ import annotations

import pytest

from hls.errors import ToolError


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

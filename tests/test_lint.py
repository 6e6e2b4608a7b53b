"""Generated Verilog passes ``verilator --lint-only -Wall``: no errors, and no warning
class outside the stylistic list of :mod:`hls.verify._lint` (whose docstring says why each
is a habit of the Yosys Verilog writer, not a defect).

Kernels from the shared suite (``/work/shared/kernels``, or ``$PYHLS_KERNELS``; skipped
when absent) and the hand-written IR of ``tests/ops_ll.py``.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ops_ll import CTL_DEPTHS, MEM_DEPTHS, OPS_TOPS, ctl_ll, mem_ll, ops_ll  # noqa: E402

from hls.errors import ToolError  # noqa: E402
from hls.flow import SynthOptions, synthesize  # noqa: E402
from hls.verify import find_verilator  # noqa: E402
from hls.verify import DEFECTS, STYLISTIC, lint_verilog  # noqa: E402

try:
    find_verilator()
except ToolError:  # pragma: no cover
    pytest.skip("Verilator is not available", allow_module_level=True)

KERNELS = Path(os.environ.get("PYHLS_KERNELS", "/work/shared/kernels"))

#: kernel -> depth overrides (else the manifest's)
KERNEL_CASES = {
    "adler32_bytes": {"buf": 400},
    "noinline_helpers": {"x": 96, "y": 96, "e": 1},
    "struct_records": {"r": 24},
    "fft8_dif_q12": None,
    "hist_cdf_u8": {"img": 512, "eq": 512, "hist": 64},
}


def _kernel(name: str):
    c = KERNELS / f"{name}.c"
    man = KERNELS / f"{name}.json"
    if not c.exists() or not man.exists():
        pytest.skip(f"kernel {name} not found under {KERNELS}")
    m = json.loads(man.read_text())
    depth = KERNEL_CASES[name] or {k: v["depth"] for k, v in m["args"].items()}
    return c, m["top"], depth


def _assert_clean(res, what: str) -> None:
    defects = res.defects
    assert not defects, f"{what}: defect warnings\n" + "\n".join(map(str, defects))
    assert res.clean, f"{what}: {res.summary()}"


def test_lists_are_disjoint():
    assert not (STYLISTIC & DEFECTS)


def test_lint_catches_defects():
    """The classifier sees a real problem (a latch) and skips stylistic ones."""
    bad = (
        "module bad(input wire clk, input wire a, input wire en, output reg q);\n"
        "  always @* if (en) q = a;\n"
        "endmodule\n"
    )
    res = lint_verilog(bad, "bad")
    assert not res.clean
    assert [m.code for m in res.defects] == ["LATCH"], res.output
    assert [m.code for m in res.problems] == ["LATCH"], res.output
    assert res.of("UNUSEDSIGNAL")  # clk: seen, but stylistic


@pytest.mark.parametrize("name", list(KERNEL_CASES))
def test_kernel_lint(name):
    c, top, depth = _kernel(name)
    res = synthesize(c, SynthOptions(top=top, depth=depth))
    lint = lint_verilog(res.verilog, res.interface.module_name)
    _assert_clean(lint, name)
    _check_width_warnings(lint, name)


@pytest.mark.parametrize("which", ["mem", "ctl", *OPS_TOPS])
def test_ops_ll_lint(which, tmp_path):
    if which in OPS_TOPS:
        text, slots = ops_ll()
        top, depth = which, {"out": len(slots[which])}
    else:
        text, top, depth = (mem_ll(), "memk", MEM_DEPTHS) if which == "mem" else \
            (ctl_ll(), "ctl", CTL_DEPTHS)
    p = tmp_path / f"{which}.ll"
    p.write_text(text)
    res = synthesize(p, SynthOptions(top=top, depth=dict(depth)))
    lint = lint_verilog(res.verilog, res.interface.module_name)
    _assert_clean(lint, top)
    _check_width_warnings(lint, top)


# WIDTH* warnings whose offending expression is one of these shapes are known and benign:
# a minimal-width constant operand, the divider's deliberate zero extension of the
# divisor (in each of its k chained restoring steps), ``!x`` for ``x == 0``, a
# zero-extended narrow operand of an add whose result is wider (RTLIL $add with mixed
# widths; also address offsets added to a narrower address), and a left shift by a
# variable amount, whose Amaranth result is ``width + 2**bits(amount) - 1`` bits wide (the
# operand is zero-extended to it, then the IR's result width is sliced off).
_BENIGN_WIDTH = [
    re.compile(r"\d+'s?[hdbo][0-9a-fA-F_]+"),            # a sized constant anywhere
    re.compile(r"= [^;]+ << [\w\\$\[\]: ]+;"),
    re.compile(r"assign diff(_\d+)? = \{ acc(_next_\d+)?, quo\[\d+\] \} - den;"),
    re.compile(r"= ! [\w$\\ ]+;"),
    re.compile(r"= [\w\\$\[\]: ]+ \+ [\w\\$\[\]: ]+;"),
    re.compile(r"= \{ [\w\[\]:, ]+ \} \+ [\w\\$\[\]: ]+;"),
]


def _check_width_warnings(lint, what: str) -> None:
    odd = [m for m in lint.of("WIDTHEXPAND") + lint.of("WIDTHTRUNC")
           if not any(p.search(m.source) for p in _BENIGN_WIDTH)]
    assert not odd, f"{what}: unexpected width warnings\n" + "\n".join(map(str, odd))

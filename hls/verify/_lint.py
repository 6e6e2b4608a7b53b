"""``verilator --lint-only -Wall`` over generated Verilog, with the warning classes that
are stylistic in this flow's output kept apart from the ones that mean a defect.

The Verilog comes from Amaranth's back end, which goes through Yosys's RTLIL and its
Verilog writer.  That writer produces correct but unidiomatic Verilog, and ``-Wall`` flags
some of its habits everywhere.  The classes in :data:`STYLISTIC` are those habits:

* ``WIDTHEXPAND`` / ``WIDTHTRUNC`` -- the writer prints each constant at its minimal width
  (``state == 2'h3`` against a 4-bit ``state``, ``x + 13'h1000``) and relies on Verilog's
  context-determined widths, i.e. zero/sign extension of an operand to the width of the
  expression, which is exactly the RTLIL cell semantics.  Amaranth also emits
  ``idle = !state`` for ``state == 0`` (a logical not of a multi-bit value: WIDTHTRUNC),
  and ``{acc, q} - den`` in the divider deliberately zero-extends ``den``.  Operand widths
  of pyhls's own datapath are made explicit by the IR (zext/sext/trunc ops), so the
  implicit extensions are the writer's, not lost bits.
* ``CASEINCOMPLETE`` -- ``casez`` on the FSM state without a ``default``: the writer
  emits the default assignment before the ``case`` (so no latch is inferred).
* ``CASEOVERLAP`` -- ``casez`` on the one-hot FSM state (:class:`hls.rtl.StateRegister`):
  each case tests its state's bit and leaves the others don't-care, so as patterns they
  overlap (``4'b??1?`` and ``4'b?1??`` both match ``4'b0110``), while the register holds
  one set bit in every reachable state; the case is marked ``parallel_case``.
* ``UNUSEDSIGNAL`` -- the writer keeps every named Amaranth signal (unused bits of a
  load's read port, debug-friendly copies of ports, unused outputs of a shared unit).
* ``PROCASSINIT`` -- ``reg x = 32'd0;`` declarations (the Amaranth ``init`` value, also
  written as an ``(* init *)`` attribute) of registers that processes then assign.
* ``VARHIDDEN`` -- a name in an inner scope repeating a module-level one.  Not produced
  by the current output; listed because the writer's numbered ``\\$n`` temporaries and
  per-module port copies can collide that way without any effect on the netlist.
* ``DECLFILENAME`` -- the file is not named after its first module (several modules per
  file, files named by the flow).

Defect classes (:data:`DEFECTS`) must never appear: ``MULTIDRIVEN``, ``LATCH``,
``UNOPTFLAT`` (a combinational loop), ``UNDRIVEN``, ``COMBDLY``, ``BLKANDNBLK``,
``IMPLICIT``, ``SELRANGE``.  Any warning class outside :data:`STYLISTIC` makes a
:class:`LintResult` not ``clean``, and so does any ``%Error`` other than Verilator's final
"Exiting due to N warning(s)".
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..toolchain import find_verilator

__all__ = ["STYLISTIC", "DEFECTS", "LintMessage", "LintResult", "lint_verilog"]

#: warning classes that are habits of the Verilog writer, not defects (see module doc)
STYLISTIC: frozenset[str] = frozenset({
    "WIDTHEXPAND", "WIDTHTRUNC", "CASEINCOMPLETE", "CASEOVERLAP", "UNUSEDSIGNAL",
    "PROCASSINIT", "VARHIDDEN", "DECLFILENAME",
})

#: warning classes that always mean a defect of the generated hardware
DEFECTS: frozenset[str] = frozenset({
    "MULTIDRIVEN", "LATCH", "UNOPTFLAT", "UNDRIVEN", "COMBDLY", "BLKANDNBLK", "IMPLICIT",
    "SELRANGE",
})

_MSG = re.compile(r"^%(Warning|Error)(?:-([A-Z0-9_]+))?: (?:([^:\s]+):(\d+):(\d+): )?(.*)$")
_EXITING = re.compile(r"Exiting due to \d+ (?:warning|error)")


@dataclass(frozen=True)
class LintMessage:
    severity: str            # "Warning" | "Error"
    code: str                # warning class ('' for a plain %Error)
    line: int | None         # line in the linted text
    text: str                # the message
    source: str = ""         # the offending source line, stripped

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"%{self.severity}-{self.code or '?'}: {where}{self.text}" + (
            f"\n    {self.source}" if self.source else "")


@dataclass
class LintResult:
    messages: list[LintMessage] = field(default_factory=list)
    returncode: int = 0
    output: str = ""

    @property
    def counts(self) -> Counter:
        """Warning class -> number of messages (errors count under ``"ERROR"``)."""
        return Counter(m.code if m.severity == "Warning" else "ERROR" for m in self.messages)

    @property
    def problems(self) -> list[LintMessage]:
        """Errors, and warnings of any class outside :data:`STYLISTIC`."""
        return [m for m in self.messages
                if m.severity == "Error" or m.code not in STYLISTIC]

    @property
    def defects(self) -> list[LintMessage]:
        return [m for m in self.messages if m.code in DEFECTS]

    @property
    def clean(self) -> bool:
        return not self.problems

    def of(self, code: str) -> list[LintMessage]:
        return [m for m in self.messages if m.code == code]

    def summary(self) -> str:
        lines = [f"verilator --lint-only -Wall: {dict(sorted(self.counts.items()))}"]
        lines += [str(m) for m in self.problems[:30]]
        return "\n".join(lines)


def lint_verilog(text: str, top: str | None = None, *, timeout: float = 300.0) -> LintResult:
    """Run ``verilator --lint-only -Wall`` on the Verilog ``text`` (top module ``top``, else
    Verilator's choice) and classify its messages."""
    vl = find_verilator()
    src_lines = text.splitlines()
    with tempfile.TemporaryDirectory(prefix="pyhls-lint-") as d:
        path = Path(d) / "design.v"
        path.write_text(text)
        args = ["--lint-only", "-Wall", "--error-limit", "100000"]
        if top:
            args += ["--top-module", top]
        args.append(str(path))
        proc = subprocess.run([vl.exe, *args], env=vl.env(), capture_output=True, text=True,
                              errors="replace", timeout=timeout, cwd=d)
    out = (proc.stdout or "") + (proc.stderr or "")
    res = LintResult(returncode=proc.returncode, output=out)
    for raw in out.splitlines():
        m = _MSG.match(raw)
        if not m:
            continue
        sev, code, _file, line, _col, msg = m.groups()
        if sev == "Error" and not code and _EXITING.search(msg):
            continue
        ln = int(line) if line else None
        src = src_lines[ln - 1].strip() if ln and 0 < ln <= len(src_lines) else ""
        res.messages.append(LintMessage(sev, code or "", ln, msg.strip(), src))
    return res

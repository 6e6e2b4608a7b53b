"""``report.json["timing"]`` from a place-and-route result, with its critical path mapped
back to the generated Verilog's signals and the C source lines they carry.

nextpnr names a routed net after the Yosys net it implements; Yosys keeps the names of the
Verilog wires and builds the names of cells and internal nets from them
(``v12_add_CCU2C_S1_B1``), flattened with the instance path (``pipe.v3_mul[7]``).  So each
routing segment is matched to the longest wire name of the generated Verilog that its last
path component starts with; FSMD and pipeline wires carry ``(* hls_src = "file:line" *)``
(``hls.rtl.src_attrs``), which gives the C line.  Wires without it are control: ``state``
(the FSM state register), ``pl_<loop>_valid``/``_slot`` (a pipeline controller), ``r<k>``
(a bound register), memory ports.
"""

from __future__ import annotations

import re

from ._flow import PnrResult

__all__ = ["critical_path_summary", "stage_base", "timing_line", "timing_report", "verilog_sources"]

_ATTR_WIRE = re.compile(r'\(\*\s*hls_src\s*=\s*"([^"]*)"\s*\*\)\s*\n\s*(?:wire|reg|input|output)\s*'
                        r'(?:signed\s*)?(?:\[[^\]]*\]\s*)?([A-Za-z_\\][^\s;=]*)')
_DECL = re.compile(r'^\s*(?:wire|reg|input|output)\s+(?:signed\s*)?(?:\[[^\]]*\]\s*)?'
                   r'([A-Za-z_\\][^\s;=]*)', re.M)


def verilog_sources(verilog: str) -> tuple[dict[str, str], frozenset[str]]:
    """(wire name -> ``hls_src`` "file:line", every declared signal name) of a Verilog text.
    A name declared with different sources in several modules keeps the first."""
    srcs: dict[str, str] = {}
    for m in _ATTR_WIRE.finditer(verilog):
        srcs.setdefault(m.group(2).lstrip("\\"), m.group(1))
    names = frozenset(m.group(1).lstrip("\\") for m in _DECL.finditer(verilog))
    return srcs, names


def stage_base(sig: str) -> str:
    """The signal a pipeline stage's copy of a value is named after (``v3_add_s2`` ->
    ``v3_add``): the wire that carries the op's own value and C line."""
    return re.sub(r"_s\d+$", "", sig)


def _signal_of(net: str, names: frozenset[str]) -> str | None:
    """The Verilog signal a nextpnr net is named after (longest declared prefix of its
    last hierarchical component), or None for a net Yosys made up (``$abc$...``)."""
    base = re.sub(r"\[\d+\]$", "", net.split(".")[-1].lstrip("\\"))
    if base.startswith("$"):
        return None
    if base in names:
        return base
    # Yosys appends "_<suffix>" to a wire's name: try the prefixes ending before a "_"
    for k in range(len(base) - 1, 0, -1):
        if base[k] == "_" and base[:k] in names:
            return base[:k]
    return None


def critical_path_summary(result: PnrResult, verilog: str) -> dict:
    """The critical path in the design's own terms: total delay, logic and routing shares,
    the generated signals it runs through (in order, with the C line where known) and the
    C source lines."""
    srcs, names = verilog_sources(verilog)
    signals: list[dict] = []
    lines: list[str] = []
    logic = routing = 0.0
    for seg in result.critical_path:
        if seg["type"] == "routing":
            routing += seg["delay"]
        else:
            logic += seg["delay"]
        for end in (seg.get("net"), seg["from"].rsplit(".", 1)[0]):
            if not end:
                continue
            sig = _signal_of(end, names)
            if sig is None or (signals and signals[-1]["signal"] == sig):
                continue
            entry = {"signal": sig}
            if sig not in srcs:     # a pipeline stage copy (v3_add_s2) carries v3_add's line
                base = stage_base(sig)
                if base in srcs:
                    srcs[sig] = srcs[base]
            if sig in srcs:
                entry["source"] = srcs[sig]
                if srcs[sig] not in lines:
                    lines.append(srcs[sig])
            if sig == "state":
                entry["role"] = "FSM state register"
            elif re.fullmatch(r"pl_.*_(valid|slot|first)", sig):
                entry["role"] = "pipeline controller"
            signals.append(entry)
    return {"delay_ns": result.path_delay_ns, "logic_ns": round(logic, 3),
            "routing_ns": round(routing, 3), "segments": len(result.critical_path),
            "through": signals, "source_lines": lines}


def timing_report(result: PnrResult, verilog: str, fmax_estimated_mhz: float | None) -> dict:
    """``report.json["timing"]``."""
    clock_mhz = 1000.0 / result.clock_ns
    return {
        "clock_ns": result.clock_ns,
        "clock_mhz": round(clock_mhz, 3),
        "fmax_mhz_estimated": fmax_estimated_mhz,
        "fmax_mhz": result.fmax_mhz,
        "met": result.met,
        "flow": result.flow,
        "device": result.device,
        "tools": result.tools,
        "critical_path": critical_path_summary(result, verilog),
        "utilisation": result.utilisation,
        "cells": result.cells,
        "seed": result.seed,
        # every placement tried (``--pnr-seeds``), in order: the first that met, else all
        "seeds": [{"seed": s, "fmax_mhz": f} for s, f in result.tries] or
                 [{"seed": result.seed, "fmax_mhz": result.fmax_mhz}],
    }


def timing_line(timing: dict, top: str) -> str:
    """One line for the user: met, or missed with the path and the clock reached."""
    cp = timing["critical_path"]
    where = ", ".join(cp["source_lines"][:4]) or " -> ".join(s["signal"] for s in cp["through"][:4])
    tries = timing.get("seeds", [])
    seed = "" if len(tries) < 2 else (
        f", nextpnr seed {timing['seed']}; placements tried: "
        + ", ".join(f"{t['fmax_mhz']:.1f}" if t["fmax_mhz"] else "-" for t in tries) + " MHz")
    if timing["met"]:
        return (f"timing met after place and route: {timing['fmax_mhz']:.1f} MHz >= "
                f"{timing['clock_mhz']:.1f} MHz ({timing['device']}{seed})")
    return (f"timing NOT met after place and route: {top} reaches {timing['fmax_mhz']:.1f} MHz, "
            f"not {timing['clock_mhz']:.1f} MHz ({timing['device']}{seed}); critical path "
            f"{cp['delay_ns']:.2f} ns through {where or 'control logic'}")
